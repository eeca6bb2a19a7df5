//! Fuzz tests of the playground's endpoints: arbitrary and mutated JSON bodies for every POST
//! endpoint and mutated queries for every GET one never make a handler panic or fail inside
//! (no 500), and every refusal is a JSON error. `scripts/fuzz.sh` runs these longer
//! (`FUZZ_CASES`).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use batch::fuzz::{config, text_like};
use http_body_util::BodyExt;
use playground::{router, Limits};
use proptest::prelude::*;
use std::sync::OnceLock;
use std::time::Duration;
use tower::ServiceExt;

/// Valid bodies of every POST endpoint: what the mutations start from.
const POSTS: &[(&str, &str)] = &[
    (
        "/api/xiangqi/state",
        r#"{"fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w", "moves": ["e1e2"]}"#,
    ),
    (
        "/api/xiangqi/mate",
        r#"{"fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w", "within": 2}"#,
    ),
    ("/api/othello/state", r#"{"moves": ["f5", "d6"]}"#),
    (
        "/api/othello/move",
        r#"{"moves": ["f5"], "decider": "alphabeta:2", "heuristic": "course"}"#,
    ),
    ("/api/othello/solve", r#"{"moves": ["f5", "d6", "c3"]}"#),
    ("/api/connect4/new", r#"{"seed": 3}"#),
    (
        "/api/connect4/state",
        r#"{"m": 9, "n": 9, "no_x": 0, "no_y": 8, "moves": [4, 4]}"#,
    ),
    (
        "/api/connect4/move",
        r#"{"m": 9, "n": 9, "no_x": 0, "no_y": 8, "moves": [4], "ms": 20}"#,
    ),
    (
        "/api/connect4/analyse",
        r#"{"m": 6, "n": 6, "no_x": 0, "no_y": 0, "moves": [2, 3, 2]}"#,
    ),
    (
        "/api/astar/search",
        r#"{"generate": {"rows": 12, "cols": 15, "food": 6, "seed": 4}, "algo": "astar"}"#,
    ),
    (
        "/api/astar/search",
        "{\"map\": \"3 3 1\\n0 0 1\\n1 2 0\\n3 0 0\\n2 0 0\\n\"}",
    ),
    (
        "/api/bait/play",
        "{\"level\": \"wwwwww\\nwA 1gw\\nw  k w\\nwwwwww\", \"actions\": \"RRDL\"}",
    ),
    (
        "/api/bait/agent",
        "{\"level\": \"wwwwww\\nwA 1gw\\nw  k w\\nwwwwww\", \"agent\": \"astar\"}",
    ),
    (
        "/api/bait/optimal",
        "{\"level\": \"wwwwww\\nwA 1gw\\nw  k w\\nwwwwww\", \"goal\": \"score\"}",
    ),
];

/// Valid queries of the GET endpoints.
const GETS: &[&str] = &[
    "/api/xiangqi/think?fen=&moves=h2e2,h9g7&ms=20",
    "/api/othello/hint?moves=f5,d6&depth=4",
    "/api/connect4/think?m=9&n=9&no_x=0&no_y=0&moves=4,4&ms=20&seed=1",
    "/api/bait/levels",
    "/api/astar/inputs",
];

/// A runtime for every case, and an app whose searches are short.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Runtime::new().unwrap())
}

fn limits() -> Limits {
    Limits {
        engines: 2,
        max_think: Duration::from_millis(30),
        max_wait: Duration::from_secs(5),
    }
}

fn check(method: &str, uri: &str, body: Option<String>) -> Result<(), TestCaseError> {
    let Ok(mut req) = Request::builder()
        .method(method)
        .uri(uri)
        .body(Body::empty())
    else {
        return Ok(()); // not a request any client can send
    };
    if let Some(b) = body {
        req.headers_mut()
            .insert("content-type", "application/json".parse().unwrap());
        *req.body_mut() = Body::from(b);
    }
    let (status, text) = runtime().block_on(async {
        let response = router(limits()).oneshot(req).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    });
    prop_assert!(
        status != StatusCode::INTERNAL_SERVER_ERROR,
        "{method} {uri}: 500: {text}"
    );
    if !status.is_success() {
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| TestCaseError::fail(format!("{uri}: {status} not JSON ({e}): {text}")))?;
        prop_assert!(v["error"].is_string(), "{uri}: {status}: {text}");
    }
    Ok(())
}

/// A query with its characters that cannot be in a URI escaped.
fn escaped(query: &str) -> String {
    query
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"/?=&,.-_:%".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A POST endpoint and a body for it: noise or a mutation of its sample.
fn post_case() -> impl Strategy<Value = (usize, String)> {
    (0..POSTS.len()).prop_flat_map(|i| text_like(POSTS[i].1).prop_map(move |b| (i, b)))
}

/// A GET endpoint's query, mutated.
fn get_case() -> impl Strategy<Value = String> {
    (0..GETS.len()).prop_flat_map(|i| text_like(GETS[i]))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn post_bodies_are_answered_or_refused_as_json((which, body) in post_case()) {
        check("POST", POSTS[which].0, Some(body))?;
    }

    #[test]
    fn get_queries_are_answered_or_refused_as_json(query in get_case()) {
        let uri = escaped(&query);
        if uri.starts_with('/') {
            check("GET", &uri, None)?;
        }
    }
}

#[test]
fn the_samples_are_answered() {
    for (uri, body) in POSTS {
        check("POST", uri, Some(body.to_string())).unwrap();
    }
    for uri in GETS {
        check("GET", uri, None).unwrap();
    }
}
