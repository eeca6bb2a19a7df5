//! What every endpoint shares: JSON errors with a 4xx status instead of a crash, the request
//! body extractor that reports malformed JSON the same way, and the engine pool that runs
//! searches on blocking threads, a few at a time, each under a time cap.

use crate::per_client::{Hold, PerClient};
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde::Serialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

/// A failed request: its status and the message the page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status (4xx for the request's fault, 503 when the engines are all busy too long).
    pub status: StatusCode,
    /// What went wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// A 400: the request is wrong (a bad FEN, level, move or option).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A 503: the server cannot do it now (its engines busy, a search beyond its caps).
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    /// `{"error": message}` with the status.
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, axum::Json(body)).into_response()
    }
}

/// The answer of an endpoint: JSON, or an [`ApiError`].
pub type ApiResult<T> = Result<axum::Json<T>, ApiError>;

/// A JSON request body; a malformed one is an [`ApiError`] (400, or 415 without the JSON
/// content type) whose message says what is wrong with it.
pub struct Input<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Input<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Input(v)),
            Err(rejection) => Err(ApiError {
                status: match rejection.status() {
                    StatusCode::UNSUPPORTED_MEDIA_TYPE => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    _ => StatusCode::BAD_REQUEST,
                },
                message: rejection.body_text(),
            }),
        }
    }
}

/// Any path the app does not serve: a 404 with a JSON error.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!("no page or endpoint at {}", uri.path()),
    }
}

/// What the server allows one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Searches running at once; more wait their turn.
    pub engines: usize,
    /// The longest a search may think (a request asking for more gets this).
    pub max_think: Duration,
    /// The longest a search waits for its turn before the request fails with 503.
    pub max_wait: Duration,
}

impl Default for Limits {
    /// As many searches at once as the machine has cores (at least 2), 10 s of thinking at
    /// most, 30 s of waiting.
    fn default() -> Self {
        Limits {
            engines: std::thread::available_parallelism().map_or(2, |n| n.get().max(2)),
            max_think: Duration::from_secs(10),
            max_wait: Duration::from_secs(30),
        }
    }
}

/// The pool the searches run in: [`Limits::engines`] at a time, on blocking threads, so that
/// pages and quick requests are answered while engines think; one client (one address) holds
/// at most [`Engines::share`] of them, so that a class shares the pool.
#[derive(Clone)]
pub struct Engines {
    permits: Arc<Semaphore>,
    /// Searches running now, by client.
    running: PerClient,
    /// The limits the pool was made with.
    pub limits: Limits,
}

tokio::task_local! {
    /// The client of the request being handled (its IP, set by [`crate::access::check`]), for
    /// the pool's fairness.
    pub static CLIENT: std::net::IpAddr;
}

impl Engines {
    /// A pool with `limits`.
    pub fn new(limits: Limits) -> Engines {
        Engines {
            permits: Arc::new(Semaphore::new(limits.engines.max(1))),
            running: PerClient::default(),
            limits,
        }
    }

    /// Searches one client may run at once: half the pool, rounded up.
    pub fn share(&self) -> usize {
        self.limits.engines.max(1).div_ceil(2)
    }

    /// A requested thinking time in milliseconds, capped by [`Limits::max_think`] (at least
    /// 10 ms).
    pub fn think_time(&self, ms: u64) -> Duration {
        Duration::from_millis(ms.max(10)).min(self.limits.max_think)
    }

    /// The request's client's slot (refused when it runs its share already), then a place in
    /// the pool (refused after [`Limits::max_wait`]).
    async fn permit(&self) -> Result<(tokio::sync::OwnedSemaphorePermit, Hold), ApiError> {
        let ip = CLIENT
            .try_with(|ip| *ip)
            .unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]));
        let slot = self.running.take(ip, self.share()).map_err(|n| {
            ApiError::busy(format!(
                "engines busy: you have {}, your share of the pool; wait for one to finish",
                batch::plural(n, "search running", "searches running")
            ))
        })?;
        let wait = self.permits.clone().acquire_owned();
        match tokio::time::timeout(self.limits.max_wait, wait).await {
            Ok(Ok(p)) => Ok((p, slot)),
            _ => Err(ApiError::busy(
                "every engine is busy: try again in a moment",
            )),
        }
    }

    /// Runs the search `work` in the pool and answers with its result as JSON.
    pub async fn run<T, F>(&self, work: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    {
        let permit = self.permit().await?;
        let done = tokio::task::spawn_blocking(move || {
            engine_priority();
            let out = work();
            drop(permit);
            out
        })
        .await;
        match done {
            Ok(result) => result.map(axum::Json),
            Err(e) => Err(ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                message: format!("the engine failed: {e}"),
            }),
        }
    }

    /// Runs the search `work` in the pool and streams what it reports as server-sent events:
    /// `work` gets a [`Reporter`]; a report it sends is an event named by its kind.
    pub async fn stream<F>(
        &self,
        work: F,
    ) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError>
    where
        F: FnOnce(&Reporter) + Send + 'static,
    {
        let permit = self.permit().await?;
        let (tx, rx) = mpsc::channel::<Event>(64);
        tokio::task::spawn_blocking(move || {
            engine_priority();
            let reporter = Reporter { tx };
            work(&reporter);
            drop(permit);
        });
        let events = ReceiverStream::new(rx).map(Ok);
        // A comment every 5 s keeps a quiet stream from being closed as idle.
        Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(5))))
    }
}

/// Lowers the calling thread's scheduling priority (nice 10, on Linux): an engine thinking for
/// seconds yields the cores to the server's threads, so that pages and quick requests are
/// answered at once even when every engine is busy. Blocking threads are reused, so a thread
/// lowered once stays lowered (it only ever runs searches and file reads).
#[allow(unsafe_code)]
fn engine_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take no pointers; on failure the priority stays as it is.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// The sending end of a streamed search (clones send into the same stream).
#[derive(Clone)]
pub struct Reporter {
    tx: mpsc::Sender<Event>,
}

impl Reporter {
    /// Sends `data` as JSON in an event named `kind`; `false` once the page has gone (the
    /// search should stop).
    pub fn send(&self, kind: &str, data: &impl Serialize) -> bool {
        let event = Event::default()
            .event(kind)
            .json_data(data)
            .unwrap_or_else(|e| Event::default().event("error").data(e.to_string()));
        self.tx.blocking_send(event).is_ok()
    }
}

/// The items of a comma-separated list in a query (`d3,c4`), empty items left out.
///
/// ```
/// assert_eq!(playground::api::comma_list("f5,,d6"), ["f5", "d6"]);
/// ```
pub fn comma_list(text: &str) -> Vec<String> {
    text.split(',')
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}

/// A bundled input offered on a page: its file name and its text.
#[derive(Debug, Clone, Serialize)]
pub struct Bundled {
    /// The file name.
    pub name: &'static str,
    /// Its text.
    pub text: &'static str,
}

/// The answer listing `files` (name, text).
pub fn bundled(files: &[(&'static str, &'static str)]) -> axum::Json<Vec<Bundled>> {
    axum::Json(
        files
            .iter()
            .map(|&(name, text)| Bundled { name, text })
            .collect(),
    )
}
