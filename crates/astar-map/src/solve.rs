//! Solving a map: A* (or uniform-cost search) from `search-core` over (cell, food) states.
//!
//! The goal test is on pop, ties on f go to the larger g (the `pathfinding` crate's order, which
//! walks straight across open fields), and a per-cell dominance rule drops a popped state when
//! the same cell was already expanded with at least as much food and no more days: whatever the
//! dominated state could do, the dominating one could do no later. The rule compares g
//! explicitly, so it stays sound for heuristics that depend on the food.

use crate::heuristics::{Heuristic, HeuristicKind, UNREACHABLE};
use crate::map::{Dir, Map};
use crate::model::{self, cell_of, col_of, food_of, row_of, State};
use search_core::{astar_with, AstarOptions, Limits, SearchStats, TieBreak};
use std::cell::{Cell, RefCell};
use std::time::Instant;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// The heuristic.
    pub heuristic: HeuristicKind,
    /// Per-cell food dominance pruning.
    pub dominance: bool,
    /// Ordering of equal-f states.
    pub tie_break: TieBreak,
    /// Budgets.
    pub limits: Limits,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            heuristic: HeuristicKind::Manhattan,
            dominance: true,
            tie_break: TieBreak::LargerG,
            limits: Limits::none(),
        }
    }
}

/// The answer for one map.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Solution {
    /// Minimum number of days, `None` when the station cannot be reached.
    pub steps: Option<usize>,
    /// The moves of one optimal route (empty when unreachable).
    #[serde(serialize_with = "ser_moves")]
    pub moves: Vec<Dir>,
    /// The food left after each move (same length as `moves`).
    #[serde(skip)]
    pub food_after: Vec<u32>,
    /// Search work.
    pub stats: SearchStats,
    /// Whether a budget stopped the search (then `steps == None` proves nothing).
    pub stopped: bool,
}

fn ser_moves<S: serde::Serializer>(m: &[Dir], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&m.iter().map(|d| d.letter()).collect::<String>())
}

impl Solution {
    /// The output file's exact text: `"-1\n"`, or the day count and the move string.
    ///
    /// ```
    /// use astar_map::{solve, Map, SolveOptions};
    /// let map: Map = "5 4 2\n1 0 4 0\n1 0 2 1\n0 2 0 2\n1 0 2 1\n0 3 1 0".parse().unwrap();
    /// let s = solve(&map, &SolveOptions::default());
    /// assert_eq!(s.steps, Some(5));
    /// assert_eq!(s.output_text().lines().next(), Some("5"));
    /// ```
    pub fn output_text(&self) -> String {
        match self.steps {
            None => "-1\n".to_string(),
            Some(n) => {
                let mut s = format!("{n}\n");
                s.extend(self.moves.iter().map(|d| d.letter()));
                s.push('\n');
                s
            }
        }
    }
}

/// One step of a search as [`solve_observed`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SearchEvent {
    /// A state taken off the open list and expanded (it joins the closed set); the last one
    /// of a search that reaches the station is the station, popped and not expanded.
    Expand {
        /// Its cell (row-major index).
        cell: usize,
        /// Food left there.
        food: u32,
        /// Days from the start.
        g: u32,
    },
    /// A successor put on the open list by the last expansion.
    Generate {
        /// Its cell (row-major index).
        cell: usize,
        /// Food left there.
        food: u32,
    },
}

/// Finds a shortest route, or proves there is none.
pub fn solve(map: &Map, options: &SolveOptions) -> Solution {
    solve_observed(map, options, |_| {})
}

