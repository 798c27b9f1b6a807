//! The operator's endpoints through the router, on SQLite and on PostgreSQL: the probes
//! (`/healthz`, `/readyz`, and `/readyz` with the database stopped), the metrics read
//! back by a Prometheus text-format parser, `/metrics` kept private, and request ids.

mod common;

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_web::{Games, Limits, Metrics, Operations, Store, StoreOptions, app, app_with};
use prom_text_format_parser::{Scrape, Type, ValueType};
use serde_json::{Value, json};
use tower::ServiceExt;

on_both_backends!(
    the_probes_answer,
    metrics_count_requests_games_streams_and_computer_moves,
    metrics_are_served_only_with_the_token_or_on_their_own_router,
);

const TOKEN: &str = "0123456789abcdef-metrics";

async fn send(router: &Router, req: Request<Body>) -> (StatusCode, HeaderMap, Bytes) {
    let response = router.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (parts.status, parts.headers, bytes)
}

fn get(uri: &str) -> Request<Body> {
    Request::get(uri).body(Body::empty()).unwrap()
}

async fn call(router: &Router, method: &str, uri: &str, token: Option<&str>, body: Value) -> Value {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, _, bytes) = send(router, req).await;
    assert!(status.is_success(), "{method} {uri}: {status}");
    serde_json::from_slice(&bytes).unwrap()
}

async fn json_of(router: &Router, uri: &str) -> (StatusCode, Value) {
    let (status, headers, bytes) = send(router, get(uri)).await;
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    (status, serde_json::from_slice(&bytes).unwrap())
}

async fn the_probes_answer(db: TestDb) {
    let r = app(db.games().await);
    assert_eq!(
        json_of(&r, "/healthz").await,
        (StatusCode::OK, json!({"status": "ok"}))
    );
    let (status, ready) = json_of(&r, "/readyz").await;
    assert_eq!(status, StatusCode::OK, "{ready}");
    assert_eq!(ready["status"], "ready");
    let store = if db.location.is_some() {
        "postgres"
    } else {
        "sqlite"
    };
    assert_eq!(ready["store"], store);
    assert!(ready["schema"].as_i64().unwrap() >= 6, "{ready}");
    // HEAD, as some load balancers probe; with every answer's headers.
    let head = Request::head("/healthz").body(Body::empty()).unwrap();
    let (status, headers, _) = send(&r, head).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    assert!(headers.contains_key("x-request-id"));
}

/// The metrics as parsed by a Prometheus text-format parser.
struct Scraped(Scrape);

impl Scraped {
    async fn of(router: &Router) -> Scraped {
        let req = Request::get("/metrics")
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .body(Body::empty())
            .unwrap();
        let (status, headers, bytes) = send(router, req).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            headers[header::CONTENT_TYPE],
            "text/plain; version=0.0.4",
            "Prometheus' text format"
        );
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        Scraped(Scrape::parse(&text).unwrap_or_else(|e| panic!("{e:?} in\n{text}")))
    }

    /// The value of the sample of metric `name` (of `kind`) with `labels` (all of
    /// them), and of type `value` (a histogram's count, say).
    fn value(
        &self,
        name: &str,
        kind: Type,
        labels: &[(&str, &str)],
        value: ValueType,
    ) -> Option<f64> {
        let metric = self.0.metrics.iter().find(|m| m.name == name)?;
        assert_eq!(metric.kind, kind, "{name}");
        assert!(metric.help_desc.is_some(), "{name} has no help");
        metric
            .samples
            .iter()
            .find(|s| {
                s.value.value_type == value
                    && labels
                        .iter()
                        .all(|(k, v)| s.labels.iter().any(|l| l.key == *k && l.value == *v))
            })
            .map(|s| s.value.value.as_f64())
    }

    fn gauge(&self, name: &str) -> Option<f64> {
        self.value(name, Type::Gauge, &[], ValueType::Sample)
    }

    /// How many requests to `route` were answered with `status`.
    fn requests(&self, route: &str, status: &str) -> f64 {
        self.value(
            "mancala_http_request_duration_seconds",
            Type::Histogram,
            &[("route", route), ("status", status)],
            ValueType::Count,
        )
        .unwrap_or(0.0)
    }
}

