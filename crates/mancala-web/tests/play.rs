//! Playing a game through the router (issue 25): resign, abort, draw offers,
//! takebacks, who moves first, names, clocks (with an injected clock) and claims, on
//! SQLite and on PostgreSQL.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_web::{
    CLAIM_AFTER, ClientKey, DbLocation, Games, JoinRequest, Limits, ManualClock, MoveRequest,
    NewGame, Rate, Store, StoreOptions, app,
};
use serde_json::{Value, json};
use tower::ServiceExt;

on_both_backends!(
    a_resignation_ends_the_game_and_names_who_resigned,
    an_abort_is_only_possible_before_each_side_has_moved,
    a_draw_is_offered_declined_and_accepted,
    a_takeback_is_asked_for_and_granted,
    against_the_computer_a_takeback_is_at_once_and_a_draw_refused,
    the_creator_chooses_who_moves_first,
    a_rematch_swaps_the_first_mover,
    names_are_plain_text_of_limited_length,
    clocks_run_and_a_game_ends_on_time,
    a_limit_per_move_ends_the_game_on_time,
    a_move_after_the_flag_fell_loses_on_time,
    a_player_who_left_is_claimed_against_after_the_stated_time,
    a_fallen_flag_reads_zero_and_an_ended_game_keeps_its_times,
    the_live_stream_carries_takebacks_and_ends_with_the_rematch,
    a_move_is_judged_on_the_game_as_stored_after_other_changes,
);

/// The injected clocks' starting time (a round number of milliseconds since the
/// Unix epoch; any fixed value does, so tests do not depend on the real time).
const T0: i64 = 1_767_225_600_000;

struct Site {
    router: Router,
    games: Games,
    clock: Arc<ManualClock>,
}

async fn site(db: &TestDb) -> Site {
    let clock = Arc::new(ManualClock::at(T0));
    let mut limits = Limits::default();
    // More games and moves than a person makes, from one test client.
    let many: Rate = "10000/1m".parse().unwrap();
    limits.rates.create = many;
    limits.rates.moves = many;
    limits.rates.read = many;
    limits.rates.join = many;
    let games = Games::with_limits(db.store().await, limits).with_clock(clock.clone());
    std::mem::forget(games.start_background());
    Site {
        router: app(games.clone()),
        games,
        clock,
    }
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
    let response = router.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A game against a friend who has joined: (id, token 1, token 2).
async fn joined(s: &Site, body: Value, name_2: Option<&str>) -> (String, String, String) {
    let (status, g) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let token = g["token"].as_str().unwrap().to_owned();
    let joiner = join(s, &g, name_2).await;
    (id, token, joiner)
}

/// Joins the game `created` (the answer to its creation) as its second player, named
/// `name`; the joiner's token.
async fn join(s: &Site, created: &Value, name: Option<&str>) -> String {
    let id = created["id"].as_str().unwrap();
    let mut join = json!({"invite": created["invite"]});
    if let Some(name) = name {
        join["name"] = json!(name);
    }
    let (status, j) = call(
        &s.router,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(join),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{j}");
    j["token"].as_str().unwrap().to_owned()
}

async fn act(s: &Site, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
    let body = match action {
        "offer-draw" => Some(json!({"kind": "draw"})),
        "offer-takeback" => Some(json!({"kind": "takeback"})),
        _ => None,
    };
    let path = action.split('-').next().unwrap();
    call(
        &s.router,
        "POST",
        &format!("/api/games/{id}/{path}"),
        Some(token),
        body,
    )
    .await
}

async fn play(s: &Site, id: &str, token: &str, house: u64, ply: u64) -> (StatusCode, Value) {
    call(
        &s.router,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"house": house, "ply": ply})),
    )
    .await
}

