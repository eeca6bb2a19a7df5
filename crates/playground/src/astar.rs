//! The A* page's endpoints: the course's map inputs, and a search (A* or uniform-cost search)
//! on a given or generated map with every expansion and every successor it generated, so the
//! page can step or animate the open and closed sets, then draw the route.

use crate::api::{bundled, ApiError, ApiResult, Bundled, Engines, Input};
use astar_map::generate::{random_map, RandomMap};
use astar_map::{solve_observed, HeuristicKind, Map, SearchEvent, SolveOptions};
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

/// The course's map inputs bundled with the project.
pub const INPUTS: [(&str, &str); 10] = [
    (
        "input_1.txt",
        include_str!("../../../inputs/astar-map/input_1.txt"),
    ),
    (
        "input_2.txt",
        include_str!("../../../inputs/astar-map/input_2.txt"),
    ),
    (
        "input_3.txt",
        include_str!("../../../inputs/astar-map/input_3.txt"),
    ),
    (
        "input_4.txt",
        include_str!("../../../inputs/astar-map/input_4.txt"),
    ),
    (
        "input_5.txt",
        include_str!("../../../inputs/astar-map/input_5.txt"),
    ),
    (
        "input_6.txt",
        include_str!("../../../inputs/astar-map/input_6.txt"),
    ),
    (
        "input_7.txt",
        include_str!("../../../inputs/astar-map/input_7.txt"),
    ),
    (
        "input_8.txt",
        include_str!("../../../inputs/astar-map/input_8.txt"),
    ),
    (
        "input_9.txt",
        include_str!("../../../inputs/astar-map/input_9.txt"),
    ),
    (
        "input_10.txt",
        include_str!("../../../inputs/astar-map/input_10.txt"),
    ),
];

pub(crate) async fn inputs() -> Json<Vec<Bundled>> {
    bundled(&INPUTS)
}

/// Settings of a generated map.
#[derive(Debug, Clone, Deserialize)]
pub struct Generate {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Food capacity.
    pub food: u32,
    /// Share of wall cells.
    #[serde(default = "default_walls")]
    pub walls: f64,
    /// Share of supply points among the other cells.
    #[serde(default = "default_supplies")]
    pub supplies: f64,
    /// Seed.
    #[serde(default)]
    pub seed: u64,
}

fn default_walls() -> f64 {
    0.25
}

fn default_supplies() -> f64 {
    0.05
}

/// A search request: a map (its text, or how to generate one) and the algorithm.
#[derive(Debug, Clone, Deserialize)]
pub struct SearchRequest {
    /// The map in the course format.
    #[serde(default)]
    pub map: Option<String>,
    /// Or a map to generate.
    #[serde(default)]
    pub generate: Option<Generate>,
    /// `astar` (Manhattan heuristic, the default) or `ucs` (uniform-cost search).
    #[serde(default)]
    pub algo: Option<String>,
}

/// Most cells of a map the page may search.
pub const MAX_CELLS: usize = 250_000;
/// Most search events a response carries (the search itself always runs to its end).
pub const MAX_EVENTS: usize = 200_000;

/// One expansion and the successors it put on the open list.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// Cell expanded.
    pub cell: usize,
    /// Food left there.
    pub food: u32,
    /// Days from the start.
    pub g: u32,
    /// Cells of the successors put on the open list.
    pub opened: Vec<usize>,
}

/// A search as the page replays it.
#[derive(Debug, Clone, Serialize)]
pub struct Searched {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Food capacity.
    pub food: u32,
    /// Cell codes row by row (0 ground, 1 wall, 2 supply, 3 start, 4 station).
    pub cells: Vec<u8>,
    /// The map in the course format (to edit or save).
    pub text: String,
    /// Fewest days, `None` when the station cannot be reached.
    pub days: Option<usize>,
    /// The route's moves (`U`, `D`, `L`, `R`).
    pub moves: String,
    /// The route's cells from the start.
    pub route: Vec<usize>,
    /// Food left after each move.
    pub food_after: Vec<u32>,
    /// The expansions in order.
    pub steps: Vec<Step>,
    /// Whether `steps` was cut at [`MAX_EVENTS`].
    pub truncated: bool,
    /// States expanded.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Milliseconds the search took.
    pub ms: f64,
    /// Whether the time limit stopped the search (then `days` proves nothing).
    pub stopped: bool,
}

