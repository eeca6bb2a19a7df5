//! Monte Carlo tree search with UCT selection.
//!
//! One iteration: *select* down the tree by UCB1 (mean reward + c·sqrt(ln N / n)), *expand* the
//! first leaf reached (all its children at once, stored contiguously in an arena), *simulate*
//! from one new child with a pluggable [`Rollout`] policy (optionally cut at a depth and scored by
//! the policy), and *back up* the reward. Rewards are for player 0; a node stores them from the
//! point of view of the player who made the move into it, so one code path serves one-player
//! puzzles (always player 0) and two-player games alike. A policy may learn as the search goes:
//! [`Rollout::simulation_done`] hands it every simulation's reward (for example to a
//! [`LastGoodReply`](crate::LastGoodReply) table of the replies that won). The parts: the tree's
//! storage (`tree`), one iteration's policies (`policy`), keeping the tree between moves
//! (`reuse`).

pub mod last_good_reply;
mod policy;
mod reuse;
mod tree;

use crate::deadline::Deadline;
use crate::tables::hash::{FastMap, FastSet};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt::Debug;
use std::time::{Duration, Instant};
use tree::{Node, SharedStats};

/// A game state as MCTS sees it: cloned for each simulation.
pub trait MctsState: Clone {
    /// A move.
    type Move: Copy + PartialEq + Debug;
    /// Appends the legal moves (the caller clears `out`). No moves and no terminal reward means
    /// the state is scored by the rollout policy's [`Rollout::cutoff_reward`].
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move.
    fn apply(&mut self, mv: Self::Move);
    /// The player to move, 0 or 1 (always 0 in a one-player puzzle).
    fn player(&self) -> usize {
        0
    }
    /// Reward for player 0 when the game is over (typically 1 win, 0.5 draw, 0 loss; any range
    /// with [`MctsConfig::normalize`]), `None` while it goes on.
    fn terminal_reward(&self) -> Option<f64>;
    /// A hash of the position, equal for the same position reached by different move orders
    /// (a Zobrist key, say): with [`MctsConfig::transpositions`] the tree pools the statistics
    /// of its nodes that hold the same position. `None` (the default) shares nothing.
    fn key(&self) -> Option<u64> {
        None
    }
}

/// How simulations choose moves and score positions where they stop early.
pub trait Rollout<S: MctsState> {
    /// Picks a move among `moves` (non-empty) in `state`.
    fn choose(&mut self, state: &S, moves: &[S::Move], rng: &mut SmallRng) -> S::Move {
        let _ = state;
        moves[rng.random_range(0..moves.len())]
    }
    /// Reward for player 0 of a non-terminal state where the simulation stops (depth cut-off
    /// or no legal move).
    fn cutoff_reward(&mut self, state: &S) -> f64 {
        let _ = state;
        0.5
    }
    /// Called when a simulation ends, with its reward for player 0: a policy that learns from
    /// its simulations (which replies won, say) updates itself here. The default does nothing.
    fn simulation_done(&mut self, reward: f64) {
        let _ = reward;
    }
}

/// Uniformly random rollouts, 0.5 at a cut-off.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomRollout;
impl<S: MctsState> Rollout<S> for RandomRollout {}

/// Parameters of a search.
///
/// With [`MctsConfig::solver`] the search is also an *MCTS-solver* (Winands, Björnsson and Saito,
/// 2008) for two-player games with win/loss rewards of exactly 1 and 0: a terminal node is a
/// proven win or loss for the player who moved into it, a node with a child that wins for the
/// player choosing there is proven lost for the player who moved into it, and one whose children
/// all lose is proven won. Selection never enters a child proven lost for the chooser while
/// another is open, the most visited move gives way to a proven win, and the search stops once
/// the root is proven, so time is not spent re-sampling decided lines.
///
/// With [`MctsConfig::transpositions`] the tree searches each position once, whatever move
/// order reaches it (games such as Connect Four reach most positions by many orders): nodes
/// that hold the same position ([`MctsState::key`]) pool their statistics, only the first
/// one expanded (the position's *holder*) gets children, and every other node of the
/// position searches on through the holder's children. Selection judges a child by its
/// position's pooled mean and explores by the child's own visits under the parent's pooled
/// visits (UCT on the graph of positions, after Childs, Brodeur and Kocsis, 2008); the
/// backup follows the path the iteration took.
///
/// The tree lives in a `Vec` of nodes indexed by `u32` (no per-node allocation), bounded by
/// `max_nodes`: when full, the search keeps simulating from existing leaves. [`Mcts::advance`]
/// keeps the subtree of the move played so work carries over between moves. Every random choice
/// comes from one seeded generator, so a given seed and iteration budget give the same answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    /// UCB1 exploration constant c.
    pub exploration: f64,
    /// Stop after this many iterations (per call to [`Mcts::search`]).
    pub max_iterations: Option<u64>,
    /// Stop at this deadline.
    pub deadline: Deadline,
    /// Cut simulations after this many moves and score with [`Rollout::cutoff_reward`].
    pub rollout_depth: Option<u32>,
    /// Largest tree size in nodes; the tree stops growing there.
    pub max_nodes: usize,
    /// Rescale mean rewards to [0, 1] by the smallest and largest reward seen (for puzzles
    /// whose rewards are raw scores, as in the GVGAI sample agent).
    pub normalize: bool,
    /// Seed of the random generator.
    pub seed: u64,
    /// Prove wins and losses in the tree (MCTS-solver): only for two-player games whose
    /// terminal rewards are 1 (player 0 wins), 0 (player 1 wins) or anything else for a draw.
    pub solver: bool,
    /// Pool the statistics of tree nodes that hold the same position ([`MctsState::key`]):
    /// selection judges a child by the mean reward of every simulation through its position,
    /// whichever move order reached it, and explores by the child's own visits; the
    /// position's subtree is searched once. Ignored with the solver, whose proofs follow each
    /// node's one parent.
    pub transpositions: bool,
}

