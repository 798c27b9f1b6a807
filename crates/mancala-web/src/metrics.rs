//! Prometheus metrics (`/metrics`, the text exposition format 0.0.4).
//!
//! Two kinds: what is counted as it happens, with atomics only (the requests by route
//! template and status with their latencies; the computer moves' waits and thinks,
//! counted by the thinkers), and what is read when the metrics are asked for (live
//! streams open, computer players thinking, games in progress, the database's
//! answer time and its pool).
//!
//! Built on the `prometheus` crate: its counters, gauges and histograms are atomics
//! (a histogram's observation takes no lock, unlike `prometheus-client`'s, whose
//! histograms lock a mutex per observation, which every move would take in turn), and
//! a registry belongs to one server rather than to the process (unlike the `metrics`
//! facade's global recorder), so tests may run several servers in one process.
//!
//! `/metrics` is private: `mancala serve` serves it on `--metrics-listen` (an address
//! of its own, typically loopback) and/or on the main listener to requests bearing
//! `--metrics-token`; without either, `/metrics` is an unknown path there.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::extract::MatchedPath;
use axum::http::{HeaderMap, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntGauge, IntGaugeVec, Opts, Registry, TextEncoder,
};
use subtle::ConstantTimeEq;
use tower::{Layer, Service};

use crate::games::Games;
use crate::health::READY_TIMEOUT;
use crate::store::Probe;

/// The latency buckets of requests, in seconds: a move is answered in about a
/// millisecond, a refused request is held back a second.
const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The route label of a request that matched no route (an unknown page).
const UNMATCHED: &str = "unmatched";

/// The metrics of one server: its registry, and the service whose state is read when
/// they are asked for. Cheap to clone.
///
/// ```
/// use mancala_web::{Games, Metrics, Store};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let metrics = Metrics::new(&Games::new(Store::in_memory().unwrap()));
/// let text = metrics.render().await;
/// assert!(text.contains("mancala_live_streams_open 0"));
/// # });
/// ```
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    requests: HistogramVec,
    games: Games,
}

impl Metrics {
    /// The metrics of the server of `games`.
    ///
    /// # Panics
    /// Never in practice: the metric names and labels are fixed and valid.
    #[must_use]
    pub fn new(games: &Games) -> Metrics {
        let registry = Registry::new();
        let requests = HistogramVec::new(
            HistogramOpts::new(
                "mancala_http_request_duration_seconds",
                "Requests answered, by route template and status, and how long until the \
                 answer's head was sent (a live stream counts until it opened)",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &["route", "status"],
        )
        .expect("a valid histogram");
        registry
            .register(Box::new(requests.clone()))
            .expect("registered once");
        games
            .thinkers()
            .meter()
            .register(&registry)
            .expect("registered once");
        Metrics {
            inner: Arc::new(Inner {
                registry,
                requests,
                games: games.clone(),
            }),
        }
    }

    /// Counts a request answered with `status` after `took`, under its route
    /// template (`None`: no route matched).
    fn observe(&self, route: Option<&str>, status: StatusCode, took: Duration) {
        self.inner
            .requests
            .with_label_values(&[route.unwrap_or(UNMATCHED), status.as_str()])
            .observe(took.as_secs_f64());
    }

    /// The metrics now, in the Prometheus text format.
    pub async fn render(&self) -> String {
        let mut families = self.inner.registry.gather();
        families.extend(self.read_now().await.gather());
        families.sort_by(|a, b| a.name().cmp(b.name()));
        let mut text = Vec::new();
        TextEncoder::new()
            .encode(&families, &mut text)
            .expect("encoding to memory cannot fail");
        String::from_utf8(text).expect("the text format is UTF-8")
    }

    /// What is read when the metrics are asked for, in a registry of its own (so a
    /// value that could not be read is left out rather than kept from before).
    async fn read_now(&self) -> Registry {
        let now = Registry::new();
        let games = &self.inner.games;
        let limits = games.limits();
        let stats = games.think_stats();
        let probe = games.store().probe();
        let gauges: [(&str, &str, i64); 5] = [
            (
                "mancala_live_streams_open",
                "Live streams (event streams and WebSockets) open here",
                count(games.open_streams()),
            ),
            (
                "mancala_live_streams_limit",
                "The most live streams open here at once (--max-streams)",
                count(limits.streams.total),
            ),
            (
                "mancala_computer_players_thinking",
                "Computer players (and game analyses) thinking here now",
                count(stats.thinking),
            ),
            (
                "mancala_computer_thinkers",
                "Computer players that may think here at once (--thinkers)",
                count(limits.think.thinkers),
            ),
            (
                "mancala_computer_players_kept",
                "Computer players kept here between their moves (one per game)",
                count(stats.kept.players),
            ),
        ];
        for (name, help, value) in gauges {
            gauge(&now, name, help, value);
        }
        self.read_store(&now, &probe).await;
        now
    }

    /// The database's gauges: whether it answered, how long it took, the games in
    /// progress, and (PostgreSQL) the pool.
    async fn read_store(&self, now: &Registry, probe: &Probe) {
        let asked = Instant::now();
        let in_progress = tokio::time::timeout(READY_TIMEOUT, probe.games_in_progress()).await;
        let took = asked.elapsed();
        let up = matches!(in_progress, Ok(Ok(_)));
        let info = IntGaugeVec::new(
            Opts::new("mancala_db_up", "Whether the database answered this scrape"),
            &["store"],
        )
        .expect("a valid gauge");
        info.with_label_values(&[probe.backend()])
            .set(i64::from(up));
        now.register(Box::new(info)).expect("registered once");
        let seconds = prometheus::Gauge::new(
            "mancala_db_query_seconds",
            "How long this scrape's query took, with its wait for the connection (the \
             SQLite connection's queue, or PostgreSQL's pool)",
        )
        .expect("a valid gauge");
        seconds.set(took.as_secs_f64());
        now.register(Box::new(seconds)).expect("registered once");
        if let Ok(Ok(n)) = in_progress {
            gauge(
                now,
                "mancala_games_in_progress",
                "Games with both seats taken and not over, in the whole database (the \
                 same on every instance)",
                i64::try_from(n).unwrap_or(i64::MAX),
            );
        }
        if let Some(pool) = probe.pool() {
            let pool_gauges = [
                ("max", "The most connections (--db-connections)", pool.max),
                ("open", "Connections open", pool.open),
                ("idle", "Open connections idle", pool.idle),
                ("waiting", "Requests waiting for a connection", pool.waiting),
            ];
            for (name, help, value) in pool_gauges {
                let name = format!("mancala_db_pool_{name}");
                gauge(
                    now,
                    &name,
                    &format!("PostgreSQL pool: {help}"),
                    count(value),
                );
            }
        }
    }

    /// A router serving these metrics at `GET /metrics` and nothing else, for a
    /// listener of its own.
    pub fn router(&self) -> Router {
        let metrics = self.clone();
        Router::new().route(
            "/metrics",
            get(move || {
                let metrics = metrics.clone();
                async move { metrics.answer().await }
            }),
        )
    }

    /// The metrics as an HTTP answer.
    pub(crate) async fn answer(&self) -> Response {
        (
            [
                (header::CONTENT_TYPE, prometheus::TEXT_FORMAT),
                (header::CACHE_CONTROL, "no-store"),
            ],
            self.render().await,
        )
            .into_response()
    }

    /// The layer that counts every request it wraps (added with `Router::layer`, it
    /// runs after routing and sees the route's template).
    pub(crate) fn layer(&self) -> CountLayer {
        CountLayer(self.clone())
    }
}

/// Counts each request of the service it wraps in [`Metrics`]. A service of its own
/// rather than `axum::middleware::from_fn`, which boxes the inner service and the
/// future of every request: measured, that cost some 3 µs a request, this a few
/// atomic operations.
#[derive(Clone)]
pub(crate) struct CountLayer(Metrics);

impl<S> Layer<S> for CountLayer {
    type Service = Count<S>;