async fn played(s: &Site, id: &str, token: &str, house: u64, ply: u64) -> Value {
    let (status, v) = play(s, id, token, house, ply).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn view(s: &Site, id: &str) -> Value {
    let (status, v) = call(&s.router, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// The view once `done` holds (the computer's moves come in the background).
async fn view_when(s: &Site, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let until = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let v = view(s, id).await;
        if done(&v) {
            return v;
        }
        assert!(tokio::time::Instant::now() < until, "still {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn kalah() -> Value {
    json!({"variant": "kalah"})
}

/// Kalah(6,4): houses that end neither in a store nor in a capture for the first
/// four plies, player 1 first.
const QUIET: [u64; 4] = [1, 1, 6, 6];

async fn a_resignation_ends_the_game_and_names_who_resigned(db: TestDb) {
    let s = site(&db).await;
    let body = json!({"variant": "kalah", "name": "Ann"});
    let (id, t1, t2) = joined(&s, body, Some("Bob")).await;
    played(&s, &id, &t1, 1, 0).await;
    let (status, v) = act(&s, &id, &t2, "resign").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["over"], true);
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["legal_moves"], json!([]));
    assert_eq!(v["result"]["winner"], 1);
    assert_eq!(v["end"]["reason"], "resigned");
    assert_eq!(v["end"]["player"], 2);
    assert_eq!(v["end"]["headline"], "Ann wins");
    assert_eq!(v["end"]["text"], "Bob resigned.");
    assert_eq!(view(&s, &id).await, v, "stored as answered");
    // Over: no more moves, resignations or offers.
    assert_eq!(
        play(&s, &id, &t2, 1, 1).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(act(&s, &id, &t1, "resign").await.0, StatusCode::CONFLICT);
    assert_eq!(
        act(&s, &id, &t1, "offer-draw").await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        act(&s, &id, "not-a-token", "resign").await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = call(&s.router, "POST", "/api/games/nope/resign", Some(&t1), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn an_abort_is_only_possible_before_each_side_has_moved(db: TestDb) {
    let s = site(&db).await;
    let (id, t1, t2) = joined(&s, kalah(), None).await;
    played(&s, &id, &t1, 1, 0).await;
    let (status, v) = act(&s, &id, &t2, "abort").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["over"], true);
    assert_eq!(v["result"], Value::Null, "an aborted game has no result");
    assert_eq!(v["end"]["reason"], "aborted");
    assert_eq!(v["end"]["text"], "The game was aborted.");

    let (id, t1, t2) = joined(&s, kalah(), None).await;
    played(&s, &id, &t1, QUIET[0], 0).await;
    played(&s, &id, &t2, QUIET[1], 1).await;
    let (status, v) = act(&s, &id, &t1, "abort").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("too late"));
    assert_eq!(view(&s, &id).await["over"], false);

    // A game nobody joined may be aborted by its creator; nobody joins it then.
    let (_, g) = call(&s.router, "POST", "/api/games", None, Some(kalah())).await;
    let id = g["id"].as_str().unwrap();
    let (status, v) = act(&s, id, g["token"].as_str().unwrap(), "abort").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["end"]["reason"], "aborted");
    let join = json!({"invite": g["invite"]});
    let uri = format!("/api/games/{id}/join");
    let (status, _) = call(&s.router, "POST", &uri, None, Some(join)).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

/// On SQLite the instance plays a move on its own copy of the game (issue 43); every
/// change made another way since (a join, a resignation, a takeback) must still
/// decide the answer, as the stored game does on PostgreSQL.
async fn a_move_is_judged_on_the_game_as_stored_after_other_changes(db: TestDb) {
    let s = site(&db).await;
    let (status, g) = call(&s.router, "POST", "/api/games", None, Some(kalah())).await;
    assert_eq!(status, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let t1 = g["token"].as_str().unwrap().to_owned();
    // A move before the friend joins is refused, and leaves a copy of the game
    // without them.
    assert_eq!(play(&s, &id, &t1, 1, 0).await.0, StatusCode::CONFLICT);
    let t2 = join(&s, &g, None).await;
    // The join is seen by both players' moves.
    played(&s, &id, &t1, QUIET[0], 0).await;
    played(&s, &id, &t2, QUIET[1], 1).await;
    // A takeback granted is seen by the next move: player 1 is to move at ply 0
    // again.
    assert_eq!(act(&s, &id, &t1, "offer-takeback").await.0, StatusCode::OK);
    assert_eq!(act(&s, &id, &t2, "accept").await.0, StatusCode::OK);
    assert_eq!(view(&s, &id).await["ply"], 0);
    assert_eq!(
        play(&s, &id, &t1, QUIET[2], 2).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        play(&s, &id, &t2, QUIET[1], 0).await.0,
        StatusCode::FORBIDDEN
    );
    played(&s, &id, &t1, QUIET[0], 0).await;
    played(&s, &id, &t2, QUIET[1], 1).await;
    // A resignation is seen by the next move, which is refused and changes nothing.
    assert_eq!(act(&s, &id, &t1, "resign").await.0, StatusCode::OK);
    let before = view(&s, &id).await;
    let (status, v) = play(&s, &id, &t1, QUIET[2], 2).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(view(&s, &id).await, before);
    assert_eq!(before["end"]["reason"], "resigned");
}

async fn a_draw_is_offered_declined_and_accepted(db: TestDb) {
    let s = site(&db).await;
    let (id, t1, t2) = joined(&s, kalah(), None).await;
    played(&s, &id, &t1, QUIET[0], 0).await;
    let (status, v) = act(&s, &id, &t1, "offer-draw").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["offer"], json!({"kind": "draw", "seat": 1}));
    assert_eq!(v["over"], false);
    // One's own offer is not one's to accept; the other's waits for an answer.
    assert_eq!(act(&s, &id, &t1, "accept").await.0, StatusCode::CONFLICT);
    assert_eq!(
        act(&s, &id, &t2, "offer-takeback").await.0,
        StatusCode::CONFLICT
    );
    let (status, v) = act(&s, &id, &t2, "decline").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["offer"], Value::Null);
    assert_eq!(act(&s, &id, &t2, "decline").await.0, StatusCode::CONFLICT);
    // Offered on one's own turn, it stands through one's move.
    let v = played(&s, &id, &t2, QUIET[1], 1).await;
    assert_eq!(v["offer"], Value::Null);
    act(&s, &id, &t1, "offer-draw").await;
    let v = played(&s, &id, &t1, QUIET[2], 2).await;
    assert_eq!(v["offer"]["seat"], 1, "{v}");
    let (status, v) = act(&s, &id, &t2, "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["over"], true);
    assert_eq!(v["result"]["winner"], Value::Null);
    assert_eq!(v["end"]["reason"], "draw-agreed");
    assert_eq!(v["end"]["text"], "Player 1 and Player 2 agreed to a draw.");
    assert_eq!(v["offer"], Value::Null);
}

async fn a_takeback_is_asked_for_and_granted(db: TestDb) {
    let s = site(&db).await;
    let (id, t1, t2) = joined(&s, kalah(), None).await;
    let (status, _) = act(&s, &id, &t2, "offer-takeback").await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "player 2 has no move to take back"
    );
    let before = view(&s, &id).await;
    played(&s, &id, &t1, QUIET[0], 0).await;
    let (status, v) = act(&s, &id, &t1, "offer-takeback").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["offer"], json!({"kind": "takeback", "seat": 1}));
    let (status, v) = act(&s, &id, &t2, "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["houses"], before["houses"]);
    assert_eq!(v["moves"], json!([]));
    assert!(v["version"].as_u64() > before["version"].as_u64());
    // The game goes on from there, with another move.
    let v = played(&s, &id, &t1, 2, 0).await;
    assert_eq!(v["moves"], json!([2]));
    // After the opponent's reply, a takeback takes back both moves.
    played(&s, &id, &t2, 1, 1).await;
    act(&s, &id, &t1, "offer-takeback").await;
    let (status, v) = act(&s, &id, &t2, "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!([]));
    assert_eq!(view(&s, &id).await["moves"], json!([]));
}

async fn against_the_computer_a_takeback_is_at_once_and_a_draw_refused(db: TestDb) {
    let s = site(&db).await;
    let body = json!({"variant": "kalah", "opponent": "greedy"});
    let (_, g) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
    let (id, t1) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    assert_eq!(view(&s, id).await["players"][1]["name"], "Greedy bot");
    played(&s, id, t1, QUIET[0], 0).await;
    view_when(&s, id, |v| v["to_move"] == 1).await;
    let (status, v) = act(&s, id, t1, "offer-draw").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let (status, v) = act(&s, id, t1, "offer-takeback").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!([]), "the person's move and the reply");
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["offer"], Value::Null);
}

async fn the_creator_chooses_who_moves_first(db: TestDb) {
    let s = site(&db).await;
    let (id, t1, t2) = joined(&s, json!({"variant": "kalah", "first": 2}), None).await;
    let v = view(&s, &id).await;
    assert_eq!(
        (v["first"].clone(), v["to_move"].clone()),
        (json!(2), json!(2))
    );
    assert_eq!(play(&s, &id, &t1, 1, 0).await.0, StatusCode::FORBIDDEN);
    let v = played(&s, &id, &t2, 1, 0).await;
    assert_eq!(v["history"][0]["seat"], 2);
    assert_eq!(v["houses"][1], json!([0, 5, 5, 5, 5, 4]));

    // Against the computer, the person may move second.
    let body = json!({"variant": "oware", "opponent": "greedy", "first": 2});
    let (_, g) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
    let id = g["id"].as_str().unwrap();
    let v = view_when(&s, id, |v| v["ply"] == 1).await;
    assert_eq!(v["history"][0]["seat"], 2);
    assert_eq!(v["to_move"], 1);

    let mut firsts = std::collections::HashSet::new();
    for _ in 0..24 {
        let body = json!({"variant": "kalah", "first": "random"});
        let (status, g) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED);
        firsts.insert(view(&s, g["id"].as_str().unwrap()).await["first"].clone());
    }
    assert_eq!(firsts.len(), 2, "random picks either seat: {firsts:?}");
    for first in [json!(3), json!("later")] {
        let body = json!({"variant": "kalah", "first": first});
        let (status, _) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
        assert!(status.is_client_error(), "{first}: {status}");
    }
}

async fn a_rematch_swaps_the_first_mover(db: TestDb) {
    let s = site(&db).await;
    let body = json!({"variant": "kalah", "name": "Ann"});
    let (id, t1, t2) = joined(&s, body, Some("Bob")).await;
    act(&s, &id, &t1, "resign").await;
    // Bob asks first: he sits as player 1 of the rematch, and as Ann moved first
    // before, he moves first now.
    let (status, b) = act(&s, &id, &t2, "rematch").await;
    assert_eq!(status, StatusCode::CREATED, "{b}");
    let (status, a) = act(&s, &id, &t1, "rematch").await;
    assert_eq!(status, StatusCode::CREATED, "{a}");
    let rid = b["id"].as_str().unwrap();
    let v = view(&s, rid).await;
    assert_eq!(v["players"][0]["name"], "Bob");
    assert_eq!(v["players"][1]["name"], "Ann");
    assert_eq!(v["first"], 1);
    assert_eq!(v["to_move"], 1);
    // In the rematch of the rematch, asked for by Bob again, Ann moves first.
    act(&s, rid, b["token"].as_str().unwrap(), "resign").await;
    let (_, b2) = act(&s, rid, b["token"].as_str().unwrap(), "rematch").await;
    let v = view(&s, b2["id"].as_str().unwrap()).await;
    assert_eq!(v["players"][0]["name"], "Bob");
    assert_eq!(v["first"], 2);

    // Against the computer the person moved first; in the rematch the computer does.
    let body = json!({"variant": "kalah", "opponent": "greedy"});
    let (_, g) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
    let (id, t1) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    act(&s, id, t1, "resign").await;
    let (_, r) = act(&s, id, t1, "rematch").await;
    // (Kalah: the computer's first move may earn it another.)
    let v = view_when(&s, r["id"].as_str().unwrap(), |v| v["to_move"] == 1).await;
    assert_eq!(v["first"], 2);
    assert_eq!(v["history"][0]["seat"], 2);
}

async fn names_are_plain_text_of_limited_length(db: TestDb) {
    let s = site(&db).await;
    let markup = "<img src=x onerror=alert(1)>";
    let (id, _, _) = joined(
        &s,
        json!({"variant": "oware", "name": markup}),
        Some(" Bob "),
    )
    .await;
    let v = view(&s, &id).await;
    assert_eq!(
        v["players"][0]["name"], markup,
        "kept as given: pages escape it"
    );
    assert_eq!(v["players"][1]["name"], "Bob", "trimmed");
    let (id, _, _) = joined(&s, kalah(), None).await;
    let v = view(&s, &id).await;
    assert_eq!(v["players"][0]["name"], "Player 1");
    assert_eq!(v["players"][1]["name"], "Player 2");
    for bad in [
        String::new(),
        "x".repeat(33),
        "a\nb".into(),
        "\u{202E}evil".into(),
    ] {
        let body = json!({"variant": "kalah", "name": bad});
        let (status, v) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}: {v}");
    }
    let (_, g) = call(&s.router, "POST", "/api/games", None, Some(kalah())).await;
    let id = g["id"].as_str().unwrap();
    let join = json!({"invite": g["invite"], "name": "y".repeat(40)});
    let uri = format!("/api/games/{id}/join");
    let (status, _) = call(&s.router, "POST", &uri, None, Some(join)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        view(&s, id).await["players"][1]["joined"],
        false,
        "not seated"
    );
    let body = json!({"variant": "kalah", "opponent": "hard"});
    let (_, g) = call(&s.router, "POST", "/api/games", None, Some(body)).await;
    let v = view(&s, g["id"].as_str().unwrap()).await;
    assert_eq!(v["players"][1]["name"], "Hard bot", "named by its level");
}

