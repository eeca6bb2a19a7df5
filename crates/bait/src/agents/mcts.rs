//! The homework's sample MCTS agent (task 4), rebuilt on `search-core`'s UCT: a new tree every
//! tick, a time budget, uniformly random rollouts cut at depth 10, values = game score plus 10^7
//! for a win and minus 10^7 for a loss, the exploitation term normalised by the smallest and
//! largest value seen (as the sample agent does), the most visited action played.

use super::{Agent, ENGINE_ORDER};
use crate::rules::level::Level;
use crate::rules::sim::{step, Action};
use crate::rules::state::{Outcome, State};
use search_core::{Deadline, Mcts, MctsConfig, MctsState, Rollout};
use std::time::Duration;

#[derive(Clone)]
struct Node<'a> {
    level: &'a Level,
    state: State,
}

impl MctsState for Node<'_> {
    type Move = Action;
    fn legal_moves(&self, out: &mut Vec<Action>) {
        if !self.state.over() {
            out.extend(ENGINE_ORDER);
        }
    }
    fn apply(&mut self, a: Action) {
        self.state = step(self.level, &self.state, a);
    }
    fn terminal_reward(&self) -> Option<f64> {
        match self.state.outcome {
            Outcome::Playing => None,
            Outcome::Won => Some(self.state.score as f64 + 1e7),
            Outcome::Lost => Some(self.state.score as f64 - 1e7),
        }
    }
}

struct ScoreRollout;
impl Rollout<Node<'_>> for ScoreRollout {
    fn cutoff_reward(&mut self, n: &Node<'_>) -> f64 {
        n.state.score as f64
    }
}

/// UCT with a per-tick time budget.
pub struct MctsAgent {
    budget: Duration,
    seed: u64,
    ticks: u64,
}

impl MctsAgent {
    /// Thinks `budget` per tick; `seed` makes runs reproducible for a given iteration count.
    pub fn new(budget: Duration, seed: u64) -> Self {
        MctsAgent {
            budget,
            seed,
            ticks: 0,
        }
    }
}

impl Agent for MctsAgent {
    fn act(&mut self, level: &Level, state: &State) -> Action {
        self.ticks += 1;
        let config = MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            max_iterations: None,
            deadline: Deadline::after(self.budget),
            rollout_depth: Some(10),
            normalize: true,
            seed: self.seed.wrapping_add(self.ticks),
            ..Default::default()
        };
        let mut tree = Mcts::new(
            Node {
                level,
                state: *state,
            },
            config,
        );
        tree.search(&mut ScoreRollout).unwrap_or(Action::Nil)
    }
}
