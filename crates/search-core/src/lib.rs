//! Every search algorithm of the workspace, written once and generic over closures or a game
//! trait, so that each game crate reaches its full speed through it. The folders are the
//! families: [`single_agent`] ([`dfs`], [`bfs`], [`ucs`], [`astar`], [`idastar`],
//! [`branch_and_bound`], [`beam_search`], distance fields), [`adversarial`] over [`Game`]
//! ([`minimax`], [`alphabeta`], [`negamax`] with a [`TranspositionTable`], [`mtdf`],
//! [`aspiration_search`], [`parallel_search_root`], [`shared_search_root`] over a
//! [`SharedTable`], [`iterative_deepening`], exact solving with [`ExactSolver`]), [`proof`]
//! ([`ProofSearch`]) and [`mcts`](mod@mcts) ([`Mcts`]); [`tables`] holds what they remember positions in,
//! and the files at the top (game, cost, deadline, outcome, stats, ordering) are the ground
//! floor they share. Each item's documentation has a runnable example.

// Floors: tables < single_agent, adversarial, proof, mcts
pub mod adversarial;
pub mod cost;
pub mod deadline;
pub mod game;
pub mod mcts;
pub mod ordering;
pub mod outcome;
pub mod proof;
pub mod single_agent;
pub mod stats;
pub mod tables;

pub use adversarial::abdada::shared_search_root;
pub use adversarial::alphabeta::{alphabeta, alphabeta_window, alphabeta_within, AlphaBetaSearch};
pub use adversarial::aspiration::{aspiration_search, aspiration_windows};
pub use adversarial::exact_solver::{ExactGame, ExactSolver};
pub use adversarial::iterative::{
    iterative_deepening, stability_scale, IterationKind, IterativeOptions,
};
pub use adversarial::minimax::{minimax, minimax_within};
pub use adversarial::mtdf::{mtdf, mtdf_stepped};
pub use adversarial::negamax::{negamax, ProbCut, RootMoveHook, SearchOptions, Searcher, Singular};
pub use adversarial::parallel::{parallel_search_root, ParallelRoot};
pub use cost::Cost;
pub use deadline::{Budget, Deadline, Limits, Stop};
pub use game::{
    mate_distance, mate_in, Game, GameResult, ProbCutError, Score, CONTINUATION_SIZE, HISTORY_SIZE,
    INF, WIN, WIN_BOUND,
};
pub use mcts::last_good_reply::LastGoodReply;
pub use mcts::{mcts, Mcts, MctsConfig, MctsState, MctsStats, RandomRollout, Rollout};
pub use ordering::sort_descending_by_keys;
pub use outcome::SearchOutcome;
pub use proof::pns::{ProofResult, ProofSearch};
pub use single_agent::astar::{astar, astar_with, AstarOptions, TieBreak};
pub use single_agent::beam::{beam_search, BeamOutcome};
pub use single_agent::bfs::bfs;
pub use single_agent::branch_bound::{branch_and_bound, BranchBoundOptions, BranchBoundOutcome};
pub use single_agent::dfs::dfs;
pub use single_agent::distances::{bfs_distances, ucs_distances};
pub use single_agent::dls::{depth_limited, DlsOutcome};
pub use single_agent::idastar::idastar;
pub use single_agent::iddfs::iddfs;
pub use single_agent::ucs::ucs;
pub use stats::{GameStats, SearchStats};
pub use tables::bound_table::{BoundTable, ScoreBound};
pub use tables::busy::BusyTable;
pub use tables::hash;
pub use tables::shared_tt::{PackedMove, SharedTable};
pub use tables::tt::{Bound, TranspositionTable, Transpositions, TtEntry};

/// The random generator used by every seeded search (re-exported so game crates share it).
pub use rand::rngs::SmallRng;
