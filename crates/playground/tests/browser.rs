//! The pages in a real browser: headless Chromium driven over WebDriver (chromedriver) clicks
//! through every page as a student would and checks what the page shows; a screenshot of each
//! page goes to `target/playground-screenshots/`. It needs `chromium` and `chromedriver`, so
//! plain `cargo test` skips it; `scripts/browser-test.sh` installs them when missing and runs it.

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn browser() -> (Client, Driver) {
    let port = free_port();
    let driver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {driver} ({e}): run scripts/browser-test.sh"));
    let driver = Driver { child, port };
    let profile = std::env::temp_dir().join(format!("playground-chromium-{port}"));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                     format!("--user-data-dir={}", profile.display())],
        }),
    );
    let start = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
        {
            Ok(client) => return (client, driver),
            Err(e) if start.elapsed() > Duration::from_secs(30) => {
                panic!("no WebDriver session: {e}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Evaluates the JavaScript expression `js` until it is truthy (at most `secs` seconds) and
/// returns its value.
async fn wait_for(c: &Client, what: &str, js: &str, secs: u64) -> Value {
    let start = Instant::now();
    let mut last = Value::Null;
    while start.elapsed() < Duration::from_secs(secs) {
        last = c.execute(&format!("return ({js});"), vec![]).await.unwrap();
        let truthy = !matches!(&last, Value::Null | Value::Bool(false))
            && last != json!("")
            && last != json!(0);
        if truthy {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let error = c
        .execute(
            "return document.getElementById('error').textContent",
            vec![],
        )
        .await;
    panic!("timed out waiting for {what} (last value {last}, page error {error:?})");
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

async fn set_value(c: &Client, css: &str, value: &str) {
    let el = c.find(Locator::Css(css)).await.unwrap();
    el.clear().await.unwrap();
    el.send_keys(value).await.unwrap();
}

async fn screenshot(c: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/playground-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("{name}.png")),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
}

/// The page's global `name` (its state, as the page's script keeps it).
async fn page_value(c: &Client, js: &str) -> Value {
    c.execute(&format!("return {js};"), vec![]).await.unwrap()
}

async fn connect4(c: &Client, base: &str) {
    c.goto(&format!("{base}/connect4")).await.unwrap();
    wait_for(
        c,
        "the board",
        "document.querySelectorAll('#board [data-col]').length",
        20,
    )
    .await;
    set_value(c, "#ms", "100").await;
    set_value(c, "#seed", "7").await;
    click(c, "#new").await;
    wait_for(
        c,
        "a new board",
        "document.getElementById('engine').textContent.includes('forbidden cell')",
        20,
    )
    .await;
    let mut moves = 0;
    while !text(c, "#status").await.starts_with("game over") {
        let legal = page_value(c, "view.legal").await;
        let column = legal[0]
            .as_u64()
            .expect("a legal column while the game goes on");
        click(c, &format!("#board [data-col=\"{column}\"]")).await;
        wait_for(
            c,
            "the engine's answer",
            &format!(
                "document.getElementById('status').textContent.startsWith('game over') || \
             (document.getElementById('moves').textContent.split(' ').length >= {} && \
              document.getElementById('status').textContent === 'player 1 to move')",
                moves + 2
            ),
            30,
        )
        .await;
        let shown: Vec<String> = text(c, "#moves")
            .await
            .split_whitespace()
            .map(String::from)
            .collect();
        assert!(shown.len() > moves, "the move list grows");
        moves = shown.len();
        let stones = c
            .find_all(Locator::Css(
                "#board circle[data-stone=\"1\"], #board circle[data-stone=\"2\"]",
            ))
            .await
            .unwrap();
        assert_eq!(
            stones.len(),
            moves,
            "one stone on the board per move played"
        );
        assert!(moves <= 144, "a game ends before the board overflows");
    }
    let status = text(c, "#status").await;
    assert!(
        [
            "game over: 1 wins",
            "game over: 2 wins",
            "game over: a draw"
        ]
        .contains(&status.as_str()),
        "{status}"
    );
    let bars = c.find_all(Locator::Css("#visits rect")).await.unwrap();
    assert!(
        !bars.is_empty() || text(c, "#engine").await.contains("forced"),
        "the engine's visits are drawn"
    );
    click(c, "#analyse").await;
    wait_for(
        c,
        "the analysis",
        "document.getElementById('analysis').textContent.includes('after 0 moves')",
        30,
    )
    .await;
    screenshot(c, "connect4").await;
}

async fn othello(c: &Client, base: &str) {
    c.goto(&format!("{base}/othello")).await.unwrap();
    wait_for(
        c,
        "the board",
        "document.getElementById('status').textContent === 'black to move'",
        20,
    )
    .await;
    c.find(Locator::Css("#decider"))
        .await
        .unwrap()
        .select_by_value("minimax:2")
        .await
        .unwrap();
    for turn in 1..=3 {
        let legal = page_value(c, "view.legal").await;
        let square = legal[0].as_str().unwrap().to_string();
        click(c, &format!("#board [data-square=\"{square}\"]")).await;
        wait_for(
            c,
            "the computer's answer",
            &format!(
                "document.getElementById('moves').textContent.split(' ').length >= {} && \
             document.getElementById('status').textContent === 'black to move'",
                2 * turn
            ),
            30,
        )
        .await;
        let moves: Vec<String> = text(c, "#moves")
            .await
            .split_whitespace()
            .map(String::from)
            .collect();
        assert_eq!(
            moves[2 * turn - 2],
            square,
            "the clicked square is the move played"
        );
        let discs = c
            .find_all(Locator::Css("#board [data-disc]"))
            .await
            .unwrap()
            .len();
        assert_eq!(
            discs,
            4 + moves.iter().filter(|m| *m != "pass").count(),
            "one disc per move"
        );
        let score = text(c, "#score").await;
        assert!(score.ends_with(&format!("{} empty", 64 - discs)), "{score}");
        assert!(
            c.find(Locator::Css("#tree svg")).await.is_ok(),
            "the depth-2 tree is drawn"
        );
    }
    click(c, "#hint").await;
    wait_for(
        c,
        "the analysis",
        "document.getElementById('analysis').textContent.startsWith('depth 10')",
        60,
    )
    .await;
    screenshot(c, "othello").await;
}

async fn xiangqi(c: &Client, base: &str) {
    c.goto(&format!("{base}/xiangqi")).await.unwrap();
    wait_for(
        c,
        "the board",
        "document.getElementById('status').textContent === 'red to move'",
        20,
    )
    .await;
    // The pieces in Chinese characters, drawn in a CJK font (installed by browser-test.sh),
    // and in letters on request.
    let red_king = "document.querySelector('#board [data-square=\"e0\"] text').textContent";
    assert_eq!(page_value(c, red_king).await, json!("帥"));
    assert_eq!(
        page_value(
            c,
            "document.querySelector('#board [data-square=\"b7\"] text').textContent"
        )
        .await,
        json!("砲")
    );
    let cjk_font = page_value(
        c,
        "document.fonts.check('22px \"WenQuanYi Zen Hei\"', '帥') && \
         document.querySelector('#board [data-square=\"e0\"] text').getBBox().width > 15",
    )
    .await;
    assert_eq!(
        cjk_font,
        json!(true),
        "the characters are drawn in a CJK font"
    );
    screenshot(c, "xiangqi-characters").await;
    click(c, "#letters").await;
    assert_eq!(page_value(c, red_king).await, json!("K"));
    click(c, "#letters").await;
    assert_eq!(page_value(c, red_king).await, json!("帥"));
    set_value(c, "#ms", "300").await;
    for turn in 1..=3 {
        let legal = page_value(c, "view.legal").await;
        let mv = if turn == 1 {
            "h2e2".to_string()
        } else {
            legal[0].as_str().unwrap().to_string()
        };
        click(c, &format!("#board [data-square=\"{}\"]", &mv[..2])).await;
        click(c, &format!("#board [data-square=\"{}\"]", &mv[2..])).await;
        wait_for(c, "the engine's answer", &format!(
            "document.getElementById('moves').textContent.split(' ').filter(w => !w.endsWith('.')).length >= {} && \
             document.getElementById('status').textContent.startsWith('red to move')", 2 * turn), 30).await;
        let moves: Vec<String> = text(c, "#moves")
            .await
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .map(String::from)
            .collect();
        assert_eq!(moves[2 * turn - 2], mv, "the clicked move is played");
        // The board shows the position the moves lead to, square by square.
        let shown = page_value(
            c,
            "Object.fromEntries([...document.querySelectorAll('#board [data-piece]')]\
             .map(g => [g.dataset.square, g.dataset.piece]))",
        )
        .await;
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        let start = xiangqi_endgame::START_FEN.parse().unwrap();
        let (pos, _) = xiangqi_endgame::repetition::GameLine::replay(start, &played).unwrap();
        let expected: serde_json::Map<String, Value> = (0..90)
            .filter_map(|i| {
                let sq = xiangqi_endgame::Square(i);
                pos.at(sq).map(|p| (sq.to_string(), json!(p.to_string())))
            })
            .collect();
        assert_eq!(shown, Value::Object(expected), "after {played:?}");
        assert!(
            !c.find_all(Locator::Css("#thinking tr"))
                .await
                .unwrap()
                .is_empty(),
            "the engine's iterations are shown"
        );
    }
    set_value(c, "#fen", "3k5/9/9/9/9/9/9/9/4R4/4K4 w").await;
    click(c, "#load").await;
    wait_for(
        c,
        "the loaded position",
        "document.querySelectorAll('#board [data-piece]').length === 3",
        20,
    )
    .await;
    click(c, "#mate").await;
    let found = wait_for(c, "the mate", "document.getElementById('mate-result').textContent.startsWith('mate in 1') && document.getElementById('mate-result').textContent", 30).await;
    assert!(
        found.as_str().unwrap().starts_with("mate in 1: e1"),
        "{found}"
    );
    screenshot(c, "xiangqi").await;
    // A game record: pasted, stepped through on the board, looked over by the engine.
    let pgn = "[Red \"A\"]\n[Black \"B\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n\n\
               [FEN \"3k5/9/9/9/9/9/9/2n6/9/R3K4 w\"]\n1. a0a1 c2a1 *\n";
    c.execute(
        "document.getElementById('pgn').value = arguments[0];",
        vec![json!(pgn)],
    )
    .await
    .unwrap();
    click(c, "#pgn-load").await;
    wait_for(
        c,
        "the game record",
        "document.getElementById('pgn-info').textContent.includes('game 1 of 2')",
        20,
    )
    .await;
    click(c, "#step-next").await;
    click(c, "#step-next").await;
    wait_for(
        c,
        "two steps",
        "document.querySelector('#pgn-moves .current') && document.querySelector('#pgn-moves .current').dataset.ply === '2'",
        20,
    )
    .await;
    // The board shows the position after 炮二平五 馬８進７: the cannon on e2, the horse on g7.
    let shown = page_value(
        c,
        "[document.querySelector('#board [data-square=\"e2\"]').dataset.piece, \
          document.querySelector('#board [data-square=\"g7\"]').dataset.piece]",
    )
    .await;
    assert_eq!(shown, json!(["C", "n"]));
    set_value(c, "#pgn-game", "2").await;
    click(c, "#pgn-load").await;
    wait_for(
        c,
        "the second game",
        "document.getElementById('pgn-info').textContent.includes('game 2 of 2')",
        20,
    )
    .await;
    click(c, "#pgn-analyze").await;
    wait_for(
        c,
        "the engine's look",
        "document.querySelector('#pgn-graph svg') !== null",
        60,
    )
    .await;
    let marked = page_value(
        c,
        "document.querySelector('#pgn-moves [data-ply=\"1\"]').textContent",
    )
    .await;
    assert_eq!(marked, json!("車九進一?? "));
    screenshot(c, "xiangqi-game-record").await;
}

async fn astar(c: &Client, base: &str) {
    c.goto(&format!("{base}/astar")).await.unwrap();
    wait_for(
        c,
        "the first search",
        "document.querySelectorAll('#runs tr').length",
        20,
    )
    .await;
    let options = page_value(
        c,
        "[...document.querySelectorAll('#inputs option')].map(o => o.textContent)",
    )
    .await;
    assert_eq!(options.as_array().unwrap().len(), 10);
    c.find(Locator::Css("#inputs"))
        .await
        .unwrap()
        .select_by_value("input_7.txt")
        .await
        .unwrap();
    let map_text = page_value(c, "document.getElementById('text').value").await;
    let map: astar_map::Map = map_text.as_str().unwrap().parse().unwrap();
    let truth = astar_map::solve(&map, &astar_map::SolveOptions::default());
    click(c, "#search").await;
    wait_for(
        c,
        "the search",
        "document.querySelectorAll('#runs tr').length === 2",
        20,
    )
    .await;
    for _ in 0..3 {
        click(c, "#step").await;
    }
    let status = text(c, "#status").await;
    assert!(status.starts_with("step 3 / "), "{status}");
    let closed = c
        .find_all(Locator::Css("#map rect[data-closed]"))
        .await
        .unwrap()
        .len();
    assert!(
        (1..=3).contains(&closed),
        "{closed} cells closed after three steps"
    );
    click(c, "#end").await;
    let result = wait_for(
        c,
        "the route",
        "document.getElementById('result').textContent",
        20,
    )
    .await;
    let days = truth.steps.expect("input_7 has a route");
    assert!(
        result
            .as_str()
            .unwrap()
            .starts_with(&format!("route: {days} days")),
        "{result}"
    );
    assert!(
        c.find(Locator::Css("#route")).await.is_ok(),
        "the route is drawn"
    );
    let row = text(c, "#runs tr:last-child").await;
    assert!(row.contains(&truth.stats.expanded.to_string()), "{row}");
    screenshot(c, "astar").await;
}

async fn bait(c: &Client, base: &str) {
    c.goto(&format!("{base}/bait")).await.unwrap();
    wait_for(
        c,
        "the level",
        "document.getElementById('frame').textContent.startsWith('step 0 / 0')",
        20,
    )
    .await;
    let level = page_value(c, "document.getElementById('text').value").await;
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E014}")
        .await
        .unwrap(); // Right
    wait_for(
        c,
        "a keyboard move",
        "document.getElementById('frame').textContent.startsWith('step 1 / 1')",
        20,
    )
    .await;
    c.find(Locator::Css("#goal"))
        .await
        .unwrap()
        .select_by_value("shortest")
        .await
        .unwrap();
    click(c, "#optimal").await;
    wait_for(
        c,
        "the optimal plan",
        "document.getElementById('plan').textContent.startsWith('proven optimal')",
        30,
    )
    .await;
    let parsed = playground::bait::level(level.as_str().unwrap()).unwrap();
    let truth = bait::solve::shortest(&parsed, &search_core::Limits::none());
    let n = truth.actions.len();
    assert!(text(c, "#frame")
        .await
        .starts_with(&format!("step 0 / {n}")));
    click(c, "#next").await;
    assert!(text(c, "#frame")
        .await
        .starts_with(&format!("step 1 / {n}")));
    click(c, "#play").await;
    let status = wait_for(c, "the replay's end", "document.getElementById('status').textContent.startsWith('won') && document.getElementById('status').textContent", 30).await;
    assert_eq!(status, json!(format!("won with score {}", truth.score)));
    screenshot(c, "bait").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: scripts/browser-test.sh installs them and runs it"]
async fn every_page_works_in_a_real_browser() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        axum::serve(listener, playground::router(playground::Limits::default()))
            .await
            .unwrap();
    });
    let (c, _driver) = browser().await;
    c.goto(&format!("{base}/")).await.unwrap();
    assert_eq!(c.find_all(Locator::Css(".cards a")).await.unwrap().len(), 5);
    screenshot(&c, "index").await;
    connect4(&c, &base).await;
    othello(&c, &base).await;
    xiangqi(&c, &base).await;
    astar(&c, &base).await;
    bait(&c, &base).await;
    c.close().await.unwrap();
}
