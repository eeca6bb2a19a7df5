//! Monte Carlo tree search with UCT selection.
//!
//! One iteration: *select* down the tree by UCB1 (mean reward + c·sqrt(ln N / n)), *expand* the
//! first leaf reached (all its children at once, stored contiguously in an arena), *simulate*
//! from one new child with a pluggable [`Rollout`] policy (optionally cut at a depth and scored by
//! the policy), and *back up* the reward. Rewards are for player 0; a node stores them from the
//! point of view of the player who made the move into it, so one code path serves one-player
//! puzzles (always player 0) and two-player games alike. A policy may learn as the search goes:
//! [`Rollout::simulation_done`] hands it every simulation's reward (for example to a
//! [`LastGoodReply`](crate::LastGoodReply) table of the replies that won).

use crate::hash::{FastMap, FastSet};
use crate::Deadline;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt::Debug;
use std::time::{Duration, Instant};

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

const NONE: u32 = u32::MAX;

#[derive(Debug, Clone)]
struct Node<M> {
    mv: Option<M>,
    parent: u32,
    first_child: u32,
    children: u32,
    expanded: bool,
    /// Player who made `mv` (reward is credited from their side).
    mover: u8,
    visits: u32,
    total: f64,
    /// With the solver: +1 proven win, −1 proven loss, 0 unknown; for the player who moved
    /// into the node, except at the root, where it is for the player to move. Root moves
    /// excluded by the caller ([`Mcts::exclude_root_move`]) are −1 with or without the solver.
    proof: i8,
    /// Index of the node's position in the pooled statistics ([`MctsConfig::transpositions`]),
    /// `NONE` until the node is first entered (or without pooling).
    shared: u32,
}

/// The pooled statistics of one position: every simulation through any node that holds it.
#[derive(Debug, Clone, Copy)]
struct SharedStats {
    key: u64,
    visits: u32,
    total: f64,
    /// The one node of the position that has children (`NONE` until one is expanded): every
    /// other node holding the position searches on through its children, so the position's
    /// subtree is searched once, whatever move order reaches it.
    holder: u32,
}