/// The application with metrics counted and served behind [`TOKEN`].
fn with_metrics(games: &Games) -> Router {
    let ops = Operations::default()
        .with_metrics(Metrics::new(games))
        .with_metrics_token(TOKEN)
        .unwrap();
    app_with(games.clone(), &ops)
}

async fn metrics_count_requests_games_streams_and_computer_moves(db: TestDb) {
    let games = db.games().await;
    let r = with_metrics(&games);
    let before = Scraped::of(&r).await;
    assert_eq!(before.gauge("mancala_games_in_progress"), Some(0.0));
    assert_eq!(before.gauge("mancala_live_streams_open"), Some(0.0));
    let up = before.value(
        "mancala_db_up",
        Type::Gauge,
        &[(
            "store",
            if db.location.is_some() {
                "postgres"
            } else {
                "sqlite"
            },
        )],
        ValueType::Sample,
    );
    assert_eq!(up, Some(1.0));
    if db.location.is_some() {
        assert_eq!(before.gauge("mancala_db_pool_max"), Some(16.0));
        assert!(before.gauge("mancala_db_pool_open").unwrap() >= 1.0);
    } else {
        assert_eq!(before.gauge("mancala_db_pool_max"), None, "no pool");
    }

    // A game against the computer is in progress once created; a move and the
    // computer's answer are counted.
    let grant = call(
        &r,
        "POST",
        "/api/games",
        None,
        json!({"variant": "kalah", "houses": 4, "seeds": 3, "opponent": "greedy"}),
    )
    .await;
    let (id, token) = (
        grant["id"].as_str().unwrap(),
        grant["token"].as_str().unwrap(),
    );
    call(
        &r,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        json!({"house": 1, "ply": 0}),
    )
    .await;
    assert_eq!(
        send(&r, get("/no/such/page")).await.0,
        StatusCode::NOT_FOUND
    );
    // A stream open until its answer is dropped.
    let stream = r
        .clone()
        .oneshot(get(&format!("/api/games/{id}/live")))
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);

    let started = Instant::now();
    let after = loop {
        let scraped = Scraped::of(&r).await;
        let thought = scraped.value(
            "mancala_computer_think_seconds",
            Type::Histogram,
            &[],
            ValueType::Count,
        );
        if thought >= Some(1.0) {
            break scraped;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no computer move"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(after.requests("/api/games", "201"), 1.0);
    assert_eq!(after.requests("/api/games/{id}/moves", "200"), 1.0);
    assert_eq!(after.requests("unmatched", "404"), 1.0);
    assert_eq!(after.requests("/api/games/{id}/live", "200"), 1.0);
    assert_eq!(after.gauge("mancala_games_in_progress"), Some(1.0));
    assert_eq!(after.gauge("mancala_live_streams_open"), Some(1.0));
    assert_eq!(after.gauge("mancala_computer_moves_waiting"), Some(0.0));
    let waited = after.value(
        "mancala_computer_wait_seconds",
        Type::Histogram,
        &[],
        ValueType::Count,
    );
    assert!(waited >= Some(1.0));
    // The scrapes themselves are not counted, nor are they paths of their own.
    let text = format!("{}", after.0);
    assert!(!text.contains("route=\"/metrics\""), "{text}");
    assert!(!text.contains(id), "a raw path in the labels: {text}");

    drop(stream);
    let started = Instant::now();
    while Scraped::of(&r).await.gauge("mancala_live_streams_open") != Some(0.0) {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the stream stays"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn metrics_are_served_only_with_the_token_or_on_their_own_router(db: TestDb) {
    let games = db.games().await;
    // By default, /metrics is an unknown page like any other.
    let (status, headers, _) = send(&app(games.clone()), get("/metrics")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    // Metrics counted but served elsewhere: still unknown here.
    let metrics = Metrics::new(&games);
    let elsewhere = app_with(
        games.clone(),
        &Operations::default().with_metrics(metrics.clone()),
    );
    assert_eq!(
        send(&elsewhere, get("/metrics")).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, headers, body) = send(&metrics.router(), get("/metrics")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/plain; version=0.0.4");
    assert!(String::from_utf8_lossy(&body).contains("mancala_live_streams_open 0"));
    assert_eq!(
        send(&metrics.router(), get("/api/lobby")).await.0,
        StatusCode::NOT_FOUND,
        "the metrics' router serves nothing else"
    );

    // Behind the token: without it or with another, 401.
    let r = with_metrics(&games);
    let with = |auth: Option<&str>| {
        let mut req = Request::get("/metrics");
        if let Some(a) = auth {
            req = req.header(header::AUTHORIZATION, a);
        }
        req.body(Body::empty()).unwrap()
    };
    for wrong in [
        None,
        Some("Bearer nope"),
        Some(&*format!("Bearer {TOKEN}x")),
        Some(TOKEN),
    ] {
        let (status, headers, _) = send(&r, with(wrong)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{wrong:?}");
        assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
    }
    let (status, _, _) = send(&r, with(Some(&format!("Bearer {TOKEN}")))).await;
    assert_eq!(status, StatusCode::OK);
}

#[test]
fn a_short_metrics_token_is_refused() {
    let e = Operations::default()
        .with_metrics_token("short")
        .err()
        .unwrap();
    assert!(e.contains("at least 16"), "{e}");
    assert!(
        Operations::default()
            .with_metrics_token("has a space in it ok")
            .is_err()
    );
}

#[tokio::test]
async fn probes_are_not_rate_limited() {
    let mut limits = Limits::default();
    limits.rates.read = "1/60s".parse().unwrap();
    limits.rates.refusal_delay = Duration::ZERO;
    let r = app(Games::with_limits(Store::in_memory().unwrap(), limits));
    assert_eq!(send(&r, get("/api/lobby")).await.0, StatusCode::OK);
    assert_eq!(
        send(&r, get("/api/lobby")).await.0,
        StatusCode::TOO_MANY_REQUESTS,
        "reads are limited"
    );
    for _ in 0..20 {
        assert_eq!(send(&r, get("/healthz")).await.0, StatusCode::OK);
        assert_eq!(send(&r, get("/readyz")).await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn request_ids_are_made_kept_and_echoed() {
    let r = app(Games::new(Store::in_memory().unwrap()));
    let id_of = |headers: &HeaderMap| headers["x-request-id"].to_str().unwrap().to_owned();
    let (_, h1, _) = send(&r, get("/api/lobby")).await;
    let (_, h2, _) = send(&r, get("/healthz")).await;
    let (made, next) = (id_of(&h1), id_of(&h2));
    assert!(made.starts_with("mancala-"), "{made}");
    assert_ne!(made, next);
    let with = |id: &str| {
        Request::get("/api/lobby")
            .header("x-request-id", id)
            .body(Body::empty())
            .unwrap()
    };
    let (_, h, _) = send(&r, with("0f8fad5b-d9cb-469f-a165-70867728950e")).await;
    assert_eq!(id_of(&h), "0f8fad5b-d9cb-469f-a165-70867728950e");
    let (_, h, _) = send(&r, with("not an id; drop table")).await;
    assert!(id_of(&h).starts_with("mancala-"), "replaced");
    // Errors carry it too.
    let (status, h, _) = send(&r, get("/api/nothing")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(id_of(&h).starts_with("mancala-"));
}

/// `/readyz` with the database gone: 503 with a reason while `/healthz` stays 200, and
/// ready again once it is back. A cluster of its own, since it is stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_postgres_server() {
    let Some(pg) = mancala_pgtest::require("readiness_follows_the_postgres_server") else {
        return;
    };
    let store = Store::open(&pg.url().parse().unwrap(), &StoreOptions::default())
        .await
        .unwrap();
    let games = Games::new(store);
    let r = with_metrics(&games);
    assert_eq!(json_of(&r, "/readyz").await.0, StatusCode::OK);

    pg.stop().unwrap();
    let (status, v) = json_of(&r, "/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["status"], "unavailable");
    assert_eq!(v["reason"], "the database does not answer");
    assert_eq!(json_of(&r, "/healthz").await.0, StatusCode::OK);
    let down = Scraped::of(&r).await;
    let up = down.value(
        "mancala_db_up",
        Type::Gauge,
        &[("store", "postgres")],
        ValueType::Sample,
    );
    assert_eq!(up, Some(0.0));
    assert_eq!(down.gauge("mancala_games_in_progress"), None, "not read");

    pg.start_again().unwrap();
    let started = Instant::now();
    loop {
        let (status, v) = json_of(&r, "/readyz").await;
        if status == StatusCode::OK {
            assert_eq!(v["status"], "ready");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "never ready: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A request the database cannot take while it is down is 503 with `Retry-After`,
/// saying nothing was changed, not a 500; once the database is back every move
/// acknowledged before the outage is there and play goes on. A cluster of its own,
/// since it is stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_during_a_database_outage_are_503_and_acknowledged_moves_are_kept() {
    let test = "requests_during_a_database_outage_are_503_and_acknowledged_moves_are_kept";
    let Some(pg) = mancala_pgtest::require(test) else {
        return;
    };
    let store = Store::open(&pg.url().parse().unwrap(), &StoreOptions::default())
        .await
        .unwrap();
    let r = app(Games::new(store));
    let new_game = json!({"variant": "kalah", "houses": 4, "seeds": 3, "opponent": "human"});
    let grant = call(&r, "POST", "/api/games", None, new_game.clone()).await;
    let (id, token) = (
        grant["id"].as_str().unwrap().to_owned(),
        grant["token"].as_str().unwrap().to_owned(),
    );
    let join = json!({"invite": grant["invite"]});
    call(&r, "POST", &format!("/api/games/{id}/join"), None, join).await;
    let moves = format!("/api/games/{id}/moves");
    // House 1 of 3 seeds on 4 houses ends short of the store: the turn passes.
    call(
        &r,
        "POST",
        &moves,
        Some(&token),
        json!({"house": 1, "ply": 0}),
    )
    .await;

    pg.stop().unwrap();
    let during = |body: Value, uri: &str, token: Option<&str>| {
        let mut req = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        req.body(Body::from(body.to_string())).unwrap()
    };
    for req in [
        during(new_game.clone(), "/api/games", None),
        during(json!({"house": 2, "ply": 1}), &moves, Some(&token)),
    ] {
        let (status, headers, bytes) = send(&r, req).await;
        let body = String::from_utf8_lossy(&bytes);
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(headers[header::RETRY_AFTER], "2");
        assert!(body.contains("nothing was changed"), "{body}");
    }

    pg.start_again().unwrap();
    let started = Instant::now();
    let view = loop {
        let (status, headers, bytes) = send(&r, get(&format!("/api/games/{id}"))).await;
        if status == StatusCode::OK {
            break serde_json::from_slice::<Value>(&bytes).unwrap();
        }
        assert_eq!(
            status,
            StatusCode::SERVICE_UNAVAILABLE,
            "only 503 while it comes back"
        );
        assert_eq!(headers[header::RETRY_AFTER], "2");
        assert!(started.elapsed() < Duration::from_secs(20), "never back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(view["ply"], 1, "{view}");
    assert_eq!(view["to_move"], 2, "{view}");
}
