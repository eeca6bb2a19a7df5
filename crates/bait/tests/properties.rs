//! Property tests on random small levels: the compiled Bait rules equal the general VGDL
//! interpreter state by state; A* finds the same shortest win as breadth-first search over the
//! interpreter; the push bound never exceeds the exact distance to a win of any reachable state
//! (nor calls a winnable state lost); the score bound is never below the best win from any
//! reachable state; the max-score solver equals an exhaustive enumeration of reachable states,
//! on mirror-symmetric levels too.

use bait::bound::PushBound;
use bait::score_bound::ScoreBound;
use bait::sim::{step, step_general, Action};
use bait::solve::{max_score, shortest};
use bait::state::{Outcome, State};
use bait::symmetry::Symmetries;
use bait::{Level, DEFAULT_GAME};
use proptest::prelude::*;
use search_core::hash::{FastMap, FastSet};
use std::collections::VecDeque;

fn level_text() -> impl Strategy<Value = String> {
    level_text_with(3usize..7, 3, |roll| match roll {
        0..=3 => ' ',
        4 => 'w',
        5 | 6 => '0',
        7 | 8 => '1',
        _ => 'm',
    })
}

/// Narrow levels crowded with holes and up to five boxes: chains of holes that several boxes
/// must fill one after another through the same cell (the case the push bound's crossing rule
/// is about).
fn hole_chain_text() -> impl Strategy<Value = String> {
    level_text_with(2usize..5, 5, |roll| match roll {
        0..=2 => ' ',
        3 => 'w',
        4..=6 => '0',
        _ => '1',
    })
}