/// The node whose children continue the search from `node`: the expanded node of its
/// position when another one holds it ([`SharedStats::holder`]), else `node` itself.
#[inline]
fn holder_in<M>(nodes: &[Node<M>], shared: &[SharedStats], node: u32) -> u32 {
    match nodes[node as usize].shared {
        NONE => node,
        slot => match shared[slot as usize].holder {
            NONE => node,
            holder => holder,
        },
    }
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

    fn reset_tree(&mut self) {
        self.nodes.clear();
        self.shared.clear();
        self.shared_index.clear();
        self.nodes.push(Node {
            mv: None,
            parent: NONE,
            first_child: NONE,
            children: 0,
            expanded: false,
            mover: 0,
            visits: 0,
            total: 0.0,
            proof: 0,
            shared: NONE,
        });
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

    /// Takes a root move out of the search, as proven lost for the player to move by some
    /// outside proof (a proof-number search, say): selection never enters it again while
    /// another root move is open, and [`best_move`](Self::best_move) passes it over unless
    /// every root move is excluded or proven lost. Returns whether the root had that move
    /// (an unexpanded root has none yet: search first).
    ///
    /// ```
    /// use search_core::{Mcts, MctsConfig, MctsState, RandomRollout};
    /// /// Take 1 or 2 from a pile; taking the last one wins. Player 0 moves first.
    /// #[derive(Clone)]
    /// struct Nim { left: u32, to_move: usize }
    /// impl MctsState for Nim {
    ///     type Move = u32;
    ///     fn legal_moves(&self, out: &mut Vec<u32>) { out.extend((1..=2).filter(|&k| k <= self.left)); }
    ///     fn apply(&mut self, k: u32) { self.left -= k; self.to_move ^= 1; }
    ///     fn player(&self) -> usize { self.to_move }
    ///     fn terminal_reward(&self) -> Option<f64> {
    ///         (self.left == 0).then(|| if self.to_move == 1 { 1.0 } else { 0.0 })
    ///     }
    /// }
    /// let cfg = MctsConfig { max_iterations: Some(1_000), ..Default::default() };
    /// let mut tree = Mcts::new(Nim { left: 7, to_move: 0 }, cfg);
    /// assert_eq!(tree.search(&mut RandomRollout), Some(1));
    /// // Told that taking 1 loses (it does not, but the tree takes the word of the caller).
    /// assert!(tree.exclude_root_move(1));
    /// assert_eq!(tree.search(&mut RandomRollout), Some(2));
    /// ```
    pub fn exclude_root_move(&mut self, mv: S::Move) -> bool {
        match self
            .children_of(0)
            .find(|&i| self.nodes[i as usize].mv == Some(mv))
        {
            Some(i) => {
                self.nodes[i as usize].proof = -1;
                true
            }
            None => false,
        }
    }

    /// Checks the pooled statistics ([`MctsConfig::transpositions`]) against the nodes: every
    /// node linked to a position holds it (replayed from the root), each position's statistics
    /// are the sums of its nodes', and only its holder has children. Returns how many positions
    /// are pooled and how many of them more than one node holds. For tests.
    #[doc(hidden)]
    pub fn check_pooled_positions(&self) -> Result<(usize, usize), String> {
        let mut sums = vec![(0u32, 0.0f64, 0usize); self.shared.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if n.shared == NONE {
                continue;
            }
            let mut path = Vec::new();
            let mut j = i as u32;
            while j != 0 {
                path.push(self.nodes[j as usize].mv.expect("a child has a move"));
                j = self.nodes[j as usize].parent;
            }
            let mut state = self.root_state.clone();
            for &mv in path.iter().rev() {
                state.apply(mv);
            }
            let pooled = &self.shared[n.shared as usize];
            if state.key() != Some(pooled.key) {
                return Err(format!(
                    "node {i} is linked to another position's statistics"
                ));
            }
            if n.first_child != NONE && pooled.holder != i as u32 {
                return Err(format!(
                    "node {i} has children but does not hold its position"
                ));
            }
            let sum = &mut sums[n.shared as usize];
            sum.0 += n.visits;
            sum.1 += n.total;
            sum.2 += 1;
        }
        for (slot, (pooled, sum)) in self.shared.iter().zip(&sums).enumerate() {
            if pooled.visits != sum.0 || (pooled.total - sum.1).abs() > 1e-6 {
                return Err(format!(
                    "position {slot}: pooled statistics are not its nodes' sums"
                ));
            }
        }
        Ok((sums.len(), sums.iter().filter(|sum| sum.2 > 1).count()))
    }

    /// The arena indices of `node`'s children (empty when it has none).
    fn children_of(&self, node: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[node as usize];
        if n.first_child == NONE {
            0..0
        } else {
            n.first_child..n.first_child + n.children
        }
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

    /// Plays `mv` at the root, keeping its subtree when it exists.
    pub fn advance(&mut self, mv: S::Move) {
        self.root_state.apply(mv);
        let child = self
            .children_of(0)
            .find(|&i| self.nodes[i as usize].mv == Some(mv));
        match child {
            Some(c) => self.reroot(c),
            None => self.reset_tree(),
        }
    }

    /// Copies the subtree under `new_root` into a fresh arena, breadth first, keeping each
    /// node's children contiguous. With pooled positions a node searches on through its
    /// position's holder, which may lie outside the subtree kept: the first node of each
    /// position reached takes over the holder's children, so no search is lost.
    fn reroot(&mut self, new_root: u32) {
        let old = std::mem::take(&mut self.nodes);
        let old_shared = std::mem::take(&mut self.shared);
        self.shared_index.clear();
        let holder_of = |i: u32| holder_in(&old, &old_shared, i);
        let mut root = old[new_root as usize].clone();
        root.parent = NONE;
        root.mv = None;
        // The root's proof is for the player to move there. Without the solver the only
        // proofs are root moves excluded by the caller, which say nothing about the new root.
        if !self.config.solver {
            root.proof = 0;
        } else if root.mover as usize != self.root_state.player() {
            root.proof = -root.proof;
        }
        self.nodes.push(root);
        // Positions whose children are already copied under some node.
        let mut held: FastSet<u64> = FastSet::default();
        let mut queue = vec![(new_root, 0u32)];
        let mut head = 0;
        while head < queue.len() {
            let (old_i, new_i) = queue[head];
            head += 1;
            let source = holder_of(old_i);
            let n = &old[source as usize];
            let key = (n.shared != NONE).then(|| old_shared[n.shared as usize].key);
            let taken = key.is_some_and(|k| !held.insert(k));
            let copy = &mut self.nodes[new_i as usize];
            copy.first_child = NONE;
            if n.first_child == NONE || taken {
                copy.expanded = n.expanded && !taken && source == old_i;
                copy.children = 0;
                continue;
            }
            copy.expanded = true;
            copy.children = n.children;
            let first = self.nodes.len() as u32;
            self.nodes[new_i as usize].first_child = first;
            for c in n.first_child..n.first_child + n.children {
                let mut child = old[c as usize].clone();
                child.parent = new_i;
                child.first_child = NONE;
                let ni = self.nodes.len() as u32;
                self.nodes.push(child);
                queue.push((c, ni));
            }
        }
        // The pooled statistics of the positions left: the sums over the nodes kept.
        for i in 0..self.nodes.len() {
            let slot = self.nodes[i].shared;
            if slot != NONE {
                self.nodes[i].shared = NONE;
                self.share(i as u32, old_shared[slot as usize].key);
                let n = &self.nodes[i];
                let pooled = &mut self.shared[n.shared as usize];
                pooled.visits += n.visits;
                pooled.total += n.total;
                if n.first_child != NONE {
                    pooled.holder = i as u32;
                }
            }
        }
        // The root's visits count for its children's exploration: at least theirs in all
        // (other nodes of its position, not kept, may have searched through them too).
        let through_children: u32 = self
            .children_of(0)
            .map(|c| self.nodes[c as usize].visits)
            .sum();
        let root = &mut self.nodes[0];
        root.visits = root.visits.max(through_children);
        if root.shared != NONE {
            let pooled = &mut self.shared[root.shared as usize];
            pooled.visits = pooled.visits.max(through_children);
        }
    }

    /// Whether positions are pooled: [`MctsConfig::transpositions`] without the solver (whose
    /// proofs follow each node's one parent).
    #[inline]
    fn pooling(&self) -> bool {
        self.config.transpositions && !self.config.solver
    }

    /// The node whose children continue the search from `node` ([`holder_in`]).
    #[inline]
    fn holder_of(&self, node: u32) -> u32 {
        holder_in(&self.nodes, &self.shared, node)
    }

    /// The visits and total reward that judge `node`: its position's pooled statistics when
    /// positions are pooled, else its own.
    #[inline]
    fn judged_stats(&self, node: &Node<S::Move>) -> (u32, f64) {
        match node.shared {
            NONE => (node.visits, node.total),
            slot => {
                let pooled = &self.shared[slot as usize];
                (pooled.visits, pooled.total)
            }
        }
    }

    /// Links `node` to the pooled statistics of its position (`key`), making them if needed.
    fn share(&mut self, node: u32, key: u64) {
        let next = self.shared.len() as u32;
        let slot = *self.shared_index.entry(key).or_insert(next);
        if slot == next {
            self.shared.push(SharedStats {
                key,
                visits: 0,
                total: 0.0,
                holder: NONE,
            });
        }
        self.nodes[node as usize].shared = slot;
    }

    /// With [`MctsConfig::transpositions`], links a node just entered (holding `state`) to its
    /// position's pooled statistics the first time.
    #[inline]
    fn enter(&mut self, node: u32, state: &S) {
        if self.pooling() && self.nodes[node as usize].shared == NONE {
            if let Some(key) = state.key() {
                self.share(node, key);
            }
        }
    }

    fn ucb_child(&mut self, node: u32) -> u32 {
        let n = &self.nodes[node as usize];
        let ln_n = (self.judged_stats(n).0.max(1) as f64).ln();
        let (lo, hi) = self.bounds;
        let scale = if self.config.normalize && hi > lo {
            hi - lo
        } else {
            1.0
        };
        let shift = if self.config.normalize && hi > lo {
            lo
        } else {
            0.0
        };
        let mut best = NONE;
        let mut best_value = f64::NEG_INFINITY;
        for c in n.first_child..n.first_child + n.children {
            let child = &self.nodes[c as usize];
            if child.shared != NONE && self.on_path.contains(&child.shared) {
                // Back to a position on the path: only when nothing else is left (the caller
                // then stops there).
                if best == NONE {
                    best = c;
                }
                continue;
            }
            let value = if child.proof < 0 {
                // Proven lost for the chooser: only when every child is (then the node itself
                // is proven and only the root is ever searched from).
                -1e18 + self.rng.random::<f64>()
            } else if child.visits == 0 {
                // Unvisited children first, in a seeded random order.
                1e9 + self.rng.random::<f64>()
            } else {
                let (visits, total) = self.judged_stats(child);
                let mean = (total / visits as f64 - shift) / scale;
                mean + self.config.exploration * (ln_n / child.visits as f64).sqrt()
                    + 1e-9 * self.rng.random::<f64>()
            };
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// One select-expand-simulate-backup pass; false when the root cannot be searched.
    fn iterate<R: Rollout<S>>(&mut self, rollout: &mut R) -> bool {
        if self.nodes[0].proof != 0 {
            return false; // the root is proven: nothing left to learn
        }
        let mut state = self.root_state.clone();
        let mut node = 0u32;
        self.path.clear();
        self.path.push(0);
        self.on_path.clear();
        if self.nodes[0].shared != NONE {
            self.on_path.insert(self.nodes[0].shared);
        }
        // Selection. `node` is the last node of the path; with pooled positions the search
        // goes on through the children of its position's holder, and stops where the path
        // comes back to a position already on it (simulating from there).
        let mut cycle = false;
        loop {
            let at = self.holder_of(node);
            let n = &self.nodes[at as usize];
            if !n.expanded
                || n.children == 0
                || n.proof != 0
                || self.nodes[node as usize].proof != 0
            {
                break;
            }
            let next = self.ucb_child(at);
            let known = self.nodes[next as usize].shared;
            if known != NONE && self.on_path.contains(&known) {
                cycle = true;
                break;
            }
            node = next;
            state.apply(self.nodes[node as usize].mv.unwrap());
            self.enter(node, &state);
            self.path.push(node);
            let slot = self.nodes[node as usize].shared;
            if slot != NONE && !self.on_path.insert(slot) {
                // First visit of an edge that closes a cycle.
                cycle = true;
                break;
            }
        }
        // Expansion.
        let mut reward = state.terminal_reward();
        if reward.is_none() && !cycle && !self.nodes[node as usize].expanded {
            self.buf.clear();
            state.legal_moves(&mut self.buf);
            if self.nodes.len() + self.buf.len() <= self.config.max_nodes {
                let first = self.nodes.len() as u32;
                let mover = state.player() as u8;
                for &mv in &self.buf {
                    self.nodes.push(Node {
                        mv: Some(mv),
                        parent: node,
                        first_child: NONE,
                        children: 0,
                        expanded: false,
                        mover,
                        visits: 0,
                        total: 0.0,
                        proof: 0,
                        shared: NONE,
                    });
                }
                let n = &mut self.nodes[node as usize];
                n.expanded = true;
                n.first_child = if self.buf.is_empty() { NONE } else { first };
                n.children = self.buf.len() as u32;
                if n.shared != NONE {
                    self.shared[n.shared as usize].holder = node;
                }
                if !self.buf.is_empty() {
                    node = self.ucb_child(node);
                    state.apply(self.nodes[node as usize].mv.unwrap());
                    self.enter(node, &state);
                    self.path.push(node);
                    reward = state.terminal_reward();
                }
            }
        }
        if node == 0 && self.nodes[0].expanded && self.nodes[0].children == 0 {
            return false;
        }
        if node == 0 && reward.is_some() {
            return false;
        }
        if self.config.solver {
            if let Some(r) = reward {
                self.prove(node, r);
            }
        }
        let proven = self.nodes[node as usize].proof;
        if node != 0 && proven != 0 {
            // A proven node is worth its proof (its mover's win or loss).
            let mover_wins = proven > 0;
            reward = Some(if (self.nodes[node as usize].mover == 0) == mover_wins {
                1.0
            } else {
                0.0
            });
        }
        // Simulation.
        let reward = match reward {
            Some(r) => r,
            None => self.simulate(state, rollout),
        };
        if self.config.normalize {
            self.bounds.0 = self.bounds.0.min(reward);
            self.bounds.1 = self.bounds.1.max(reward);
        }
        // Backup, along the path taken (with pooled positions a node's parent need not be on it).
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            let credit = if n.mover == 0 { reward } else { 1.0 - reward };
            n.total += credit;
            if n.shared != NONE {
                let pooled = &mut self.shared[n.shared as usize];
                pooled.visits += 1;
                pooled.total += credit;
            }
        }
        true
    }

    /// Marks the terminal `node` (reward `r` for player 0) as proven when it is a win or a loss,
    /// and carries the proof up: a parent is lost for its mover when a child wins for the
    /// chooser, won when every child loses for the chooser.
    fn prove(&mut self, node: u32, r: f64) {
        if node == 0 || self.nodes[node as usize].proof != 0 {
            return;
        }
        let mover = self.nodes[node as usize].mover;
        let mover_reward = if mover == 0 { r } else { 1.0 - r };
        self.nodes[node as usize].proof = if mover_reward == 1.0 {
            1
        } else if mover_reward == 0.0 {
            -1
        } else {
            return; // a draw proves nothing here
        };
        let mut child = node;
        loop {
            let parent = self.nodes[child as usize].parent;
            if parent == NONE {
                return;
            }
            let chooser = self.nodes[child as usize].mover;
            let mut any_win = false;
            let mut all_lost = true;
            for c in self.children_of(parent) {
                let p = self.nodes[c as usize].proof;
                any_win |= p > 0;
                all_lost &= p < 0;
            }
            let for_chooser: i8 = if any_win {
                1
            } else if all_lost {
                -1
            } else {
                return;
            };
            let n = &self.nodes[parent as usize];
            let same_side = parent == 0 || n.mover == chooser;
            self.nodes[parent as usize].proof = if same_side { for_chooser } else { -for_chooser };
            child = parent;
        }
    }

    fn simulate<R: Rollout<S>>(&mut self, state: S, rollout: &mut R) -> f64 {
        let reward = self.play_out(state, rollout);
        rollout.simulation_done(reward);
        reward
    }

    /// Plays `state` out with the rollout policy (to the end, or to the depth cut-off).
    fn play_out<R: Rollout<S>>(&mut self, mut state: S, rollout: &mut R) -> f64 {
        let mut depth = 0;
        loop {
            if let Some(r) = state.terminal_reward() {
                return r;
            }
            if self.config.rollout_depth.is_some_and(|d| depth >= d) {
                return rollout.cutoff_reward(&state);
            }
            self.buf.clear();
            state.legal_moves(&mut self.buf);
            if self.buf.is_empty() {
                return rollout.cutoff_reward(&state);
            }
            let mv = rollout.choose(&state, &self.buf, &mut self.rng);
            state.apply(mv);
            depth += 1;
        }
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
