//! Accounts through the router, on SQLite and on PostgreSQL: signing up, logging in
//! and out, the session cookie's attributes, the log-in throttle, the refusal of
//! cross-site requests made with the cookie, games belonging to accounts (and moving
//! a browser's anonymous games to one), rated games and Glicko-2, profiles, the
//! leaderboard, and bot accounts with personal API tokens.

mod common;

use axum::Router;
use axum::http::{StatusCode, header};
use common::TestDb;
use common::calls::{Answer, Call, bearing, body, call, with_cookie};
use mancala_web::{Games, Limits, Rating, SESSION_COOKIE, Score, app, pool_of, rate_game};
use serde_json::{Value, json};

on_both_backends!(
    sign_up_log_in_log_out,
    usernames_and_passwords_are_checked,
    the_cookie_is_http_only_lax_and_secure_over_tls,
    log_ins_are_throttled_per_username,
    a_cross_site_request_with_the_cookie_is_refused,
    games_belong_to_accounts,
    an_account_plays_its_seat_from_another_device,
    a_browser_s_games_move_to_the_account,
    rated_games_move_ratings_by_glicko_2,
    only_accounts_play_rated_games,
    established_players_make_the_leaderboard,
    bots_play_with_personal_api_tokens,
    the_database_holds_only_the_hash,
);

/// The service over a new store on `db`, with room for the many requests of one
/// test client (the default limits allow 20 new games a minute).
async fn service(db: &TestDb) -> Games {
    let mut limits = Limits::default();
    let roomy: mancala_web::Rate = "10000/1s".parse().unwrap();
    limits.rates.create = roomy;
    limits.rates.join = roomy;
    limits.rates.moves = roomy;
    limits.rates.read = roomy;
    // And room for many rated games between the same two accounts (the daily cap is
    // account_trust.rs's to test).
    limits.accounts.rated_per_pair_per_day = 10_000;
    let games = Games::with_limits(db.store().await, limits);
    std::mem::forget(games.start_background());
    games
}

/// `POST /api/games/{id}/{action}` as `c` says.
async fn act(r: &Router, id: &str, action: &str, c: Call<'_>) -> Answer {
    call(r, "POST", &format!("/api/games/{id}/{action}"), c).await
}

/// The password of every account `sign_up` makes (a password may not contain the
/// username, nor be a common one).
const PASSWORD: &str = "sowing seeds 4 ever";

/// Signs `name` up (password [`PASSWORD`]); the session cookie's secret.
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

async fn sign_up_log_in_log_out(db: TestDb) {
    let r = app(service(&db).await);
    let a = call(
        &r,
        "POST",
        "/api/accounts",
        body(json!({"username": "Ann_1", "password": "correct horse"})),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    assert_eq!(a.json["name"], "Ann_1");
    assert_eq!(a.json["bot"], false);
    let cookie = a.session();
    let me = call(&r, "GET", "/api/me", with_cookie(&cookie)).await;
    assert_eq!(
        (me.status, me.json["name"].clone()),
        (StatusCode::OK, json!("Ann_1"))
    );
    assert_eq!(me.json["ratings"], json!({}));

    // Unique without regard to case.
    let again = call(
        &r,
        "POST",
        "/api/accounts",
        body(json!({"username": "ann_1", "password": "another one"})),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.json);

    let out = call(&r, "DELETE", "/api/session", with_cookie(&cookie)).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    assert!(
        out.set_cookie().starts_with(&format!("{SESSION_COOKIE}=;")),
        "{}",
        out.set_cookie()
    );
    let gone = call(&r, "GET", "/api/me", with_cookie(&cookie)).await;
    assert_eq!(gone.status, StatusCode::UNAUTHORIZED, "the session ended");
    assert_eq!(
        call(&r, "GET", "/api/me", Call::default()).await.status,
        StatusCode::UNAUTHORIZED
    );

    let wrong = call(
        &r,
        "POST",
        "/api/session",
        body(json!({"username": "Ann_1", "password": "correct horsf"})),
    )
    .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.headers.get(header::SET_COOKIE).is_none());
    let unknown = call(
        &r,
        "POST",
        "/api/session",
        body(json!({"username": "nobody", "password": "correct horse"})),
    )
    .await;
    assert_eq!(
        (unknown.status, &unknown.json),
        (StatusCode::UNAUTHORIZED, &wrong.json)
    );

    let back = call(
        &r,
        "POST",
        "/api/session",
        body(json!({"username": "ANN_1", "password": "correct horse"})),
    )
    .await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.json);
    let me = call(&r, "GET", "/api/me", with_cookie(&back.session())).await;
    assert_eq!(
        me.json["name"], "Ann_1",
        "the name as chosen, whatever was typed"
    );
}

