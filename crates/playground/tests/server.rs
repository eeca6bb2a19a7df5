//! The server as a class meets it, over real sockets: idle and half-sent connections are
//! closed, connections past the limits are refused while the others are served, requests for
//! another host or from another site get a 403, every error is JSON, and one client cannot
//! take every engine.

use playground::access::Access;
use playground::connections::{serve, Connections};
use playground::server::router_with;
use playground::Limits;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A server on a free loopback port with `connections`' limits.
async fn start(limits: Limits, connections: Connections) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router_with(limits, Access::default());
    tokio::spawn(serve(listener, app, connections));
    addr
}

fn tight() -> Connections {
    Connections {
        max: 6,
        per_client: 3,
        idle: Duration::from_millis(400),
        headers: Duration::from_millis(400),
        lifetime: Duration::from_secs(20),
    }
}

/// Reads until the server closes the connection (or `within` passes): what it sent, and
/// whether it closed.
async fn read_to_close(s: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let end = Instant::now() + within;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&out).into(), true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&out).into(), false),
        }
    }
}

/// One request on a new connection (closed after it): the raw response.
async fn request(addr: SocketAddr, text: &str) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(text.as_bytes()).await.unwrap();
    let (response, closed) = read_to_close(&mut s, Duration::from_secs(10)).await;
    assert!(closed, "the server kept a `Connection: close` request open");
    response
}

fn status(response: &str) -> u16 {
    response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {response:?}"))
}

fn body(response: &str) -> serde_json::Value {
    let (_, b) = response.split_once("\r\n\r\n").expect("a body");
    serde_json::from_str(b).unwrap_or_else(|e| panic!("not JSON ({e}): {b:?}"))
}