/// [`solve`], telling `observe` every expansion and every successor it puts on the open list,
/// in order: what a step-by-step view of the search shows.
///
/// ```
/// use astar_map::{solve_observed, Map, SearchEvent, SolveOptions};
/// let map: Map = "3 3 3\n0 0 3\n2 0 1\n1 0 4".parse().unwrap();
/// let mut expanded = 0;
/// let s = solve_observed(&map, &SolveOptions::default(), |e| {
///     expanded += matches!(e, SearchEvent::Expand { .. }) as u64;
/// });
/// assert_eq!(expanded, s.stats.expanded);
/// ```
pub fn solve_observed(
    map: &Map,
    options: &SolveOptions,
    observe: impl FnMut(SearchEvent),
) -> Solution {
    let observe = RefCell::new(observe);
    let timer = Instant::now();
    let h = Heuristic::new(map, options.heuristic);
    let start = model::initial(map);
    if h.estimate(start) == UNREACHABLE {
        return Solution {
            steps: None,
            moves: Vec::new(),
            food_after: Vec::new(),
            stats: SearchStats {
                elapsed: timer.elapsed(),
                ..Default::default()
            },
            stopped: false,
        };
    }
    // Per cell: the expanded state with the most food (ties: fewest days), packed as
    // `(food + 1) << 32 | g`, 0 when none. The table is paged, so memory follows the part of
    // the map the search touches. It is shared between the pruning hook (which records
    // expansions) and the successor function (which skips successors that are already
    // dominated, saving their hash insert and heap push).
    let table = RefCell::new(if options.dominance {
        PagedTable::new(map.rows, map.cols)
    } else {
        PagedTable::new(0, 0)
    });
    let best = &table;
    let expanding_g = Cell::new(0u32);
    let dominated =
        |e: u64, food: u32, g: u32| e != 0 && (e >> 32) as u32 > food && (e as u32) <= g;
    let prune = |s: &State, g: u32| {
        expanding_g.set(g);
        if !options.dominance {
            return false;
        }
        let food = food_of(*s);
        let mut best = best.borrow_mut();
        let e = best.get(*s);
        if dominated(e, food, g) {
            return true;
        }
        let (bf, bg) = ((e >> 32) as u32, e as u32);
        if e == 0 || food + 1 > bf || (food + 1 == bf && g < bg) {
            best.set(*s, ((food as u64 + 1) << 32) | g as u64);
        }
        false
    };
    let prune = |s: &State, g: u32| {
        let pruned = prune(s, g);
        if !pruned {
            (observe.borrow_mut())(SearchEvent::Expand {
                cell: cell_of(map, *s),
                food: food_of(*s),
                g,
            });
        }
        pruned
    };
    let filter = h.detects_dead_ends();
    let dominance = options.dominance;
    let h = &h;
    let successors = |s: &State| {
        let child_g = expanding_g.get() + 1;
        let observe = &observe;
        model::successors(map, *s)
            .filter(move |&(t, _)| {
                (!filter || h.estimate(t) != UNREACHABLE)
                    && !(dominance && dominated(best.borrow().get(t), food_of(t), child_g))
            })
            .inspect(move |&(t, _)| {
                (observe.borrow_mut())(SearchEvent::Generate {
                    cell: cell_of(map, t),
                    food: food_of(t),
                })
            })
    };
    let out = astar_with(
        &start,
        successors,
        |s: &State| h.estimate(*s),
        |s: &State| model::is_goal(map, *s),
        prune,
        &AstarOptions {
            tie_break: options.tie_break,
            limits: options.limits,
        },
    );
    let (steps, moves, food_after) = match &out.solution {
        Some((path, cost)) => {
            // The goal was popped too (and counted as expanded), though not expanded.
            let goal = path[path.len() - 1];
            (observe.borrow_mut())(SearchEvent::Expand {
                cell: cell_of(map, goal),
                food: food_of(goal),
                g: *cost,
            });
            let moves = path
                .windows(2)
                .map(|w| model::direction(map, cell_of(map, w[0]), cell_of(map, w[1])))
                .collect();
            let food = path[1..].iter().map(|&s| food_of(s)).collect();
            (Some(*cost as usize), moves, food)
        }
        None => (None, Vec::new(), Vec::new()),
    };
    // The time includes preparing the heuristic (a BFS over the map for `grid` and `supply`).
    let mut stats = out.stats;
    stats.elapsed = timer.elapsed();
    Solution {
        steps,
        moves,
        food_after,
        stats,
        stopped: out.stopped.is_some(),
    }
}

/// A per-cell table of `u64` (default 0), allocated in 8x8 tiles of cells on first write, so
/// that a route across a huge map costs a few hundred small tiles, not the whole map.
struct PagedTable {
    tiles_per_row: usize,
    tiles: Vec<Option<Box<[u64; 64]>>>,
}

impl PagedTable {
    fn new(rows: usize, cols: usize) -> Self {
        let tiles_per_row = cols.div_ceil(8);
        PagedTable {
            tiles_per_row,
            tiles: vec![None; tiles_per_row * rows.div_ceil(8)],
        }
    }

    /// Tile and offset of the state's cell.
    #[inline]
    fn slot(&self, s: State) -> (usize, usize) {
        let (r, c) = (row_of(s), col_of(s));
        (
            (r >> 3) * self.tiles_per_row + (c >> 3),
            ((r & 7) << 3) | (c & 7),
        )
    }

    #[inline]
    fn get(&self, s: State) -> u64 {
        let (t, o) = self.slot(s);
        self.tiles[t].as_ref().map_or(0, |tile| tile[o])
    }

    #[inline]
    fn set(&mut self, s: State, v: u64) {
        let (t, o) = self.slot(s);
        self.tiles[t].get_or_insert_with(|| Box::new([0; 64]))[o] = v;
    }
}
