//! Optimal plans and the bounds and distances the searches use.

pub mod bound;
pub mod generate;
pub mod macros;
pub mod score_bound;
pub mod symmetry;

use crate::rules::level::{Level, Role};
use crate::rules::sim::{count, step, Action};
use crate::rules::state::{Outcome, State};
use crate::rules::vgdl::Effect;
use crate::solve::bound::PushBound;
use crate::solve::macros::{expand_macro, macros, Macro};
use crate::solve::score_bound::ScoreBound;
use crate::solve::symmetry::Symmetries;
use search_core::{
    astar_with, beam_search, bfs, bfs_distances, branch_and_bound, AstarOptions,
    BranchBoundOptions, Limits, SearchStats, Stop,
};

/// Distances and targets prepared once per level.
pub struct Guide {
    /// Breadth-first distances from the goal cell (through non-wall cells), if found.
    to_goal: Option<Vec<u32>>,
    /// Breadth-first distances from the key cell, if any key.
    to_key: Option<Vec<u32>>,
    key_to_goal: u32,
    key_type: Option<usize>,
}

const FAR: u32 = u32::MAX / 4;
/// Heuristic value of a state the bound proves unwinnable: larger than any real plan.
const UNWINNABLE: u32 = 1 << 24;

impl Guide {
    /// Prepares the heuristic for `level`.
    pub fn new(level: &Level) -> Guide {
        let g = &level.game;
        let goal_type = g.terminations.iter().find(|t| t.win).map(|t| t.stype);
        let key_type = g.interactions.iter().find_map(|i| match i.effect {
            Effect::TransformTo(_) if level.roles[i.first] == Role::Avatar => Some(i.second),
            _ => None,
        });
        let cell_of = |t: Option<usize>| t.and_then(|t| level.find(&g.types[t].name));
        let walls: Vec<bool> = (0..level.rows * level.cols)
            .map(|c| level.frozen[0].has(c))
            .collect();
        let (rows, cols) = (level.rows, level.cols);
        // Breadth-first distances from one cell through non-wall cells (`search-core`'s
        // distance field); FAR where the walls cut a cell off.
        let bfs_from = |start: usize| {
            let open_neighbours = |c: usize, out: &mut Vec<usize>| {
                let (r, col) = (c / cols, c % cols);
                if r > 0 {
                    out.push(c - cols);
                }
                if r + 1 < rows {
                    out.push(c + cols);
                }
                if col > 0 {
                    out.push(c - 1);
                }
                if col + 1 < cols {
                    out.push(c + 1);
                }
                out.retain(|&n| !walls[n]);
            };
            let mut d: Vec<u32> = bfs_distances(walls.len(), [start], open_neighbours);
            for x in d.iter_mut().filter(|x| **x == u32::MAX) {
                *x = FAR;
            }
            d
        };
        let goal_cell = cell_of(goal_type);
        let key_cell = cell_of(key_type);
        let to_goal = goal_cell.map(bfs_from);
        let to_key = key_cell.map(bfs_from);
        let key_to_goal = match (&to_goal, key_cell) {
            (Some(d), Some(k)) => d[k],
            _ => 0,
        };
        Guide {
            to_goal,
            to_key,
            key_to_goal,
            key_type,
        }
    }

    /// A lower bound on the actions still needed to win from `s` (0 when unknown).
    #[inline]
    pub fn estimate(&self, level: &Level, s: &State) -> u32 {
        let Some(to_goal) = &self.to_goal else {
            return 0;
        };
        let cell = s.avatar_cell as usize;
        let key_left = match (self.key_type, &self.to_key) {
            (Some(k), Some(_)) => count(level, s, k) > 0,
            _ => false,
        };
        if key_left {
            self.to_key
                .as_ref()
                .map_or(0, |d| d[cell])
                .saturating_add(self.key_to_goal)
        } else {
            to_goal[cell]
        }
    }
}

/// The states reachable in one action (U, D, L, R), skipping actions that change nothing and
/// those that lose.
pub fn successors<'a>(level: &'a Level, s: &State) -> impl Iterator<Item = (State, Action)> + 'a {
    let s = *s;
    Action::MOVES.into_iter().filter_map(move |a| {
        let n = step(level, &s, a);
        (n != s && n.outcome != Outcome::Lost).then_some((n, a))
    })
}

/// Reconstructs actions between consecutive states of a path.
pub fn actions_of(level: &Level, path: &[State]) -> Vec<Action> {
    path.windows(2)
        .map(|w| {
            Action::MOVES
                .into_iter()
                .find(|&a| step(level, &w[0], a) == w[1])
                .expect("consecutive states of a plan are one action apart")
        })
        .collect()
}

