//! Optimal plans and the bounds and distances the searches use.
//!
//! * Shortest win: `search-core`'s A* over compact states, unit cost per action. The heuristic is
//!   [`PushBound`] (earliest arrival at key and goal when holes wait for boxes and boxes for
//!   pushes) for games with Bait's rules, and otherwise [`Guide`]: "walking distance to the goal
//!   once the key is held, else to the key and from the key to the goal" (distances by
//!   breadth-first search through non-wall cells, so boxes and holes are ignored). Both never
//!   overestimate (the first is property-tested against exact distances).
//! * Maximum score: an upper bound on the score still obtainable (each scoring interaction can
//!   fire at most as often as sprites it kills remain) turns the question into "is a win with
//!   score S reachable?", answered by a breadth-first search that prunes every state whose bound
//!   is below S, trying S from the initial bound downwards; the first S that succeeds is the
//!   maximum and the breadth-first plan the shortest with that score.
//!
//! The key and goal are found from the rules, not hard-coded: the goal is the type whose
//! disappearance wins (a `SpriteCounter ... win=True`), the key the type the avatar transforms on.

use crate::bound::PushBound;
use crate::level::{Level, Role};
use crate::score_bound::ScoreBound;
use crate::sim::{count, step, Action};
use crate::state::{Outcome, State};
use crate::vgdl::Effect;
use search_core::{astar_with, bfs, bfs_distances, AstarOptions, Limits, SearchStats, Stop};

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

/// [`max_score`], with what is proved when a budget stops it first: the maximum lies between
/// the shortest win's score and the target whose search was cut (every higher one was searched
/// and has no win), as `(lower, upper)`.
pub fn max_score_bounds(level: &Level, limits: &Limits) -> (Option<i32>, Plan, Option<(i32, i32)>) {
    // The board-aware bound where the rules allow it, the sprite count otherwise.
    let board = ScoreBound::new(level);
    let bound = |s: &State| match &board {
        Some(b) => b.bound(s),
        None => score_bound(level, s),
    };
    let Some(top) = bound(&level.initial) else {
        return (
            None,
            Plan {
                actions: Vec::new(),
                score: 0,
                stats: SearchStats::default(),
                stopped: None,
            },
            None,
        );
    };
    let mut total = SearchStats::default();
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
    for target in (floor.score..=top).rev() {
        let remaining = Limits {
            max_expanded: limits
                .max_expanded
                .map(|m| m.saturating_sub(total.expanded)),
            deadline: limits.deadline,
        };
        let out = bfs(
            &level.initial,
            |s| {
                successors(level, s)
                    .map(|(n, _)| n)
                    .filter(move |n| bound(n).is_some_and(|b| b >= target))
            },
            |s| s.outcome == Outcome::Won && s.score == target,
            &remaining,
        );
        total.add(&out.stats);
        if out.stopped.is_some() {
            return (
                None,
                Plan {
                    actions: Vec::new(),
                    score: 0,
                    stats: total,
                    stopped: out.stopped,
                },
                Some((floor.score, target)),
            );
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