async fn usernames_and_passwords_are_checked(db: TestDb) {
    let r = app(service(&db).await);
    for (username, password, why) in [
        ("ab", "long enough", "3 to 20"),
        ("abcdefghijklmnopqrstu", "long enough", "3 to 20"),
        ("two words", "long enough", "letters, digits"),
        ("Expert", "long enough", "computer player"),
        ("human", "long enough", "computer player"),
        ("Ann", "1234567", "at least 8"),
        // The findings: common passwords, blanks, the username itself.
        ("Ann", "password", "most common"),
        ("Ann", "12345678", "most common"),
        ("Ann", "Qwertyuiop", "most common"),
        ("Ann", "        ", "one character"),
        ("Annabel", "annabel1", "username"),
        ("Annabel", "my name is ANNABEL", "username"),
    ] {
        let a = call(
            &r,
            "POST",
            "/api/accounts",
            body(json!({"username": username, "password": password})),
        )
        .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{username}: {}",
            a.json
        );
        let error = a.json["error"].as_str().unwrap();
        assert!(error.contains(why), "{username}: {error}");
    }
    let missing = call(
        &r,
        "POST",
        "/api/accounts",
        body(json!({"username": "Ann"})),
    )
    .await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST, "{}", missing.json);
}

async fn the_cookie_is_http_only_lax_and_secure_over_tls(db: TestDb) {
    let attributes = |set: &str| -> Vec<String> {
        set.split(';')
            .skip(1)
            .map(|a| a.trim().to_ascii_lowercase())
            .collect()
    };
    let plain = app(service(&db).await);
    let a = call(
        &plain,
        "POST",
        "/api/accounts",
        body(json!({"username": "plain", "password": "long enough"})),
    )
    .await;
    let attrs = attributes(&a.set_cookie());
    for wanted in ["httponly", "samesite=lax", "path=/", "max-age=2592000"] {
        assert!(attrs.iter().any(|a| a == wanted), "{wanted} in {attrs:?}");
    }
    assert!(!attrs.iter().any(|a| a == "secure"), "no TLS: {attrs:?}");

    let limits = Limits {
        secure_cookies: true,
        ..Limits::default()
    };
    let tls = app(Games::with_limits(db.store().await, limits));
    let a = call(
        &tls,
        "POST",
        "/api/accounts",
        body(json!({"username": "tls", "password": "long enough"})),
    )
    .await;
    assert!(
        attributes(&a.set_cookie()).iter().any(|a| a == "secure"),
        "{}",
        a.set_cookie()
    );

    // Behind a trusted proxy that says the request came over HTTPS.
    let limits = Limits {
        trust_forwarded_for: true,
        ..Limits::default()
    };
    let proxied = app(Games::with_limits(db.store().await, limits));
    let a = call(
        &proxied,
        "POST",
        "/api/accounts",
        Call {
            headers: vec![
                ("x-forwarded-proto", "https"),
                ("x-forwarded-for", "192.0.2.7"),
            ],
            body: json!({"username": "proxied", "password": "long enough"}),
            ..Call::default()
        },
    )
    .await;
    assert!(
        attributes(&a.set_cookie()).iter().any(|a| a == "secure"),
        "{}",
        a.set_cookie()
    );
}

async fn log_ins_are_throttled_per_username(db: TestDb) {
    let r = app(service(&db).await);
    sign_up(&r, "target").await;
    for _ in 0..5 {
        let a = call(
            &r,
            "POST",
            "/api/session",
            body(json!({"username": "target", "password": "a wrong guess"})),
        )
        .await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    }
    // Past the burst even the right password waits: a throttled guess is never checked.
    let a = call(
        &r,
        "POST",
        "/api/session",
        body(json!({"username": "TARGET", "password": PASSWORD})),
    )
    .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.json);
    let wait: u64 = a.headers[header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=61).contains(&wait), "Retry-After {wait}");
    // Another name is not held back by this one's failures.
    sign_up(&r, "other").await;
    let a = call(
        &r,
        "POST",
        "/api/session",
        body(json!({"username": "other", "password": PASSWORD})),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
}