impl MctsConfig {
    /// The default configuration with a budget of `n` iterations (and no deadline).
    ///
    /// ```
    /// use search_core::MctsConfig;
    /// let config = MctsConfig { seed: 7, ..MctsConfig::iterations(500) };
    /// assert_eq!(config.max_iterations, Some(500));
    /// ```
    pub fn iterations(n: u64) -> MctsConfig {
        MctsConfig {
            max_iterations: Some(n),
            ..MctsConfig::default()
        }
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            max_iterations: Some(10_000),
            deadline: Deadline::none(),
            rollout_depth: None,
            max_nodes: 1 << 22,
            normalize: false,
            seed: 0x5EED,
            solver: false,
            transpositions: false,
        }
    }
}

/// Counters of a search.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct MctsStats {
    /// Iterations (simulations) run by the last call to [`Mcts::search`].
    pub iterations: u64,
    /// Iterations per second of the last call.
    pub iterations_per_second: f64,
    /// Nodes in the tree.
    pub tree_size: usize,
    /// Time of the last call, in seconds.
    pub elapsed_s: f64,
}

/// A Monte Carlo search tree rooted at a state.
pub struct Mcts<S: MctsState> {
    root_state: S,
    nodes: Vec<Node<S::Move>>,
    config: MctsConfig,
    rng: SmallRng,
    buf: Vec<S::Move>,
    bounds: (f64, f64),
    stats: MctsStats,
    /// Pooled statistics by position ([`MctsConfig::transpositions`]), and where each key's are.
    shared: Vec<SharedStats>,
    shared_index: FastMap<u64, u32>,
    /// The nodes of the current iteration, root first (the backup follows them).
    path: Vec<u32>,
    /// Pooled positions on the current path (a game whose moves can cycle, such as a puzzle
    /// where the avatar walks back, would otherwise select round a cycle forever).
    on_path: FastSet<u32>,
}

impl<S: MctsState> Mcts<S> {
    /// A new tree for `state`.
    pub fn new(state: S, config: MctsConfig) -> Self {
        let mut m = Mcts {
            root_state: state,
            nodes: Vec::new(),
            config,
            rng: SmallRng::seed_from_u64(config.seed),
            buf: Vec::new(),
            bounds: (f64::INFINITY, f64::NEG_INFINITY),
            stats: MctsStats::default(),
            shared: Vec::new(),
            shared_index: FastMap::default(),
            path: Vec::new(),
            on_path: FastSet::default(),
        };
        m.reset_tree();
        m
    }

    /// The state at the root.
    pub fn state(&self) -> &S {
        &self.root_state
    }

    /// The budgets of the next searches.
    pub fn config(&self) -> MctsConfig {
        self.config
    }

    /// Changes the budgets for the next searches (the seed is only used at creation).
    pub fn set_config(&mut self, config: MctsConfig) {
        self.config = config;
    }

    /// Statistics of the last search.
    pub fn stats(&self) -> MctsStats {
        self.stats
    }

    /// `(move, visits, mean reward for the mover)` of each root child.
    pub fn root_children(&self) -> Vec<(S::Move, u32, f64)> {
        self.children_of(0)
            .map(|i| {
                let n = &self.nodes[i as usize];
                let mean = if n.visits > 0 {
                    n.total / n.visits as f64
                } else {
                    0.0
                };
                (n.mv.unwrap(), n.visits, mean)
            })
            .collect()
    }

