//! # search-core
//!
//! Every search algorithm of the workspace, written once and generic enough that each game crate
//! reaches its full speed through it. The families:
//!
//! * **Single-agent (state-space) search** over closures, in the style of the `pathfinding`
//!   crate: [`dfs`], [`depth_limited`], [`iddfs`], [`bfs`], [`ucs`], [`astar`] and [`idastar`].
//!   Each returns a [`SearchOutcome`] (plan, cost, [`SearchStats`]) and honours [`Limits`].
//!   Their goal-less forms, [`bfs_distances`] and [`ucs_distances`], fill a distance field (the
//!   cost from the nearest source to every node), which heuristics precompute once per map.
//!   [`branch_and_bound`] finds the best-valued goal depth-first under an upper bound, in
//!   memory bounded by a capped table; [`beam_search`] finds good goals fast where no exact
//!   search can finish.
//! * **Two-player zero-sum search** over the [`Game`] trait: [`minimax`], [`alphabeta`],
//!   [`negamax`] with a [`TranspositionTable`] (through a reusable [`Searcher`]), [`mtdf`],
//!   [`aspiration_search`] around a guessed value, [`parallel_search_root`] on several threads,
//!   and [`iterative_deepening`] under a [`Deadline`].
//! * **Exact solving** of games with small integer scores: [`ExactSolver`] (Pons-style
//!   null-window bisection over a [`BoundTable`]) over the [`ExactGame`] trait.
//! * **Proof-number search**: [`ProofSearch`] (depth-first, df-pn) settles "does the side to
//!   move win?" over the same [`Game`] trait, deep along forcing lines.
//! * **Monte Carlo tree search**: [`Mcts`] (UCT) over the [`MctsState`] trait with a pluggable
//!   [`Rollout`] policy, which may learn from its simulations ([`LastGoodReply`]), optionally
//!   an MCTS-solver, or searching each position once whatever move order reaches it
//!   ([`MctsConfig::transpositions`]).
//!
//! ```
//! use search_core::astar;
//! // Shortest route on a 5x5 open grid from (0,0) to (4,4) with the Manhattan heuristic.
//! let out = astar(
//!     &(0i32, 0i32),
//!     |&(r, c)| {
//!         [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
//!             .into_iter()
//!             .filter(|&(r, c)| (0..5).contains(&r) && (0..5).contains(&c))
//!             .map(|p| (p, 1u32))
//!     },
//!     |&(r, c)| (4 - r).unsigned_abs() + (4 - c).unsigned_abs(),
//!     |&p| p == (4, 4),
//! );
//! assert_eq!(out.cost(), Some(8));
//! ```

mod alphabeta;
mod aspiration;
mod astar;
mod beam;
mod bfs;
mod bound_table;
mod branch_bound;
mod cost;
mod deadline;
mod dfs;
mod distances;
mod dls;
mod exact_solver;
mod game;
pub mod hash;
mod idastar;
mod iddfs;
mod iterative;
mod last_good_reply;
mod mcts;
mod minimax;
mod mtdf;
mod negamax;
mod outcome;
mod parallel;
mod pns;
mod stats;
mod tt;
mod ucs;

pub use alphabeta::{alphabeta, alphabeta_window, AlphaBetaSearch};
pub use aspiration::{aspiration_search, aspiration_windows};
pub use astar::{astar, astar_with, AstarOptions, TieBreak};
pub use beam::{beam_search, BeamOutcome};
pub use bfs::bfs;
pub use bound_table::{BoundTable, ScoreBound};
pub use branch_bound::{branch_and_bound, BranchBoundOptions, BranchBoundOutcome};
pub use cost::Cost;
pub use deadline::{Deadline, Limits, Stop};
pub use dfs::dfs;
pub use distances::{bfs_distances, ucs_distances};
pub use dls::{depth_limited, DlsOutcome};
pub use exact_solver::{ExactGame, ExactSolver};
pub use game::{
    mate_distance, mate_in, Game, GameResult, Score, HISTORY_SIZE, INF, WIN, WIN_BOUND,
};
pub use idastar::idastar;
pub use iddfs::iddfs;
pub use iterative::{iterative_deepening, IterationKind, IterativeOptions};
pub use last_good_reply::LastGoodReply;
pub use mcts::{mcts, Mcts, MctsConfig, MctsState, MctsStats, RandomRollout, Rollout};
pub use minimax::minimax;
pub use mtdf::{mtdf, mtdf_stepped};
pub use negamax::{negamax, RootMoveHook, SearchOptions, Searcher};
pub use outcome::SearchOutcome;
pub use parallel::{parallel_search_root, ParallelRoot};
pub use pns::{ProofResult, ProofSearch};
pub use stats::{GameStats, SearchStats};
pub use tt::{Bound, TranspositionTable, TtEntry};
pub use ucs::{ucs, ucs_with};

/// The random generator used by every seeded search (re-exported so game crates share it).
pub use rand::rngs::SmallRng;