async fn clocks_run_and_a_game_ends_on_time(db: TestDb) {
    let s = site(&db).await;
    let body = json!({"variant": "kalah", "time_control": {"initial_s": 60, "increment_s": 2}});
    let (id, t1, t2) = joined(&s, body, None).await;
    let v = view(&s, &id).await;
    assert_eq!(
        v["time_control"],
        json!({"initial_s": 60, "increment_s": 2})
    );
    assert_eq!(
        v["clocks"],
        json!({"remaining_ms": [60_000, 60_000], "running": null})
    );
    assert_eq!(
        v["claim_at"],
        Value::Null,
        "a game with a clock ends on time"
    );
    // The first move of each side is free.
    s.clock.advance(Duration::from_secs(30));
    played(&s, &id, &t1, QUIET[0], 0).await;
    s.clock.advance(Duration::from_secs(30));
    let v = played(&s, &id, &t2, QUIET[1], 1).await;
    assert_eq!(
        v["clocks"],
        json!({"remaining_ms": [60_000, 60_000], "running": 1})
    );
    s.clock.advance(Duration::from_secs(10));
    let v = view(&s, &id).await;
    assert_eq!(v["clocks"]["remaining_ms"], json!([50_000, 60_000]));
    let v = played(&s, &id, &t1, QUIET[2], 2).await;
    assert_eq!(
        v["clocks"],
        json!({"remaining_ms": [52_000, 60_000], "running": 2})
    );
    // Player 2's flag falls a minute later: the timer ends the game.
    s.clock.advance(Duration::from_millis(59_999));
    assert_eq!(s.games.flag_overdue().await.unwrap(), 0);
    assert_eq!(view(&s, &id).await["over"], false);
    s.clock.advance(Duration::from_millis(1));
    let v = view_when(&s, &id, |v| v["over"] == true).await;
    assert_eq!(v["end"]["reason"], "out-of-time");
    assert_eq!(v["end"]["player"], 2);
    assert_eq!(v["result"]["winner"], 1);
    assert_eq!(v["end"]["text"], "Player 2 ran out of time.");
    assert_eq!(v["clocks"]["running"], Value::Null);
    assert_eq!(s.games.flag_overdue().await.unwrap(), 0, "once");
}

