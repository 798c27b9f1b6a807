//! Issue 24, "safe to put on the internet": one test (or more) per hole, through the
//! router with the server's default limits. The tests of what the store keeps (seats,
//! invites, rematches, expiry, computer turns) run on SQLite and on PostgreSQL.

mod common;

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_web::{Games, NewMove, Next, Store, app};
use serde_json::{Value, json};
use tower::ServiceExt;

fn router() -> Router {
    app(Games::new(Store::in_memory().unwrap()))
}

/// The router over a store on `db`, without the background work.
async fn router_on(db: &TestDb) -> Router {
    app(Games::new(db.store().await))
}

on_both_backends!(
    multi_thread: one_player_asking_for_a_rematch_many_times_holds_one_seat,
    joining_needs_the_invite_and_watching_does_not,
    the_creator_cannot_move_before_the_opponent_joins,
    a_game_says_when_it_expires,
    a_rematch_reaches_the_live_stream_of_the_finished_game,
    a_finished_games_stream_ends_when_the_rematch_wait_is_over,
    an_internal_error_says_nothing_of_its_cause,
    a_stored_opponent_past_the_bounds_is_clamped_after_a_restart,
    games_nobody_plays_expire_and_their_streams_end,
    a_game_in_progress_expires_its_idle_time_after_the_last_move,
);

/// Sends `req` and returns the status, the headers and the whole body.
async fn send(router: &Router, req: Request<Body>) -> (StatusCode, HeaderMap, Bytes) {
    let response = router.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (parts.status, parts.headers, bytes)
}

fn request(method: &str, uri: &str, token: Option<&str>, body: Option<String>) -> Request<Body> {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    req.header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap()
}

async fn call(
    router: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, _, bytes) = send(
        router,
        request(method, uri, token, body.map(|b| b.to_string())),
    )
    .await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Creates a game; returns the whole grant.