async fn a_cross_site_request_with_the_cookie_is_refused(db: TestDb) {
    let r = app(service(&db).await);
    let cookie = sign_up(&r, "victim").await;
    let new_game = json!({"variant": "kalah", "houses": 3, "seeds": 2});
    let from = |origin: &'static str| Call {
        cookie: Some(&cookie),
        headers: vec![("origin", origin)],
        body: new_game.clone(),
        ..Call::default()
    };
    let evil = call(&r, "POST", "/api/games", from("https://evil.example")).await;
    assert_eq!(evil.status, StatusCode::FORBIDDEN, "{}", evil.json);
    let null = call(&r, "POST", "/api/games", from("null")).await;
    assert_eq!(null.status, StatusCode::FORBIDDEN, "{}", null.json);
    let out = call(&r, "DELETE", "/api/session", from("https://evil.example")).await;
    assert_eq!(
        out.status,
        StatusCode::FORBIDDEN,
        "a cross-site log-out is refused too"
    );
    let ours = call(&r, "POST", "/api/games", from("http://mancala.test")).await;
    assert_eq!(ours.status, StatusCode::CREATED, "{}", ours.json);
    // Reading is not changing anything; and without the cookie the API stays open to
    // other sites' pages, as before accounts.
    let read = Call {
        cookie: Some(&cookie),
        headers: vec![("origin", "https://evil.example")],
        ..Call::default()
    };
    assert_eq!(
        call(&r, "GET", "/api/me", read).await.status,
        StatusCode::OK
    );
    let anonymous = Call {
        headers: vec![("origin", "https://evil.example")],
        body: new_game.clone(),
        ..Call::default()
    };
    assert_eq!(
        call(&r, "POST", "/api/games", anonymous).await.status,
        StatusCode::CREATED
    );

    // Behind a trusted proxy that sends its upstream's address as `Host`, the site is
    // the `X-Forwarded-Host` the proxy set.
    let limits = Limits {
        trust_forwarded_for: true,
        ..Limits::default()
    };
    let proxied = app(Games::with_limits(db.store().await, limits));
    let cookie = sign_up(&proxied, "behind").await;
    let via = |origin: &'static str| Call {
        cookie: Some(&cookie),
        headers: vec![
            ("origin", origin),
            ("x-forwarded-host", "mancala.example"),
            ("x-forwarded-proto", "https"),
        ],
        body: new_game.clone(),
        ..Call::default()
    };
    let ours = call(
        &proxied,
        "POST",
        "/api/games",
        via("https://mancala.example"),
    )
    .await;
    assert_eq!(ours.status, StatusCode::CREATED, "{}", ours.json);
    let evil = call(&proxied, "POST", "/api/games", via("https://mancala.test")).await;
    assert_eq!(evil.status, StatusCode::FORBIDDEN, "{}", evil.json);
}

/// Creates a game (`settings`) with the cookie or bearer of `c`; the answer.
async fn create(r: &Router, c: Call<'_>) -> Answer {
    call(r, "POST", "/api/games", c).await
}

