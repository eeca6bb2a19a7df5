//! The homework's agents and the loop that runs one on a level, as the engine would: one
//! action per tick until the game ends or the time limit passes.
//!
//! Every agent searches with `search-core` over the simulator's compact states; moves are tried
//! in the engine's `getAvailableActions()` order (left, right, down, up).

mod bfs;
mod dfs;
mod dls;
mod guided;
mod mcts;
mod plan;

pub use bfs::bfs_plan;
pub use dfs::dfs_plan;
pub use dls::DlsAgent;
pub use guided::GuidedMctsAgent;
pub use mcts::MctsAgent;
pub use plan::{astar_plan, PlanOnce, Planner};

use crate::rules::level::Level;
use crate::rules::sim::{step, Action, MAX_TIMESTEPS};
use crate::rules::state::{Outcome, State};
use std::time::{Duration, Instant};

/// The engine's action order.
pub const ENGINE_ORDER: [Action; 4] = [Action::Left, Action::Right, Action::Down, Action::Up];

/// An agent: chooses one action per tick.
pub trait Agent {
    /// Picks the action for `state` (the level's dynamics are in `level`).
    fn act(&mut self, level: &Level, state: &State) -> Action;
}

/// Successors in the engine's action order, skipping actions that change nothing or lose.
pub fn moves<'a>(level: &'a Level, s: &State) -> impl Iterator<Item = (State, Action)> + 'a {
    let s = *s;
    ENGINE_ORDER.into_iter().filter_map(move |a| {
        let n = step(level, &s, a);
        (n != s && n.outcome != Outcome::Lost).then_some((n, a))
    })
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct Run {
    /// Every action taken.
    pub actions: Vec<Action>,
    /// The final state.
    pub state: State,
    /// Total thinking time.
    pub elapsed: Duration,
    /// The slowest single decision.
    pub slowest: Duration,
}

/// Runs `agent` from the level's start until the game ends (at most 1001 actions).
pub fn run(level: &Level, agent: &mut dyn Agent) -> Run {
    run_until(level, agent, search_core::Deadline::none())
}

/// [`run`] until `deadline` too (a server's time cap): the run stops, its last state as it
/// stands, once the deadline passes.
pub fn run_until(level: &Level, agent: &mut dyn Agent, deadline: search_core::Deadline) -> Run {
    let mut state = level.initial;
    let mut actions = Vec::new();
    let start = Instant::now();
    let mut slowest = Duration::ZERO;
    while !state.over() && actions.len() <= MAX_TIMESTEPS as usize && !deadline.expired() {
        let t = Instant::now();
        let a = agent.act(level, &state);
        slowest = slowest.max(t.elapsed());
        actions.push(a);
        state = step(level, &state, a);
    }
    Run {
        actions,
        state,
        elapsed: start.elapsed(),
        slowest,
    }
}

/// Parses an agent spec: `dfs`, `dls:DEPTH[:MS]`, `astar`, `bfs`, `mcts:MS`, `mcts-guided:MS`
/// (the MCTS agents seeded).
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    from_spec_within(spec, seed, search_core::Limits::none(), None)
}

/// [`from_spec`] for a server: the planners within `limits` (a deadline and a cap on the
/// states they keep), and the timed agents at most `max_ms` a decision (their own time when
/// they give one, else `max_ms`).
pub fn from_spec_within(
    spec: &str,
    seed: u64,
    limits: search_core::Limits,
    max_ms: Option<u64>,
) -> Result<Box<dyn Agent>, String> {
    let parts: Vec<&str> = spec.split(':').collect();
    let num = |i: usize, default: u64| -> Result<u64, String> {
        parts.get(i).map_or(Ok(default), |p| {
            p.parse()
                .map_err(|_| format!("`{p}` in `{spec}` is not a number"))
        })
    };
    // A decision's time: the spec's (100 ms by default), at most `max_ms`.
    let ms = |i: usize| -> Result<Duration, String> {
        let own = num(i, max_ms.unwrap_or(100))?;
        Ok(Duration::from_millis(max_ms.map_or(own, |m| own.min(m))))
    };
    Ok(match parts[0] {
        "dfs" => Box::new(PlanOnce::within(dfs_plan, limits)),
        "dls" => Box::new(DlsAgent::new(num(1, 6)? as usize, ms(2)?)),
        "astar" => Box::new(PlanOnce::within(astar_plan, limits)),
        "bfs" => Box::new(PlanOnce::within(bfs_plan, limits)),
        "mcts" => Box::new(MctsAgent::new(ms(1)?, seed)),
        "mcts-guided" => Box::new(GuidedMctsAgent::new(ms(1)?, seed)),
        other => {
            return Err(format!(
                "unknown agent `{other}` (dfs, dls:DEPTH[:MS], astar, bfs, mcts:MS, mcts-guided:MS)"
            ))
        }
    })
}
