//! What the server offers its operator around the application: the probes
//! (`/healthz`, `/readyz`), the metrics (counted if asked for, served on the main
//! listener only behind a token), request ids, and the request log.
//!
//! [`Operations::around`] wraps the application's routes, from the inside out: the
//! metrics' count of each request (after routing, so it sees the route's template),
//! the request log at INFO, then the probes and `/metrics` (logged at DEBUG only, and
//! not counted), then the request id around everything (and the security headers
//! around that, in `api`).

use axum::Router;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;
use tower::ServiceBuilder;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::games::Games;
use crate::health::{Readiness, healthz};
use crate::metrics::{Metrics, MetricsToken};
use crate::request_id::{HEADER, MakeId, RequestSpan, drop_malformed};

/// The shortest `--metrics-token` accepted: one that could be guessed would open the
/// metrics to anyone.
pub const MIN_TOKEN_LEN: usize = 16;

/// What the server offers its operator beside the application (see
/// [`crate::app_with`]). The default counts no metrics and serves none: the probes
/// and request ids are always there.
///
/// ```
/// use mancala_web::{Games, Metrics, Operations, Store, app_with};
/// let games = Games::new(Store::in_memory().unwrap());
/// let metrics = Metrics::new(&games);
/// let ops = Operations::default()
///     .with_metrics(metrics.clone())
///     .with_metrics_token("a-long-secret-token-for-prometheus")
///     .unwrap();
/// let router = app_with(games, &ops);
/// # let _ = router;
/// ```
#[derive(Clone, Default)]
pub struct Operations {
    metrics: Option<Metrics>,
    token: Option<MetricsToken>,
}

impl Operations {
    /// Counts the requests in `metrics` (which the caller may serve on a listener of
    /// its own: [`crate::serve_metrics`]).
    #[must_use]
    pub fn with_metrics(mut self, metrics: Metrics) -> Operations {
        self.metrics = Some(metrics);
        self
    }

    /// Serves the metrics on the main listener too, at `GET /metrics`, to requests
    /// with `Authorization: Bearer <token>`.
    ///
    /// # Errors
    /// When the token is shorter than [`MIN_TOKEN_LEN`] or is not printable ASCII.
    pub fn with_metrics_token(mut self, token: &str) -> Result<Operations, String> {
        if token.len() < MIN_TOKEN_LEN || !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "the metrics token must be at least {MIN_TOKEN_LEN} printable characters \
                 without spaces (e.g. `openssl rand -hex 32`)"
            ));
        }
        self.token = Some(MetricsToken::new(token));
        Ok(self)
    }

    /// Wraps the application `app` of `games` (see the module's documentation).
    pub(crate) fn around(&self, app: Router<Games>, games: &Games) -> Router<Games> {
        let metrics = match (&self.metrics, &self.token) {
            (Some(m), _) => Some(m.clone()),
            (None, Some(_)) => Some(Metrics::new(games)),
            (None, None) => None,
        };
        // One line per request at INFO: method, path, id, status and latency.
        let traced = TraceLayer::new_for_http()
            .make_span_with(RequestSpan::INFO)
            .on_response(DefaultOnResponse::new().level(tracing::Level::INFO));
        // One `Router::layer` for both: each call boxes every route once more, and
        // axum clones a route's boxed service for every request.
        let app = match &metrics {
            Some(m) => app.layer(ServiceBuilder::new().layer(traced).layer(m.layer())),
            None => app.layer(traced),
        };
        let quiet = probe_routes(metrics.zip(self.token.clone())).layer(
            TraceLayer::new_for_http()
                .make_span_with(RequestSpan::DEBUG)
                .on_response(DefaultOnResponse::new().level(tracing::Level::DEBUG)),
        );
        app.merge(quiet)
            .layer(PropagateRequestIdLayer::new(
                HEADER.parse().expect("a name"),
            ))
            .layer(SetRequestIdLayer::new(
                HEADER.parse().expect("a name"),
                MakeId::new(games.store().instance()),
            ))
            .layer(axum::middleware::map_request(|r| async {
                drop_malformed(r)
            }))
    }
}

/// `/healthz`, `/readyz`, and `/metrics` when a token opens it.
fn probe_routes(metrics: Option<(Metrics, MetricsToken)>) -> Router<Games> {
    let readiness = Readiness::default();
    let router = Router::new().route("/healthz", get(healthz)).route(
        "/readyz",
        get(
            move |axum::extract::State(games): axum::extract::State<Games>| {
                let readiness = readiness.clone();
                async move { readiness.answer(&games).await }
            },
        ),
    );
    let Some((metrics, token)) = metrics else {
        return router;
    };
    router.route(
        "/metrics",
        get(move |headers: HeaderMap| {
            let (metrics, token) = (metrics.clone(), token.clone());
            async move {
                if token.admits(&headers) {
                    metrics.answer().await
                } else {
                    unauthorized()
                }
            }
        }),
    )
}

/// 401 for `/metrics` without the token.
fn unauthorized() -> Response {
    (
        axum::http::StatusCode::UNAUTHORIZED,
        [(axum::http::header::WWW_AUTHENTICATE, "Bearer")],
        axum::Json(json!({"error": "the metrics need their token (Authorization: Bearer)"})),
    )
        .into_response()
}