#[tokio::test]
async fn idle_and_half_sent_connections_are_closed_and_the_server_goes_on() {
    let addr = start(Limits::default(), tight()).await;
    // A connection that sends nothing, one that stops half-way through its headers, one
    // that stops half-way through its body.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut half_headers = TcpStream::connect(addr).await.unwrap();
    half_headers
        .write_all(b"GET / HTTP/1.1\r\nHo")
        .await
        .unwrap();
    let mut half_body = TcpStream::connect(addr).await.unwrap();
    half_body
        .write_all(b"POST /api/othello/state HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mo")
        .await
        .unwrap();
    let t = Instant::now();
    for s in [&mut silent, &mut half_headers, &mut half_body] {
        let (_, closed) = read_to_close(s, Duration::from_secs(5)).await;
        assert!(closed, "a stalled connection was kept open");
    }
    assert!(t.elapsed() < Duration::from_secs(5));
    let r = request(
        addr,
        "GET /xiangqi HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status(&r), 200, "{r}");
}

#[tokio::test]
async fn connections_past_a_clients_share_are_closed_while_its_others_are_served() {
    let addr = start(Limits::default(), tight()).await;
    // The client's three connections, held open by a request in flight each.
    let mut held = Vec::new();
    for _ in 0..3 {
        let s = TcpStream::connect(addr).await.unwrap();
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut fourth = TcpStream::connect(addr).await.unwrap();
    let (_, closed) = read_to_close(&mut fourth, Duration::from_millis(300)).await;
    assert!(closed, "a fourth connection from one client was kept");
    // The held ones still get answers.
    let s = &mut held[0];
    s.write_all(b"GET /othello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let (r, _) = read_to_close(s, Duration::from_secs(5)).await;
    assert_eq!(status(&r), 200, "{r}");
    // Once they are gone (idle), the client connects again.
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let r = request(
        addr,
        "GET /othello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status(&r), 200);
}

#[tokio::test]
async fn another_host_or_site_is_refused_and_every_error_is_json() {
    let addr = start(Limits::default(), tight()).await;
    let cases = [
        // DNS rebinding: a page of evil.example.com resolving to this machine.
        ("GET /api/othello/deciders HTTP/1.1\r\nHost: evil.example.com\r\n", 403, "not served as"),
        // Another site's page posting to the playground.
        (
            "POST /api/othello/state HTTP/1.1\r\nHost: localhost:8080\r\nOrigin: http://evil.example.com\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
            403,
            "another site",
        ),
        ("GET /api/othello/move HTTP/1.1\r\nHost: localhost\r\n", 405, "not a method"),
        ("GET /api/nothing HTTP/1.1\r\nHost: localhost\r\n", 404, ""),
        (
            "POST /api/othello/state HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"x\":[",
            400,
            "",
        ),
    ];
    for (head, want, says) in cases {
        let text = if head.contains("\r\n\r\n") {
            head.replacen("\r\n", "\r\nConnection: close\r\n", 1)
        } else {
            format!("{head}Connection: close\r\n\r\n")
        };
        let r = request(addr, &text).await;
        assert_eq!(status(&r), want, "{head}: {r}");
        let v = body(&r);
        let message = v["error"].as_str().unwrap_or_else(|| panic!("{head}: {v}"));
        assert!(
            message.contains(says),
            "{head}: `{message}` does not say `{says}`"
        );
        if want == 405 {
            assert!(
                r.to_ascii_lowercase().contains("\r\nallow: post\r\n"),
                "{r}"
            );
        }
    }
    // The same origin is fine.
    let r = request(
        addr,
        "POST /api/othello/state HTTP/1.1\r\nHost: localhost:8080\r\nOrigin: http://localhost:8080\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    )
    .await;
    assert_eq!(status(&r), 200, "{r}");
}

#[tokio::test]
async fn a_body_too_large_is_refused_before_it_is_read() {
    let addr = start(Limits::default(), tight()).await;
    let size = playground::access::MAX_BODY_BYTES + 1;
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/astar/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {size}\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    // Part of the body: the server answers without waiting for the rest.
    let _ = s.write_all(&vec![b' '; 64 * 1024]).await;
    let (r, _) = read_to_close(&mut s, Duration::from_secs(5)).await;
    assert_eq!(status(&r), 413, "{r}");
    assert!(body(&r)["error"].is_string());
}

#[tokio::test]
async fn one_client_runs_at_most_half_the_engines() {
    let limits = Limits {
        engines: 2,
        max_think: Duration::from_secs(5),
        max_wait: Duration::from_millis(100),
    };
    let addr = start(limits, tight()).await;
    let think = "{\"m\": 12, \"n\": 12, \"no_x\": 0, \"no_y\": 0, \"ms\": 1500}";
    let text = format!(
        "POST /api/connect4/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{think}",
        think.len()
    );
    let first = tokio::spawn({
        let text = text.clone();
        async move { request(addr, &text).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let second = request(addr, &text).await;
    assert_eq!(status(&second), 503, "{second}");
    assert!(body(&second)["error"]
        .as_str()
        .unwrap()
        .contains("your share"));
    assert_eq!(status(&first.await.unwrap()), 200);
}

#[tokio::test]
async fn a_think_stream_whose_page_has_gone_frees_its_engine() {
    let limits = Limits {
        engines: 1,
        max_think: Duration::from_secs(10),
        max_wait: Duration::from_millis(2500),
    };
    let addr = start(limits, tight()).await;
    let mut page = TcpStream::connect(addr).await.unwrap();
    page.write_all(
        b"GET /api/connect4/think?m=12&n=12&no_x=0&no_y=0&moves=&ms=8000 HTTP/1.1\r\nHost: localhost\r\n\r\n",
    )
    .await
    .unwrap();
    let mut first = [0u8; 64];
    let n = page.read(&mut first).await.unwrap();
    assert!(
        first[..n].starts_with(b"HTTP/1.1 200"),
        "{:?}",
        String::from_utf8_lossy(&first[..n])
    );
    // The page goes away; the server notices at the stream's next writes, the search at its
    // next report, and the engine is given back well before the search's 8 s.
    drop(page);
    tokio::time::sleep(Duration::from_millis(3000)).await;
    let move_now = "{\"m\": 9, \"n\": 9, \"no_x\": 0, \"no_y\": 0, \"ms\": 50}";
    let r = request(
        addr,
        &format!(
            "POST /api/connect4/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{move_now}",
            move_now.len()
        ),
    )
    .await;
    assert_eq!(
        status(&r),
        200,
        "the dropped stream still holds the engine: {r}"
    );
}