    /// With the solver: whether the player to move at the root wins (`Some(true)`) or loses
    /// (`Some(false)`) by force, as far as the tree has proved.
    pub fn root_proof(&self) -> Option<bool> {
        match self.nodes[0].proof {
            0 => None,
            p => Some(p > 0),
        }
    }

    /// The root moves proved to win (`Some(true)`, with the solver) or lose (`Some(false)`, by
    /// the solver or excluded by the caller) for the player to move, `None` for the others.
    pub fn root_child_proofs(&self) -> Vec<(S::Move, Option<bool>)> {
        self.children_of(0)
            .map(|i| {
                let n = &self.nodes[i as usize];
                (n.mv.unwrap(), (n.proof != 0).then_some(n.proof > 0))
            })
            .collect()
    }

    /// Runs iterations until a budget is spent and returns the most visited root move (ties:
    /// higher mean reward), or `None` when the root has no legal move.
    pub fn search<R: Rollout<S>>(&mut self, rollout: &mut R) -> Option<S::Move> {
        let timer = Instant::now();
        let mut iterations = 0u64;
        // The clock is read about every 0.2 ms: every 64 iterations when they are fast,
        // every one when each takes that long (rollouts through an expensive evaluation).
        let (mut next_check, mut last_check) = (0u64, (0u64, timer));
        loop {
            if self.config.max_iterations.is_some_and(|m| iterations >= m) {
                break;
            }
            if iterations >= next_check {
                if self.config.deadline.expired() {
                    break;
                }
                let now = Instant::now();
                let done = iterations - last_check.0;
                let interval = if done == 0 {
                    1 // nothing measured yet
                } else {
                    let per_iteration =
                        now.duration_since(last_check.1).as_secs_f64() / done as f64;
                    (0.000_2 / per_iteration.max(1e-9)).clamp(1.0, 64.0) as u64
                };
                last_check = (iterations, now);
                next_check = iterations + interval;
            }
            if !self.iterate(rollout) {
                break; // the root is terminal or has no moves
            }
            iterations += 1;
        }
        let elapsed = timer.elapsed().max(Duration::from_nanos(1));
        self.stats = MctsStats {
            iterations,
            iterations_per_second: iterations as f64 / elapsed.as_secs_f64(),
            tree_size: self.nodes.len(),
            elapsed_s: elapsed.as_secs_f64(),
        };
        self.best_move()
    }

    /// The most visited root move so far; with the solver, a proven win first and a proven
    /// loss only when every move is one.
    pub fn best_move(&self) -> Option<S::Move> {
        let proofs = self.root_child_proofs();
        if let Some(&(mv, _)) = proofs.iter().find(|p| p.1 == Some(true)) {
            return Some(mv);
        }
        let all_lost = proofs.iter().all(|p| p.1 == Some(false));
        let mut best: Option<(u32, f64, S::Move)> = None;
        for ((mv, visits, mean), (_, proof)) in self.root_children().into_iter().zip(proofs) {
            if proof == Some(false) && !all_lost {
                continue;
            }
            if best.is_none_or(|(v, m, _)| visits > v || (visits == v && mean > m)) {
                best = Some((visits, mean, mv));
            }
        }
        best.map(|b| b.2)
    }
}

/// One-shot convenience: builds a tree for `state`, searches it and returns the move.
///
/// ```
/// use search_core::{mcts, MctsConfig, MctsState, RandomRollout};
/// /// Take 1 or 2 from a pile; taking the last one wins. Player 0 moves first.
/// #[derive(Clone)]
/// struct Nim { left: u32, to_move: usize }
/// impl MctsState for Nim {
///     type Move = u32;
///     fn legal_moves(&self, out: &mut Vec<u32>) { out.extend((1..=2).filter(|&k| k <= self.left)); }
///     fn apply(&mut self, k: u32) { self.left -= k; self.to_move ^= 1; }
///     fn player(&self) -> usize { self.to_move }
///     fn terminal_reward(&self) -> Option<f64> {
///         // The player who just moved took the last stone and won.
///         (self.left == 0).then(|| if self.to_move == 1 { 1.0 } else { 0.0 })
///     }
/// }
/// let cfg = MctsConfig { max_iterations: Some(5_000), ..Default::default() };
/// // From 7 stones, taking 1 leaves a multiple of 3: the only winning move.
/// assert_eq!(mcts(Nim { left: 7, to_move: 0 }, cfg, &mut RandomRollout), Some(1));
/// ```
pub fn mcts<S: MctsState, R: Rollout<S>>(
    state: S,
    config: MctsConfig,
    rollout: &mut R,
) -> Option<S::Move> {
    Mcts::new(state, config).search(rollout)
}
