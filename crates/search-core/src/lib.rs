//! Every search algorithm of the workspace, written once and generic over closures or a game
//! trait, so that each game crate reaches its full speed through it:
//! single-agent search ([`dfs`], [`bfs`], [`ucs`], [`astar`], [`idastar`], [`branch_and_bound`],
//! [`beam_search`], distance fields), two-player search over [`Game`] ([`minimax`],
//! [`alphabeta`], [`negamax`] with a [`TranspositionTable`], [`mtdf`], [`aspiration_search`],
//! [`parallel_search_root`], [`shared_search_root`] over a [`SharedTable`],
//! [`iterative_deepening`]), exact solving ([`ExactSolver`]),
//! proof-number search ([`ProofSearch`]) and Monte Carlo tree search ([`Mcts`]). Each item's
//! documentation has a runnable example.

mod abdada;
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
mod keyed_sort;
mod last_good_reply;
mod mcts;
mod minimax;
mod mtdf;
mod negamax;
mod outcome;
mod parallel;
mod pns;
mod shared_tt;
mod stats;
mod tt;
mod ucs;

pub use abdada::{shared_search_root, BusyTable};
pub use alphabeta::{alphabeta, alphabeta_window, AlphaBetaSearch};
pub use aspiration::{aspiration_search, aspiration_windows};
pub use astar::{astar, astar_with, AstarOptions, TieBreak};
pub use beam::{beam_search, BeamOutcome};
pub use bfs::bfs;
pub use bound_table::{BoundTable, ScoreBound};
pub use branch_bound::{branch_and_bound, BranchBoundOptions, BranchBoundOutcome};
pub use cost::Cost;
pub use deadline::{Budget, Deadline, Limits, Stop};
pub use dfs::dfs;
pub use distances::{bfs_distances, ucs_distances};
pub use dls::{depth_limited, DlsOutcome};
pub use exact_solver::{ExactGame, ExactSolver};
pub use game::{
    mate_distance, mate_in, Game, GameResult, ProbCutError, Score, CONTINUATION_SIZE, HISTORY_SIZE,
    INF, WIN, WIN_BOUND,
};
pub use idastar::idastar;
pub use iddfs::iddfs;
pub use iterative::{iterative_deepening, stability_scale, IterationKind, IterativeOptions};
pub use keyed_sort::sort_descending_by_keys;
pub use last_good_reply::LastGoodReply;
pub use mcts::{mcts, Mcts, MctsConfig, MctsState, MctsStats, RandomRollout, Rollout};
pub use minimax::minimax;
pub use mtdf::{mtdf, mtdf_stepped};
pub use negamax::{negamax, ProbCut, RootMoveHook, SearchOptions, Searcher, Singular};
pub use outcome::SearchOutcome;
pub use parallel::{parallel_search_root, ParallelRoot};
pub use pns::{ProofResult, ProofSearch};
pub use shared_tt::{PackedMove, SharedTable};
pub use stats::{GameStats, SearchStats};
pub use tt::{Bound, TranspositionTable, Transpositions, TtEntry};
pub use ucs::ucs;

/// The random generator used by every seeded search (re-exported so game crates share it).
pub use rand::rngs::SmallRng;
