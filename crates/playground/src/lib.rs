//! # playground
//!
//! One local web app that shows every tool of the workspace at work: play xiangqi, othello and
//! connect4 against the engines and watch them think, step through A* on a supply map, play and
//! replay Bait. The server ([`router`]) serves pages embedded in the binary and JSON endpoints
//! per game; each game module only calls its crate's public API.
//!
//! ```
//! let app = playground::router(playground::Limits::default());
//! # drop(app);
//! ```

pub mod api;
pub mod assets;
pub mod astar;
pub mod bait;
pub mod cli;
pub mod connect4;
pub mod othello;
pub mod xiangqi;

pub use api::{ApiError, Limits};

use axum::routing::{get, post};
use axum::Router;

/// The whole app: the pages, their assets and every game's endpoints (docs/playground.md
/// describes each).
pub fn router(limits: Limits) -> Router {
    Router::new()
        .merge(assets::routes())
        .route("/api/xiangqi/state", post(xiangqi::state))
        .route("/api/xiangqi/inputs", get(xiangqi::inputs))
        .route("/api/xiangqi/think", get(xiangqi::think_stream))
        .route("/api/xiangqi/mate", post(xiangqi::mate))
        .route("/api/othello/state", post(othello::state))
        .route("/api/othello/move", post(othello::decide_move))
        .route("/api/othello/solve", post(othello::solve))
        .route("/api/othello/hint", get(othello::hint))
        .route("/api/connect4/new", post(connect4::new_board))
        .route("/api/connect4/state", post(connect4::state))
        .route("/api/connect4/move", post(connect4::engine_move))
        .route("/api/connect4/think", get(connect4::think))
        .route("/api/connect4/analyse", post(connect4::analyse))
        .route("/api/astar/inputs", get(astar::inputs))
        .route("/api/astar/search", post(astar::run_search))
        .route("/api/bait/levels", get(bait::levels))
        .route("/api/bait/play", post(bait::replay))
        .route("/api/bait/agent", post(bait::agent))
        .route("/api/bait/optimal", post(bait::optimal))
        .fallback(api::not_found)
        .with_state(api::Engines::new(limits))
}