async fn a_limit_per_move_ends_the_game_on_time(db: TestDb) {
    let s = site(&db).await;
    let body = json!({"variant": "oware", "time_control": {"per_move_s": 86_400}});
    let (id, t1, t2) = joined(&s, body, None).await;
    played(&s, &id, &t1, 1, 0).await;
    played(&s, &id, &t2, 1, 1).await;
    s.clock.advance(Duration::from_secs(86_000));
    let v = played(&s, &id, &t1, 2, 2).await;
    assert_eq!(v["clocks"]["remaining_ms"], json!([86_400_000, 86_400_000]));
    s.clock.advance(Duration::from_secs(86_400));
    assert_eq!(s.games.flag_overdue().await.unwrap(), 1);
    let v = view(&s, &id).await;
    assert_eq!(v["end"]["reason"], "out-of-time");
    assert_eq!(v["end"]["player"], 2);
}

async fn a_move_after_the_flag_fell_loses_on_time(db: TestDb) {
    let s = site(&db).await;
    let body = json!({"variant": "kalah", "time_control": {"initial_s": 10}});
    let (id, t1, t2) = joined(&s, body, None).await;
    played(&s, &id, &t1, QUIET[0], 0).await;
    played(&s, &id, &t2, QUIET[1], 1).await;
    s.clock.advance(Duration::from_secs(11));
    let (status, v) = play(&s, &id, &t1, QUIET[2], 2).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let v = view(&s, &id).await;
    assert_eq!(v["ply"], 2);
    assert_eq!(v["end"]["reason"], "out-of-time");
    assert_eq!(v["end"]["player"], 1);
}

