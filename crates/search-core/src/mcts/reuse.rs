//! Keeping the tree between moves: advancing the root to the child played (its subtree
//! kept, the rest dropped), and excluding root moves the caller rules out.

use super::tree::{holder_in, NONE};
use super::{Mcts, MctsState};
use crate::tables::hash::FastSet;

impl<S: MctsState> Mcts<S> {
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
    pub(super) fn reroot(&mut self, new_root: u32) {
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
}
