//! Bots and people finding each other (issue 54), on SQLite and on PostgreSQL:
//! account errors in their own words, challenges by name, an account's event stream,
//! personal API tokens that play their account's seats, and the end of a rated game
//! as one change carrying both rating changes. The end-to-end test at the bottom is
//! the "done when".

mod common;

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use common::TestDb;
use common::calls::{Answer, Call, bearing, body, call, with_cookie};
use common::sse::{Sse, Who};
use mancala_web::{CHALLENGE_LIFETIME, Games, Limits, ManualClock, app};
use serde_json::{Value, json};

on_both_backends!(
    account_errors_speak_of_accounts,
    challenges_are_refused_in_words,
    challenges_are_made_answered_and_withdrawn,
    a_personal_token_plays_every_seat_of_its_account,
    a_resignation_ends_a_rated_game_with_its_ratings,
    an_event_stream_resumes_after_the_last_event_seen,
    event_streams_are_counted_as_live_streams,
    an_event_stream_ends_with_its_token_or_session,
    the_lobby_says_which_games_are_rated,
    an_unanswered_challenge_expires,
    a_bot_finds_plays_and_finishes_a_rated_game_by_its_event_stream,
);

/// The service over a new store on `db`, with room for the many requests of one test
/// client, and `per_client` live streams.
async fn service(db: &TestDb, per_client: usize) -> Games {
    let mut limits = Limits::default();
    let roomy: mancala_web::Rate = "10000/1s".parse().unwrap();
    limits.rates.create = roomy;
    limits.rates.join = roomy;
    limits.rates.moves = roomy;
    limits.rates.read = roomy;
    limits.rates.live = roomy;
    limits.streams.per_client = per_client;
    limits.accounts.rated_per_pair_per_day = 10_000;
    let games = Games::with_limits(db.store().await, limits);
    std::mem::forget(games.start_background());
    games
}

const PASSWORD: &str = "sowing seeds 4 ever";

/// Signs `name` up; the session cookie's secret.
async fn sign_up(r: &Router, name: &str) -> String {
    let a = call(
        r,
        "POST",
        "/api/accounts",
        body(json!({"username": name, "password": PASSWORD})),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    a.session()
}

/// Signs `name` up as a bot: its personal API token.
async fn bot(r: &Router, name: &str) -> String {
    let cookie = sign_up(r, name).await;
    let t = call(r, "POST", "/api/me/tokens", with_cookie(&cookie)).await;
    assert_eq!(t.status, StatusCode::CREATED, "{}", t.json);
    t.json["token"].as_str().unwrap().to_owned()
}

/// `POST path` with `json` as `who` (a cookie or a bearer token).
async fn post(r: &Router, path: &str, who: Who<'_>, json: Value) -> Answer {
    let c = Call {
        cookie: who.cookie,
        bearer: who.bearer,
        body: json,
        ..Call::default()
    };
    call(r, "POST", path, c).await
}

fn cookie(secret: &str) -> Who<'_> {
    Who {
        cookie: Some(secret),
        bearer: None,
    }
}

fn token(secret: &str) -> Who<'_> {
    Who {
        cookie: None,
        bearer: Some(secret),
    }
}

/// A small rated game of Kalah (4 houses of 3 seeds: a few dozen plies).
fn small_rated() -> Value {
    json!({"variant": "kalah", "houses": 4, "seeds": 3, "rated": true})
}

/// Challenges `to` with `settings` as `who`; the answer.
async fn challenge(r: &Router, who: Who<'_>, to: &str, settings: Value) -> Answer {
    let mut b = settings;
    b["to"] = json!(to);
    post(r, "/api/challenges", who, b).await
}

fn error_of(a: &Answer) -> String {
    a.json["error"].as_str().unwrap_or_default().to_owned()
}