/// A fallen flag reads 0:00, whether the timer or a late move noticed it; a game
/// that ends otherwise keeps the time each player had at its end.
async fn a_fallen_flag_reads_zero_and_an_ended_game_keeps_its_times(db: TestDb) {
    /// A game of 10 s each where player 1's clock has just started: (id, token 1).
    async fn start(s: &Site) -> (String, String) {
        let timed = json!({"variant": "kalah", "time_control": {"initial_s": 10}});
        let (id, t1, t2) = joined(s, timed, None).await;
        played(s, &id, &t1, QUIET[0], 0).await;
        played(s, &id, &t2, QUIET[1], 1).await;
        (id, t1)
    }
    let s = site(&db).await;
    // The timer: player 1's clock runs out, with 2.5 s more before the timer looks.
    let (id, _) = start(&s).await;
    s.clock.advance(Duration::from_millis(12_500));
    let v = view_when(&s, &id, |v| v["over"] == true).await;
    assert_eq!(v["end"]["reason"], "out-of-time");
    assert_eq!(
        v["clocks"],
        json!({"remaining_ms": [0, 10_000], "running": null})
    );
    // A move after the fall (unless the timer noticed first).
    let (id, t1) = start(&s).await;
    s.clock.advance(Duration::from_secs(11));
    let (status, _) = play(&s, &id, &t1, QUIET[2], 2).await;
    assert_ne!(status, StatusCode::OK);
    let v = view(&s, &id).await;
    assert_eq!(v["clocks"]["remaining_ms"], json!([0, 10_000]), "{v}");
    // A resignation 4 s into player 1's turn: 6 s left, then and later.
    let (id, t1) = start(&s).await;
    s.clock.advance(Duration::from_secs(4));
    assert_eq!(act(&s, &id, &t1, "resign").await.0, StatusCode::OK);
    s.clock.advance(Duration::from_secs(60));
    let v = view(&s, &id).await;
    assert_eq!(
        v["clocks"],
        json!({"remaining_ms": [6_000, 10_000], "running": null})
    );
}

