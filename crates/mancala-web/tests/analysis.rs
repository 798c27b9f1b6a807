//! A finished game's analysis through the router (`GET /api/games/{id}/analysis`), on
//! SQLite and on PostgreSQL: 202 while computed, then the stored document; 409 for a
//! game not over, 404 for none; one job per game, across instances too.

mod common;

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_core::{Game, Rules};
use mancala_engine::{AnalysisSettings, analyse};
use serde_json::{Value, json};
use tower::ServiceExt;

on_both_backends!(
    a_finished_game_is_analysed_then_served_as_stored,
    only_a_finished_game_is_analysed,
    one_job_per_game,
    a_crashed_job_s_claim_lapses,
);

/// A request's answer: status, headers and the body as JSON.
struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    json: Value,
}

async fn call(r: &Router, method: &str, uri: &str, token: Option<&str>, body: Value) -> Answer {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let body = if body.is_null() {
        Body::empty()
    } else {
        Body::from(body.to_string())
    };
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .unwrap();
    let response = r.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        json: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

/// A Kalah(3,2) game between two people, played to its end by always sowing the
/// first legal house: its id and the game as core plays it.
async fn finished_game(r: &Router) -> (String, Game) {
    let (id, tokens) = joined_game(r).await;
    let mut game = Game::new(Rules::kalah(3, 2));
    while !game.is_over() {
        let mv = game.legal_moves()[0];
        let seat = if game.position().to_move() == mancala_core::Side::South {
            0
        } else {
            1
        };
        let a = call(
            r,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&tokens[seat]),
            json!({"house": mv.house(), "ply": game.ply()}),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        game.play(mv).unwrap();
    }
    (id, game)
}

/// A joined Kalah(3,2) game between two people: its id and both tokens.
async fn joined_game(r: &Router) -> (String, [String; 2]) {
    let g = call(
        r,
        "POST",
        "/api/games",
        None,
        json!({"variant": "kalah", "houses": 3, "seeds": 2}),
    )
    .await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.json);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let j = call(
        r,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        json!({"invite": g.json["invite"]}),
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    (id, [token(&g.json), token(&j.json)])
}

/// Asks for the analysis until it is there (202 meanwhile); the document.
/// `GET /api/games/{id}/analysis`, starting a job if need be.
async fn get_analysis(r: &Router, id: &str) -> Answer {
    call(
        r,
        "GET",
        &format!("/api/games/{id}/analysis"),
        None,
        Value::Null,
    )
    .await
}

async fn analysis_when_done(r: &Router, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let a = get_analysis(r, id).await;
        match a.status {
            StatusCode::OK => return a.json,
            StatusCode::ACCEPTED => {
                assert!(
                    started.elapsed() < Duration::from_secs(120),
                    "never analysed"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            other => panic!("{other}: {}", a.json),
        }
    }
}

async fn a_finished_game_is_analysed_then_served_as_stored(db: TestDb) {
    let games = db.games().await;
    let r = mancala_web::app(games.clone());
    let (id, game) = finished_game(&r).await;
    // A look that starts nothing: not analysed yet.
    let look = format!("/api/games/{id}/analysis?start=false");
    let a = call(&r, "GET", &look, None, Value::Null).await;
    assert_eq!(a.status, StatusCode::NO_CONTENT);
    assert_eq!(games.analyses_started(), 0);
    let first = get_analysis(&r, &id).await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.json);
    assert_eq!(first.headers[header::RETRY_AFTER], "2");
    assert_eq!(first.json["of"], game.ply() + 1);
    assert!(first.json["status"].is_string());
    let document = analysis_when_done(&r, &id).await;
    // Every ply of so small a board is proven, so the document is the library's.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let expected = analyse(&game, &AnalysisSettings::default(), |_| {}, &stop).unwrap();
    assert_eq!(document, serde_json::to_value(&expected).unwrap());
    let plies = document["plies"].as_array().unwrap();
    assert_eq!(plies.len(), game.ply());
    assert!(plies.iter().all(|p| p["exact"] == true));
    // The next view is the stored document, at once, without another job.
    let again = get_analysis(&r, &id).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json, document);
    assert_eq!(games.analyses_started(), 1);
    let a = call(&r, "GET", &look, None, Value::Null).await;
    assert_eq!((a.status, &a.json), (StatusCode::OK, &document));
    // A new instance on the same database finds it stored too.
    if db.location.is_some() {
        let other = mancala_web::app(db.games().await);
        let a = get_analysis(&other, &id).await;
        assert_eq!(a.status, StatusCode::OK);
        assert_eq!(a.json, document);
    }
}

async fn only_a_finished_game_is_analysed(db: TestDb) {
    let games = db.games().await;
    let r = mancala_web::app(games.clone());
    let (id, _) = joined_game(&r).await;
    let a = get_analysis(&r, &id).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
    assert!(
        a.json["error"].as_str().unwrap().contains("not over"),
        "{}",
        a.json
    );
    let a = call(
        &r,
        "GET",
        "/api/games/0123456789abcdef/analysis",
        None,
        Value::Null,
    )
    .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.json);
    // A resigned game is over: it is analysed.
    let (id, tokens) = joined_game(&r).await;
    let a = call(
        &r,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&tokens[0]),
        json!({"house": 1, "ply": 0}),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let a = call(
        &r,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&tokens[1]),
        Value::Null,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    let document = analysis_when_done(&r, &id).await;
    assert_eq!(document["plies"].as_array().unwrap().len(), 1);
    assert_eq!(games.analyses_started(), 1);
}

