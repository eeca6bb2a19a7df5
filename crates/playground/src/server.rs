//! The app's routes: the pages and their assets, and every game's JSON endpoints, over one pool of
//! engine threads with the server's limits, behind the access checks and JSON errors of
//! [`crate::access`].

use axum::routing::{get, post};
use axum::Router;

use crate::access::{self, Access};
use crate::api::{self, Limits};
use crate::{assets, astar, bait, connect4, othello, othello_book, xiangqi, xiangqi_games};

/// The whole app served on this machine alone (loopback names; docs/playground.md describes
/// each endpoint).
pub fn router(limits: Limits) -> Router {
    router_with(limits, Access::default())
}

/// The whole app, answering under the names `access` allows.
pub fn router_with(limits: Limits, access: Access) -> Router {
    Router::new()
        .merge(assets::routes())
        .route("/api/xiangqi/state", post(xiangqi::state))
        .route("/api/xiangqi/inputs", get(xiangqi::inputs))
        .route("/api/xiangqi/think", get(xiangqi::think_stream))
        .route("/api/xiangqi/mate", post(xiangqi::mate))
        .route("/api/xiangqi/pgn", post(xiangqi_games::read))
        .route("/api/xiangqi/analyze", post(xiangqi_games::look_over))
        .route("/api/othello/state", post(othello::state))
        .route("/api/othello/move", post(othello::decide_move))
        .route("/api/othello/solve", post(othello::solve))
        .route("/api/othello/hint", get(othello::hint))
        .route("/api/othello/book", post(othello_book::book_moves))
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
        .layer(axum::extract::DefaultBodyLimit::max(access::MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(access::json_errors))
        .layer(axum::middleware::from_fn_with_state(access, access::check))
}