async fn a_player_who_left_is_claimed_against_after_the_stated_time(db: TestDb) {
    let s = site(&db).await;
    let (id, t1, t2) = joined(&s, kalah(), None).await;
    played(&s, &id, &t1, QUIET[0], 0).await;
    let v = played(&s, &id, &t2, QUIET[1], 1).await;
    let claim_after = i64::try_from(CLAIM_AFTER.as_secs()).unwrap();
    assert_eq!(v["claim_at"], json!(T0 / 1000 + claim_after));
    // Player 1 is to move and stays away; player 2 waits.
    assert_eq!(act(&s, &id, &t1, "claim").await.0, StatusCode::CONFLICT);
    s.clock.advance(CLAIM_AFTER - Duration::from_secs(1));
    let (status, v) = act(&s, &id, &t2, "claim").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    s.clock.advance(Duration::from_secs(1));
    let (status, v) = act(&s, &id, &t2, "claim").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["end"]["reason"], "abandoned");
    assert_eq!(v["end"]["player"], 1);
    assert_eq!(v["result"]["winner"], 2);
    assert_eq!(v["end"]["text"], "Player 1 left the game.");
}

/// A game of Kalah against a friend with `time_control`, joined, each side having
/// moved once through `games` (so that player 1's clock runs): (id, token 1).
async fn timed_game(games: &Games, time_control: Value) -> (String, String) {
    let new: NewGame =
        serde_json::from_value(json!({"variant": "kalah", "time_control": time_control})).unwrap();
    let g = games.create(new).await.unwrap();
    let id = g.id.unwrap();
    let join = JoinRequest {
        invite: g.invite,
        name: None,
    };
    let j = games.join(&id, Ok(join)).await.unwrap();
    for (ply, token) in [(0, &g.token), (1, &j.token)] {
        let mv = MoveRequest {
            house: u128::from(QUIET[ply]),
            ply: ply as u64,
        };
        let client = ClientKey::of_ip(std::net::IpAddr::from([127, 0, 0, 1]));
        games
            .play(&id, Some(token.as_str()).into(), Ok(mv), client)
            .await
            .unwrap();
    }
    (id, g.token)
}