async fn one_job_per_game(db: TestDb) {
    let games = db.games().await;
    let r = mancala_web::app(games.clone());
    let (id, _) = finished_game(&r).await;
    let uri = format!("/api/games/{id}/analysis");
    let (a, b) = tokio::join!(
        call(&r, "GET", &uri, None, Value::Null),
        call(&r, "GET", &uri, None, Value::Null)
    );
    assert_eq!(
        (a.status, b.status),
        (StatusCode::ACCEPTED, StatusCode::ACCEPTED)
    );
    // Another instance on the same database leaves the job to the one that has it.
    let other = if db.location.is_some() {
        Some(db.games().await)
    } else {
        None
    };
    if let Some(other) = &other {
        let o = call(
            &mancala_web::app(other.clone()),
            "GET",
            &uri,
            None,
            Value::Null,
        )
        .await;
        assert!(
            o.status == StatusCode::ACCEPTED || o.status == StatusCode::OK,
            "{}",
            o.json
        );
        if o.status == StatusCode::ACCEPTED {
            assert_eq!(o.json["status"], "elsewhere");
        }
    }
    let document = analysis_when_done(&r, &id).await;
    assert_eq!(games.analyses_started(), 1);
    if let Some(other) = other {
        let o = analysis_when_done(&mancala_web::app(other.clone()), &id).await;
        assert_eq!(o, document);
        assert_eq!(other.analyses_started(), 0);
    }
}

/// The store's claims: one holder at a time; a holder that stops renewing (crashed)
/// loses the job when its lease lapses; a stored analysis is not claimed again unless
/// the game's moves differ; it is deleted with its game.
async fn a_crashed_job_s_claim_lapses(db: TestDb) {
    use mancala_web::{Expiry, GameRow, StoredAnalysis};
    let first = db.store().await;
    let game = GameRow {
        id: "a1".into(),
        rules: mancala_core::Rules::from_text("kalah(3,2)").unwrap(),
        opponent: "human".into(),
        token_hashes: [Some([7; 32]), None],
        activity_ms: mancala_web::now_ms(),
        ..GameRow::default()
    };
    first.create(&game).await.unwrap();
    let lease = Duration::from_millis(300);
    assert!(first.claim_analysis("a1", 5, lease).await.unwrap());
    assert!(!first.claim_analysis("a1", 5, lease).await.unwrap(), "held");
    assert_eq!(first.analysis("a1").await.unwrap(), None);
    // Another instance (PostgreSQL: a second store on the database) waits for the lease.
    let second = if db.location.is_some() {
        db.store().await
    } else {
        first
    };
    if db.location.is_some() {
        assert!(!second.claim_analysis("a1", 5, lease).await.unwrap());
    }
    tokio::time::sleep(lease + Duration::from_millis(200)).await;
    assert!(
        second.claim_analysis("a1", 5, lease).await.unwrap(),
        "lapsed"
    );
    let stored = StoredAnalysis {
        plies: 5,
        document: r#"{"plies":[],"accuracy":[100.0,100.0]}"#.into(),
    };
    assert!(second.renew_analysis("a1", lease).await.unwrap());
    assert!(second.store_analysis("a1", &stored).await.unwrap());
    assert_eq!(second.analysis("a1").await.unwrap(), Some(stored.clone()));
    // Done: not claimed again for the same moves, but for others.
    tokio::time::sleep(lease + Duration::from_millis(200)).await;
    assert!(!second.claim_analysis("a1", 5, lease).await.unwrap());
    assert!(second.claim_analysis("a1", 6, lease).await.unwrap());
    assert_eq!(second.analysis("a1").await.unwrap(), None);
    second.release_analysis("a1").await.unwrap();
    assert!(
        second.claim_analysis("a1", 6, lease).await.unwrap(),
        "released"
    );
    let stored = StoredAnalysis { plies: 6, ..stored };
    assert!(second.store_analysis("a1", &stored).await.unwrap());
    // The analysis goes with its game.
    let now = Expiry {
        unstarted: Duration::ZERO,
        idle: Duration::ZERO,
        finished: Duration::ZERO,
    };
    let gone = second
        .expire(&now, mancala_web::now_ms() + 1)
        .await
        .unwrap();
    assert_eq!(gone, ["a1"]);
    assert_eq!(second.analysis("a1").await.unwrap(), None);
}

/// SQLite serves one instance: a job claimed by a run that died is free when the file
/// is opened again.
#[tokio::test]
async fn a_restarted_sqlite_server_drops_the_jobs_of_its_last_run() {
    use mancala_web::{GameRow, Store};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let game = GameRow {
        id: "a2".into(),
        rules: mancala_core::Rules::from_text("kalah(3,2)").unwrap(),
        opponent: "human".into(),
        token_hashes: [Some([7; 32]), None],
        activity_ms: mancala_web::now_ms(),
        ..GameRow::default()
    };
    let lease = Duration::from_secs(3600);
    {
        let store = Store::open_sqlite(&path).unwrap();
        store.create(&game).await.unwrap();
        assert!(store.claim_analysis("a2", 3, lease).await.unwrap());
    }
    let store = Store::open_sqlite(&path).unwrap();
    assert!(store.claim_analysis("a2", 3, lease).await.unwrap());
}
