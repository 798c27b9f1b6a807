//! Request ids: every request gets one in `x-request-id` (kept from the request when it
//! brings a well-formed one, made here otherwise), every log line about the request
//! carries it, and the answer echoes it.
//!
//! An incoming id is kept so that a proxy's logs and the server's name the same id
//! (nginx: `proxy_set_header X-Request-ID $request_id;`, which also replaces whatever
//! the client sent). It only labels log lines: nothing else reads it, so a client
//! choosing its own can mislabel its own requests and nothing more. One that is long
//! or has characters outside `A-Z a-z 0-9 - _ . : + / =` is replaced, so that an id
//! never carries more than a label's worth of text into the logs.
//!
//! A made id is this instance's name and a sequence number (`mancala-3f9c0a1b2c4d-17`):
//! unique across instances and restarts, and it says which instance answered. Making
//! one costs an atomic increment, not a call for random bytes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::http::{HeaderValue, Request};
use tower_http::request_id::{MakeRequestId, RequestId};
use tower_http::trace::MakeSpan;
use tracing::Span;

/// The header the id travels in.
pub(crate) const HEADER: &str = "x-request-id";

/// The longest incoming id kept.
const MAX_LEN: usize = 64;

/// Whether an incoming id is kept (see the module's documentation).
pub(crate) fn well_formed(id: &[u8]) -> bool {
    (1..=MAX_LEN).contains(&id.len())
        && id
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:+/=".contains(b))
}

/// Drops an incoming id that is not [`well_formed`], so that one is made instead.
pub(crate) fn drop_malformed<B>(mut request: Request<B>) -> Request<B> {
    let malformed = request
        .headers()
        .get_all(HEADER)
        .iter()
        .enumerate()
        .any(|(i, v)| i > 0 || !well_formed(v.as_bytes()));
    if malformed {
        request.headers_mut().remove(HEADER);
    }
    request
}

/// Makes the ids of requests that come without one: `<instance>-<n>`.
#[derive(Clone)]
pub(crate) struct MakeId {
    prefix: Arc<str>,
    next: Arc<AtomicU64>,
}

impl MakeId {
    /// Ids for the instance named `instance`.
    pub(crate) fn new(instance: &str) -> MakeId {
        MakeId {
            prefix: instance.into(),
            next: Arc::new(AtomicU64::new(1)),
        }
    }
}

impl MakeRequestId for MakeId {
    fn make_request_id<B>(&mut self, _: &Request<B>) -> Option<RequestId> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        HeaderValue::try_from(format!("{}-{n}", self.prefix))
            .ok()
            .map(RequestId::new)
    }
}

/// The span of a request, as tower-http's default (method, URI, version) with the
/// request's id, at INFO, or at DEBUG for the probes and metrics that would otherwise
/// write a line every few seconds.
#[derive(Clone, Copy)]
pub(crate) struct RequestSpan {
    quiet: bool,
}

impl RequestSpan {
    /// Spans at INFO.
    pub(crate) const INFO: RequestSpan = RequestSpan { quiet: false };
    /// Spans at DEBUG.
    pub(crate) const DEBUG: RequestSpan = RequestSpan { quiet: true };
}

impl<B> MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &Request<B>) -> Span {
        let id = request
            .headers()
            .get(HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let (method, uri, version) = (request.method(), request.uri(), request.version());
        if self.quiet {
            tracing::debug_span!("request", %method, %uri, ?version, request_id = %id)
        } else {
            tracing::info_span!("request", %method, %uri, ?version, request_id = %id)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_proxies_are_kept_and_odd_ones_replaced() {
        assert!(well_formed(b"0f8fad5b-d9cb-469f-a165-70867728950e"));
        assert!(well_formed(b"7d3c2a9e0b4f41d2a8c6e1f0b9d8c7a6"));
        assert!(!well_formed(b""));
        assert!(!well_formed(&[b'a'; MAX_LEN + 1]));
        assert!(!well_formed(b"id with spaces"));
        assert!(!well_formed(b"a\"b"));
        assert!(!well_formed("é".as_bytes()));
        let request = Request::builder().header(HEADER, "ok-1").body(()).unwrap();
        assert_eq!(drop_malformed(request).headers()[HEADER], "ok-1");
        let request = Request::builder().header(HEADER, "a b").body(()).unwrap();
        assert!(drop_malformed(request).headers().get(HEADER).is_none());
        let twice = Request::builder()
            .header(HEADER, "one")
            .header(HEADER, "two")
            .body(())
            .unwrap();
        assert!(drop_malformed(twice).headers().get(HEADER).is_none());
    }

    #[test]
    fn made_ids_name_the_instance_and_count() {
        let mut make = MakeId::new("mancala-0123456789ab");
        let request = Request::new(());
        let first = make.make_request_id(&request).unwrap();
        let second = make.clone().make_request_id(&request).unwrap();
        assert_eq!(first.header_value(), "mancala-0123456789ab-1");
        assert_eq!(second.header_value(), "mancala-0123456789ab-2");
    }
}