async fn create(router: &Router, body: Value) -> Value {
    let (status, v) = call(router, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v
}

async fn view(router: &Router, id: &str) -> Value {
    let (status, v) = call(router, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn play(router: &Router, id: &str, token: &str, house: u64, ply: u64) -> (StatusCode, Value) {
    let body = json!({"house": house, "ply": ply});
    call(
        router,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(body),
    )
    .await
}

/// A friend game with both seats taken: (id, token 1, token 2).
async fn two_player_game(router: &Router, body: Value) -> (String, String, String) {
    let grant = create(router, body).await;
    let id = grant["id"].as_str().unwrap().to_owned();
    let join = json!({"invite": grant["invite"]});
    let (status, j) = call(
        router,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(join),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{j}");
    (
        id,
        grant["token"].as_str().unwrap().to_owned(),
        j["token"].as_str().unwrap().to_owned(),
    )
}

/// Plays Kalah(2,1) to its end: 2, 1 (player 1), 2 (player 2).
async fn finish_kalah_2_1(router: &Router, id: &str, t1: &str, t2: &str) {
    for (t, h, p) in [(t1, 2, 0), (t1, 1, 1), (t2, 2, 2)] {
        let (status, v) = play(router, id, t, h, p).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    assert_eq!(view(router, id).await["over"], true);
}

// ------------------------------------------------------------ 1. computer thinking

#[tokio::test]
async fn computer_players_beyond_the_bounds_are_refused_naming_the_bound() {
    let r = router();
    for (opponent, bound) in [
        ("alphabeta:ms=100000000", "2000 ms"),
        ("mcts:sims=4000000000", "200000 simulations"),
        ("mcts:ms=60000", "2000 ms"),
        ("alphabeta:nodes=1000000000000", "10000000 nodes"),
        ("alphabeta:hash=4096", "512 MiB"),
        ("alphabeta:hash=256", "64 MiB"),
        ("perfect:ms=100000", "2000 ms"),
        ("perfect:hash=4096", "512 MiB"),
    ] {
        let body = json!({"variant": "kalah", "opponent": opponent});
        let (status, e) = call(&r, "POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{opponent}: {e}");
        let message = e["error"].as_str().unwrap();
        assert!(message.contains(bound), "{opponent}: {message}");
    }
    // Within the bounds: the levels and the documented examples.
    for opponent in [
        "easy",
        "medium",
        "hard",
        "expert",
        "perfect",
        "greedy",
        "alphabeta:ms=500",
        "mcts:sims=20000",
        "alphabeta:depth=40",
    ] {
        create(&r, json!({"variant": "kalah", "opponent": opponent})).await;
    }
}

/// A search given only a depth would think for ages; the server's time bound stops it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deep_search_stops_at_the_think_bound() {
    let r = router();
    let grant = create(
        &r,
        json!({"variant": "kalah", "houses": 8, "seeds": 6, "opponent": "alphabeta:depth=120"}),
    )
    .await;
    let id = grant["id"].as_str().unwrap();
    let (status, _) = play(&r, id, grant["token"].as_str().unwrap(), 1, 0).await;
    assert_eq!(status, StatusCode::OK);
    let started = Instant::now();
    loop {
        let v = view(&r, id).await;
        if v["history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["seat"] == 2)
        {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "the computer still thinks after 8 s (bound: 2 s)"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

// ------------------------------------------------------------ 2. rematch seats

async fn one_player_asking_for_a_rematch_many_times_holds_one_seat(db: TestDb) {
    let r = router_on(&db).await;
    let (id, t1, t2) =
        two_player_game(&r, json!({"variant": "kalah", "houses": 2, "seeds": 1})).await;
    finish_kalah_2_1(&r, &id, &t1, &t2).await;
    let rematch = format!("/api/games/{id}/rematch");
    // Ten parallel requests from player 1 (a double click, several tabs).
    let asks: Vec<_> = (0..10)
        .map(|_| {
            let (r, uri, t) = (r.clone(), rematch.clone(), t1.clone());
            tokio::spawn(async move { call(&r, "POST", &uri, Some(&t), None).await })
        })
        .collect();
    let mut grants = Vec::new();
    for ask in asks {
        let (status, g) = ask.await.unwrap();
        assert!(status.is_success(), "{status} {g}");
        grants.push(g);
    }
    for g in &grants {
        assert_eq!(
            g, &grants[0],
            "every request of one player gets the same seat"
        );
    }
    assert_eq!(grants[0]["seat"], 1);
    // The other player gets seat 2, and asking again changes nothing.
    let (status, b) = call(&r, "POST", &rematch, Some(&t2), None).await;
    assert!(status.is_success(), "{b}");
    assert_eq!((&b["seat"], &b["id"]), (&json!(2), &grants[0]["id"]));
    let (status, again) = call(&r, "POST", &rematch, Some(&t2), None).await;
    assert!(status.is_success());
    assert_eq!(again, b);
    // And player 1's seat is still player 1's.
    let (_, a) = call(&r, "POST", &rematch, Some(&t1), None).await;
    assert_eq!(a, grants[0]);
    // Player 1 moved first in the old game, so the other player moves first now.
    let new_id = grants[0]["id"].as_str().unwrap();
    let (status, _) = play(&r, new_id, b["token"].as_str().unwrap(), 1, 0).await;
    assert_eq!(status, StatusCode::OK);
}

// ------------------------------------------------------------ 3. seats and links

async fn joining_needs_the_invite_and_watching_does_not(db: TestDb) {
    let r = router_on(&db).await;
    let grant = create(&r, json!({"variant": "kalah"})).await;
    let id = grant["id"].as_str().unwrap();
    let invite = grant["invite"].as_str().expect("an invite secret");
    assert!(invite.len() >= 32, "at least 128 bits");
    assert_ne!(invite, grant["token"].as_str().unwrap());
    let join = format!("/api/games/{id}/join");
    // A spectator knows the id (the watch link) but not the invite.
    for body in [
        None,
        Some(json!({})),
        Some(json!({"invite": "0".repeat(64)})),
    ] {
        let (status, e) = call(&r, "POST", &join, None, body.clone()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body:?}: {e}");
    }
    assert_eq!(view(&r, id).await["players"][1]["joined"], false);
    let (status, j) = call(&r, "POST", &join, None, Some(json!({"invite": invite}))).await;
    assert_eq!(status, StatusCode::OK, "{j}");
    assert_eq!(j["seat"], 2);
    // The view never shows the invite.
    assert!(!view(&r, id).await.to_string().contains(invite));
}

async fn the_creator_cannot_move_before_the_opponent_joins(db: TestDb) {
    let r = router_on(&db).await;
    let grant = create(&r, json!({"variant": "kalah"})).await;
    let (id, t1) = (
        grant["id"].as_str().unwrap(),
        grant["token"].as_str().unwrap(),
    );
    let v = view(&r, id).await;
    assert_eq!(v["started"], false, "{v}");
    assert_eq!(v["legal_moves"], json!([]));
    let (status, e) = play(&r, id, t1, 3, 0).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(e["error"].as_str().unwrap().contains("join"), "{e}");
    assert_eq!(view(&r, id).await["ply"], 0);
    // A computer game starts at once.
    let c = create(&r, json!({"variant": "kalah", "opponent": "greedy"})).await;
    assert_eq!(view(&r, c["id"].as_str().unwrap()).await["started"], true);
}

// ------------------------------------------------------------ 4. abuse limits

/// The 429 answer: JSON body and a `Retry-After` of at least a second.
fn assert_too_many(status: StatusCode, headers: &HeaderMap, body: &Bytes) {
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1, "Retry-After: {retry}");
    let v: Value = serde_json::from_slice(body).unwrap();
    assert!(v["error"].as_str().unwrap().contains("too many"), "{v}");
}

#[tokio::test]
async fn creating_games_too_fast_gets_429() {
    let r = router();
    let mut refused = None;
    let started = Instant::now();
    for i in 0..40 {
        let body = json!({"variant": "kalah"}).to_string();
        let (status, headers, bytes) =
            send(&r, request("POST", "/api/games", None, Some(body))).await;
        if status != StatusCode::CREATED {
            refused = Some((i, status, headers, bytes));
            break;
        }
    }
    let (i, status, headers, bytes) = refused.expect("40 games in a row were all created");
    // The default burst is 20 games, and one more every 3 s (on a slow day the loop may
    // take that long).
    let refilled = (started.elapsed().as_millis() / 3000) as usize;
    assert!(
        (20..=20 + refilled).contains(&i),
        "{i} created, {refilled} refilled"
    );
    assert_too_many(status, &headers, &bytes);
}

#[tokio::test]
async fn moving_too_fast_gets_429() {
    let r = router();
    let (id, t1, _) = two_player_game(&r, json!({"variant": "kalah"})).await;
    let uri = format!("/api/games/{id}/moves");
    let mut limited = None;
    let started = Instant::now();
    for i in 0..400 {
        let body = json!({"house": 99, "ply": 0}).to_string();
        let (status, headers, bytes) = send(&r, request("POST", &uri, Some(&t1), Some(body))).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            assert_too_many(status, &headers, &bytes);
            limited = Some(i);
            break;
        }
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    // The default burst is 300 moves, and one more every 200 ms.
    let refilled = (started.elapsed().as_millis() / 200) as usize;
    let limited = limited.expect("400 moves in a row were all answered");
    assert!(
        (300..=300 + refilled).contains(&limited),
        "{limited} answered, {refilled} refilled"
    );
}

#[tokio::test]
async fn live_streams_per_client_are_capped() {
    let r = router();
    let grant = create(&r, json!({"variant": "kalah"})).await;
    let uri = format!("/api/games/{}/live", grant["id"].as_str().unwrap());
    let mut open = Vec::new();
    let mut refused = None;
    for i in 0..40 {
        let response = r
            .clone()
            .oneshot(request("GET", &uri, None, None))
            .await
            .unwrap();
        if response.status() != StatusCode::OK {
            refused = Some((i, response));
            break;
        }
        open.push(response);
    }
    let (i, response) = refused.expect("40 open streams from one client");
    assert_eq!(i, 32, "the default cap is 32 open streams per client");
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    assert_too_many(parts.status, &parts.headers, &bytes);
    // Closing one frees a place.
    drop(open.pop());
    tokio::time::sleep(Duration::from_millis(50)).await;
    let response = r
        .clone()
        .oneshot(request("GET", &uri, None, None))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

async fn a_game_says_when_it_expires(db: TestDb) {
    let r = router_on(&db).await;
    let grant = create(&r, json!({"variant": "kalah"})).await;
    let v = view(&r, grant["id"].as_str().unwrap()).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let expires = v["expires_at"]
        .as_u64()
        .expect("expires_at, in Unix seconds");
    // A game nobody joined: a day by default.
    assert!(
        (now + 86_400 - 5..=now + 86_400 + 5).contains(&expires),
        "{expires} vs now {now}"
    );
}

// ------------------------------------------------------------ 5. live streams

/// A live stream's events as they come, one game view at a time.
struct Events {
    body: Body,
    pending: String,
}

impl Events {
    /// Opens game `id`'s event stream, after the event `last_seen` if given.
    async fn open(router: &Router, id: &str, last_seen: Option<u64>) -> (StatusCode, Events) {
        let mut req = request("GET", &format!("/api/games/{id}/live"), None, None);
        if let Some(seen) = last_seen {
            req.headers_mut()
                .insert("last-event-id", seen.to_string().parse().unwrap());
        }
        let response = router.clone().oneshot(req).await.unwrap();
        let status = response.status();
        let events = Events {
            body: response.into_body(),
            pending: String::new(),
        };
        (status, events)
    }

    /// The next event's game view and id, or `None` once the stream has ended; waits
    /// at most 10 s (a keep-alive comment comes every 15 s, never an event).
    async fn next(&mut self) -> Option<(Value, u64)> {
        loop {
            if let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                let field = |name: &str| {
                    event
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .map(str::to_owned)
                };
                let (Some(data), Some(id)) = (field("data: "), field("id: ")) else {
                    continue;
                };
                return Some((serde_json::from_str(&data).unwrap(), id.parse().unwrap()));
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("an event or the stream's end within 10 s");
            let data = frame?.unwrap().into_data().unwrap_or_default();
            self.pending.push_str(std::str::from_utf8(&data).unwrap());
        }
    }

    /// The views until the stream ends (within 10 s of each other).
    async fn rest(mut self) -> Vec<Value> {
        let mut views = Vec::new();
        while let Some((view, _)) = self.next().await {
            views.push(view);
        }
        views
    }
}

/// The router over `db` whose finished games' streams wait `wait` for a rematch, at
/// most `per_client` streams open at once per client.
async fn router_waiting(db: &TestDb, wait: Duration, per_client: usize) -> Router {
    let mut limits = mancala_web::Limits::default();
    limits.streams.rematch_wait = wait;
    limits.streams.per_client = per_client;
    app(Games::with_limits(db.store().await, limits))
}

/// A rematch started after the end reaches whoever follows the game live (opponent and
/// spectators alike), saying who asked; the stream ends after it.
async fn a_rematch_reaches_the_live_stream_of_the_finished_game(db: TestDb) {
    let r = router_on(&db).await;
    let (id, t1, t2) =
        two_player_game(&r, json!({"variant": "kalah", "houses": 2, "seeds": 1})).await;
    let (status, mut events) = Events::open(&r, &id, None).await;
    assert_eq!(status, StatusCode::OK);
    finish_kalah_2_1(&r, &id, &t1, &t2).await;
    let (over, over_id) = loop {
        let (view, event_id) = events.next().await.expect("the stream lasts to the end");
        if view["over"] == true {
            break (view, event_id);
        }
    };
    assert_eq!(over["rematch"], Value::Null, "{over}");
    assert_eq!(over["rematch_by"], Value::Null, "{over}");
    // Player 2 asks: the stream still open carries the offer.
    let (status, grant) = call(
        &r,
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(&t2),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    let (offer, offer_id) = events.next().await.expect("the rematch arrives live");
    assert_eq!(offer["rematch"], grant["id"], "{offer}");
    assert_eq!(offer["rematch_by"], 2, "{offer}");
    assert!(
        offer_id > over_id,
        "a new event id: {offer_id} after {over_id}"
    );
    assert_eq!(
        events.rest().await,
        Vec::<Value>::new(),
        "it ends after the rematch"
    );
    // The same in the game as read.
    let v = view(&r, &id).await;
    assert_eq!((&v["rematch"], &v["rematch_by"]), (&grant["id"], &json!(2)));
    // An EventSource that saw it all is told to stop; one that missed it gets it.
    assert_eq!(
        Events::open(&r, &id, Some(offer_id)).await.0,
        StatusCode::NO_CONTENT
    );
    let (status, missed) = Events::open(&r, &id, Some(over_id)).await;
    assert_eq!(status, StatusCode::OK);
    let views = missed.rest().await;
    assert_eq!(views.len(), 1, "{views:?}");
    assert_eq!(views[0]["rematch"], grant["id"]);
}

/// A finished game's stream waits for a rematch only so long: it ends when the wait is
/// over, an `EventSource` coming back after that is told to stop, and meanwhile it
/// holds its place among the client's open streams.
async fn a_finished_games_stream_ends_when_the_rematch_wait_is_over(db: TestDb) {
    let r = router_waiting(&db, Duration::from_millis(600), 1).await;
    let (id, t1, t2) =
        two_player_game(&r, json!({"variant": "kalah", "houses": 2, "seeds": 1})).await;
    let (status, events) = Events::open(&r, &id, None).await;
    assert_eq!(status, StatusCode::OK);
    finish_kalah_2_1(&r, &id, &t1, &t2).await;
    // One stream per client: the waiting stream holds the client's place.
    let (status, _) = Events::open(&r, &id, None).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let views = events.rest().await;
    let last = views.last().expect("views");
    assert_eq!(
        (&last["over"], &last["rematch"]),
        (&json!(true), &Value::Null)
    );
    let seen = last["version"].as_u64().unwrap();
    // Its place is free again; coming back after the wait stops an EventSource, and
    // a new reader gets the finished game and the end of the stream.
    assert_eq!(
        Events::open(&r, &id, Some(seen)).await.0,
        StatusCode::NO_CONTENT
    );
    let (status, again) = Events::open(&r, &id, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again.rest().await.len(), 1);
}

// ------------------------------------------------------------ 6. headers and edges

#[tokio::test]
async fn security_headers_and_caching() {
    let r = router();
    for uri in ["/", "/api/games/nope", "/static/app.js"] {
        let (_, h, _) = send(&r, request("GET", uri, None, None)).await;
        let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
        assert!(csp.contains("default-src"), "{uri}: {csp}");
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{uri}");
        assert_eq!(h[header::X_FRAME_OPTIONS], "DENY", "{uri}");
        assert!(h.contains_key(header::REFERRER_POLICY), "{uri}");
    }
    let (_, h, _) = send(&r, request("GET", "/", None, None)).await;
    assert_eq!(h[header::CACHE_CONTROL], "no-store");
    let (_, h, _) = send(&r, request("GET", "/api/games/nope", None, None)).await;
    assert_eq!(h[header::CACHE_CONTROL], "no-store");
    let (_, h, _) = send(&r, request("GET", "/static/style.css", None, None)).await;
    assert!(
        h[header::CACHE_CONTROL]
            .to_str()
            .unwrap()
            .contains("max-age="),
        "static assets are cacheable"
    );
}

#[tokio::test]
async fn cors_for_the_api_without_credentials() {
    let r = router();
    let preflight = Request::builder()
        .method("OPTIONS")
        .uri("/api/games/x/moves")
        .header(header::ORIGIN, "https://bots.example")
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .header(
            header::ACCESS_CONTROL_REQUEST_HEADERS,
            "authorization,content-type",
        )
        .body(Body::empty())
        .unwrap();
    let (status, h, _) = send(&r, preflight).await;
    assert!(status.is_success(), "{status}");
    assert_eq!(h[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    let allowed = h[header::ACCESS_CONTROL_ALLOW_HEADERS]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    assert!(allowed.contains("authorization") && allowed.contains("content-type"));
    assert!(
        h[header::ACCESS_CONTROL_ALLOW_METHODS]
            .to_str()
            .unwrap()
            .contains("POST")
    );
    assert!(!h.contains_key(header::ACCESS_CONTROL_ALLOW_CREDENTIALS));
    let get = Request::get("/api/games/nope")
        .header(header::ORIGIN, "https://bots.example")
        .body(Body::empty())
        .unwrap();
    let (_, h, _) = send(&r, get).await;
    assert_eq!(h[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    assert!(!h.contains_key(header::ACCESS_CONTROL_ALLOW_CREDENTIALS));
}

#[tokio::test]
async fn edges_answer_properly() {
    let r = router();
    // 405 with the JSON error body.
    for (method, uri) in [
        ("GET", "/api/games"),
        ("DELETE", "/api/games/x"),
        ("GET", "/api/games/x/moves"),
    ] {
        let (status, h, body) = send(&r, request(method, uri, None, None)).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {uri}");
        assert!(h.contains_key(header::ALLOW), "{method} {uri}");
        let v: Value = serde_json::from_slice(&body).expect("a JSON body");
        assert!(v["error"].is_string(), "{v}");
    }
    // A move is the documented object, never an array.
    let (id, t1, _) = two_player_game(&r, json!({"variant": "kalah"})).await;
    let uri = format!("/api/games/{id}/moves");
    let (status, _, body) = send(&r, request("POST", &uri, Some(&t1), Some("[1,0]".into()))).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "{}",
        String::from_utf8_lossy(&body)
    );
    assert_eq!(view(&r, &id).await["ply"], 0);
    // A house past 255 is named as sent.
    for house in [256u64, 300, 70_000, u64::MAX] {
        let (status, e) = play(&r, &id, &t1, house, 0).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
        let message = e["error"].as_str().unwrap();
        assert!(message.contains(&format!("house {house} ")), "{message}");
    }
    // Unknown endpoints are not unknown games.
    let (status, e) = call(&r, "GET", "/api/nothing", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(e["error"], "no such endpoint");
    // An unknown game page: 404, a page with a way home.
    let (status, h, body) = send(&r, request("GET", "/g/nosuchgame", None, None)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        h[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(String::from_utf8_lossy(&body).contains(r#"href="/""#));
    // The page of a game that exists is served.
    let (status, _, _) = send(&r, request("GET", &format!("/g/{id}"), None, None)).await;
    assert_eq!(status, StatusCode::OK);
    // A favicon.
    let (status, h, body) = send(&r, request("GET", "/favicon.ico", None, None)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        h[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("image/")
    );
    assert!(!body.is_empty());
}

async fn an_internal_error_says_nothing_of_its_cause(db: TestDb) {
    let store = db.store().await;
    let row = mancala_web::GameRow {
        id: "broken".into(),
        opponent: "human".into(),
        token_hashes: [Some([0; 32]), None],
        activity_ms: mancala_web::now_ms(),
        ..mancala_web::GameRow::default()
    };
    store.create(&row).await.unwrap();
    // A move no board has: the stored game no longer replays.
    let broken = mancala_web::NewMove {
        game: "broken".into(),
        ply: 0,
        house: 99,
        next: mancala_web::Next::Person,
        state: None,
    };
    assert!(store.append_move(&broken).await.unwrap());
    let r = app(Games::new(store));
    let (status, e) = call(&r, "GET", "/api/games/broken", None, None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(e, json!({"error": "internal server error"}));
}

// ------------------------------------------------------------ with configured limits

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use mancala_web::{Expiry, Limits, Rate, ThinkLimits};

/// A request from the client at `ip` (as `mancala serve` records the peer).
fn from(ip: [u8; 4], mut req: Request<Body>) -> Request<Body> {
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from((ip, 40_000))));
    req
}

fn rate(s: &str) -> Rate {
    s.parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_hungry_players_share_the_budget() {
    let limits = Limits {
        think: ThinkLimits {
            max_ms: 300,
            memory_mb: 100,
            thinkers: 2,
            ..ThinkLimits::default()
        },
        ..Limits::default()
    };
    let games = Games::with_limits(Store::in_memory().unwrap(), limits);
    let r = app(games.clone());
    // 100 MiB for the table and 16 for its fallback do not fit in 100.
    let body = json!({"variant": "kalah", "opponent": "perfect:hash=100"}).to_string();
    let (status, _, e) = send(&r, request("POST", "/api/games", None, Some(body))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(String::from_utf8_lossy(&e).contains("100 MiB"));
    // Two clients, each against a player needing 80 MiB: never both at once.
    let mut ids = Vec::new();
    for ip in [[10, 0, 0, 1], [10, 0, 0, 2]] {
        let body = json!({"variant": "kalah", "opponent": "perfect:hash=64"}).to_string();
        let (status, _, g) = send(
            &r,
            from(ip, request("POST", "/api/games", None, Some(body))),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        let g: Value = serde_json::from_slice(&g).unwrap();
        ids.push((
            ip,
            g["id"].as_str().unwrap().to_owned(),
            g["token"].as_str().unwrap().to_owned(),
        ));
    }
    for (ip, id, token) in &ids {
        let body = json!({"house": 1, "ply": 0}).to_string();
        let uri = format!("/api/games/{id}/moves");
        let (status, _, _) = send(
            &r,
            from(*ip, request("POST", &uri, Some(token), Some(body))),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    for (_, id, _) in &ids {
        while view(&r, id).await["to_move"] != 1 {
            assert!(Instant::now() < deadline, "the computers did not answer");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let stats = games.think_stats();
    assert_eq!(stats.peak_memory_mb, 80, "{stats:?}");
    assert_eq!(stats.peak_thinking, 1, "{stats:?}");
    assert_eq!((stats.thinking, stats.memory_mb), (0, 0));
}

/// A game stored by an older server with an unbounded opponent thinks within today's
/// bounds when its turn resumes after a restart.
async fn a_stored_opponent_past_the_bounds_is_clamped_after_a_restart(db: TestDb) {
    let store = db.store().await;
    let row = mancala_web::GameRow {
        id: "old".into(),
        rules: mancala_core::Rules::from_text("kalah(6,4)").unwrap(),
        opponent: "alphabeta:ms=100000000".into(),
        token_hashes: [Some([0; 32]), None],
        activity_ms: mancala_web::now_ms(),
        ..mancala_web::GameRow::default()
    };
    store.create(&row).await.unwrap();
    // The person moved and the computer owed its answer when the older server stopped
    // (which let go of the turn).
    let owed = NewMove {
        game: "old".into(),
        ply: 0,
        house: 1,
        next: Next::Computer {
            lease: Duration::from_secs(60),
        },
        state: None,
    };
    assert!(store.append_move(&owed).await.unwrap());
    store.release_computer_turns().await.unwrap();
    let limits = Limits {
        think: ThinkLimits {
            max_ms: 200,
            ..ThinkLimits::default()
        },
        ..Limits::default()
    };
    let games = Games::with_limits(store, limits);
    let _background = games.start_background();
    let started = Instant::now();
    while games.view("old").await.unwrap().to_move != Some(1) {
        assert!(started.elapsed() < Duration::from_secs(5), "still thinking");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn rate_limits_are_per_client_and_configurable() {
    let mut limits = Limits::default();
    limits.rates.create = rate("2/60s");
    limits.rates.refusal_delay = Duration::from_millis(200);
    let r = app(Games::with_limits(
        Store::in_memory().unwrap(),
        limits.clone(),
    ));
    let create = |xff: Option<&str>| {
        let mut req = request(
            "POST",
            "/api/games",
            None,
            Some(json!({"variant": "kalah"}).to_string()),
        );
        if let Some(x) = xff {
            req.headers_mut()
                .insert("x-forwarded-for", x.parse().unwrap());
        }
        req
    };
    for _ in 0..2 {
        assert_eq!(
            send(&r, from([10, 0, 0, 1], create(None))).await.0,
            StatusCode::CREATED
        );
    }
    let asked = Instant::now();
    let (status, h, body) = send(&r, from([10, 0, 0, 1], create(None))).await;
    assert_too_many(status, &h, &body);
    assert!(String::from_utf8_lossy(&body).contains("2/60s"));
    assert!(
        asked.elapsed() >= Duration::from_millis(200),
        "a refusal is held back"
    );
    // Another client is not limited by the first; a forwarded address is not trusted.
    assert_eq!(
        send(&r, from([10, 0, 0, 2], create(None))).await.0,
        StatusCode::CREATED
    );
    let (status, _, _) = send(&r, from([10, 0, 0, 1], create(Some("192.0.2.9")))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);

    // Behind a trusted proxy: the last forwarded address is the client.
    limits.trust_forwarded_for = true;
    let r = app(Games::with_limits(Store::in_memory().unwrap(), limits));
    let proxy = [127, 0, 0, 1];
    for _ in 0..2 {
        let req = create(Some("198.51.100.7, 192.0.2.1"));
        assert_eq!(send(&r, from(proxy, req)).await.0, StatusCode::CREATED);
    }
    // The client's own claim before the proxy's entry changes nothing.
    let req = create(Some("198.51.100.8, 192.0.2.1"));
    assert_eq!(
        send(&r, from(proxy, req)).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    let req = create(Some("192.0.2.2"));
    assert_eq!(send(&r, from(proxy, req)).await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn opening_live_streams_is_rate_limited_and_capped_in_all() {
    let mut limits = Limits::default();
    limits.rates.live = rate("3/60s");
    limits.streams.total = 4;
    let r = app(Games::with_limits(Store::in_memory().unwrap(), limits));
    let grant = create(&r, json!({"variant": "kalah"})).await;
    let uri = format!("/api/games/{}/live", grant["id"].as_str().unwrap());
    let mut open = Vec::new();
    for _ in 0..3 {
        let response = r
            .clone()
            .oneshot(from([10, 0, 0, 1], request("GET", &uri, None, None)))
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        open.push(response);
    }
    let (status, h, body) = send(&r, from([10, 0, 0, 1], request("GET", &uri, None, None))).await;
    assert_too_many(status, &h, &body);
    // One more from another client fills the server; the next is told to come back.
    let response = r
        .clone()
        .oneshot(from([10, 0, 0, 2], request("GET", &uri, None, None)))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    open.push(response);
    let (status, h, body) = send(&r, from([10, 0, 0, 3], request("GET", &uri, None, None))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(h.contains_key(header::RETRY_AFTER));
    assert!(serde_json::from_slice::<Value>(&body).unwrap()["error"].is_string());
}

/// Expiry by the clock, with small times; the steps between the clock's checks take as
/// long as a busy machine makes them, so each deadline is far from the next step.
async fn games_nobody_plays_expire_and_their_streams_end(db: TestDb) {
    let limits = Limits {
        expiry: Expiry {
            unstarted: Duration::from_millis(1000),
            ..Expiry::default()
        },
        ..Limits::default()
    };
    let games = Games::with_limits(db.store().await, limits);
    let r = app(games.clone());
    let created = Instant::now();
    let waiting = create(&r, json!({"variant": "kalah"})).await;
    let waiting = waiting["id"].as_str().unwrap().to_owned();
    let (played, t1, _) = two_player_game(&r, json!({"variant": "kalah"})).await;
    // A move starts the game: it is kept for the idle time (a week) from now on.
    assert_eq!(play(&r, &played, &t1, 1, 0).await.0, StatusCode::OK);
    let v = view(&r, &waiting).await;
    let now = mancala_web::now_ms() / 1000;
    assert!(v["expires_at"].as_i64().unwrap() <= now + 1, "{v}");
    let response = r
        .clone()
        .oneshot(request(
            "GET",
            &format!("/api/games/{waiting}/live"),
            None,
            None,
        ))
        .await
        .unwrap();
    let reader = tokio::spawn(async move { response.into_body().collect().await.is_ok() });
    tokio::time::sleep(Duration::from_millis(1100).saturating_sub(created.elapsed())).await;
    // Expired: gone at once, even before the sweep deletes it.
    let (status, _) = call(&r, "GET", &format!("/api/games/{waiting}"), None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(games.expire().await.unwrap(), 1);
    assert!(
        tokio::time::timeout(Duration::from_secs(2), reader)
            .await
            .is_ok(),
        "the stream of an expired game ends"
    );
    assert_eq!(view(&r, &played).await["ply"], 1);
}

/// A game in progress nobody plays expires its idle time after the last move.
async fn a_game_in_progress_expires_its_idle_time_after_the_last_move(db: TestDb) {
    let limits = Limits {
        expiry: Expiry {
            idle: Duration::from_millis(300),
            ..Expiry::default()
        },
        ..Limits::default()
    };
    let games = Games::with_limits(db.store().await, limits);
    let r = app(games.clone());
    let (played, t1, _) = two_player_game(&r, json!({"variant": "kalah"})).await;
    assert_eq!(play(&r, &played, &t1, 1, 0).await.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (status, _) = call(&r, "GET", &format!("/api/games/{played}"), None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(games.expire().await.unwrap(), 1);
}