/// The random levels of [`level_text`] without their outer walls: the grid's edge is then the
/// only border (the push bound must not count on wall rows around the level).
fn borderless_text() -> impl Strategy<Value = String> {
    level_text().prop_map(|text| {
        let lines: Vec<&str> = text.lines().collect();
        lines[1..lines.len() - 1]
            .iter()
            .map(|l| &l[1..l.len() - 1])
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Levels symmetric about their middle column (but for the avatar, whose mirror copy is
/// dropped): a random level without its right-hand wall, then its mirror image without that
/// middle column. Most have two keys and two goals, a case the other levels never have.
fn mirrored_text() -> impl Strategy<Value = String> {
    level_text_with(2usize..4, 1, |roll| match roll {
        0..=4 => ' ',
        5 => 'w',
        6 | 7 => '0',
        8 => '1',
        _ => 'm',
    })
    .prop_map(|text| {
        text.lines()
            .map(|l| {
                // The last column of `half` is the middle one.
                let half = &l[..l.len() - 1];
                let mirror: String = half[..half.len() - 1]
                    .chars()
                    .rev()
                    .map(|c| if c == 'A' { ' ' } else { c })
                    .collect();
                format!("{half}{mirror}")
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// Random levels of `rows` interior rows and 3..7 columns, cells drawn by `cell_of` from a roll in
/// 0..10, at most `max_boxes` boxes, avatar, key and goal on distinct interior cells.
fn level_text_with(
    rows: std::ops::Range<usize>,
    max_boxes: usize,
    cell_of: fn(u8) -> char,
) -> impl Strategy<Value = String> {
    (
        rows,
        3usize..8,
        prop::collection::vec(0u8..10, 60),
        any::<u64>(),
    )
        .prop_map(move |(h, w, cells, seed)| {
            let mut grid = vec![vec!['w'; w + 2]; h + 2];
            let mut k = 0;
            for row in grid.iter_mut().take(h + 1).skip(1) {
                for cell in row.iter_mut().take(w + 1).skip(1) {
                    *cell = cell_of(cells[k % cells.len()]);
                    k += 1;
                }
            }
            // Few boxes, so that exhaustive searches stay small.
            let mut boxes = 0;
            for row in grid.iter_mut() {
                for cell in row.iter_mut() {
                    if *cell == '1' {
                        boxes += 1;
                        if boxes > max_boxes {
                            *cell = ' ';
                        }
                    }
                }
            }
            // Place avatar, key and goal on distinct interior cells.
            let n = h * w;
            let pick = |i: u64| ((seed >> (i * 16)) as usize % n, 0);
            let mut used = Vec::new();
            for (i, ch) in ['A', 'k', 'g'].into_iter().enumerate() {
                let (mut p, _) = pick(i as u64);
                while used.contains(&p) {
                    p = (p + 1) % n;
                }
                used.push(p);
                grid[1 + p / w][1 + p % w] = ch;
            }
            grid.iter()
                .map(|r| r.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("\n")
        })
}

fn level(text: &str) -> Level {
    Level::parse(DEFAULT_GAME.parse().unwrap(), text).unwrap()
}

fn bfs_shortest(l: &Level) -> Option<usize> {
    let mut seen = FastSet::default();
    let mut q = VecDeque::from([(l.initial, 0usize)]);
    seen.insert(l.initial);
    while let Some((s, d)) = q.pop_front() {
        if s.outcome == Outcome::Won {
            return Some(d);
        }
        if s.over() {
            continue;
        }
        for a in Action::MOVES {
            let n = step_general(l, &s, a);
            if seen.insert(n) {
                q.push_back((n, d + 1));
            }
        }
    }
    None
}

/// Largest state space the exhaustive checks enumerate; random levels with more states (rare,
/// but some take minutes) are skipped.
const EXHAUSTIVE_CAP: usize = 400_000;

/// Every state reachable from the start under `rules`, with each state's predecessors (by
/// index); `None` when there are more than [`EXHAUSTIVE_CAP`] states.
fn reachable_graph(
    l: &Level,
    rules: fn(&Level, &State, Action) -> State,
) -> Option<(Vec<State>, Vec<Vec<usize>>)> {
    let mut index: FastMap<State, usize> = FastMap::default();
    let mut states = vec![l.initial];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new()];
    index.insert(l.initial, 0);
    let mut k = 0;
    while k < states.len() {
        if states.len() > EXHAUSTIVE_CAP {
            return None;
        }
        let s = states[k];
        if !s.over() {
            for a in Action::MOVES {
                let n = rules(l, &s, a);
                let j = *index.entry(n).or_insert_with(|| {
                    states.push(n);
                    preds.push(Vec::new());
                    states.len() - 1
                });
                preds[j].push(k);
            }
        }
        k += 1;
    }
    Some((states, preds))
}

/// Every reachable state with its exact number of actions to a win (`None`: no win from it)
/// under the given rules (`step`: the compiled rules the searches use, `step_general`: the
/// interpreter); `None` when there are more than [`EXHAUSTIVE_CAP`] states.
fn distances_to_win_by(
    l: &Level,
    rules: fn(&Level, &State, Action) -> State,
) -> Option<Vec<(State, Option<usize>)>> {
    let (states, preds) = reachable_graph(l, rules)?;
    let mut dist = vec![None; states.len()];
    let mut q = VecDeque::new();
    for (i, s) in states.iter().enumerate() {
        if s.outcome == Outcome::Won {
            dist[i] = Some(0);
            q.push_back(i);
        }
    }
    while let Some(i) = q.pop_front() {
        for &p in &preds[i] {
            if dist[p].is_none() {
                dist[p] = dist[i].map(|d| d + 1);
                q.push_back(p);
            }
        }
    }
    Some(states.into_iter().zip(dist).collect())
}

/// Every reachable state with the best final score of a win reachable from it (`None`: no
/// win), under the compiled rules; `None` when there are more than [`EXHAUSTIVE_CAP`] states.
fn best_win_from_each(l: &Level) -> Option<Vec<(State, Option<i32>)>> {
    let (states, preds) = reachable_graph(l, step)?;
    // Wins from the highest score down: each state takes the first (best) score that reaches
    // it backwards.
    let mut wins: Vec<usize> = (0..states.len())
        .filter(|&i| states[i].outcome == Outcome::Won)
        .collect();
    wins.sort_by_key(|&i| std::cmp::Reverse(states[i].score));
    let mut best = vec![None; states.len()];
    for w in wins {
        if best[w].is_some() {
            continue;
        }
        let score = states[w].score;
        best[w] = Some(score);
        let mut stack = vec![w];
        while let Some(i) = stack.pop() {
            for &p in &preds[i] {
                if best[p].is_none() {
                    best[p] = Some(score);
                    stack.push(p);
                }
            }
        }
    }
    Some(states.into_iter().zip(best).collect())
}

/// The best final score of a win over every reachable state (`Err` when there are more than
/// [`EXHAUSTIVE_CAP`] states).
fn exhaustive_max_score(l: &Level) -> Result<Option<i32>, ()> {
    let mut seen: FastSet<State> = FastSet::default();
    let mut stack = vec![l.initial];
    seen.insert(l.initial);
    let mut best = None;
    while let Some(s) = stack.pop() {
        if seen.len() > EXHAUSTIVE_CAP {
            return Err(());
        }
        if s.outcome == Outcome::Won {
            best = best.max(Some(s.score));
            continue;
        }
        if s.over() {
            continue;
        }
        for a in Action::MOVES {
            let n = step_general(l, &s, a);
            if seen.insert(n) {
                stack.push(n);
            }
        }
    }
    Ok(best)
}

/// `max_score` gives the exhaustive search's maximum, and its plan replays to a win with that
/// score. A rare random level has millions of states and needs many bounded searches (one per
/// score between the shortest win's and the upper bound); such cases are skipped so that the
/// test's time stays predictable (a run of these tests once took minutes).
fn assert_max_score_exact(text: &str) -> Result<(), TestCaseError> {
    let l = level(text);
    let (best, plan) = max_score(&l, &search_core::Limits::nodes(500_000));
    prop_assume!(plan.stopped.is_none());
    let truth = exhaustive_max_score(&l);
    prop_assume!(truth.is_ok());
    prop_assert_eq!(best, truth.unwrap(), "{}", text);
    if let Some(b) = best {
        let last = *bait::sim::play(&l, &plan.actions).last().unwrap();
        prop_assert_eq!((last.outcome, last.score), (Outcome::Won, b));
    }
    Ok(())
}

/// The score bound of every reachable state from which a win exists is at least the best
/// final score of such a win (and never `None`: "cannot be won").
fn assert_score_bound_sound(text: &str) -> Result<(), TestCaseError> {
    let l = level(text);
    let bound = ScoreBound::new(&l).unwrap();
    let all = best_win_from_each(&l);
    prop_assume!(all.is_some());
    for (s, best) in all.unwrap() {
        match (bound.bound(&s), best) {
            (Some(b), Some(w)) => prop_assert!(b >= w, "{}\n{:?}: bound {} < {}", text, s, b, w),
            (None, Some(w)) => {
                prop_assert!(false, "{}\n{:?}: called unwinnable, wins {}", text, s, w)
            }
            _ => {}
        }
    }
    Ok(())
}

/// The push bound of every reachable state is at most its exact distance to a win, and it never
/// calls a winnable state lost.
fn assert_bound_admissible(text: &str) -> Result<(), TestCaseError> {
    assert_bound_admissible_by(text, step_general).map(|_| ())
}

/// [`assert_bound_admissible`] with exact distances under the given rules; returns the initial
/// state's exact distance to a win.
fn assert_bound_admissible_by(
    text: &str,
    rules: fn(&Level, &State, Action) -> State,
) -> Result<Option<usize>, TestCaseError> {
    let l = level(text);
    let bound = PushBound::new(&l).unwrap();
    let distances = distances_to_win_by(&l, rules);
    prop_assume!(distances.is_some());
    let distances = distances.unwrap();
    for &(s, truth) in &distances {
        match (bound.estimate(&s), truth) {
            (Some(b), Some(d)) => {
                prop_assert!(b as usize <= d, "{}\n{:?}: bound {} > {}", text, s, b, d)
            }
            (None, Some(d)) => {
                prop_assert!(false, "{}\n{:?}: called unwinnable, wins in {}", text, s, d)
            }
            _ => {}
        }
    }
    Ok(distances[0].1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn compiled_rules_equal_the_interpreter(text in level_text(), actions in prop::collection::vec(0usize..5, 0..60)) {
        let l = level(&text);
        prop_assert!(l.fast.is_some());
        let mut s = l.initial;
        for a in actions {
            let a = [Action::Up, Action::Down, Action::Left, Action::Right, Action::Nil][a];
            let fast = step(&l, &s, a);
            let slow = step_general(&l, &s, a);
            prop_assert_eq!(fast, slow, "{}\nafter {:?}", text, a);
            prop_assert_eq!(fast.tick, slow.tick);
            s = fast;
        }
    }

    #[test]
    fn astar_equals_breadth_first(text in level_text()) {
        let l = level(&text);
        let plan = shortest(&l, &search_core::Limits::none());
        let truth = bfs_shortest(&l);
        prop_assert_eq!((!plan.actions.is_empty()).then_some(plan.actions.len()), truth, "{}", text);
        if !plan.actions.is_empty() {
            let last = *bait::sim::play(&l, &plan.actions).last().unwrap();
            prop_assert_eq!(last.outcome, Outcome::Won);
        }
    }

    #[test]
    fn push_bound_never_overestimates(text in level_text()) {
        assert_bound_admissible(&text)?;
    }

    #[test]
    fn push_bound_never_overestimates_on_hole_chains(text in hole_chain_text()) {
        assert_bound_admissible(&text)?;
    }

    /// Without outer walls the grid's edge is the border. The compiled rules treat it as a wall
    /// (a box cannot be pushed off the grid); the general interpreter leaves such a box in
    /// place and lets the avatar step onto it (the two agree on every walled level, which is
    /// all the homework has), so here the exact distances come from the compiled rules, which
    /// are also what the searches use.
    #[test]
    fn push_bound_never_overestimates_without_border_walls(text in borderless_text()) {
        let truth = assert_bound_admissible_by(&text, step)?;
        let l = level(&text);
        let plan = shortest(&l, &search_core::Limits::none());
        prop_assert_eq!((!plan.actions.is_empty()).then_some(plan.actions.len()), truth, "{}", text);
    }

    #[test]
    fn score_bound_is_never_below_the_best_win(text in level_text()) {
        assert_score_bound_sound(&text)?;
    }

    #[test]
    fn score_bound_is_never_below_the_best_win_on_hole_chains(text in hole_chain_text()) {
        assert_score_bound_sound(&text)?;
    }

    #[test]
    fn max_score_equals_exhaustive_search(text in level_text()) {
        assert_max_score_exact(&text)?;
    }
}

proptest! {
    // Mirrored levels are twice as wide, and their exhaustive enumerations larger.
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn score_bound_is_never_below_the_best_win_on_symmetric_levels(text in mirrored_text()) {
        assert_score_bound_sound(&text)?;
    }

    /// The maximum-score search keys its table by the least mirror image of a state.
    #[test]
    fn max_score_equals_exhaustive_search_on_symmetric_levels(text in mirrored_text()) {
        prop_assert!(!Symmetries::of(&level(&text)).is_empty(), "{}", text);
        assert_max_score_exact(&text)?;
    }
}

#[test]
fn description_errors_name_the_line() {
    let err = |t: &str| t.parse::<bait::vgdl::Game>().unwrap_err().to_string();
    assert_eq!(err("Game\n"), "1: expected `BasicGame`, found `Game`");
    assert_eq!(
        err("BasicGame\n  SpriteSet\n    a > Flicker\n"),
        "3: sprite class `Flicker` is not supported"
    );
    assert_eq!(
        err("BasicGame\n  SpriteSet\n    a > Immovable\n  InteractionSet\n    a wall > teleportToExit\n"),
        "5: effect `teleportToExit` is not supported"
    );
    assert_eq!(
        err("BasicGame\n  InteractionSet\n    a wall > stepBack\n"),
        "3: unknown sprite `a`"
    );
}

#[test]
fn changed_scores_in_the_description_change_the_game() {
    let game = DEFAULT_GAME.replace("scoreChange=5", "scoreChange=50");
    let l = Level::parse(
        game.parse().unwrap(),
        "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww",
    )
    .unwrap();
    let last = *bait::sim::play(&l, &bait::sim::parse_actions("DRDLDUUUL").unwrap())
        .last()
        .unwrap();
    assert_eq!((last.outcome, last.score), (Outcome::Won, 50));
}

/// Hand-made hole chains: a corridor of two holes below the key's room, so the avatar must fill
/// the first hole with one box and then push a second box across it into the second hole. In
/// the first level the second box reaches the cell above the chain from the side, after the
/// first left it; in the second it is pushed into that cell from above; in the third the two
/// boxes reach the first hole from different sides. The bound stays admissible on every
/// reachable state, and A* finds breadth-first search's length.
#[test]
fn push_bound_is_admissible_on_hand_made_hole_chains() {
    for text in [
        "wwwwwww\nwA    w\nw     w\nw11   w\nw0wwwww\nw0wwwww\nwkg   w\nwwwwwww",
        "wwwwwww\nwA    w\nw 1   w\nw1    w\nw0wwwww\nw0wwwww\nwkg   w\nwwwwwww",
        "wwwwwww\nwA    w\nw     w\nw1    w\nw01   w\nw0wwwww\nwkg   w\nwwwwwww",
    ] {
        assert_bound_admissible(text).unwrap();
        let l = level(text);
        let plan = shortest(&l, &search_core::Limits::none());
        assert!(!plan.actions.is_empty(), "{text}");
        assert_eq!(Some(plan.actions.len()), bfs_shortest(&l), "{text}");
    }
}
