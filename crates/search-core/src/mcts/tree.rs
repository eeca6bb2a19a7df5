//! The tree's storage: nodes in one arena, each node's children contiguous, and with
//! [`MctsConfig::transpositions`] the statistics pooled by position, one node of each position
//! holding its children.

use super::{Mcts, MctsState};

pub(super) const NONE: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub(super) struct Node<M> {
    pub(super) mv: Option<M>,
    pub(super) parent: u32,
    pub(super) first_child: u32,
    pub(super) children: u32,
    pub(super) expanded: bool,
    /// Player who made `mv` (reward is credited from their side).
    pub(super) mover: u8,
    pub(super) visits: u32,
    pub(super) total: f64,
    /// With the solver: +1 proven win, −1 proven loss, 0 unknown; for the player who moved
    /// into the node, except at the root, where it is for the player to move. Root moves
    /// excluded by the caller ([`Mcts::exclude_root_move`]) are −1 with or without the solver.
    pub(super) proof: i8,
    /// Index of the node's position in the pooled statistics ([`MctsConfig::transpositions`]),
    /// `NONE` until the node is first entered (or without pooling).
    pub(super) shared: u32,
}

/// The pooled statistics of one position: every simulation through any node that holds it.
#[derive(Debug, Clone, Copy)]
pub(super) struct SharedStats {
    pub(super) key: u64,
    pub(super) visits: u32,
    pub(super) total: f64,
    /// The one node of the position that has children (`NONE` until one is expanded): every
    /// other node holding the position searches on through its children, so the position's
    /// subtree is searched once, whatever move order reaches it.
    pub(super) holder: u32,
}

/// The node whose children continue the search from `node`: the expanded node of its
/// position when another one holds it ([`SharedStats::holder`]), else `node` itself.
#[inline]
pub(super) fn holder_in<M>(nodes: &[Node<M>], shared: &[SharedStats], node: u32) -> u32 {
    match nodes[node as usize].shared {
        NONE => node,
        slot => match shared[slot as usize].holder {
            NONE => node,
            holder => holder,
        },
    }
}

impl<S: MctsState> Mcts<S> {
    pub(super) fn reset_tree(&mut self) {
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

    /// The arena indices of `node`'s children (empty when it has none).
    pub(super) fn children_of(&self, node: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[node as usize];
        if n.first_child == NONE {
            0..0
        } else {
            n.first_child..n.first_child + n.children
        }
    }

    /// Whether positions are pooled: [`MctsConfig::transpositions`] without the solver (whose
    /// proofs follow each node's one parent).
    #[inline]
    pub(super) fn pooling(&self) -> bool {
        self.config.transpositions && !self.config.solver
    }

    /// The node whose children continue the search from `node` ([`holder_in`]).
    #[inline]
    pub(super) fn holder_of(&self, node: u32) -> u32 {
        holder_in(&self.nodes, &self.shared, node)
    }

    /// The visits and total reward that judge `node`: its position's pooled statistics when
    /// positions are pooled, else its own.
    #[inline]
    pub(super) fn judged_stats(&self, node: &Node<S::Move>) -> (u32, f64) {
        match node.shared {
            NONE => (node.visits, node.total),
            slot => {
                let pooled = &self.shared[slot as usize];
                (pooled.visits, pooled.total)
            }
        }
    }

    /// Links `node` to the pooled statistics of its position (`key`), making them if needed.
    pub(super) fn share(&mut self, node: u32, key: u64) {
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
    pub(super) fn enter(&mut self, node: u32, state: &S) {
        if self.pooling() && self.nodes[node as usize].shared == NONE {
            if let Some(key) = state.key() {
                self.share(node, key);
            }
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
}