    fn layer(&self, inner: S) -> Count<S> {
        Count {
            inner,
            metrics: self.0.clone(),
        }
    }
}

/// A service whose requests are counted (see [`CountLayer`]).
#[derive(Clone)]
pub(crate) struct Count<S> {
    inner: S,
    metrics: Metrics,
}

impl<S, B> Service<Request<B>> for Count<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Counted<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        Counted {
            route: request.extensions().get::<MatchedPath>().cloned(),
            started: Instant::now(),
            metrics: self.metrics.clone(),
            inner: self.inner.call(request),
        }
    }
}

pin_project_lite::pin_project! {
    /// The answer of a counted request, counted when it is ready.
    pub(crate) struct Counted<F> {
        #[pin]
        inner: F,
        route: Option<MatchedPath>,
        started: Instant,
        metrics: Metrics,
    }
}

impl<F, E> Future for Counted<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let result = std::task::ready!(this.inner.poll(cx));
        if let Ok(response) = &result {
            let route = this.route.as_ref().map(MatchedPath::as_str);
            this.metrics
                .observe(route, response.status(), this.started.elapsed());
        }
        Poll::Ready(result)
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Registers a gauge set to `value` in `registry`.
fn gauge(registry: &Registry, name: &str, help: &str, value: i64) {
    let g = IntGauge::new(name, help).expect("a valid gauge");
    g.set(value);
    registry.register(Box::new(g)).expect("registered once");
}

/// The token that opens `/metrics` on the main listener (`--metrics-token`).
#[derive(Clone)]
pub(crate) struct MetricsToken(Arc<str>);

impl MetricsToken {
    pub(crate) fn new(token: &str) -> MetricsToken {
        MetricsToken(token.into())
    }

    /// Whether `headers` bear the token (`Authorization: Bearer <token>`), compared in
    /// constant time.
    pub(crate) fn admits(&self, headers: &HeaderMap) -> bool {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .unwrap_or("");
        bool::from(given.as_bytes().ct_eq(self.0.as_bytes()))
    }
}

/// Serves `metrics` at `GET /metrics` on `listener` (an address of its own, for
/// Prometheus only) until `shutdown` completes.
///
/// # Errors
/// When accepting connections fails.
pub async fn serve_metrics(
    listener: tokio::net::TcpListener,
    metrics: Metrics,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        metrics
            .router()
            .into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
