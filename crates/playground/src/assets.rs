//! The pages and their scripts, embedded in the binary so that one file serves everything:
//! `/` lists the games, `/<game>` is a game's page, `/assets/<file>` its scripts and styles.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// Every embedded file: its name under `assets/` and its text.
pub const FILES: &[(&str, &str)] = &[
    ("index.html", include_str!("../assets/index.html")),
    ("xiangqi.html", include_str!("../assets/xiangqi.html")),
    ("othello.html", include_str!("../assets/othello.html")),
    ("connect4.html", include_str!("../assets/connect4.html")),
    ("astar.html", include_str!("../assets/astar.html")),
    ("bait.html", include_str!("../assets/bait.html")),
    ("common.js", include_str!("../assets/common.js")),
    ("xiangqi.js", include_str!("../assets/xiangqi.js")),
    ("othello.js", include_str!("../assets/othello.js")),
    ("connect4.js", include_str!("../assets/connect4.js")),
    ("astar.js", include_str!("../assets/astar.js")),
    ("bait.js", include_str!("../assets/bait.js")),
    ("style.css", include_str!("../assets/style.css")),
];

/// The game pages, by path.
pub const PAGES: [&str; 5] = ["xiangqi", "othello", "connect4", "astar", "bait"];

/// The embedded file `name` with its content type, or a 404.
fn file(name: &str) -> Response {
    let Some((_, text)) = FILES.iter().find(|(n, _)| *n == name) else {
        return crate::api::ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no asset {name}"),
        }
        .into_response();
    };
    let kind = match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    ([(header::CONTENT_TYPE, kind)], *text).into_response()
}

async fn index() -> Response {
    file("index.html")
}

async fn page(Path(game): Path<String>) -> Response {
    if PAGES.contains(&game.as_str()) {
        file(&format!("{game}.html"))
    } else {
        crate::api::ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no page /{game} (pages: {})", PAGES.join(", ")),
        }
        .into_response()
    }
}

async fn asset(Path(name): Path<String>) -> Response {
    file(&name)
}

/// The routes of the pages and assets.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/{game}", get(page))
        .route("/assets/{name}", get(asset))
}