/// A plan and the work it took.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The actions (empty when none was found).
    pub actions: Vec<Action>,
    /// Final score of the plan.
    pub score: i32,
    /// Search work.
    pub stats: SearchStats,
    /// Set when a budget stopped the search.
    pub stopped: Option<Stop>,
}

/// The shortest winning plan (A*), or an empty plan when there is none.
///
/// ```
/// use bait::{solve::shortest, Level, DEFAULT_GAME};
/// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
/// let plan = shortest(&level, &search_core::Limits::none());
/// assert_eq!((plan.actions.len(), plan.score), (9, 5));
/// ```
///
/// * Shortest win: `search-core`'s A* over compact states, unit cost per action. The heuristic is
///   [`PushBound`] (earliest arrival at key and goal when holes wait for boxes and boxes for
///   pushes) for games with Bait's rules, and otherwise [`Guide`]: "walking distance to the goal
///   once the key is held, else to the key and from the key to the goal" (distances by
///   breadth-first search through non-wall cells, so boxes and holes are ignored). Both never
///   overestimate (the first is property-tested against exact distances).
/// * Maximum score: an upper bound on the score still obtainable ([`ScoreBound`], which knows
///   where boxes can go, for Bait's rules; otherwise each scoring interaction fires at most as
///   often as sprites it kills remain) turns the question into "is a win scoring at least S
///   reachable?". With Bait's rules a beam search over macro-actions finds a good win first,
///   then depth-first branch and bound answers the question for S from the bound downwards in
///   bounded memory, and a breadth-first search for a win of exactly the maximum gives the
///   shortest plan; other rules use breadth-first searches for each S. Cut short, the search
///   reports the score range it proved and a win at its lower end.
///
/// The key and goal are found from the rules, not hard-coded: the goal is the type whose
/// disappearance wins (a `SpriteCounter ... win=True`), the key the type the avatar transforms on.
pub fn shortest(level: &Level, limits: &Limits) -> Plan {
    // The push-aware bound where the rules allow it, the walking distance otherwise.
    enum Heuristic {
        Push(Box<PushBound>),
        Walk(Guide),
    }
    let heuristic = match PushBound::new(level) {
        Some(bound) => Heuristic::Push(Box::new(bound)),
        None => Heuristic::Walk(Guide::new(level)),
    };
    let out = astar_with(
        &level.initial,
        |s| successors(level, s).map(|(n, _)| (n, 1u32)),
        |s| match &heuristic {
            // A state that cannot be won sinks below every real candidate.
            Heuristic::Push(bound) => bound.estimate(s).unwrap_or(UNWINNABLE),
            Heuristic::Walk(guide) => guide.estimate(level, s),
        },
        |s| s.outcome == Outcome::Won,
        |_, _| false,
        &AstarOptions {
            limits: *limits,
            ..Default::default()
        },
    );
    finish(level, out.solution.map(|p| p.0), out.stats, out.stopped)
}

fn finish(
    level: &Level,
    path: Option<Vec<State>>,
    stats: SearchStats,
    stopped: Option<Stop>,
) -> Plan {
    match path {
        Some(p) => Plan {
            score: p.last().map_or(0, |s| s.score),
            actions: actions_of(level, &p),
            stats,
            stopped,
        },
        None => Plan {
            actions: Vec::new(),
            score: 0,
            stats,
            stopped,
        },
    }
}

/// An upper bound on the final score reachable from `s`: the score plus, for every scoring
/// interaction, its score times the number of times it can still fire (`None` when some
/// scoring interaction is not bounded by the sprites it kills).
pub fn score_bound(level: &Level, s: &State) -> Option<i32> {
    let mut bound = s.score;
    for i in &level.game.interactions {
        if i.score <= 0 {
            continue;
        }
        let times = match i.effect {
            Effect::KillSprite | Effect::TransformTo(_) => count_matching(level, s, i.first),
            Effect::KillBoth => {
                count_matching(level, s, i.first).min(count_matching(level, s, i.second))
            }
            _ => return None,
        };
        bound += i.score * times as i32;
    }
    Some(bound)
}

fn count_matching(level: &Level, s: &State, rule_type: usize) -> usize {
    (0..level.game.types.len())
        .filter(|&t| level.game.matches[t][rule_type])
        .map(|t| {
            // Count sprites of exactly type t (not its descendants, counted separately).
            let all = count(level, s, t);
            let children: usize = (0..level.game.types.len())
                .filter(|&c| c != t && level.game.is_a(c, t))
                .map(|c| count(level, s, c))
                .sum();
            all - children
        })
        .sum()
}

/// The maximum final score over all winning plays and the shortest play achieving it, found by
/// bounded breadth-first searches; `None` in the plan's score means no win exists (or the
/// budget ran out: see `stopped`).
pub fn max_score(level: &Level, limits: &Limits) -> (Option<i32>, Plan) {
    let (best, plan, _) = max_score_bounds(level, limits);
    (best, plan)
}