async fn account_errors_speak_of_accounts(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let wrong = post(
        &r,
        "/api/session",
        Who::default(),
        json!({"username": "Ann", "password": "not it at all"}),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(error_of(&wrong).contains("password"), "{}", wrong.json);
    assert!(!error_of(&wrong).contains("game"), "{}", wrong.json);

    let me = call(&r, "GET", "/api/me", Call::default()).await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED);
    assert!(error_of(&me).contains("log in"), "{}", me.json);
    assert!(error_of(&me).contains("token"), "{}", me.json);

    let t = call(&r, "POST", "/api/me/tokens", Call::default()).await;
    assert!(error_of(&t).contains("log in"), "{}", t.json);
    let bot_token = bot(&r, "Botty").await;
    let more = call(&r, "POST", "/api/me/tokens", bearing(&bot_token)).await;
    assert_eq!(more.status, StatusCode::UNAUTHORIZED);
    assert!(error_of(&more).contains("password"), "{}", more.json);

    let rated = post(&r, "/api/games", Who::default(), small_rated()).await;
    assert_eq!(rated.status, StatusCode::UNAUTHORIZED);
    assert!(error_of(&rated).contains("account"), "{}", rated.json);

    let nobody = call(&r, "GET", "/api/users/nobody", Call::default()).await;
    assert_eq!(
        (nobody.status, error_of(&nobody).as_str()),
        (StatusCode::NOT_FOUND, "no such user")
    );
    let board = call(&r, "GET", "/api/leaderboard", Call::default()).await;
    assert_eq!(board.status, StatusCode::BAD_REQUEST);
    assert!(error_of(&board).starts_with("variant:"), "{}", board.json);
    assert!(!error_of(&board).contains("deserialize"), "{}", board.json);
    // The account's own routes still answer.
    assert_eq!(
        call(&r, "GET", "/api/me", with_cookie(&ann)).await.status,
        StatusCode::OK
    );
}

async fn challenges_are_refused_in_words(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    sign_up(&r, "Bob").await;

    let anonymous = challenge(&r, Who::default(), "Bob", small_rated()).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let unknown = challenge(&r, cookie(&ann), "Nobody", small_rated()).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.json);
    assert_eq!(error_of(&unknown), "no such user");
    let me = challenge(&r, cookie(&ann), "ANN", small_rated()).await;
    assert_eq!(me.status, StatusCode::CONFLICT, "{}", me.json);
    let bad_rules = challenge(
        &r,
        cookie(&ann),
        "Bob",
        json!({"variant": "kalah", "houses": 99}),
    )
    .await;
    assert_eq!(
        bad_rules.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad_rules.json
    );
    let no_variant = challenge(&r, cookie(&ann), "Bob", json!({"variant": "chess"})).await;
    assert_eq!(no_variant.status, StatusCode::UNPROCESSABLE_ENTITY);
    let computer = challenge(
        &r,
        cookie(&ann),
        "Bob",
        json!({"variant": "kalah", "opponent": "easy"}),
    )
    .await;
    assert_eq!(computer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        error_of(&computer).starts_with("opponent:"),
        "{}",
        computer.json
    );

    let none = call(&r, "GET", "/api/challenges", with_cookie(&ann))
        .await
        .json;
    assert_eq!(none, json!({"in": [], "out": []}), "nothing was made");
}

