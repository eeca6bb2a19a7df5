//! An MCTS agent that plays Bait to a win (`mcts-guided:MS`), where the homework's sample UCT
//! (`mcts:MS`) wanders. Its tree's moves are macro-actions: walk (through cells where walking
//! changes nothing but the avatar's cell) to a cell next to something, then the action that
//! changes something there (push a box, take the key, eat a mushroom, enter the goal). A win
//! of forty actions is a dozen such moves, so UCT sees far enough. On top of `search-core`'s
//! UCT: the simulator's exact state as a transposition key, states the push-aware bound proves
//! unwinnable scored as losses at once, rollouts that mostly take the macro lowering the bound
//! most, a cut-off reward that grows as the bound falls, and a tree kept from tick to tick.
//!
//! One decision per tick, as the homework requires: a chosen macro is played out action by
//! action over the next ticks, and each of those ticks spends its budget searching on from the
//! state the macro leads to.

use super::Agent;
use crate::rules::level::Level;
use crate::rules::sim::{step, Action};
use crate::rules::state::{Outcome, State};
use crate::solve::bound::PushBound;
use crate::solve::macros::{expand_macro, macros, Macro};
use rand::Rng;
use search_core::{Deadline, Mcts, MctsConfig, MctsState, Rollout, SmallRng};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::time::Duration;

/// A search node: the level and its bound (shared), and the state.
#[derive(Clone)]
struct Node {
    level: Rc<Level>,
    bound: Rc<Option<PushBound>>,
    state: State,
}

impl Node {
    /// The bound on the actions still needed, `None` when the state cannot be won.
    fn estimate(&self) -> Option<u32> {
        match (self.state.outcome, self.bound.as_ref()) {
            (Outcome::Lost, _) => None,
            (Outcome::Won, _) => Some(0),
            (Outcome::Playing, Some(b)) => b.estimate(&self.state),
            (Outcome::Playing, None) => Some(0),
        }
    }
}

/// Reward of a win: 1, plus up to 0.1 for its score (so among wins the search prefers points).
fn win_reward(score: i32) -> f64 {
    1.0 + 0.1 * (f64::from(score.max(0)) / 50.0).min(1.0)
}

impl MctsState for Node {
    type Move = Macro;
    fn legal_moves(&self, out: &mut Vec<Macro>) {
        if !self.state.over() {
            out.extend(macros(&self.level, &self.state).into_iter().map(|(m, _)| m));
        }
    }
    fn apply(&mut self, m: Macro) {
        // Walking changes only the avatar's cell (and the clock), so the walk is a jump.
        let mut at = self.state;
        at.avatar_cell = m.cell;
        at.tick += u32::from(m.walk);
        self.state = step(&self.level, &at, m.action);
    }
    fn terminal_reward(&self) -> Option<f64> {
        match self.state.outcome {
            Outcome::Won => Some(win_reward(self.state.score)),
            Outcome::Lost => Some(0.0),
            // A state the bound proves lost is as good as lost: no time goes into it.
            Outcome::Playing => self.estimate().is_none().then_some(0.0),
        }
    }
    fn key(&self) -> Option<u64> {
        let mut h = search_core::hash::FastHasher::default();
        self.state.hash(&mut h);
        Some(h.finish())
    }
}

/// Rollouts that take the macro lowering the bound most (ties at random) with probability
/// `greed`, a random one otherwise; a cut-off is worth more the lower the bound, on `scale`
/// (1.5 times the bound at the level's start).
struct BoundRollout {
    greed: f64,
    scale: f64,
}

/// Macro-actions a rollout plays before it is scored by the bound.
const ROLLOUT_DEPTH: u32 = 8;