async fn games_belong_to_accounts(db: TestDb) {
    let r = app(service(&db).await);
    let ann = sign_up(&r, "Ann").await;
    let bob = sign_up(&r, "Bob").await;
    let g = create(
        &r,
        Call {
            cookie: Some(&ann),
            body: json!({"variant": "kalah", "houses": 3, "seeds": 2, "name": "Not Ann"}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.json);
    let id = g.json["id"].as_str().unwrap();
    let j = act(
        &r,
        id,
        "join",
        Call {
            body: json!({"invite": g.json["invite"]}),
            ..with_cookie(&bob)
        },
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    let view = call(&r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json;
    assert_eq!(
        view["players"][0]["name"], "Ann",
        "an account's seat carries its name"
    );
    assert_eq!(view["players"][0]["account"], "ann");
    assert_eq!(view["players"][1]["account"], "bob");
    assert_eq!(view["rated"], false);

    // A computer game, and an anonymous one that is nobody's.
    let c = create(
        &r,
        Call {
            cookie: Some(&ann),
            body: json!({"variant": "oware", "opponent": "random"}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(c.status, StatusCode::CREATED, "{}", c.json);
    create(&r, body(json!({"variant": "kalah"}))).await;

    let mine = call(&r, "GET", "/api/me/games", with_cookie(&ann)).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.json);
    let ids: Vec<&str> = mine.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{}", mine.json);
    assert!(ids.contains(&id) && ids.contains(&c.json["id"].as_str().unwrap()));
    assert_eq!(mine.json["next"], Value::Null);
    let bobs = call(&r, "GET", "/api/me/games", with_cookie(&bob))
        .await
        .json;
    assert_eq!(bobs["games"][0]["id"], id);
    assert_eq!(bobs["games"][0]["seat"], 2);

    // Pages.
    let first = call(&r, "GET", "/api/me/games?limit=1", with_cookie(&ann))
        .await
        .json;
    assert_eq!(first["games"].as_array().unwrap().len(), 1);
    assert_eq!(first["next"], 1);
    let second = call(
        &r,
        "GET",
        "/api/me/games?offset=1&limit=1",
        with_cookie(&ann),
    )
    .await
    .json;
    assert_ne!(first["games"][0]["id"], second["games"][0]["id"]);
    let bad = call(&r, "GET", "/api/me/games?offset=-1", with_cookie(&ann)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        call(&r, "GET", "/api/me/games", Call::default())
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );

    // The profile: everyone sees the account and its recent games.
    let profile = call(&r, "GET", "/api/users/ANN", Call::default()).await;
    assert_eq!(profile.status, StatusCode::OK, "{}", profile.json);
    assert_eq!(profile.json["name"], "Ann");
    assert_eq!(profile.json["games"].as_array().unwrap().len(), 2);
    assert!(profile.json.get("password").is_none());
    let none = call(&r, "GET", "/api/users/nobody", Call::default()).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND);
}

async fn an_account_plays_its_seat_from_another_device(db: TestDb) {
    let r = app(service(&db).await);
    let ann = sign_up(&r, "Ann").await;
    let g = create(
        &r,
        Call {
            cookie: Some(&ann),
            body: json!({"variant": "kalah", "houses": 3, "seeds": 2}),
            ..Call::default()
        },
    )
    .await;
    let id = g.json["id"].as_str().unwrap();
    // Ann joins her own game from another tab: anonymously (one account, one seat).
    let j = act(
        &r,
        id,
        "join",
        Call {
            body: json!({"invite": g.json["invite"]}),
            ..with_cookie(&ann)
        },
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    let view = call(&r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json;
    assert_eq!(view["players"][1].get("account"), None, "{view}");
    // On another device Ann has only her session: it plays her seat.
    let mv = |c: Call<'static>| {
        let r = r.clone();
        let path = format!("/api/games/{id}/moves");
        async move { call(&r, "POST", &path, c).await }
    };
    let first = act(
        &r,
        id,
        "moves",
        Call {
            body: json!({"house": 3, "ply": 0}),
            ..with_cookie(&ann)
        },
    )
    .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.json);
    assert_eq!(first.json["ply"], 1);
    // Nobody else's cookie, and no credential at all, plays it.
    let bob = sign_up(&r, "Bob").await;
    let theirs = act(&r, id, "resign", with_cookie(&bob)).await;
    assert_eq!(theirs.status, StatusCode::UNAUTHORIZED, "{}", theirs.json);
    let nobody = mv(body(json!({"house": 1, "ply": 1}))).await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED, "{}", nobody.json);
    // Resigning by the session works the same way.
    let resign = act(&r, id, "resign", with_cookie(&ann)).await;
    assert_eq!(resign.status, StatusCode::OK, "{}", resign.json);
    assert_eq!(resign.json["end"]["player"], 1);
}

async fn a_browser_s_games_move_to_the_account(db: TestDb) {
    let r = app(service(&db).await);
    // Played anonymously, before signing up.
    let a = create(
        &r,
        body(json!({"variant": "kalah", "houses": 3, "seeds": 2})),
    )
    .await;
    let b = create(&r, body(json!({"variant": "oware", "opponent": "random"}))).await;
    let other = create(&r, body(json!({"variant": "kalah"}))).await;
    let seat = |g: &Answer| json!({"game": g.json["id"], "token": g.json["token"]});
    let cookie = sign_up(&r, "Newcomer").await;
    let claim = call(
        &r,
        "POST",
        "/api/me/games/claim",
        Call {
            cookie: Some(&cookie),
            body: json!({"seats": [
                seat(&a),
                seat(&b),
                // Another game's id with a token of no seat of it: passed over.
                {"game": other.json["id"], "token": a.json["token"]},
                {"game": "no-such-game", "token": "x"},
            ]}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(claim.status, StatusCode::OK, "{}", claim.json);
    let claimed = claim.json["claimed"].as_array().unwrap();
    assert_eq!(claimed, &vec![a.json["id"].clone(), b.json["id"].clone()]);
    let mine = call(&r, "GET", "/api/me/games", with_cookie(&cookie))
        .await
        .json;
    assert_eq!(mine["games"].as_array().unwrap().len(), 2, "{mine}");
    let view = call(
        &r,
        "GET",
        &format!("/api/games/{}", a.json["id"].as_str().unwrap()),
        Call::default(),
    )
    .await
    .json;
    assert_eq!(view["players"][0]["account"], "newcomer");
    // The seat token still plays: the browser keeps using it.
    let id = a.json["id"].as_str().unwrap();
    let token = a.json["token"].as_str().unwrap();
    let resign = act(&r, id, "abort", bearing(token)).await;
    assert_eq!(resign.status, StatusCode::OK, "{}", resign.json);
    // Claiming again is harmless; another account cannot take the seat.
    let twice = call(
        &r,
        "POST",
        "/api/me/games/claim",
        Call {
            cookie: Some(&cookie),
            body: json!({"seats": [seat(&a)]}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(twice.json["claimed"], json!([a.json["id"]]));
    let thief = sign_up(&r, "Thief").await;
    let stolen = call(
        &r,
        "POST",
        "/api/me/games/claim",
        Call {
            cookie: Some(&thief),
            body: json!({"seats": [seat(&a)]}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(stolen.json["claimed"], json!([]));
}

/// A rated Kalah(3,2) game between the holders of `cookies` (seat 1 creates it):
/// its id and both seat tokens.
async fn rated_game(r: &Router, cookies: [&str; 2]) -> (String, [String; 2]) {
    let g = create(
        r,
        Call {
            cookie: Some(cookies[0]),
            body: json!({"variant": "kalah", "houses": 3, "seeds": 2, "rated": true}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.json);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let j = call(
        r,
        "POST",
        &format!("/api/games/{id}/join"),
        Call {
            cookie: Some(cookies[1]),
            body: json!({"invite": g.json["invite"]}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    (id, [token(&g.json), token(&j.json)])
}

/// Plays game `id` to its end, each seat sowing its first legal house; the last view.
async fn play_out(r: &Router, id: &str, tokens: &[String; 2]) -> Value {
    let mut view = call(r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json;
    while view["over"] == false {
        let seat = view["to_move"].as_u64().unwrap() as usize - 1;
        let house = view["legal_moves"][0].clone();
        let a = call(
            r,
            "POST",
            &format!("/api/games/{id}/moves"),
            Call {
                bearer: Some(&tokens[seat]),
                body: json!({"house": house, "ply": view["ply"]}),
                ..Call::default()
            },
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        view = a.json;
    }
    view
}

/// Plays game `id` until each seat has moved (a rated game may be resigned from
/// then on), each seat sowing its first legal house.
async fn open_both(r: &Router, id: &str, tokens: &[String; 2]) {
    let mut moved = [false, false];
    let mut view = call(r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json;
    while moved != [true, true] {
        assert_eq!(view["over"], false, "the game ended in its opening: {view}");
        let seat = view["to_move"].as_u64().unwrap() as usize - 1;
        let a = call(
            r,
            "POST",
            &format!("/api/games/{id}/moves"),
            Call {
                bearer: Some(&tokens[seat]),
                body: json!({"house": view["legal_moves"][0], "ply": view["ply"]}),
                ..Call::default()
            },
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        moved[seat] = true;
        view = a.json;
    }
}

/// The view of game `id` once its ratings are in (the rating follows the last move).
async fn rated_view(r: &Router, id: &str) -> Value {
    for _ in 0..200 {
        let view = call(r, "GET", &format!("/api/games/{id}"), Call::default())
            .await
            .json;
        if view["players"][0].get("rating").is_some() {
            return view;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("game {id} was not rated");
}

fn score_of(view: &Value) -> Score {
    match view["result"]["winner"].as_u64() {
        Some(1) => Score::Win,
        Some(2) => Score::Loss,
        _ => Score::Draw,
    }
}

/// The account's rating in `pool` as the profile shows it: (rating, rd, games).
async fn shown_rating(r: &Router, name: &str, pool: &str) -> (i64, i64, u64) {
    let p = call(r, "GET", &format!("/api/users/{name}"), Call::default())
        .await
        .json;
    let x = &p["ratings"][pool];
    (
        x["rating"].as_i64().unwrap(),
        x["rd"].as_i64().unwrap(),
        x["games"].as_u64().unwrap(),
    )
}

async fn rated_games_move_ratings_by_glicko_2(db: TestDb) {
    let r = app(service(&db).await);
    let ann = sign_up(&r, "Ann").await;
    let bob = sign_up(&r, "Bob").await;
    let pool = pool_of(&mancala_core::Rules::kalah(3, 2));
    assert_eq!(pool, "kalah-3x2");
    // The ratings the sequence gives, computed here by the same Glicko-2.
    let mut expected = [Rating::INITIAL, Rating::INITIAL];
    for round in 0..3 {
        // Seats alternate, so both players win and lose as the first move falls.
        let cookies = if round % 2 == 0 {
            [&ann, &bob]
        } else {
            [&bob, &ann]
        };
        let (id, tokens) = rated_game(&r, [cookies[0].as_str(), cookies[1].as_str()]).await;
        let end = play_out(&r, &id, &tokens).await;
        assert_eq!(end["rated"], true);
        let view = rated_view(&r, &id).await;
        let mut score = score_of(&view);
        let before = expected;
        if round % 2 == 1 {
            // Ann is player 2 this game.
            score = match score {
                Score::Win => Score::Loss,
                Score::Loss => Score::Win,
                Score::Draw => Score::Draw,
            };
        }
        expected = rate_game(expected, score);
        let ann_seat = if round % 2 == 0 { 0 } else { 1 };
        let shown = &view["players"][ann_seat]["rating"];
        assert_eq!(shown["before"], before[0].rating.round() as i64, "{view}");
        assert_eq!(shown["after"], expected[0].rating.round() as i64, "{view}");
        assert_eq!(
            shown["change"],
            shown["after"].as_i64().unwrap() - shown["before"].as_i64().unwrap()
        );
        assert_eq!(shown["provisional"], true);
    }
    let (rating, rd, games) = shown_rating(&r, "ann", &pool).await;
    assert_eq!(
        (rating, rd, games),
        (
            expected[0].rating.round() as i64,
            expected[0].rd.round() as i64,
            3
        )
    );
    let (rating, _, games) = shown_rating(&r, "bob", &pool).await;
    assert_eq!((rating, games), (expected[1].rating.round() as i64, 3));

    // Resigning, and an agreed draw, count; an aborted game does not.
    let (id, tokens) = rated_game(&r, [&ann, &bob]).await;
    open_both(&r, &id, &tokens).await;
    let a = act(&r, &id, "resign", bearing(&tokens[1])).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        a.json["players"][0]["rating"]["change"]
            .as_i64()
            .map(i64::signum),
        Some(1),
        "{}",
        a.json
    );
    expected = rate_game(expected, Score::Win);
    let (id2, tokens2) = rated_game(&r, [&ann, &bob]).await;
    open_both(&r, &id2, &tokens2).await;
    let offer = act(
        &r,
        &id2,
        "offer",
        Call {
            body: json!({"kind": "draw"}),
            ..bearing(&tokens2[0])
        },
    )
    .await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.json);
    let accept = act(&r, &id2, "accept", bearing(&tokens2[1])).await;
    assert_eq!(accept.status, StatusCode::OK, "{}", accept.json);
    expected = rate_game(expected, Score::Draw);
    let (id3, tokens3) = rated_game(&r, [&ann, &bob]).await;
    let abort = act(&r, &id3, "abort", bearing(&tokens3[0])).await;
    assert_eq!(abort.status, StatusCode::OK, "{}", abort.json);
    assert!(
        abort.json["players"][0].get("rating").is_none(),
        "{}",
        abort.json
    );
    let (rating, _, games) = shown_rating(&r, "ann", &pool).await;
    assert_eq!(
        (rating, games),
        (expected[0].rating.round() as i64, 5),
        "resign and draw counted, abort not"
    );
    let _ = id;
}

async fn only_accounts_play_rated_games(db: TestDb) {
    let r = app(service(&db).await);
    let ann = sign_up(&r, "Ann").await;
    let rated = json!({"variant": "kalah", "rated": true});
    let anonymous = create(&r, body(rated.clone())).await;
    assert_eq!(
        anonymous.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        anonymous.json
    );
    let computer = create(
        &r,
        Call {
            cookie: Some(&ann),
            body: json!({"variant": "kalah", "rated": true, "opponent": "random"}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(
        computer.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        computer.json
    );
    let g = create(
        &r,
        Call {
            cookie: Some(&ann),
            body: rated.clone(),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(g.status, StatusCode::CREATED, "{}", g.json);
    let id = g.json["id"].as_str().unwrap();
    let join = |c: Call<'static>| {
        let r = r.clone();
        let path = format!("/api/games/{id}/join");
        async move { call(&r, "POST", &path, c).await }
    };
    let invite = json!({"invite": g.json["invite"]});
    let anonymous = join(body(invite.clone())).await;
    assert_eq!(
        anonymous.status,
        StatusCode::FORBIDDEN,
        "{}",
        anonymous.json
    );
    let ann_again = act(
        &r,
        id,
        "join",
        Call {
            body: invite.clone(),
            ..with_cookie(&ann)
        },
    )
    .await;
    assert_eq!(ann_again.status, StatusCode::CONFLICT, "{}", ann_again.json);
    let view = call(&r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json;
    assert_eq!(
        (view["rated"].clone(), view["started"].clone()),
        (json!(true), json!(false))
    );
}

async fn established_players_make_the_leaderboard(db: TestDb) {
    let r = app(service(&db).await);
    let ann = sign_up(&r, "Ann").await;
    let bob = sign_up(&r, "Bob").await;
    let board = |pool: &str| {
        let r = r.clone();
        let uri = format!("/api/leaderboard?variant={pool}");
        async move { call(&r, "GET", &uri, Call::default()).await }
    };
    let empty = board("kalah-3x2").await;
    assert_eq!(
        (empty.status, empty.json["players"].clone()),
        (StatusCode::OK, json!([]))
    );
    // Ann wins two games in three (the other resigns): both deviations fall with each
    // game (one-sided results would tell the ratings less and less).
    let mut games = 0;
    loop {
        let (id, tokens) = rated_game(&r, [&ann, &bob]).await;
        open_both(&r, &id, &tokens).await;
        let loser = if games % 3 == 2 { 0 } else { 1 };
        let a = act(&r, &id, "resign", bearing(&tokens[loser])).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        games += 1;
        let listed = board("kalah-3x2").await.json["players"]
            .as_array()
            .unwrap()
            .len();
        let (_, rd, _) = shown_rating(&r, "ann", "kalah-3x2").await;
        if rd <= 110 {
            assert_eq!(listed, 2, "both established after {games} games");
            break;
        }
        assert_eq!(listed, 0, "provisional players are not listed (rd {rd})");
        assert!(games < 60, "the deviation never fell to 110 (rd {rd})");
    }
    let top = board("kalah-3x2").await.json;
    assert_eq!(top["players"][0]["name"], "Ann");
    assert_eq!(top["players"][1]["name"], "Bob");
    assert!(top["players"][0]["rating"].as_i64() > top["players"][1]["rating"].as_i64());
    assert_eq!(top["players"][0]["provisional"], false);
    assert_eq!(
        board("kalah").await.json["players"],
        json!([]),
        "another pool"
    );
    assert_eq!(
        board("chess").await.status,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        call(&r, "GET", "/api/leaderboard", Call::default())
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
}

async fn bots_play_with_personal_api_tokens(db: TestDb) {
    let r = app(service(&db).await);
    let owner = sign_up(&r, "robo").await;
    let t = call(&r, "POST", "/api/me/tokens", with_cookie(&owner)).await;
    assert_eq!(t.status, StatusCode::CREATED, "{}", t.json);
    let token = t.json["token"].as_str().unwrap().to_owned();
    // The token acts for the account...
    let me = call(
        &r,
        "GET",
        "/api/me",
        Call {
            bearer: Some(&token),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(
        (me.json["name"].clone(), me.json["bot"].clone()),
        (json!("robo"), json!(true))
    );
    // ...but cannot make more tokens.
    let more = call(
        &r,
        "POST",
        "/api/me/tokens",
        Call {
            bearer: Some(&token),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(more.status, StatusCode::UNAUTHORIZED);
    // A bot takes a seat of a rated game against a person, through the API.
    let ann = sign_up(&r, "Ann").await;
    let g = create(
        &r,
        Call {
            cookie: Some(&ann),
            body: json!({"variant": "kalah", "houses": 3, "seeds": 2, "rated": true}),
            ..Call::default()
        },
    )
    .await;
    let id = g.json["id"].as_str().unwrap();
    let j = act(
        &r,
        id,
        "join",
        Call {
            body: json!({"invite": g.json["invite"]}),
            ..bearing(&token)
        },
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    let tokens = [
        g.json["token"].as_str().unwrap().to_owned(),
        j.json["token"].as_str().unwrap().to_owned(),
    ];
    let end = play_out(&r, id, &tokens).await;
    assert_eq!(end["players"][1]["account"], "robo");
    rated_view(&r, id).await;
    let profile = call(&r, "GET", "/api/users/robo", Call::default())
        .await
        .json;
    assert_eq!(profile["bot"], true);
    assert_eq!(profile["ratings"]["kalah-3x2"]["games"], 1);
    // Revoked, the token acts for nobody.
    let revoke = call(
        &r,
        "DELETE",
        "/api/session",
        Call {
            bearer: Some(&token),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(revoke.status, StatusCode::NO_CONTENT);
    let me = call(
        &r,
        "GET",
        "/api/me",
        Call {
            bearer: Some(&token),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED);
    // A token that is no account's (revoked) leaves a request anonymous, as before
    // accounts: a rated game then asks for an account.
    let stray = create(
        &r,
        Call {
            bearer: Some(&token),
            body: json!({"variant": "kalah", "rated": true}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(stray.status, StatusCode::UNAUTHORIZED, "{}", stray.json);
    let plain = create(
        &r,
        Call {
            bearer: Some(&token),
            body: json!({"variant": "kalah"}),
            ..Call::default()
        },
    )
    .await;
    assert_eq!(plain.status, StatusCode::CREATED, "{}", plain.json);
    let view = call(
        &r,
        "GET",
        &format!("/api/games/{}", plain.json["id"].as_str().unwrap()),
        Call::default(),
    )
    .await
    .json;
    assert_eq!(view["players"][0].get("account"), None);
}

/// The store keeps an argon2id hash, never the password (that no log holds either is
/// checked on the real server's log: `web_accounts`).
async fn the_database_holds_only_the_hash(db: TestDb) {
    let games = service(&db).await;
    let r = app(games.clone());
    let password = "hunter2-but-longer";
    let a = call(
        &r,
        "POST",
        "/api/accounts",
        body(json!({"username": "careful", "password": password})),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED);
    let stored = games_store_account(&games, "careful").await;
    assert!(stored.starts_with("$argon2id$"), "{stored}");
    assert!(!stored.contains(password));
    let again = call(
        &r,
        "POST",
        "/api/session",
        body(json!({"username": "careful", "password": password})),
    )
    .await;
    assert_eq!(
        again.status,
        StatusCode::OK,
        "the hash verifies the password"
    );
}

/// The password hash the store keeps for `key`.
async fn games_store_account(games: &Games, key: &str) -> String {
    games
        .store()
        .account(key)
        .await
        .unwrap()
        .unwrap()
        .password_hash
}