async fn challenges_are_made_answered_and_withdrawn(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let bob = sign_up(&r, "Bob").await;

    // Made: 201 with its id; both see it in their lists.
    let made = challenge(&r, cookie(&ann), "bob", small_rated()).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.json);
    let id = made.json["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (
            &made.json["from"],
            &made.json["to"],
            &made.json["rated"],
            &made.json["houses"]
        ),
        (&json!("Ann"), &json!("Bob"), &json!(true), &json!(4))
    );
    let bobs = call(&r, "GET", "/api/challenges", with_cookie(&bob))
        .await
        .json;
    assert_eq!(bobs["in"][0]["id"], id.as_str(), "{bobs}");
    assert_eq!(bobs["out"], json!([]));
    let anns = call(&r, "GET", "/api/challenges", with_cookie(&ann))
        .await
        .json;
    assert_eq!(anns["out"][0]["id"], id.as_str(), "{anns}");

    // Only Bob answers it; only Ann withdraws it.
    let path = |what: &str| format!("/api/challenges/{id}/{what}");
    let by_ann = post(&r, &path("accept"), cookie(&ann), Value::Null).await;
    assert_eq!(by_ann.status, StatusCode::NOT_FOUND, "{}", by_ann.json);
    let by_bob = call(
        &r,
        "DELETE",
        &format!("/api/challenges/{id}"),
        with_cookie(&bob),
    )
    .await;
    assert_eq!(by_bob.status, StatusCode::NOT_FOUND);
    let long = post(
        &r,
        &path("decline"),
        cookie(&bob),
        json!({"reason": "x".repeat(201)}),
    )
    .await;
    assert_eq!(long.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Accepted: a game between the two accounts, rated as asked.
    let accepted = post(&r, &path("accept"), cookie(&bob), Value::Null).await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.json);
    assert_eq!(accepted.json["seat"], 2);
    let game = accepted.json["id"].as_str().unwrap();
    let view = call(&r, "GET", &format!("/api/games/{game}"), Call::default())
        .await
        .json;
    assert_eq!(view["players"][0]["account"], "ann", "{view}");
    assert_eq!(view["players"][1]["account"], "bob", "{view}");
    assert_eq!(
        (&view["rated"], &view["started"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(view["rules"]["houses"], 4, "{view}");
    let again = post(&r, &path("accept"), cookie(&bob), Value::Null).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "answered once");
    assert!(
        error_of(&again).contains("no such challenge"),
        "{}",
        again.json
    );

    declined_and_withdrawn(&r, &ann, &bob).await;
}

/// Ann's challenge to Bob declined with a reason, another withdrawn by Ann: both gone.
async fn declined_and_withdrawn(r: &Router, ann: &str, bob: &str) {
    // Declined, with a reason; withdrawn by its challenger.
    let second = challenge(r, cookie(ann), "Bob", json!({"variant": "oware"})).await;
    let second = second.json["id"].as_str().unwrap().to_owned();
    let declined = post(
        r,
        &format!("/api/challenges/{second}/decline"),
        cookie(bob),
        json!({"reason": "later, please"}),
    )
    .await;
    assert_eq!(declined.status, StatusCode::NO_CONTENT);
    let third = challenge(r, cookie(ann), "Bob", json!({"variant": "oware"})).await;
    let third = third.json["id"].as_str().unwrap().to_owned();
    let withdrawn = call(
        r,
        "DELETE",
        &format!("/api/challenges/{third}"),
        with_cookie(ann),
    )
    .await;
    assert_eq!(withdrawn.status, StatusCode::NO_CONTENT);
    let none = call(r, "GET", "/api/challenges", with_cookie(bob))
        .await
        .json;
    assert_eq!(none, json!({"in": [], "out": []}));
}

/// Plays game `id` to its end, each seat by its `who`, always the first legal move;
/// the answer to the last move.
async fn play_out(r: &Router, id: &str, seats: [Who<'_>; 2]) -> Value {
    let mut view = call(r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json;
    for _ in 0..500 {
        if view["over"] == true {
            return view;
        }
        let seat = view["to_move"].as_u64().expect("a seat to move") as usize;
        let house = view["legal_moves"][0].clone();
        let a = post(
            r,
            &format!("/api/games/{id}/moves"),
            seats[seat - 1],
            json!({"house": house, "ply": view["ply"]}),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        view = a.json;
    }
    panic!("the game did not end in 500 plies");
}

/// Both seats' rating changes in `view`, asserted present.
fn assert_rated(view: &Value) {
    for seat in 0..2 {
        let rating = &view["players"][seat]["rating"];
        assert!(
            rating["before"].is_i64() && rating["after"].is_i64(),
            "{view}"
        );
    }
}

/// A small rated game made by the account of `creator` (its cookie) and joined by the
/// bot of `bot_token`: its id (the seat tokens are dropped).
async fn joined_by(r: &Router, creator: &str, bot_token: &str) -> String {
    let g = post(r, "/api/games", cookie(creator), small_rated()).await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.json);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let invite = json!({"invite": g.json["invite"]});
    let j = post(
        r,
        &format!("/api/games/{id}/join"),
        token(bot_token),
        invite,
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    id
}

async fn a_personal_token_plays_every_seat_of_its_account(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let bot_token = bot(&r, "Botty").await;
    let other_bot = bot(&r, "Other").await;
    // Two games the bot holds a seat of; it keeps no seat token of either.
    let games = [
        joined_by(&r, &ann, &bot_token).await,
        joined_by(&r, &ann, &bot_token).await,
    ];
    // Moves, offers and their answers, resignation: by the personal token alone.
    let first = post(
        &r,
        &format!("/api/games/{}/moves", games[0]),
        cookie(&ann),
        json!({"house": 1, "ply": 0}),
    )
    .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    let ply = first.json["ply"].clone();
    let seat = first.json["to_move"].as_u64().unwrap();
    let mover = if seat == 2 {
        token(&bot_token)
    } else {
        cookie(&ann)
    };
    let house = first.json["legal_moves"][0].clone();
    let moved = post(
        &r,
        &format!("/api/games/{}/moves", games[0]),
        mover,
        json!({"house": house, "ply": ply}),
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.json);
    let offer = post(
        &r,
        &format!("/api/games/{}/offer", games[0]),
        token(&bot_token),
        json!({"kind": "draw"}),
    )
    .await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.json);
    assert_eq!(offer.json["offer"]["seat"], 2, "{}", offer.json);
    let stranger = post(
        &r,
        &format!("/api/games/{}/resign", games[0]),
        token(&other_bot),
        Value::Null,
    )
    .await;
    assert_eq!(
        stranger.status,
        StatusCode::UNAUTHORIZED,
        "another account's token plays no seat here"
    );
    let resigned = post(
        &r,
        &format!("/api/games/{}/resign", games[0]),
        token(&bot_token),
        Value::Null,
    )
    .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.json);
    assert_eq!(resigned.json["result"]["winner"], 1, "{}", resigned.json);
    // The second game to its end, the bot's seat by its token.
    let end = play_out(&r, &games[1], [cookie(&ann), token(&bot_token)]).await;
    assert_eq!(end["over"], true);
    // Its games list says how to play them: with the token, every seat is its own.
    let mine = call(&r, "GET", "/api/me/games", bearing(&bot_token))
        .await
        .json;
    assert_eq!(mine["games"].as_array().unwrap().len(), 2, "{mine}");
}

async fn a_resignation_ends_a_rated_game_with_its_ratings(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let bob = sign_up(&r, "Bob").await;
    let made = challenge(&r, cookie(&ann), "Bob", small_rated()).await;
    let id = made.json["id"].as_str().unwrap();
    let accepted = post(
        &r,
        &format!("/api/challenges/{id}/accept"),
        cookie(&bob),
        Value::Null,
    )
    .await;
    let game = accepted.json["id"].as_str().unwrap().to_owned();
    let mut live = Sse::open(&r, &format!("/api/games/{game}/live"), Who::default(), None).await;
    assert_eq!(live.status, StatusCode::OK);
    let mut view = call(&r, "GET", &format!("/api/games/{game}"), Call::default())
        .await
        .json;
    // Each side moves once (a game is rated only then).
    for _ in 0..2 {
        let seat = view["to_move"].as_u64().unwrap();
        let who = if seat == 1 {
            cookie(&ann)
        } else {
            cookie(&bob)
        };
        let a = post(
            &r,
            &format!("/api/games/{game}/moves"),
            who,
            json!({"house": view["legal_moves"][0], "ply": view["ply"]}),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        view = a.json;
    }
    let resigned = post(
        &r,
        &format!("/api/games/{game}/resign"),
        cookie(&bob),
        Value::Null,
    )
    .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.json);
    assert_rated(&resigned.json);
    loop {
        let (id, view) = live.next().await.expect("the stream goes on to the end");
        if view["over"] == true {
            assert_rated(&view);
            assert_eq!(id, view["version"].to_string());
            assert_eq!(view["version"], resigned.json["version"], "one change");
            break;
        }
    }
}

async fn an_event_stream_resumes_after_the_last_event_seen(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let bot_token = bot(&r, "Botty").await;
    let mut events = Sse::open(&r, "/api/stream/event", token(&bot_token), None).await;
    assert_eq!(events.status, StatusCode::OK);
    let first = challenge(&r, cookie(&ann), "Botty", json!({"variant": "oware"})).await;
    let (seen, event) = events.next().await.unwrap();
    assert_eq!(event["type"], "challenge", "{event}");
    assert_eq!(event["challenge"]["id"], first.json["id"]);
    drop(events);
    // While the bot is away: a withdrawal and a new challenge.
    let path = format!("/api/challenges/{}", first.json["id"].as_str().unwrap());
    let gone = call(&r, "DELETE", &path, with_cookie(&ann)).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    let second = challenge(&r, cookie(&ann), "Botty", json!({"variant": "kalah"})).await;
    // Back, after the last event it saw: what it missed, in order.
    let mut events = Sse::open(&r, "/api/stream/event", token(&bot_token), Some(&seen)).await;
    let (id1, missed) = events.next().await.unwrap();
    assert_eq!(missed["type"], "challengeCanceled", "{missed}");
    let (id2, next) = events.next().await.unwrap();
    assert_eq!(next["type"], "challenge");
    assert_eq!(next["challenge"]["id"], second.json["id"]);
    let n = |s: &str| s.parse::<i64>().unwrap();
    assert!(n(&seen) < n(&id1) && n(&id1) < n(&id2));
    // Declined: the challenger hears why; the stream of one's own account only.
    let mut anns = Sse::open(&r, "/api/stream/event", cookie(&ann), None).await;
    let path = format!(
        "/api/challenges/{}/decline",
        second.json["id"].as_str().unwrap()
    );
    let no = post(
        &r,
        &path,
        token(&bot_token),
        json!({"reason": "I play Oware only"}),
    )
    .await;
    assert_eq!(no.status, StatusCode::NO_CONTENT);
    let (_, declined) = anns.next().await.unwrap();
    assert_eq!(declined["type"], "challengeDeclined", "{declined}");
    assert_eq!(declined["reason"], "I play Oware only");
    // Without an account: 401, in words about logging in.
    let nobody = Sse::open(&r, "/api/stream/event", Who::default(), None).await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
}

/// A stream lasts while the credential that opened it does: revoking the token, or
/// logging out, ends it at once; the account's other streams go on.
async fn an_event_stream_ends_with_its_token_or_session(db: TestDb) {
    let r = app(service(&db, 10).await);
    let botty = sign_up(&r, "Botty").await;
    let t = call(&r, "POST", "/api/me/tokens", with_cookie(&botty)).await;
    assert_eq!(t.status, StatusCode::CREATED, "{}", t.json);
    let secret = t.json["token"].as_str().unwrap().to_owned();
    let listed = call(&r, "GET", "/api/me/tokens", with_cookie(&botty)).await;
    let id = listed.json["tokens"][0]["id"].as_str().unwrap().to_owned();
    let mut by_token = Sse::open(&r, "/api/stream/event", token(&secret), None).await;
    let mut by_cookie = Sse::open(&r, "/api/stream/event", cookie(&botty), None).await;
    assert_eq!(
        (by_token.status, by_cookie.status),
        (StatusCode::OK, StatusCode::OK)
    );

    let path = format!("/api/me/tokens/{id}");
    let revoked = call(&r, "DELETE", &path, with_cookie(&botty)).await;
    assert_eq!(revoked.status, StatusCode::NO_CONTENT, "{}", revoked.json);
    assert_eq!(
        by_token.next_within(Duration::from_secs(5)).await,
        None,
        "the revoked token's stream ends"
    );
    // The session's stream goes on, and still hears the account's events.
    let ann = sign_up(&r, "Ann").await;
    challenge(&r, cookie(&ann), "Botty", json!({"variant": "oware"})).await;
    let (_, event) = by_cookie.next().await.unwrap();
    assert_eq!(event["type"], "challenge", "{event}");

    let out = call(&r, "DELETE", "/api/session", with_cookie(&botty)).await;
    assert!(out.status.is_success(), "{}", out.json);
    assert_eq!(
        by_cookie.next_within(Duration::from_secs(5)).await,
        None,
        "the ended session's stream ends"
    );
    let again = Sse::open(&r, "/api/stream/event", token(&secret), None).await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
}

async fn event_streams_are_counted_as_live_streams(db: TestDb) {
    let r = app(service(&db, 1).await);
    let bot_token = bot(&r, "Botty").await;
    let open = Sse::open(&r, "/api/stream/event", token(&bot_token), None).await;
    assert_eq!(open.status, StatusCode::OK);
    let second = Sse::open(&r, "/api/stream/event", token(&bot_token), None).await;
    assert_eq!(second.status, StatusCode::TOO_MANY_REQUESTS);
    drop(open);
    let again = Sse::open(&r, "/api/stream/event", token(&bot_token), None).await;
    assert_eq!(
        again.status,
        StatusCode::OK,
        "a closed stream gives its place back"
    );
}

async fn an_unanswered_challenge_expires(db: TestDb) {
    let clock = std::sync::Arc::new(ManualClock::at(1_795_000_000_000));
    let games = Games::with_limits(db.store().await, Limits::default()).with_clock(clock.clone());
    let r = app(games.clone());
    let ann = sign_up(&r, "Ann").await;
    let bob = sign_up(&r, "Bob").await;
    let made = challenge(&r, cookie(&ann), "Bob", json!({"variant": "oware"})).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.json);
    let mut bobs = Sse::open(&r, "/api/stream/event", cookie(&bob), None).await;
    let expires = made.json["expires_at"].as_i64().unwrap();
    let lifetime = i64::try_from(CHALLENGE_LIFETIME.as_secs()).unwrap();
    assert_eq!(
        expires - made.json["created_at"].as_i64().unwrap(),
        lifetime
    );
    clock.advance(CHALLENGE_LIFETIME - Duration::from_secs(1));
    let open = call(&r, "GET", "/api/challenges", with_cookie(&bob))
        .await
        .json;
    assert_eq!(open["in"].as_array().unwrap().len(), 1, "not yet");
    clock.advance(Duration::from_secs(1));
    let gone = call(&r, "GET", "/api/challenges", with_cookie(&bob))
        .await
        .json;
    assert_eq!(gone, json!({"in": [], "out": []}));
    let id = made.json["id"].as_str().unwrap();
    let late = post(
        &r,
        &format!("/api/challenges/{id}/accept"),
        cookie(&bob),
        Value::Null,
    )
    .await;
    assert_eq!(late.status, StatusCode::NOT_FOUND, "{}", late.json);
    // The periodic expiry deletes it; withdrawing it then finds nothing either.
    let kept = |n: usize| {
        let store = games.store().clone();
        async move { assert_eq!(store.challenges_of("ann", 0).await.unwrap().len(), n) }
    };
    kept(1).await;
    games.expire().await.unwrap();
    kept(0).await;
    // Both accounts hear that it expired (here the challenged's stream).
    let (_, event) = bobs.next().await.expect("the expiry reaches the stream");
    assert_eq!(event["type"], "challengeExpired", "{event}");
    assert_eq!(event["challenge"]["id"], made.json["id"]);
    let path = format!("/api/challenges/{id}");
    assert_eq!(
        call(&r, "DELETE", &path, with_cookie(&ann)).await.status,
        StatusCode::NOT_FOUND
    );
}

async fn the_lobby_says_which_games_are_rated(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let mut rated = small_rated();
    rated["public"] = json!(true);
    let g = post(&r, "/api/games", cookie(&ann), rated).await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.json);
    let plain = json!({"variant": "kalah", "public": true});
    assert_eq!(
        post(&r, "/api/games", Who::default(), plain).await.status,
        StatusCode::CREATED
    );
    let lobby = call(&r, "GET", "/api/lobby", Call::default()).await.json;
    let marks: Vec<(Value, Value)> = lobby["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].clone(), e["rated"].clone()))
        .collect();
    assert_eq!(marks.len(), 2, "{lobby}");
    for (id, rated) in marks {
        assert_eq!(rated, json!(id == g.json["id"]), "{lobby}");
    }
}

/// The "done when": a challenge by name reaches the challenged bot's event
/// stream; accepting it with the personal token starts a game that appears there; the
/// bot plays it with that token alone; the view that ends the rated game carries both
/// rating changes, and the bot's stream says the game finished.
async fn a_bot_finds_plays_and_finishes_a_rated_game_by_its_event_stream(db: TestDb) {
    let r = app(service(&db, 10).await);
    let ann = sign_up(&r, "Ann").await;
    let bot_token = bot(&r, "Botty").await;
    let mut events = Sse::open(&r, "/api/stream/event", token(&bot_token), None).await;
    assert_eq!(events.status, StatusCode::OK);

    let mut settings = small_rated();
    settings["first"] = json!(2);
    let made = challenge(&r, cookie(&ann), "Botty", settings).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.json);
    let (_, ev) = events.next().await.expect("the challenge reaches the bot");
    assert_eq!(ev["type"], "challenge", "{ev}");
    assert_eq!(ev["challenge"]["from"], "Ann");
    assert_eq!(ev["challenge"]["rated"], true);
    let id = ev["challenge"]["id"].as_str().unwrap();

    let accepted = post(
        &r,
        &format!("/api/challenges/{id}/accept"),
        token(&bot_token),
        Value::Null,
    )
    .await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.json);
    let game = accepted.json["id"].as_str().unwrap().to_owned();
    let (_, ev) = events
        .next()
        .await
        .expect("the game's start reaches the bot");
    assert_eq!(ev["type"], "gameStart", "{ev}");
    assert_eq!(ev["game"]["id"], game.as_str());
    assert_eq!(
        (&ev["game"]["seat"], &ev["game"]["rated"]),
        (&json!(2), &json!(true))
    );

    let mut live = Sse::open(
        &r,
        &format!("/api/games/{game}/live"),
        token(&bot_token),
        None,
    )
    .await;
    // The bot plays its seat with its personal token alone (not the seat token the
    // answer also gave: a bot that restarts has only its personal token).
    let end = play_out(&r, &game, [cookie(&ann), token(&bot_token)]).await;
    assert_eq!(end["over"], true);
    assert_rated(&end);
    loop {
        let (_, view) = live
            .next()
            .await
            .expect("the game's stream goes on to its end");
        if view["over"] == true {
            assert_rated(&view);
            break;
        }
    }
    let (_, ev) = events.next().await.expect("the game's end reaches the bot");
    assert_eq!(ev["type"], "gameFinish", "{ev}");
    assert_eq!(ev["game"]["id"], game.as_str());
    assert_eq!(ev["game"]["over"], true);
    assert!(ev["game"]["players"][1]["rating"]["after"].is_i64(), "{ev}");
    let me = call(&r, "GET", "/api/me", bearing(&bot_token)).await.json;
    assert_eq!(me["ratings"]["kalah-4x3"]["games"], 1, "{me}");
    assert!(events.is_quiet_for(Duration::from_millis(200)).await);
}

