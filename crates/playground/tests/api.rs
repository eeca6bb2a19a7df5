//! Every endpoint over HTTP (the router answering requests in process): good requests give what
//! the game crates compute, bad ones a 4xx with a JSON error, and engines never block the rest.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use playground::{router, Limits};
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

/// The answer to one request: status and body (JSON when it parses, else a string).
async fn call_with(
    app: axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let response = app.oneshot(req.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn get(uri: &str) -> (StatusCode, Value) {
    call_with(router(Limits::default()), "GET", uri, None).await
}

async fn post(uri: &str, body: Value) -> (StatusCode, Value) {
    call_with(router(Limits::default()), "POST", uri, Some(body)).await
}

/// A request that must fail with `status` and a JSON error containing `says`.
async fn refused(uri: &str, body: Value, status: StatusCode, says: &str) {
    let (got, v) = post(uri, body).await;
    assert_eq!(got, status, "{uri}: {v}");
    let message = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{uri}: no JSON error in {v}"));
    assert!(
        message.contains(says),
        "{uri}: `{message}` does not say `{says}`"
    );
}

/// The events of a server-sent event stream: (name, data as JSON).
fn events(stream: &Value) -> Vec<(String, Value)> {
    let text = stream.as_str().expect("an event stream is text");
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}

#[tokio::test]
async fn pages_and_assets_are_served_and_unknown_paths_get_a_json_404() {
    for path in ["/", "/xiangqi", "/othello", "/connect4", "/astar", "/bait"] {
        let (status, v) = get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(v.as_str().unwrap().starts_with("<!doctype html>"), "{path}");
    }
    for (name, _) in playground::assets::FILES {
        assert_eq!(
            get(&format!("/assets/{name}")).await.0,
            StatusCode::OK,
            "{name}"
        );
    }
    for path in ["/chess", "/assets/nothing.js", "/api/othello/nothing"] {
        let (status, v) = get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(v["error"].is_string(), "{path}: {v}");
    }
}

#[tokio::test]
async fn malformed_bodies_are_refused_with_a_message() {
    let app = router(Limits::default());
    let req = Request::post("/api/othello/state")
        .header("content-type", "application/json")
        .body(Body::from("{\"moves\": [1, 2"))
        .unwrap();
    let response = app.clone().oneshot(req).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let req = Request::post("/api/othello/state")
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(
        app.oneshot(req).await.unwrap().status(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    refused(
        "/api/connect4/state",
        json!({"m": "nine"}),
        StatusCode::BAD_REQUEST,
        "m",
    )
    .await;
}

const MATE_IN_ONE: &str = "3k5/9/9/9/9/9/9/9/4R4/4K4 w";

#[tokio::test]
async fn xiangqi_positions_moves_thinking_and_mates() {
    let (status, v) = post("/api/xiangqi/state", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["cells"].as_array().unwrap().len(), 90);
    assert_eq!(
        v["legal"].as_array().unwrap().len(),
        44,
        "the start has 44 legal moves"
    );
    assert_eq!(
        (v["side"].as_str(), v["cells"][0]["square"].as_str()),
        (Some("red"), Some("a9"))
    );
    let (_, v) = post("/api/xiangqi/state", json!({"moves": ["h2e2", "h9g7"]})).await;
    assert_eq!(
        (v["side"].as_str(), v["last"].as_str()),
        (Some("red"), Some("h9g7"))
    );
    // Knights out and back: the start repeats, a draw as the referee of `match` rules it.
    let (_, v) = post(
        "/api/xiangqi/state",
        json!({"moves": ["b0c2", "b9c7", "c2b0", "c7b9"]}),
    )
    .await;
    assert!(
        v["over"].as_str().unwrap().contains("draw by repetition"),
        "{v}"
    );
    // A rook checking from both sides forever loses (here red checks every move).
    let (_, v) = post(
        "/api/xiangqi/state",
        json!({"fen": "4k4/9/9/9/9/9/9/9/9/R2K5 w", "moves": ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9"]}),
    )
    .await;
    assert!(
        v["over"]
            .as_str()
            .unwrap()
            .contains("red checked perpetually: black wins"),
        "{v}"
    );
    refused(
        "/api/xiangqi/state",
        json!({"fen": "xyz"}),
        StatusCode::BAD_REQUEST,
        "bad FEN",
    )
    .await;
    refused(
        "/api/xiangqi/state",
        json!({"moves": ["h2e2", "h2e2"]}),
        StatusCode::BAD_REQUEST,
        "illegal move h2e2",
    )
    .await;

    let (status, inputs) = get("/api/xiangqi/inputs").await;
    assert_eq!(status, StatusCode::OK);
    for ex in inputs.as_array().unwrap() {
        let (status, v) = post("/api/xiangqi/state", json!({"fen": ex["fen"]})).await;
        assert_eq!(
            (status, v["side"].as_str()),
            (StatusCode::OK, Some("red")),
            "{ex}"
        );
    }

    let (status, stream) = get(&format!(
        "/api/xiangqi/think?fen={}&ms=300",
        MATE_IN_ONE.replace(' ', "%20")
    ))
    .await;
    assert_eq!(status, StatusCode::OK);
    let events = events(&stream);
    assert!(events
        .iter()
        .any(|(name, it)| name == "info" && it["depth"].as_u64() >= Some(1)));
    // Both e1e8 and e1d1 mate at once (the kings may not face each other on the e-file).
    let (last, answer) = events.last().unwrap();
    assert_eq!(
        (last.as_str(), answer["last"]["mate"].as_i64()),
        ("best", Some(1))
    );
    let mated = json!({"fen": MATE_IN_ONE, "moves": [answer["move"]]});
    let (_, v) = post("/api/xiangqi/state", mated).await;
    assert_eq!(v["over"].as_str(), Some("black is checkmated: red wins"));
    let over = "3k5/9/9/9/9/9/9/9/9/3RK4 b";
    let (status, v) = get(&format!(
        "/api/xiangqi/think?fen={}&moves=d9e9",
        over.replace(' ', "%20")
    ))
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");

    let (_, v) = post(
        "/api/xiangqi/mate",
        json!({"fen": MATE_IN_ONE, "within": 2}),
    )
    .await;
    assert_eq!(
        (v["result"].as_str(), v["moves"].as_u64()),
        (Some("mate"), Some(1))
    );
    assert_eq!(v["line"][0].as_str(), Some("e1e8"));
    let (_, v) = post("/api/xiangqi/mate", json!({"within": 1})).await;
    assert_eq!(
        v["result"].as_str(),
        Some("none"),
        "no mate in one from the start: {v}"
    );
    refused(
        "/api/xiangqi/mate",
        json!({"within": 9}),
        StatusCode::BAD_REQUEST,
        "1 to 7",
    )
    .await;
}

/// The exact final disc difference for the side to move by plain negamax over every line:
/// the slow obvious truth the solver endpoint is checked against.
fn negamax_to_the_end(p: &othello::Position) -> i32 {
    if p.game_over() {
        return p.final_score();
    }
    let mut moves = Vec::new();
    p.push_moves(&mut moves);
    moves
        .iter()
        .map(|&m| -negamax_to_the_end(&p.play(m)))
        .max()
        .unwrap()
}

/// The moves of a game from the start that always plays the first legal move (passing when it
/// must), until `empties` squares are left.
fn first_move_game(empties: u32) -> (Vec<String>, othello::Position) {
    let mut p = othello::Position::default();
    let mut moves = Vec::new();
    while p.empties() > empties && !p.game_over() {
        let mut legal = Vec::new();
        p.push_moves(&mut legal);
        moves.push(legal[0].to_string());
        p = p.play(legal[0]);
    }
    (moves, p)
}

#[tokio::test]
async fn othello_deciders_trees_exact_values_and_analysis() {
    let (status, v) = post("/api/othello/state", json!({"moves": []})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["legal"], json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(
        (v["black"].as_u64(), v["white"].as_u64()),
        (Some(2), Some(2))
    );
    let (_, v) = post("/api/othello/state", json!({"moves": ["f5"]})).await;
    assert_eq!(
        (v["side"].as_str(), v["black"].as_u64()),
        (Some("white"), Some(4))
    );
    refused(
        "/api/othello/state",
        json!({"moves": ["a1"]}),
        StatusCode::BAD_REQUEST,
        "not legal",
    )
    .await;
    refused(
        "/api/othello/state",
        json!({"moves": ["z9"]}),
        StatusCode::BAD_REQUEST,
        "not a move",
    )
    .await;

    let (status, v) = post(
        "/api/othello/move",
        json!({"moves": ["f5"], "decider": "alphabeta:2", "heuristic": "course"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(
        ["d6", "f6", "f4"].contains(&v["move"].as_str().unwrap()),
        "{v}"
    );
    assert!(
        v["tree"].as_str().unwrap().starts_with("<svg"),
        "a depth-2 tree is drawn"
    );
    let (_, v) = post(
        "/api/othello/move",
        json!({"moves": [], "decider": "learned:4"}),
    )
    .await;
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&v["move"].as_str().unwrap()),
        "{v}"
    );
    assert!(v["eval"].is_number());
    refused(
        "/api/othello/move",
        json!({"decider": "bogus"}),
        StatusCode::BAD_REQUEST,
        "unknown decider",
    )
    .await;
    refused(
        "/api/othello/move",
        json!({"decider": "minimax:9"}),
        StatusCode::BAD_REQUEST,
        "depth at most",
    )
    .await;
    refused(
        "/api/othello/move",
        json!({"decider": "alphabeta:2", "heuristic": "x"}),
        StatusCode::BAD_REQUEST,
        "unknown heuristic",
    )
    .await;

    let (moves, p) = first_move_game(9);
    let (_, v) = post("/api/othello/solve", json!({"moves": moves})).await;
    assert_eq!(v["solved"], json!(true), "{v}");
    assert_eq!(v["value"].as_i64(), Some(i64::from(negamax_to_the_end(&p))));
    refused(
        "/api/othello/solve",
        json!({"moves": []}),
        StatusCode::BAD_REQUEST,
        "empty squares",
    )
    .await;

    let (status, stream) = get("/api/othello/hint?moves=f5&depth=3").await;
    assert_eq!(status, StatusCode::OK);
    let events = events(&stream);
    let depths: Vec<u64> = events
        .iter()
        .filter(|(n, _)| n == "depth")
        .map(|(_, row)| row[0]["depth"].as_u64().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3]);
    assert_eq!(events.last().unwrap().0, "done");
    assert_eq!(
        get("/api/othello/hint?depth=40").await.0,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn connect4_boards_engine_moves_and_analysis() {
    let (status, v) = post("/api/connect4/new", json!({"seed": 3})).await;
    assert_eq!(status, StatusCode::OK);
    let g = &v["game"];
    let (m, n) = (
        g["m"].as_u64().unwrap() as usize,
        g["n"].as_u64().unwrap() as usize,
    );
    assert!((9..=12).contains(&m) && (9..=12).contains(&n));
    let (x, y) = (
        g["no_x"].as_u64().unwrap() as usize,
        g["no_y"].as_u64().unwrap() as usize,
    );
    assert_eq!(v["cells"][x][y], json!(3), "the forbidden cell is drawn");

    let board = json!({"m": 9, "n": 9, "no_x": 0, "no_y": 8});
    let with = |moves: Value| {
        let mut b = board.clone();
        b["moves"] = moves;
        b
    };
    let (status, v) = post(
        "/api/connect4/move",
        json!({"m": 9, "n": 9, "no_x": 0, "no_y": 8, "moves": [4], "ms": 200}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let column = v["column"].as_u64().unwrap();
    assert!(column < 9);
    let visits: u64 = v["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["visits"].as_u64().unwrap())
        .sum();
    assert!(visits > 0, "{v}");
    assert_eq!(v["view"]["game"]["moves"], json!([4, column]));

    let (status, stream) = get("/api/connect4/think?m=9&n=9&no_x=0&no_y=8&moves=4&ms=300").await;
    assert_eq!(status, StatusCode::OK);
    let events = events(&stream);
    let totals: Vec<u64> = events
        .iter()
        .filter(|(name, _)| name == "visits")
        .map(|(_, cols)| {
            cols.as_array()
                .unwrap()
                .iter()
                .map(|c| c["visits"].as_u64().unwrap())
                .sum()
        })
        .collect();
    assert!(
        totals.len() >= 2 && totals.windows(2).all(|w| w[0] <= w[1]),
        "visits grow as the search goes: {totals:?}"
    );
    let (last, answer) = events.last().unwrap();
    assert_eq!(last, "move");
    assert_eq!(answer["view"]["game"]["moves"][0], json!(4));
    let (status, _) = get("/api/connect4/think?m=9&n=9&no_x=0&no_y=8&moves=0,1,0,1,0,1,0").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no thinking after the end");
    let (status, _) = get("/api/connect4/think?m=9&n=9&no_x=0&no_y=8&moves=x").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a column is a number");

    // Player 1 stacks four in column 0.
    let (_, v) = post("/api/connect4/state", with(json!([0, 1, 0, 1, 0, 1, 0]))).await;
    assert_eq!(v["over"].as_str(), Some("1 wins"));
    assert_eq!(v["legal"], json!([]));
    refused(
        "/api/connect4/move",
        with(json!([0, 1, 0, 1, 0, 1, 0])),
        StatusCode::BAD_REQUEST,
        "over",
    )
    .await;
    let (_, v) = post("/api/connect4/analyse", with(json!([0, 1, 0, 1, 0, 1, 0]))).await;
    assert_eq!(v["verdicts"].as_array().unwrap().len(), 8);
    assert_eq!(
        v["losing_move"].as_u64(),
        Some(5),
        "player 2's last move could not stop the win: {v}"
    );

    refused(
        "/api/connect4/state",
        with(json!([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
        StatusCode::BAD_REQUEST,
        "full",
    )
    .await;
    refused(
        "/api/connect4/analyse",
        json!({"m": 9, "n": 9, "no_x": 0, "no_y": 0, "moves": [9]}),
        StatusCode::BAD_REQUEST,
        "full or off the board",
    )
    .await;
    refused(
        "/api/connect4/new",
        json!({"seed": "x"}),
        StatusCode::BAD_REQUEST,
        "seed",
    )
    .await;
    refused(
        "/api/connect4/state",
        json!({"m": 8, "n": 9, "no_x": 0, "no_y": 0}),
        StatusCode::BAD_REQUEST,
        "9 to 12",
    )
    .await;
    refused(
        "/api/connect4/state",
        json!({"m": 9, "n": 9, "no_x": 9, "no_y": 0}),
        StatusCode::BAD_REQUEST,
        "off the",
    )
    .await;
}

#[tokio::test]
async fn astar_searches_replay_what_the_solver_finds() {
    let (_, inputs) = get("/api/astar/inputs").await;
    let inputs = inputs.as_array().unwrap();
    assert_eq!(inputs.len(), 10);
    for ex in inputs {
        let text = ex["text"].as_str().unwrap();
        let map: astar_map::Map = text.parse().unwrap();
        let truth = astar_map::solve(&map, &astar_map::SolveOptions::default());
        let (status, a) = post("/api/astar/search", json!({"map": text})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            a["days"].as_u64(),
            truth.steps.map(|s| s as u64),
            "{}",
            ex["name"]
        );
        assert_eq!(
            a["steps"].as_array().unwrap().len() as u64,
            a["expanded"].as_u64().unwrap()
        );
        let route = a["route"].as_array().unwrap();
        if let Some(days) = truth.steps {
            assert_eq!(route.len(), days + 1);
            assert_eq!(route.last().unwrap().as_u64(), Some(map.station as u64));
        }
        let (_, u) = post("/api/astar/search", json!({"map": text, "algo": "ucs"})).await;
        assert_eq!(u["days"], a["days"], "{}", ex["name"]);
        assert!(
            u["expanded"].as_u64() >= a["expanded"].as_u64(),
            "{}",
            ex["name"]
        );
    }
    let (status, g) = post(
        "/api/astar/search",
        json!({"generate": {"rows": 12, "cols": 15, "food": 6, "seed": 4}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(g["cells"].as_array().unwrap().len(), 180);
    refused(
        "/api/astar/search",
        json!({"map": "3 3 3\n0 0 9\n"}),
        StatusCode::BAD_REQUEST,
        "map: ",
    )
    .await;
    refused(
        "/api/astar/search",
        json!({"generate": {"rows": 600, "cols": 600, "food": 3}}),
        StatusCode::BAD_REQUEST,
        "cells",
    )
    .await;
    // Sizes whose product overflows are refused, not wrapped into a small map.
    refused(
        "/api/astar/search",
        json!({"generate": {"rows": 4294967296u64, "cols": 4294967296u64, "food": 3}}),
        StatusCode::BAD_REQUEST,
        "cells",
    )
    .await;
    refused(
        "/api/astar/search",
        json!({}),
        StatusCode::BAD_REQUEST,
        "either",
    )
    .await;
    refused(
        "/api/astar/search",
        json!({"map": inputs[0]["text"], "algo": "dfs"}),
        StatusCode::BAD_REQUEST,
        "unknown algorithm",
    )
    .await;
}

#[tokio::test]
async fn bait_plays_agents_and_optimal_plans() {
    let (_, levels) = get("/api/bait/levels").await;
    let level = levels[0]["text"].as_str().unwrap().to_string();
    let (status, v) = post("/api/bait/play", json!({"level": level})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (v["frames"].as_array().unwrap().len(), v["outcome"].as_str()),
        (1, Some("playing"))
    );

    let (_, opt) = post("/api/bait/optimal", json!({"level": level})).await;
    let parsed = playground::bait::level(&level).unwrap();
    let truth = bait::solve::shortest(&parsed, &search_core::Limits::none());
    assert_eq!(opt["proven"], json!(true));
    let plan = opt["play"]["actions"].as_str().unwrap();
    assert_eq!(plan.len(), truth.actions.len());
    assert_eq!(opt["play"]["outcome"].as_str(), Some("won"));
    // The plan typed key by key wins the same way.
    let (_, typed) = post("/api/bait/play", json!({"level": level, "actions": plan})).await;
    assert_eq!(
        (typed["outcome"].as_str(), &typed["score"]),
        (Some("won"), &opt["play"]["score"])
    );
    let (_, best) = post(
        "/api/bait/optimal",
        json!({"level": level, "goal": "score"}),
    )
    .await;
    assert!(best["play"]["score"].as_i64() >= opt["play"]["score"].as_i64());

    let (status, run) = post("/api/bait/agent", json!({"level": level, "agent": "astar"})).await;
    assert_eq!(status, StatusCode::OK, "{run}");
    assert_eq!(
        run["frames"].as_array().unwrap().len(),
        run["actions"].as_str().unwrap().len() + 1
    );

    refused(
        "/api/bait/play",
        json!({"level": "wwwww\nwAAgw\nwwwww"}),
        StatusCode::BAD_REQUEST,
        "second avatar",
    )
    .await;
    refused(
        "/api/bait/play",
        json!({"level": level, "actions": "UX"}),
        StatusCode::BAD_REQUEST,
        "X",
    )
    .await;
    refused(
        "/api/bait/agent",
        json!({"level": level, "agent": "mcts:5000"}),
        StatusCode::BAD_REQUEST,
        "at most",
    )
    .await;
    refused(
        "/api/bait/agent",
        json!({"level": level, "agent": "telepathy"}),
        StatusCode::BAD_REQUEST,
        "telepathy",
    )
    .await;
    refused(
        "/api/bait/optimal",
        json!({"level": level, "goal": "fun"}),
        StatusCode::BAD_REQUEST,
        "unknown goal",
    )
    .await;
}

#[tokio::test]
async fn a_thinking_engine_blocks_neither_pages_nor_quick_requests_and_a_full_pool_says_so() {
    let limits = Limits {
        engines: 1,
        max_think: Duration::from_secs(10),
        max_wait: Duration::from_millis(50),
    };
    let app = router(limits);
    let thinking = tokio::spawn(call_with(
        app.clone(),
        "POST",
        "/api/connect4/move",
        Some(json!({"m": 12, "n": 12, "no_x": 0, "no_y": 0, "ms": 3000})),
    ));
    // Let the search take the pool's only engine.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, _) = call_with(app.clone(), "POST", "/api/othello/state", Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        call_with(app.clone(), "GET", "/othello", None).await.0,
        StatusCode::OK
    );
    assert!(
        !thinking.is_finished(),
        "the quick requests were answered while the engine thought"
    );
    let (status, v) = call_with(
        app.clone(),
        "POST",
        "/api/othello/move",
        Some(json!({"decider": "random"})),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("busy"));
    assert_eq!(thinking.await.unwrap().0, StatusCode::OK);
}

#[tokio::test]
async fn every_decider_and_agent_stays_within_the_servers_time() {
    let limits = Limits {
        engines: 2,
        max_think: Duration::from_millis(300),
        max_wait: Duration::from_secs(5),
    };
    let app = router(limits);
    let (moves, _) = first_move_game(34);
    let (_, levels) = call_with(app.clone(), "GET", "/api/bait/levels", None).await;
    let hardest = levels.as_array().unwrap().last().unwrap()["text"].clone();
    let mut asks = vec![
        (
            "/api/othello/move",
            json!({"moves": moves, "decider": "minimax:6"}),
        ),
        (
            "/api/othello/move",
            json!({"moves": moves, "decider": "alphabeta:6", "heuristic": "course"}),
        ),
        (
            "/api/othello/move",
            json!({"moves": moves, "decider": "learned:16"}),
        ),
    ];
    for agent in [
        "mcts",
        "mcts:50",
        "mcts-guided:50",
        "astar",
        "bfs",
        "dfs",
        "dls:40",
        "dls:40:50",
    ] {
        asks.push(("/api/bait/agent", json!({"level": hardest, "agent": agent})));
    }
    asks.push((
        "/api/bait/optimal",
        json!({"level": hardest, "goal": "score"}),
    ));
    for (uri, body) in asks {
        let t = std::time::Instant::now();
        let (status, v) = call_with(app.clone(), "POST", uri, Some(body.clone())).await;
        let took = t.elapsed();
        assert!(
            status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE,
            "{uri} {body}: {status} {v}"
        );
        assert!(
            took < Duration::from_millis(1500),
            "{uri} {body}: answered after {took:?} with a 300 ms cap"
        );
        if uri == "/api/othello/move" && status == StatusCode::OK {
            assert!(
                v["tree"].is_null() || v["nodes"].as_u64() <= Some(400),
                "{v}"
            );
        }
    }
}

#[tokio::test]
async fn xiangqi_game_records_are_read_stepped_and_looked_over() {
    let pgn = "[Red \"A\"]\n[Black \"B\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n\n\
               [Event \"bad\"]\n1. 炮二平五 車１進９ *\n\n\
               [FEN \"3k5/9/9/9/9/9/9/2n6/9/R3K4 w\"]\n1. a0a1 c2a1 *\n";
    let (status, v) = post("/api/xiangqi/pgn", json!({"pgn": pgn})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["games"], json!(3));
    assert_eq!(v["moves"], json!(["h2e2", "h9g7", "h0g2", "i9h9"]));
    assert_eq!(v["chinese"][1], json!("馬８進７"));
    assert!(
        v["rejected"][0]
            .as_str()
            .unwrap()
            .contains("game 2, line 6, move 1..."),
        "{v}"
    );
    refused(
        "/api/xiangqi/pgn",
        json!({"pgn": pgn, "game": 2}),
        StatusCode::BAD_REQUEST,
        "no legal move fits it",
    )
    .await;
    refused(
        "/api/xiangqi/pgn",
        json!({"pgn": pgn, "game": 9}),
        StatusCode::BAD_REQUEST,
        "holds 3 games",
    )
    .await;
    refused(
        "/api/xiangqi/pgn",
        json!({"pgn": ""}),
        StatusCode::BAD_REQUEST,
        "no game",
    )
    .await;
    // The engine looks the hung rook over: a blunder, the better move, a graph.
    let (status, v) = post(
        "/api/xiangqi/analyze",
        json!({"pgn": pgn, "game": 3, "ms": 200}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let first = &v["moves"][0];
    assert_eq!(first["played"], json!("a0a1"));
    assert_eq!(first["verdict"], json!("Blunder"), "{v}");
    assert_ne!(first["best"], json!("a0a1"));
    assert!(v["svg"].as_str().unwrap().starts_with("<svg"));
}

#[tokio::test]
async fn a_long_bad_text_is_quoted_in_part_not_echoed_whole() {
    let fen = "x".repeat(200_000);
    let (status, v) = post("/api/xiangqi/state", json!({ "fen": fen })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = v["error"].as_str().unwrap();
    assert!(
        message.contains("bad FEN"),
        "{}",
        &message[..100.min(message.len())]
    );
    assert!(message.len() < 1_000, "{} characters echoed", message.len());
}

#[tokio::test]
async fn the_othello_page_shows_the_books_moves() {
    use othello::formats::archive::ArchiveGame;
    use othello::formats::record::{black_final_diff, GameRecord};
    use othello::search::book::{Book, BookOptions};
    // Before a book is loaded the page is told so.
    let (status, v) = post("/api/othello/book", json!({"moves": []})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["loaded"], json!(false));
    // A book of 300 seeded random games, to 4 plies.
    let games: Vec<ArchiveGame> = (0..300u64)
        .map(|seed| {
            let positions: Vec<othello::Position> = othello::Position::random_game(seed).collect();
            let squares = positions
                .windows(2)
                .filter_map(|w| {
                    let played = (w[1].me | w[1].opp) & !(w[0].me | w[0].opp);
                    (played != 0).then(|| played.trailing_zeros() as u8)
                })
                .collect();
            ArchiveGame {
                file: 0,
                index: seed as usize + 1,
                record: GameRecord {
                    squares,
                    black_diff: black_final_diff(positions.last().unwrap()),
                    ..GameRecord::default()
                },
                finished: true,
            }
        })
        .collect();
    let options = BookOptions {
        plies: 4,
        min_games: 2,
        depth: 2,
        threads: 1,
    };
    let book = Book::build(&games, &options, &|| {});
    let path = std::env::temp_dir().join(format!("playground-book-{}.bin", std::process::id()));
    std::fs::write(&path, book.to_bytes()).unwrap();
    let positions = playground::othello_book::load_book(&path).unwrap();
    assert_eq!(positions, book.nodes.len());
    std::fs::remove_file(&path).unwrap();
    // The start: every first move is the same up to symmetry, so all 300 games go through each.
    let (_, v) = post("/api/othello/book", json!({"moves": []})).await;
    assert_eq!(v["loaded"], json!(true));
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "{v}");
    assert!(moves.iter().all(|m| m["games"] == json!(300)), "{v}");
    // One ply in: the book's moves of that position, best value first, each with its games.
    let (_, v) = post("/api/othello/book", json!({"moves": ["f5"]})).await;
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{v}");
    let values: Vec<f64> = moves.iter().map(|m| m["value"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{v}");
    let games: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert!(
        games <= 300 && moves.iter().all(|m| m["games"].as_u64() >= Some(2)),
        "{v}"
    );
    // Deep positions are not in it.
    let (_, v) = post(
        "/api/othello/book",
        json!({"moves": ["f5", "d6", "c3", "d3", "c4", "f4"]}),
    )
    .await;
    assert_eq!(v["moves"], json!([]));
}
