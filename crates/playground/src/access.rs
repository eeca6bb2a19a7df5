//! Who may use the app, and how errors read: requests whose `Host` is not a name the server is
//! served under (a page of another site reaching a student's local playground through DNS
//! rebinding) and cross-origin requests (an `Origin` other than the host's own) get a 403;
//! every error response is JSON (`{"error": …}`), whatever produced it (an unknown query
//! parameter, a wrong method); and each request runs with its client's address known, so that
//! the engine pool can give each client its share ([`crate::api::Engines`]).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};

use crate::api::{ApiError, CLIENT};

/// The largest request body the app reads (a map, a level, a game: a few kilobytes); a
/// request announcing more is refused before its body is read.
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The names the app answers under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// Host names (without port) accepted besides the loopback ones (`--allow-host`).
    pub hosts: Vec<String>,
    /// Whether any IP address is an accepted host (a server bound to every interface, which
    /// students reach by its address).
    pub any_ip: bool,
}

impl Access {
    /// Whether a `Host` value (a name or address, maybe with a port) is one the app serves.
    ///
    /// ```
    /// use playground::access::Access;
    /// let a = Access { hosts: vec!["ai-class.example.org".into()], any_ip: false };
    /// assert!(a.allows("localhost:8080") && a.allows("127.0.0.1") && a.allows("[::1]:80"));
    /// assert!(a.allows("AI-Class.example.org:8080"));
    /// assert!(!a.allows("evil.example.com") && !a.allows("10.0.0.7:8080"));
    /// let class = Access { hosts: vec![], any_ip: true };
    /// assert!(class.allows("10.0.0.7:8080") && !class.allows("evil.example.com"));
    /// ```
    pub fn allows(&self, host: &str) -> bool {
        let name = strip_port(host).to_ascii_lowercase();
        if name == "localhost" || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(&name)) {
            return true;
        }
        match name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
        {
            Ok(ip) => ip.is_loopback() || self.any_ip,
            Err(_) => false,
        }
    }
}

/// `host` without its `:port` (an IPv6 literal keeps its brackets).
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host
            .split_once(']')
            .map_or(host, |(h, _)| &host[..h.len() + 1]);
    }
    match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !h.contains(':') => h,
        _ => host,
    }
}

/// The address of the connection a request came on (set by the server's accept loop).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddr(pub SocketAddr);

/// Refuses requests for another host or from another origin; runs the others with their
/// client known.
pub async fn check(State(access): State<Access>, req: Request, next: Next) -> Response {
    if let Err(e) = allowed(&access, req.headers()) {
        return e.into_response();
    }
    let announced = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(n) = announced.filter(|&n| n > MAX_BODY_BYTES as u64) {
        return ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "a request body of {n} bytes is more than the {} KB this app reads",
                MAX_BODY_BYTES / 1024
            ),
        }
        .into_response();
    }
    let ip = req
        .extensions()
        .get::<ClientAddr>()
        .map_or(IpAddr::from([127, 0, 0, 1]), |c| c.0.ip());
    CLIENT.scope(ip, next.run(req)).await
}

fn allowed(access: &Access, headers: &HeaderMap) -> Result<(), ApiError> {
    let forbidden = |message: String| ApiError {
        status: StatusCode::FORBIDDEN,
        message,
    };
    let Some(host) = headers.get(header::HOST) else {
        // Browsers always send one; a request without is not a page of another site.
        return Ok(());
    };
    let host = host.to_str().unwrap_or("");
    if !access.allows(host) {
        return Err(forbidden(format!(
            "this playground is not served as `{}` (start it with --allow-host NAME to serve it under that name)",
            batch::shown(host)
        )));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let origin_host = origin.split_once("://").map_or(origin, |(_, h)| h);
        if !origin_host.eq_ignore_ascii_case(host) {
            return Err(forbidden(format!(
                "a request from another site ({}) is refused",
                batch::shown(origin)
            )));
        }
    }
    Ok(())
}

/// Makes every error response JSON: an error produced outside the endpoints (an unknown query
/// parameter, a method the path does not take, a body too large) keeps its status, and its
/// text becomes the `error` message.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let response = next.run(req).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let body = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body).trim().to_string();
    let message = match (status, text.is_empty()) {
        (StatusCode::METHOD_NOT_ALLOWED, _) => format!(
            "{method} is not a method of this path{}",
            allow
                .as_ref()
                .and_then(|a| a.to_str().ok())
                .map_or(String::new(), |a| format!(" (use {a})"))
        ),
        (_, true) => status.canonical_reason().unwrap_or("error").to_lowercase(),
        (_, false) => batch::shown(&text),
    };
    let mut out = ApiError { status, message }.into_response();
    if let Some(a) = allow {
        out.headers_mut().insert(header::ALLOW, a);
    }
    out
}