/// What a maximum-score search proved when a budget stopped it before the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreBounds {
    /// The best score of a win found (a plan reaching it is [`Self::witness`]).
    pub lower: i32,
    /// No win scores more than this.
    pub upper: i32,
    /// A win scoring `lower`.
    pub witness: Vec<Action>,
}

/// [`max_score`], with what is proved when a budget stops it first.
///
/// On levels with Bait's rules the maximum is found by `search-core`'s depth-first branch and
/// bound over macro-actions (see [`crate::solve::macros`](mod@crate::solve::macros)) under the board-aware [`ScoreBound`], in
/// memory bounded by its capped table; a breadth-first search for a win of exactly that score
/// then gives the shortest plan. Other rules fall back to breadth-first searches for each
/// target score from the sprite-count bound down. Cut short, it reports the best win found and
/// the highest score some unexplored branch could still reach.
pub fn max_score_bounds(
    level: &Level,
    limits: &Limits,
) -> (Option<i32>, Plan, Option<ScoreBounds>) {
    let empty = |stats, stopped| Plan {
        actions: Vec::new(),
        score: 0,
        stats,
        stopped,
    };
    // The board-aware bound where the rules allow it, the sprite count otherwise.
    let board = ScoreBound::new(level);
    let bound = |s: &State| match &board {
        Some(b) => b.bound(s),
        None => score_bound(level, s),
    };
    let Some(top) = bound(&level.initial) else {
        return (None, empty(SearchStats::default(), None), None);
    };
    let mut total = SearchStats::default();
    let remaining = |total: &SearchStats| Limits {
        max_expanded: limits
            .max_expanded
            .map(|m| m.saturating_sub(total.expanded)),
        deadline: limits.deadline,
    };
    // The cheapest lower end: the score of the shortest win.
    let floor = shortest(level, limits);
    total.add(&floor.stats);
    if floor.actions.is_empty() {
        return (
            None,
            Plan {
                stats: total,
                ..floor
            },
            None,
        );
    }
    if let Some(b) = &board {
        // A good win first (beam search), so the exact search starts above it.
        let beam = good_win_by_macros(level, b, &remaining(&total));
        total.add(&beam.stats);
        let (start_score, start_plan) = match beam.best {
            Some((score, plan)) if score > floor.score => (score, plan),
            _ => (floor.score, floor.actions.clone()),
        };
        // Then, from the top down, "is there a win scoring at least `target`?": each
        // answer "no" lowers the proved maximum by one, and the first "yes" is the maximum.
        // A high target prunes hard, so the upper end falls while the budget lasts.
        let (mut lower, mut witness) = (start_score, start_plan);
        let mut upper = top;
        while upper > lower {
            let out = best_win_by_macros(level, b, upper - 1, &remaining(&total));
            total.add(&out.stats);
            let found = out.best.is_some();
            if let Some((score, plan)) = out.best {
                (lower, witness) = (score, plan);
                if out.stopped.is_none() {
                    upper = score;
                }
            }
            if out.stopped.is_some() {
                let bounds = ScoreBounds {
                    lower,
                    upper,
                    witness,
                };
                return (None, empty(total, out.stopped), Some(bounds));
            }
            if !found {
                upper -= 1;
            }
        }
        // The maximum is `lower`. The shortest win scoring it: branch and bound again, on
        // the number of actions under the push bound, below the witness's length.
        let out = shortest_win_scoring(level, b, lower, witness.len(), &remaining(&total));
        total.add(&out.stats);
        let actions = out.best.map_or(witness, |(_, plan)| plan);
        if out.stopped.is_some() {
            let bounds = ScoreBounds {
                lower,
                upper: lower,
                witness: actions,
            };
            return (None, empty(total, out.stopped), Some(bounds));
        }
        let plan = Plan {
            actions,
            score: lower,
            stats: total,
            stopped: None,
        };
        return (Some(lower), plan, None);
    }
    // Other rules: a breadth-first search for each target score, highest first.
    for target in (floor.score..=top).rev() {
        let out = bfs(
            &level.initial,
            |s| {
                successors(level, s)
                    .map(|(n, _)| n)
                    .filter(move |n| bound(n).is_some_and(|b| b >= target))
            },
            |s| s.outcome == Outcome::Won && s.score == target,
            &remaining(&total),
        );
        total.add(&out.stats);
        if out.stopped.is_some() {
            let bounds = ScoreBounds {
                lower: floor.score,
                upper: target,
                witness: floor.actions.clone(),
            };
            return (None, empty(total, out.stopped), Some(bounds));
        }
        if let Some((path, _)) = out.solution {
            let mut plan = finish(level, Some(path), total, None);
            plan.stats = total;
            return (Some(target), plan, None);
        }
    }
    (
        Some(floor.score),
        Plan {
            stats: total,
            ..floor
        },
        None,
    )
}

