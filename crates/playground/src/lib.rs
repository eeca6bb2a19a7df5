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

use axum::Router;

/// The whole app: the pages, their assets and every game's endpoints under `/api/<game>/`.
pub fn router(limits: Limits) -> Router {
    let engines = api::Engines::new(limits);
    Router::new()
        .merge(assets::routes())
        .nest("/api/xiangqi", xiangqi::routes())
        .nest("/api/othello", othello::routes())
        .nest("/api/connect4", connect4::routes())
        .nest("/api/astar", astar::routes())
        .nest("/api/bait", bait::routes())
        .fallback(api::not_found)
        .with_state(engines)
}