/// On a site of several instances (one PostgreSQL database), an account's events reach
/// its stream held on another instance than the one the change was made on, at once
/// (by the announcement, not the streams' periodic look, which comes after 20 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_reach_a_stream_on_another_instance() {
    let name = "postgres::events_reach_a_stream_on_another_instance";
    let Some(db) = TestDb::new(common::Backend::Postgres, name) else {
        return;
    };
    let one = app(service(&db, 10).await);
    let two = app(service(&db, 10).await);
    let ann = sign_up(&one, "Ann").await;
    let bot_token = bot(&one, "Botty").await;
    let mut events = Sse::open(&two, "/api/stream/event", token(&bot_token), None).await;
    assert_eq!(events.status, StatusCode::OK);
    let made = challenge(&one, cookie(&ann), "Botty", small_rated()).await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.json);
    let (_, ev) = events
        .next_within(Duration::from_secs(5))
        .await
        .expect("the challenge reaches the other instance");
    assert_eq!(ev["challenge"]["id"], made.json["id"]);
    // Accepted on the second instance: the game's start reaches Ann's stream on the first.
    let mut anns = Sse::open(&one, "/api/stream/event", cookie(&ann), None).await;
    let id = made.json["id"].as_str().unwrap();
    let accepted = post(
        &two,
        &format!("/api/challenges/{id}/accept"),
        token(&bot_token),
        Value::Null,
    )
    .await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.json);
    let (_, ev) = anns.next_within(Duration::from_secs(5)).await.unwrap();
    assert_eq!(ev["type"], "gameStart", "{ev}");
    assert_eq!(ev["game"]["id"], accepted.json["id"]);
    assert_eq!(ev["game"]["seat"], 1);
}