impl Rollout<Node> for BoundRollout {
    fn choose(&mut self, node: &Node, moves: &[Macro], rng: &mut SmallRng) -> Macro {
        if !rng.random_bool(self.greed) {
            return moves[rng.random_range(0..moves.len())];
        }
        let mut best = (u32::MAX, 0u32, moves[0]);
        for &m in moves {
            let mut next = node.clone();
            next.apply(m);
            let e = next.estimate().unwrap_or(u32::MAX - 1);
            let tie: u32 = rng.random();
            if (e, tie) < (best.0, best.1) {
                best = (e, tie, m);
            }
        }
        best.2
    }
    fn cutoff_reward(&mut self, node: &Node) -> f64 {
        match node.estimate() {
            None => 0.0,
            // Nothing left to do but walk (a box pushed onto the goal, say): lost.
            Some(_) if macros(&node.level, &node.state).is_empty() => 0.0,
            // Linear in the bound, 0.8 at 0 and 0.8 / 3 at the level's start.
            Some(e) => 0.8 * (1.0 - f64::from(e) / self.scale).max(0.0),
        }
    }
}

/// Guided UCT over macro-actions with a per-tick time budget.
pub struct GuidedMctsAgent {
    budget: Duration,
    seed: u64,
    ticks: u64,
    tree: Option<Mcts<Node>>,
    /// Actions of the macro being played.
    pending: VecDeque<Action>,
    /// The reward scale: 1.5 times the bound at the first tick (at least 10).
    scale: f64,
}

impl GuidedMctsAgent {
    /// Thinks `budget` per tick; `seed` seeds every random choice.
    pub fn new(budget: Duration, seed: u64) -> Self {
        GuidedMctsAgent {
            budget,
            seed,
            ticks: 0,
            tree: None,
            pending: VecDeque::new(),
            scale: 0.0,
        }
    }

    fn config(&self) -> MctsConfig {
        MctsConfig {
            exploration: 0.4,
            max_iterations: None,
            // A tenth of the budget is left for re-rooting the tree and expanding the macro.
            deadline: Deadline::after(self.budget.mul_f64(0.9)),
            rollout_depth: Some(ROLLOUT_DEPTH),
            normalize: false,
            transpositions: true,
            // Re-rooting copies the subtree kept: at this size it takes under 10 ms.
            max_nodes: 1 << 17,
            seed: self.seed.wrapping_add(self.ticks),
            ..Default::default()
        }
    }

    /// Searches the tree for this tick's budget (when it has anything to search).
    fn think(&mut self) -> Option<Macro> {
        let config = self.config();
        let tree = self.tree.as_mut()?;
        tree.set_config(config);
        if self.scale == 0.0 {
            self.scale = (1.5 * tree.state().estimate().map_or(0.0, f64::from)).max(10.0);
        }
        tree.search(&mut BoundRollout {
            greed: 0.8,
            scale: self.scale,
        })
    }
}

impl Agent for GuidedMctsAgent {
    fn act(&mut self, level: &Level, state: &State) -> Action {
        self.ticks += 1;
        if let Some(a) = self.pending.pop_front() {
            // Mid-macro: the tree is already rooted where the macro ends; think ahead there.
            self.think();
            return a;
        }
        let reusable = self
            .tree
            .as_ref()
            .is_some_and(|t| t.state().state == *state);
        if !reusable {
            let node = Node {
                level: Rc::new(level.clone()),
                bound: Rc::new(PushBound::new(level)),
                state: *state,
            };
            self.tree = Some(Mcts::new(node, self.config()));
        }
        let Some(m) = self.think() else {
            self.tree = None;
            return Action::Nil;
        };
        let Some(actions) = expand_macro(level, state, m) else {
            self.tree = None;
            return Action::Nil;
        };
        if let Some(tree) = self.tree.as_mut() {
            tree.advance(m);
        }
        self.pending = actions.into();
        self.pending.pop_front().unwrap_or(Action::Nil)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_macro_played_action_by_action_reaches_the_state_it_promises() {
        let game = crate::rules::vgdl::DEFAULT_GAME.parse().unwrap();
        let level = Level::parse(game, "wwwwwwww\nwA  1 0w\nw  k  gw\nwwwwwwww\n").unwrap();
        let s = level.initial;
        let found = macros(&level, &s);
        assert!(!found.is_empty());
        for (m, promised) in found {
            let mut at = s;
            for a in expand_macro(&level, &s, m).unwrap() {
                at = step(&level, &at, a);
            }
            assert_eq!(at, promised, "{m:?}");
        }
    }
}
