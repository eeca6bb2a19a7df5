//! The Bait page's endpoints: the bundled levels, a play (a level and actions, as typed on the
//! keyboard) simulated exactly frame by frame, an agent's run, and a proven-optimal plan
//! (shortest win or maximum score) to step through.

use crate::api::{bundled, ApiError, ApiResult, Bundled, Engines, Input};
use axum::extract::State;
use axum::Json;
use bait::action::parse_actions;
use bait::render::grid_text;
use bait::sim::play;
use bait::state::Outcome;
use bait::{Level, DEFAULT_GAME};
use search_core::{Deadline, Limits};
use serde::{Deserialize, Serialize};

/// The levels bundled with the project.
pub const LEVELS: [(&str, &str); 4] = [
    (
        "level_1.txt",
        include_str!("../../../inputs/bait/level_1.txt"),
    ),
    (
        "level_2.txt",
        include_str!("../../../inputs/bait/level_2.txt"),
    ),
    (
        "level_3.txt",
        include_str!("../../../inputs/bait/level_3.txt"),
    ),
    (
        "level_4.txt",
        include_str!("../../../inputs/bait/level_4.txt"),
    ),
];

pub(crate) async fn levels() -> Json<Vec<Bundled>> {
    bundled(&LEVELS)
}

/// Parses a level's text under the bundled rules of Bait.
pub fn level(text: &str) -> Result<Level, ApiError> {
    let game = DEFAULT_GAME
        .parse()
        .map_err(|e| ApiError::bad(format!("the game description: {e}")))?;
    Level::parse(game, text).map_err(|e| ApiError::bad(format!("level: {e}")))
}

/// A play: a level and the actions taken (`U`, `D`, `L`, `R`, `N` for no action).
#[derive(Debug, Clone, Deserialize)]
pub struct PlayRequest {
    /// The level's text.
    pub level: String,
    /// The actions.
    #[serde(default)]
    pub actions: String,
}

/// A play as the page replays it, frame by frame.
#[derive(Debug, Clone, Serialize)]
pub struct Played {
    /// The actions played (a game over ignores the rest).
    pub actions: String,
    /// Each frame's grid (the level's characters, `A` the avatar), the start first.
    pub frames: Vec<String>,
    /// The score after each frame.
    pub scores: Vec<i32>,
    /// `playing`, `won` or `lost`.
    pub outcome: &'static str,
    /// Final score.
    pub score: i32,
}

/// Most actions a play may have (the game's own time limit is 1000).
const MAX_ACTIONS: usize = 2000;

/// The frames of `actions` from the start of `level`, stopping at the game's end.
pub fn played(level: &Level, actions: &[bait::sim::Action]) -> Played {
    let states = play(level, actions);
    let last = states.last().expect("a play has its start");
    Played {
        actions: actions[..states.len() - 1]
            .iter()
            .map(|a| a.letter())
            .collect(),
        frames: states.iter().map(|s| grid_text(level, s)).collect(),
        scores: states.iter().map(|s| s.score).collect(),
        outcome: match last.outcome {
            Outcome::Playing => "playing",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
        },
        score: last.score,
    }
}

pub(crate) async fn replay(Input(req): Input<PlayRequest>) -> ApiResult<Played> {
    let level = level(&req.level)?;
    if req.actions.len() > MAX_ACTIONS {
        return Err(ApiError::bad(format!("at most {MAX_ACTIONS} actions")));
    }
    let actions = parse_actions(&req.actions).map_err(ApiError::bad)?;
    Ok(Json(played(&level, &actions)))
}

/// An agent's run request.
#[derive(Debug, Clone, Deserialize)]
pub struct AgentRequest {
    /// The level's text.
    pub level: String,
    /// `astar`, `bfs`, `dfs`, `dls:DEPTH[:MS]`, `mcts:MS` or `mcts-guided:MS` (MS at most 50).
    pub agent: String,
    /// Seed of the MCTS agents.
    #[serde(default)]
    pub seed: u64,
}

/// Longest time per action an agent may take on the page (a game lasts up to 1000 actions).
const MAX_AGENT_MS: u64 = 50;

/// Most states a search of the page may expand (planners and the optimal plans): with the
/// server's time cap, what bounds its memory (a few hundred bytes a state kept).
pub const MAX_STATES: u64 = 2_000_000;

pub(crate) async fn agent(
    State(engines): State<Engines>,
    Input(req): Input<AgentRequest>,
) -> ApiResult<Played> {
    let level = level(&req.level)?;
    let too_slow = req
        .agent
        .split(':')
        .skip(if req.agent.starts_with("dls") { 2 } else { 1 })
        .any(|ms| ms.parse::<u64>().is_ok_and(|ms| ms > MAX_AGENT_MS));
    if too_slow {
        return Err(ApiError::bad(format!(
            "an agent may think at most {MAX_AGENT_MS} ms per action here"
        )));
    }
    let time = engines.limits.max_think;
    engines
        .run(move || {
            // Every agent within the server's caps: the whole run within its time, a planner
            // within its states, a timed agent at most MAX_AGENT_MS a decision.
            let deadline = Deadline::after(time);
            let limits = Limits {
                max_expanded: Some(MAX_STATES),
                deadline,
            };
            let mut agent =
                bait::agents::from_spec_within(&req.agent, req.seed, limits, Some(MAX_AGENT_MS))
                    .map_err(ApiError::bad)?;
            let run = bait::agents::run_until(&level, agent.as_mut(), deadline);
            Ok(played(&level, &run.actions))
        })
        .await
}

/// An optimal-plan request.
#[derive(Debug, Clone, Deserialize)]
pub struct OptimalRequest {
    /// The level's text.
    pub level: String,
    /// `shortest` (fewest actions to a win) or `score` (the highest score a win can have).
    #[serde(default = "default_goal")]
    pub goal: String,
}

fn default_goal() -> String {
    "shortest".into()
}

/// A proven-optimal plan and its frames.
#[derive(Debug, Clone, Serialize)]
pub struct Optimal {
    /// Whether the search finished: the plan is then proven optimal (or no win exists).
    pub proven: bool,
    /// Whether the level can be won at all (when proven).
    pub winnable: bool,
    /// States the search expanded.
    pub expanded: u64,
    /// The plan, frame by frame.
    pub play: Played,
}

pub(crate) async fn optimal(
    State(engines): State<Engines>,
    Input(req): Input<OptimalRequest>,
) -> ApiResult<Optimal> {
    let level = level(&req.level)?;
    if req.goal != "shortest" && req.goal != "score" {
        return Err(ApiError::bad(format!(
            "unknown goal `{}` (shortest, score)",
            req.goal
        )));
    }
    let time = engines.limits.max_think;
    engines
        .run(move || {
            let limits = Limits {
                max_expanded: Some(MAX_STATES),
                deadline: Deadline::after(time),
            };
            let plan = if req.goal == "shortest" {
                bait::solve::shortest(&level, &limits)
            } else {
                bait::solve::max_score(&level, &limits).1
            };
            Ok(Optimal {
                proven: plan.stopped.is_none(),
                winnable: !plan.actions.is_empty(),
                expanded: plan.stats.expanded,
                play: played(&level, &plan.actions),
            })
        })
        .await
}
