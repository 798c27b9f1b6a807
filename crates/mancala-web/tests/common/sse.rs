//! A stream of server-sent events read through a router, as a bot reads it: each
//! event's id and its JSON, as they come.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use mancala_web::SESSION_COOKIE;
use serde_json::Value;
use tower::ServiceExt;

/// Who opens a stream: a cookie, a bearer token, or nobody.
#[derive(Clone, Copy, Default)]
pub struct Who<'a> {
    pub cookie: Option<&'a str>,
    pub bearer: Option<&'a str>,
}

/// An open event stream.
pub struct Sse {
    pub status: StatusCode,
    body: Body,
    pending: String,
}

impl Sse {
    /// Opens `path`, after event `last_seen` if given.
    pub async fn open(r: &Router, path: &str, who: Who<'_>, last_seen: Option<&str>) -> Sse {
        let mut req = Request::builder()
            .method("GET")
            .uri(path)
            .header(header::HOST, "mancala.test");
        if let Some(secret) = who.cookie {
            req = req.header(header::COOKIE, format!("{SESSION_COOKIE}={secret}"));
        }
        if let Some(t) = who.bearer {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        if let Some(seen) = last_seen {
            req = req.header("last-event-id", seen);
        }
        let response = r
            .clone()
            .oneshot(req.body(Body::empty()).unwrap())
            .await
            .unwrap();
        Sse {
            status: response.status(),
            body: response.into_body(),
            pending: String::new(),
        }
    }

    /// The next event's id and JSON, or `None` once the stream has ended; waits at
    /// most `within` (keep-alive comments are passed over).
    pub async fn next_within(&mut self, within: Duration) -> Option<(String, Value)> {
        let until = tokio::time::Instant::now() + within;
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                let field = |name: &str| {
                    event
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .map(str::to_owned)
                };
                let Some(data) = field("data: ") else {
                    continue;
                };
                let id = field("id: ").unwrap_or_default();
                return Some((id, serde_json::from_str(&data).unwrap()));
            }
            let frame = tokio::time::timeout_at(until, self.body.frame())
                .await
                .unwrap_or_else(|_| panic!("an event or the stream's end within {within:?}"));
            let data = frame?.unwrap().into_data().unwrap_or_default();
            self.pending.push_str(std::str::from_utf8(&data).unwrap());
        }
    }

    /// The next event within 10 s.
    pub async fn next(&mut self) -> Option<(String, Value)> {
        self.next_within(Duration::from_secs(10)).await
    }

    /// Whether no event comes within `quiet`.
    pub async fn is_quiet_for(&mut self, quiet: Duration) -> bool {
        if self.pending.contains("data: ") {
            return false;
        }
        match tokio::time::timeout(quiet, self.body.frame()).await {
            Err(_) => true,
            Ok(frame) => {
                let data = frame
                    .and_then(Result::ok)
                    .and_then(|f| f.into_data().ok())
                    .unwrap_or_default();
                let text = String::from_utf8_lossy(&data).into_owned();
                let quiet = !text.contains("data: ");
                self.pending.push_str(&text);
                quiet
            }
        }
    }
}