fn map_of(req: &SearchRequest) -> Result<Map, ApiError> {
    let map = match (&req.map, &req.generate) {
        (Some(text), None) => text
            .parse::<Map>()
            .map_err(|e| ApiError::bad(format!("map: {e}")))?,
        (None, Some(g)) => {
            if g.rows.checked_mul(g.cols).is_none_or(|c| c > MAX_CELLS) || g.rows < 2 || g.cols < 2
            {
                return Err(ApiError::bad(format!(
                    "a generated map has 2x2 to {MAX_CELLS} cells"
                )));
            }
            if !(0.0..0.9).contains(&g.walls) || !(0.0..=1.0).contains(&g.supplies) {
                return Err(ApiError::bad(
                    "walls must be in [0, 0.9) and supplies in [0, 1]",
                ));
            }
            random_map(&RandomMap {
                rows: g.rows,
                cols: g.cols,
                food: g.food.clamp(1, 1000),
                walls: g.walls,
                supplies: g.supplies,
                seed: g.seed,
            })
        }
        _ => return Err(ApiError::bad("give either `map` (its text) or `generate`")),
    };
    if map.cells.len() > MAX_CELLS {
        return Err(ApiError::bad(format!(
            "{} cells: the page searches maps of at most {MAX_CELLS}",
            map.cells.len()
        )));
    }
    Ok(map)
}

fn search(map: &Map, heuristic: HeuristicKind, time: std::time::Duration) -> Searched {
    let mut steps: Vec<Step> = Vec::new();
    let mut events = 0usize;
    let options = SolveOptions {
        heuristic,
        limits: search_core::Limits {
            max_expanded: None,
            deadline: search_core::Deadline::after(time),
        },
        ..SolveOptions::default()
    };
    let s = solve_observed(map, &options, |e| {
        events += 1;
        if events > MAX_EVENTS {
            return;
        }
        match e {
            SearchEvent::Expand { cell, food, g } => steps.push(Step {
                cell,
                food,
                g,
                opened: Vec::new(),
            }),
            SearchEvent::Generate { cell, .. } => {
                if let Some(last) = steps.last_mut() {
                    last.opened.push(cell);
                }
            }
        }
    });
    let mut route = vec![map.start];
    for d in &s.moves {
        let here = *route.last().expect("the route starts at the start");
        route.push(map.step(here, *d).unwrap_or(here));
    }
    Searched {
        rows: map.rows,
        cols: map.cols,
        food: map.food,
        cells: map.cells.iter().map(|&c| c as u8).collect(),
        text: map.to_string(),
        days: s.steps,
        moves: s.moves.iter().map(|d| d.letter()).collect(),
        route,
        food_after: s.food_after,
        steps,
        truncated: events > MAX_EVENTS,
        expanded: s.stats.expanded,
        generated: s.stats.generated,
        ms: s.stats.elapsed.as_secs_f64() * 1000.0,
        stopped: s.stopped,
    }
}

pub(crate) async fn run_search(
    State(engines): State<Engines>,
    Input(req): Input<SearchRequest>,
) -> ApiResult<Searched> {
    let heuristic = match req.algo.as_deref().unwrap_or("astar") {
        "astar" => HeuristicKind::Manhattan,
        "ucs" => HeuristicKind::Zero,
        other => {
            return Err(ApiError::bad(format!(
                "unknown algorithm `{}` (astar, ucs)",
                batch::shown(other)
            )))
        }
    };
    let map = map_of(&req)?;
    let time = engines.limits.max_think;
    engines.run(move || Ok(search(&map, heuristic, time))).await
}