/// The clocks are kept in the database: a server started again on it carries on from
/// them, and ends the game on time.
#[tokio::test]
async fn clocks_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let location = DbLocation::Sqlite(dir.path().join("games.sqlite"));
    let clock = Arc::new(ManualClock::at(T0));
    let open = || async {
        let store = Store::open(&location, &StoreOptions::default())
            .await
            .unwrap();
        Games::new(store).with_clock(clock.clone())
    };
    let games = open().await;
    let (id, _) = timed_game(&games, json!({"initial_s": 60})).await;
    clock.advance(Duration::from_secs(20));
    drop(games);
    let games = open().await;
    let v = serde_json::to_value(games.view(&id).await.unwrap()).unwrap();
    assert_eq!(
        v["clocks"],
        json!({"remaining_ms": [40_000, 60_000], "running": 1})
    );
    clock.advance(Duration::from_secs(40));
    assert_eq!(games.flag_overdue().await.unwrap(), 1);
    let v = serde_json::to_value(games.view(&id).await.unwrap()).unwrap();
    assert_eq!(v["end"]["reason"], "out-of-time");
}

/// Several instances on one PostgreSQL database looking for fallen flags at once end
/// each game on time exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_end_a_game_on_time_once() {
    let Some(db) = TestDb::new(common::Backend::Postgres, "postgres::flags_once") else {
        return;
    };
    let clock = Arc::new(ManualClock::at(T0));
    let mut instances = Vec::new();
    for _ in 0..3 {
        instances.push(Games::new(db.store().await).with_clock(clock.clone()));
    }
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(timed_game(&instances[0], json!({"initial_s": 30})).await.0);
    }
    clock.advance(Duration::from_secs(31));
    let flags: Vec<_> = instances
        .iter()
        .map(|g| {
            let g = g.clone();
            tokio::spawn(async move { g.flag_overdue().await.unwrap() })
        })
        .collect();
    let mut total = 0;
    for f in flags {
        total += f.await.unwrap();
    }
    assert_eq!(total, ids.len(), "each game flagged by one instance");
    for id in &ids {
        let v = serde_json::to_value(instances[2].view(id).await.unwrap()).unwrap();
        assert_eq!(v["end"]["reason"], "out-of-time", "{v}");
    }
}

/// The stream carries every change, a takeback included, to the resignation and then
/// the rematch, after which it ends.
async fn the_live_stream_carries_takebacks_and_ends_with_the_rematch(db: TestDb) {
    let s = site(&db).await;
    let (id, t1, t2) = joined(&s, kalah(), None).await;
    let request = Request::builder()
        .uri(format!("/api/games/{id}/live"))
        .body(Body::empty())
        .unwrap();
    let response = s.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let reader =
        tokio::spawn(async move { response.into_body().collect().await.map(|c| c.to_bytes()) });
    played(&s, &id, &t1, QUIET[0], 0).await;
    act(&s, &id, &t1, "offer-takeback").await;
    act(&s, &id, &t2, "accept").await;
    act(&s, &id, &t1, "resign").await;
    let (status, rematch) = act(&s, &id, &t1, "rematch").await;
    assert_eq!(status, StatusCode::CREATED, "{rematch}");
    let body = tokio::time::timeout(Duration::from_secs(5), reader)
        .await
        .expect("the stream ends with the rematch")
        .unwrap()
        .unwrap();
    let views: Vec<Value> = String::from_utf8(body.to_vec())
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect();
    let plies: Vec<u64> = views.iter().map(|v| v["ply"].as_u64().unwrap()).collect();
    assert!(
        plies.windows(2).any(|w| w == [1, 0]),
        "the takeback is sent though it has fewer plies: {plies:?}"
    );
    let [.., resigned, last] = &views[..] else {
        panic!("{views:?}")
    };
    assert_eq!(resigned["end"]["reason"], "resigned");
    assert_eq!(resigned["rematch"], Value::Null);
    assert_eq!(last["end"]["reason"], "resigned");
    assert_eq!(
        (&last["rematch"], &last["rematch_by"]),
        (&rematch["id"], &json!(1))
    );
    assert!(
        views
            .windows(2)
            .all(|w| w[0]["version"].as_u64() < w[1]["version"].as_u64()),
        "each event is later than the one before"
    );
}
