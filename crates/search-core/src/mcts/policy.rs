//! One iteration's policies: UCB1 selection down the tree, expansion, the simulation by a
//! [`Rollout`], the backup of its reward, and with the solver the proofs of won and lost nodes.

use super::tree::{Node, NONE};
use super::{Mcts, MctsState, Rollout};
use rand::Rng;

impl<S: MctsState> Mcts<S> {
    pub(super) fn ucb_child(&mut self, node: u32) -> u32 {
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
    pub(super) fn iterate<R: Rollout<S>>(&mut self, rollout: &mut R) -> bool {
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
    pub(super) fn prove(&mut self, node: u32, r: f64) {
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

    pub(super) fn simulate<R: Rollout<S>>(&mut self, state: S, rollout: &mut R) -> f64 {
        let reward = self.play_out(state, rollout);
        rollout.simulation_done(reward);
        reward
    }

    /// Plays `state` out with the rollout policy (to the end, or to the depth cut-off).
    pub(super) fn play_out<R: Rollout<S>>(&mut self, mut state: S, rollout: &mut R) -> f64 {
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
