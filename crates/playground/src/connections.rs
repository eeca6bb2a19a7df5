//! The server's side of its sockets, so that a class cannot take it down: at most
//! [`Connections::max`] connections at once and [`Connections::per_client`] from one address
//! (the next are closed at once); a connection that sends or receives nothing for
//! [`Connections::idle`] is closed, whether it sits half-way through its request headers, its
//! body or between two requests; request headers must arrive within
//! [`Connections::headers`]; and no connection lives longer than [`Connections::lifetime`].
//! Every request carries its client's address for the engine pool's fairness.

use crate::access::ClientAddr;
use crate::per_client::PerClient;
use axum::Router;
use hyper::body::Body as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// The connection limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connections {
    /// Connections open at once.
    pub max: usize,
    /// Connections open at once from one address.
    pub per_client: usize,
    /// A connection with no byte in or out for this long is closed.
    pub idle: Duration,
    /// Request headers must be in within this.
    pub headers: Duration,
    /// No connection is kept longer than this (a stream of thinking ends well before).
    pub lifetime: Duration,
}

impl Default for Connections {
    /// Three quarters of the files the process may open (the rest are kept for everything
    /// else), at most 4096; 32 from one address, 15 s idle, 10 s for headers, 5 minutes at
    /// most.
    fn default() -> Self {
        Connections {
            max: (descriptors() * 3 / 4).clamp(4, 4096),
            per_client: 32,
            idle: Duration::from_secs(15),
            headers: Duration::from_secs(10),
            lifetime: Duration::from_secs(300),
        }
    }
}

/// The process's limit on open files (1024 when it cannot be read).
fn descriptors() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(1024)
}

/// Serves `app` on `listener` under `limits` until the process ends.
pub async fn serve(listener: TcpListener, app: Router, limits: Connections) -> std::io::Result<()> {
    let open = Arc::new(tokio::sync::Semaphore::new(limits.max.max(1)));
    let per_client = PerClient::default();
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                // Out of descriptors, or a connection reset before it was taken: wait a
                // little and go on (never end the server).
                eprintln!("playground: accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let Ok(hold) = per_client.take(peer.ip(), limits.per_client) else {
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            serve_one(stream, peer, app, limits).await;
            drop((hold, permit));
        });
    }
}

async fn serve_one(stream: TcpStream, peer: SocketAddr, app: Router, limits: Connections) {
    let _ = stream.set_nodelay(true);
    let idle = Idle::new(stream, limits.idle);
    let answering = idle.answering.clone();
    let io = TokioIo::new(idle);
    let service =
        hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ClientAddr(peer));
            let app = app.clone();
            let state = Arc::new(AtomicU8::new(READING));
            let guard = Answering {
                count: answering.clone(),
                state: state.clone(),
            };
            let (parts, inner) = req.into_parts();
            let body = Tracked {
                inner,
                count: answering.clone(),
                state,
            };
            if body.inner.is_end_stream() {
                // No body to wait for (a GET): being answered from now, even while it waits
                // for an engine.
                body.arrived();
            }
            let req = hyper::Request::from_parts(parts, axum::body::Body::new(body));
            async move {
                use tower::ServiceExt;
                let response = app.oneshot(req).await;
                drop(guard);
                response
            }
        });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.headers)
        .keep_alive(true);
    let conn = builder.serve_connection(io, service);
    let _ = tokio::time::timeout(limits.lifetime, conn).await;
}

/// A socket that fails its reads and writes once nothing has moved for `after` while no
/// request is being answered (an engine thinking longer than `after` keeps its connection).
struct Idle {
    inner: TcpStream,
    after: Duration,
    timer: Pin<Box<Sleep>>,
    /// Requests of this connection being answered now.
    answering: Arc<AtomicUsize>,
}

/// A request's state: its body still arriving (the connection may be idle), being answered
/// (counted in [`Idle::answering`]), answered.
const READING: u8 = 0;
const COUNTED: u8 = 1;
const ANSWERED: u8 = 2;

/// A request from its start to its response; counted as being answered from the end of its body.
struct Answering {
    count: Arc<AtomicUsize>,
    state: Arc<AtomicU8>,
}

impl Drop for Answering {
    fn drop(&mut self) {
        if self.state.swap(ANSWERED, Ordering::SeqCst) == COUNTED {
            self.count.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A request body that marks its request as being answered once it has all arrived.
struct Tracked {
    inner: hyper::body::Incoming,
    count: Arc<AtomicUsize>,
    state: Arc<AtomicU8>,
}

impl Tracked {
    fn arrived(&self) {
        if self
            .state
            .compare_exchange(READING, COUNTED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            self.count.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl hyper::body::Body for Tracked {
    type Data = hyper::body::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        if self.inner.is_end_stream() {
            self.arrived();
            return Poll::Ready(None);
        }
        let frame = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(frame, Poll::Ready(None)) || self.inner.is_end_stream() {
            self.arrived();
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        let end = self.inner.is_end_stream();
        if end {
            self.arrived();
        }
        end
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Idle {
    fn new(inner: TcpStream, after: Duration) -> Idle {
        Idle {
            inner,
            after,
            timer: Box::pin(tokio::time::sleep(after)),
            answering: Arc::default(),
        }
    }

    fn moved(&mut self) {
        self.timer.as_mut().reset(Instant::now() + self.after);
    }

    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        if self.answering.load(Ordering::SeqCst) > 0 {
            // Not idle: a request is being answered. Look again after another `after`.
            self.moved();
            let _ = self.timer.as_mut().poll(cx);
            return false;
        }
        self.timer.as_mut().poll(cx).is_ready()
    }
}

fn timed_out() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "idle connection closed")
}

impl AsyncRead for Idle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(r)
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncWrite for Idle {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
