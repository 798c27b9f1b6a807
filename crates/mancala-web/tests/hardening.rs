//! The server tried as a hostile user would (issue 24): each hole has a test here that
//! fails on the server before it was closed.

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use mancala_web::{Games, ServerLimits, Store, ThinkLimits, app};
use serde_json::{Value, json};
use tower::ServiceExt;

fn router_with(limits: ServerLimits) -> Router {
    app(Games::with_limits(Store::in_memory().unwrap(), limits))
}

/// A request through the router: status, headers and the body as JSON (or the text
/// as a JSON string when it is not JSON).
async fn send(router: &Router, req: Request<Body>) -> (StatusCode, HeaderMap, Value) {
    let response = router.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, headers, value)
}

async fn call(
    router: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let (status, _, value) = send(router, req).await;
    (status, value)
}

// Hole 1: unbounded computer thinking.

#[tokio::test]
async fn expensive_opponents_are_refused_naming_the_bound() {
    let r = router_with(ServerLimits::default());
    for (opponent, flag) in [
        ("alphabeta:ms=100000000", "--max-think-ms"),
        ("mcts:sims=4000000000", "--max-think-sims"),
        ("alphabeta:nodes=100000000000", "--max-think-nodes"),
        ("perfect:hash=65536", "--max-table-mb"),
    ] {
        let (s, e) = call(
            &r,
            "POST",
            "/api/games",
            None,
            Some(json!({"variant": "kalah", "opponent": opponent})),
        )
        .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{opponent}: {e}");
        assert!(e["error"].as_str().unwrap().contains(flag), "{e}");
    }
}

#[tokio::test]
async fn a_search_without_a_time_limit_still_stops_at_the_servers_bound() {
    // alphabeta:depth=40 on a big board would think for hours; the server stops every
    // search at --max-think-ms.
    let limits = ServerLimits {
        think: ThinkLimits {
            max_ms: 200,
            ..ThinkLimits::default()
        },
        ..ServerLimits::default()
    };
    let r = router_with(limits);
    let (s, g) = call(
        &r,
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "kalah", "houses": 12, "seeds": 12, "opponent": "alphabeta:depth=40"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let (id, token) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    let (s, v) = call(
        &r,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        // Twelve seeds from house 2 end on the computer's side: its turn.
        Some(json!({"house": 2, "ply": 0})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], 2);
    let start = Instant::now();
    loop {
        let (_, v) = call(&r, "GET", &format!("/api/games/{id}"), None, None).await;
        if v["ply"].as_u64().unwrap() >= 2 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the computer is still thinking after {:?}",
            start.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
