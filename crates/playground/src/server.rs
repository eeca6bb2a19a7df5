//! The app's routes: the pages and their assets, and every game's JSON endpoints, over one pool of
//! engine threads with the server's limits.

use axum::routing::{get, post};
use axum::Router;

use crate::api::{self, Limits};
use crate::{assets, astar, bait, connect4, othello, xiangqi};

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