/// The best win found by the branch and bound over macro-actions, as its score and actions.
struct MacroSearch {
    best: Option<(i32, Vec<Action>)>,
    stopped: Option<Stop>,
    stats: SearchStats,
}

/// Beam search over macro-actions for a high-scoring win: of each layer it keeps the states of
/// the highest score bound, then the highest score, then the earliest.
fn good_win_by_macros(level: &Level, board: &ScoreBound, limits: &Limits) -> MacroSearch {
    let out = beam_search(
        &level.initial,
        |s| macros(level, s).into_iter().map(|(_, n)| n),
        |s| {
            board
                .bound(s)
                .map(|b| (b, s.score, std::cmp::Reverse(s.tick)))
        },
        |s| (s.outcome == Outcome::Won).then_some(i64::from(s.score)),
        |s| *s,
        BEAM_WIDTH,
        limits,
    );
    MacroSearch {
        best: out
            .best
            .map(|(path, score)| (score as i32, macro_path_actions(level, &path))),
        stopped: out.stopped,
        stats: out.stats,
    }
}

/// States of each layer [`good_win_by_macros`] keeps.
const BEAM_WIDTH: usize = 2000;

/// The actions that play a path of states one macro-action apart.
fn macro_path_actions(level: &Level, path: &[State]) -> Vec<Action> {
    path.windows(2)
        .flat_map(|w| {
            let (m, _) = macros(level, &w[0])
                .into_iter()
                .find(|(_, n)| *n == w[1] && n.tick == w[1].tick)
                .expect("consecutive states of the path are one macro apart");
            expand_macro(level, &w[0], m).expect("the macro's cell is in the walk")
        })
        .collect()
}

/// Depth-first branch and bound for the highest-scoring win above `floor`: its nodes are the
/// states after each macro-action, its bound [`ScoreBound`]; a state met again no earlier than
/// before, or a mirror image of one, is skipped.
fn best_win_by_macros(
    level: &Level,
    board: &ScoreBound,
    floor: i32,
    limits: &Limits,
) -> MacroSearch {
    let symmetries = Symmetries::of(level);
    let out = branch_and_bound(
        &level.initial,
        |s| {
            let mut next: Vec<(Macro, State)> = macros(level, s);
            // Scoring moves first, then the nearest (ties of the bound keep this order).
            next.sort_by_key(|(m, n)| (std::cmp::Reverse(n.score - s.score), m.walk));
            next.into_iter().map(|(_, n)| n)
        },
        |s| board.bound(s).map(i64::from),
        |s| (s.outcome == Outcome::Won).then_some(i64::from(s.score)),
        // Symmetric states share an entry: their best wins are mirror images.
        |s| (symmetries.canonical(s), s.tick),
        &BranchBoundOptions {
            floor: i64::from(floor),
            limits: *limits,
            table_limit: MACRO_TABLE_LIMIT,
        },
    );
    let best = out
        .best
        .map(|(path, score)| (score as i32, macro_path_actions(level, &path)));
    MacroSearch {
        best,
        stopped: out.stopped,
        stats: out.stats,
    }
}

/// The shortest win scoring `target` (the maximum), shorter than `known` actions: depth-first
/// branch and bound on minus the number of actions, bounded by the push bound's estimate of
/// the actions still needed, over states whose score bound still reaches `target`.
fn shortest_win_scoring(
    level: &Level,
    board: &ScoreBound,
    target: i32,
    known: usize,
    limits: &Limits,
) -> MacroSearch {
    let symmetries = Symmetries::of(level);
    let push = PushBound::new(level).expect("Bait's rules");
    let out = branch_and_bound(
        &level.initial,
        |s| {
            let mut next: Vec<(Macro, State)> = macros(level, s);
            next.sort_by_key(|(m, _)| m.walk);
            next.into_iter().map(|(_, n)| n)
        },
        |s| {
            board.bound(s).filter(|&b| b >= target)?;
            Some(-i64::from(s.tick + push.estimate(s)?))
        },
        |s| (s.outcome == Outcome::Won && s.score == target).then_some(-i64::from(s.tick)),
        |s| (symmetries.canonical(s), s.tick),
        &BranchBoundOptions {
            floor: -(known as i64),
            limits: *limits,
            table_limit: MACRO_TABLE_LIMIT,
        },
    );
    MacroSearch {
        best: out
            .best
            .map(|(path, _)| (target, macro_path_actions(level, &path))),
        stopped: out.stopped,
        stats: out.stats,
    }
}

/// States the branch and bound remembers as explored (48 bytes and a tick each, about 1.5 GB
/// with the map's overhead at the cap) before it starts its table afresh.
const MACRO_TABLE_LIMIT: usize = 1 << 24;
