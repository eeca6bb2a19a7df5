//! The maximum-score search on levels larger than the exhaustive property tests reach: a
//! proven maximum replays to a win of that score, and a search cut short by its budget
//! reports a consistent range with a win at its lower end that replays.

use bait::generate::{generate, LevelSpec};
use bait::score_bound::ScoreBound;
use bait::sim::play;
use bait::solve::{max_score_bounds, shortest};
use bait::state::Outcome;
use bait::{Level, DEFAULT_GAME};
use search_core::Limits;

fn practice_levels() -> Vec<Level> {
    let game: bait::vgdl::Game = DEFAULT_GAME.parse().unwrap();
    let spec = LevelSpec {
        rows: 8,
        cols: 9,
        boxes: 6,
        holes: 6,
        mushrooms: 2,
        min_actions: 10,
        max_actions: 120,
        ..LevelSpec::default()
    };
    generate(&game, &spec, 42, 6, 200)
        .into_iter()
        .flatten()
        .map(|g| Level::parse(game.clone(), &g.text).unwrap())
        .collect()
}

#[test]
fn proven_maxima_replay_and_lie_between_the_shortest_win_and_the_bound() {
    let levels = practice_levels();
    assert!(levels.len() >= 4, "only {} levels", levels.len());
    let mut proved = 0;
    for level in &levels {
        let (best, plan, bounds) = max_score_bounds(level, &Limits::nodes(500_000));
        let Some(best) = best else {
            assert!(bounds.is_some() && plan.stopped.is_some());
            continue;
        };
        proved += 1;
        let last = *play(level, &plan.actions).last().unwrap();
        assert_eq!((last.outcome, last.score), (Outcome::Won, best));
        let floor = shortest(level, &Limits::none()).score;
        let top = ScoreBound::new(level)
            .unwrap()
            .bound(&level.initial)
            .unwrap();
        assert!((floor..=top).contains(&best), "{floor} {best} {top}");
    }
    assert!(proved >= 4, "only {proved} maxima proved");
}

#[test]
fn a_search_cut_short_reports_a_range_and_a_win_at_its_lower_end() {
    let levels = practice_levels();
    let mut cut = 0;
    for level in &levels {
        let (exact, _, _) = max_score_bounds(level, &Limits::nodes(500_000));
        // A budget that lets the shortest win through but not the whole proof.
        let spent = shortest(level, &Limits::none()).stats.expanded;
        let (best, plan, bounds) = max_score_bounds(level, &Limits::nodes(spent + 50));
        if best.is_some() {
            continue;
        }
        cut += 1;
        assert!(plan.stopped.is_some());
        let b = bounds.expect("a stopped search reports its range");
        assert!(b.lower <= b.upper);
        if let Some(exact) = exact {
            assert!((b.lower..=b.upper).contains(&exact), "{exact} {b:?}");
        }
        let last = *play(level, &b.witness).last().unwrap();
        assert_eq!((last.outcome, last.score), (Outcome::Won, b.lower));
    }
    assert!(cut >= 1, "no search was cut short");
}
