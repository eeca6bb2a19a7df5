//! # astar-map
//!
//! The USTC "Antarctic supply map" assignment as a tool: find the fewest days from the start to
//! the station on a grid with walls, carrying at most T days of food, refilled at supply points.
//! The search is `search-core`'s A* (or uniform-cost search) over (cell, food) states.
//!
//! ```
//! use astar_map::{solve, Map, SolveOptions};
//! let map: Map = "3 3 3\n0 0 3\n2 0 1\n1 0 4".parse().unwrap();
//! let s = solve(&map, &SolveOptions::default());
//! assert_eq!(s.steps, Some(6)); // a detour to the supply and back is needed
//! ```

pub mod check;
pub mod cli;
pub mod generate;
pub mod heuristics;
pub mod map;
pub mod model;
mod solve;
pub mod svg;

pub use heuristics::{Heuristic, HeuristicKind};
pub use map::{Cell, Dir, Map};
pub use solve::{solve, solve_observed, SearchEvent, Solution, SolveOptions};
