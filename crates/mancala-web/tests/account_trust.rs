//! Accounts people can trust (issue 56), through the router, on SQLite and on
//! PostgreSQL: ratings that cannot be farmed (no resigning before both have moved, a
//! daily cap per pair of accounts), a log-in throttle that keeps the owner in, account
//! names reserved, the cross-site check by scheme, host and port, and the owner's
//! hold on sessions, tokens and the password.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use common::TestDb;
use common::calls::{Answer, Call, bearing, body, call, with_cookie};
use mancala_web::{Games, Limits, ManualClock, app};
use serde_json::{Value, json};

on_both_backends!(
    a_rated_game_is_aborted_not_resigned_before_both_have_moved,
    rated_games_between_two_accounts_stop_counting_after_the_daily_cap,
    guesses_from_one_address_do_not_lock_the_owner_out,
    guesses_from_many_addresses_meet_the_per_name_limit,
    account_names_are_their_owners_alone,
    the_cross_site_check_compares_scheme_host_and_port,
    a_password_change_ends_the_other_sessions,
    sessions_are_listed_and_ended_everywhere,
    tokens_are_listed_without_their_secret_and_revoked,
    the_operator_resets_a_password,
);

/// The password of every account `sign_up` makes.
const PASSWORD: &str = "sowing seeds 4 ever";

/// A fixed instant for the service's clock, so that "a day" is the same day in every run.
const T0: i64 = 1_796_644_800_000;

/// A site: the router over the service (its clock moved by hand), with room for many
/// requests from one test client and the client's address taken from
/// `X-Forwarded-For` (as behind a proxy), so that tests can speak from several.
struct Site {
    router: Router,
    games: Games,
    clock: Arc<ManualClock>,
}

async fn site(db: &TestDb, rated_per_pair_per_day: u32) -> Site {
    let mut limits = Limits::default();
    let roomy: mancala_web::Rate = "10000/1s".parse().unwrap();
    limits.rates.create = roomy;
    limits.rates.join = roomy;
    limits.rates.moves = roomy;
    limits.rates.read = roomy;
    limits.trust_forwarded_for = true;
    limits.accounts.rated_per_pair_per_day = rated_per_pair_per_day;
    let clock = Arc::new(ManualClock::at(T0));
    let games = Games::with_limits(db.store().await, limits).with_clock(clock.clone());
    std::mem::forget(games.start_background());
    Site {
        router: app(games.clone()),
        games,
        clock,
    }
}

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

/// `POST /api/session` for `name` with `password`, from the client at `ip`.
async fn log_in(r: &Router, name: &str, password: &str, ip: &str) -> Answer {
    let c = Call {
        headers: vec![("x-forwarded-for", ip)],
        body: json!({"username": name, "password": password}),
        ..Call::default()
    };
    call(r, "POST", "/api/session", c).await
}

async fn view(r: &Router, id: &str) -> Value {
    call(r, "GET", &format!("/api/games/{id}"), Call::default())
        .await
        .json
}

async fn act(r: &Router, id: &str, action: &str, token: &str) -> Answer {
    call(
        r,
        "POST",
        &format!("/api/games/{id}/{action}"),
        bearing(token),
    )
    .await
}

/// A rated Kalah(3,2) game between the holders of `cookies`: its id and seat tokens.
async fn rated_game(r: &Router, cookies: [&str; 2]) -> (String, [String; 2]) {
    let settings = json!({"variant": "kalah", "houses": 3, "seeds": 2, "rated": true});
    let g = call(
        r,
        "POST",
        "/api/games",
        Call {
            body: settings,
            ..with_cookie(cookies[0])
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
            body: json!({"invite": g.json["invite"]}),
            ..with_cookie(cookies[1])
        },
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.json);
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    (id, [token(&g.json), token(&j.json)])
}

/// Plays one move: the seat to move sows its first legal house.
async fn play_one(r: &Router, id: &str, tokens: &[String; 2]) -> usize {
    let v = view(r, id).await;
    let seat = v["to_move"].as_u64().unwrap() as usize - 1;
    let c = Call {
        body: json!({"house": v["legal_moves"][0], "ply": v["ply"]}),
        ..bearing(&tokens[seat])
    };
    let a = call(r, "POST", &format!("/api/games/{id}/moves"), c).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    seat
}

/// Plays until each seat has moved.
async fn open_both(r: &Router, id: &str, tokens: &[String; 2]) {
    let mut moved = [false, false];
    while moved != [true, true] {
        moved[play_one(r, id, tokens).await] = true;
    }
}

/// The view of game `id` once its rating is in.
async fn rated_view(r: &Router, id: &str) -> Value {
    for _ in 0..200 {
        let v = view(r, id).await;
        if v["players"][0].get("rating").is_some() {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {id} was not rated");
}

/// Rated games played in `pool` by `name`, as the profile shows.
async fn rated_games(r: &Router, name: &str) -> u64 {
    let p = call(r, "GET", &format!("/api/users/{name}"), Call::default()).await;
    p.json["ratings"]["kalah-3x2"]["games"]
        .as_u64()
        .unwrap_or(0)
}

async fn a_rated_game_is_aborted_not_resigned_before_both_have_moved(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let (ann, bob) = (sign_up(r, "Ann").await, sign_up(r, "Bob").await);
    let (id, tokens) = rated_game(r, [&ann, &bob]).await;
    // Nobody has moved: neither may resign.
    for token in &tokens {
        let a = act(r, &id, "resign", token).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
        assert!(
            a.json["error"].as_str().unwrap().contains("abort"),
            "{}",
            a.json
        );
    }
    // One side has moved: still not.
    let mover = play_one(r, &id, &tokens).await;
    for token in &tokens {
        let a = act(r, &id, "resign", token).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.json);
    }
    // Aborted instead: over, and never rated.
    let a = act(r, &id, "abort", &tokens[1 - mover]).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert!(a.json["players"][0].get("rating").is_none(), "{}", a.json);
    assert_eq!(rated_games(r, "ann").await, 0);
    // Once both have moved a resignation counts.
    let (id, tokens) = rated_game(r, [&ann, &bob]).await;
    open_both(r, &id, &tokens).await;
    let a = act(r, &id, "resign", &tokens[1]).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
    assert_eq!(
        rated_view(r, &id).await["players"][0]["rating"]["counted"],
        true
    );
    assert_eq!(rated_games(r, "ann").await, 1);
}

async fn rated_games_between_two_accounts_stop_counting_after_the_daily_cap(db: TestDb) {
    let s = site(&db, 2).await;
    let r = &s.router;
    let [ann, bob, cy] = [
        sign_up(r, "Ann").await,
        sign_up(r, "Bob").await,
        sign_up(r, "Cyd").await,
    ];
    let play_rated = |cookies: [String; 2]| async move {
        let (id, tokens) = rated_game(r, [&cookies[0], &cookies[1]]).await;
        open_both(r, &id, &tokens).await;
        let a = act(r, &id, "resign", &tokens[1]).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        rated_view(r, &id).await
    };
    // Two games count; the third between the same two (either seat) does not.
    for _ in 0..2 {
        let v = play_rated([ann.clone(), bob.clone()]).await;
        assert_eq!(v["players"][0]["rating"]["counted"], true, "{v}");
    }
    let third = play_rated([bob.clone(), ann.clone()]).await;
    let seat = &third["players"][0]["rating"];
    assert_eq!(seat["counted"], false, "{third}");
    assert_eq!(seat["change"], 0, "{third}");
    assert_eq!(
        (rated_games(r, "ann").await, rated_games(r, "bob").await),
        (2, 2)
    );
    // Another pair still counts.
    let v = play_rated([ann.clone(), cy.clone()]).await;
    assert_eq!(v["players"][0]["rating"]["counted"], true, "{v}");
    assert_eq!(rated_games(r, "ann").await, 3);
    // A day after the first two, the pair counts again.
    s.clock.advance(Duration::from_secs(24 * 3600 + 1));
    let v = play_rated([ann.clone(), bob.clone()]).await;
    assert_eq!(v["players"][0]["rating"]["counted"], true, "{v}");
    assert_eq!(rated_games(r, "bob").await, 3);
}

async fn guesses_from_one_address_do_not_lock_the_owner_out(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    sign_up(r, "target").await;
    for _ in 0..5 {
        let a = log_in(r, "target", "a wrong guess", "203.0.113.7").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.json);
    }
    // The guesser's address is held back, even with the right password.
    let a = log_in(r, "target", PASSWORD, "203.0.113.7").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.json);
    // The owner, from an address that has not failed, logs in.
    let a = log_in(r, "TARGET", PASSWORD, "198.51.100.20").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
}

async fn guesses_from_many_addresses_meet_the_per_name_limit(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    sign_up(r, "target").await;
    // The owner has logged in from home before.
    let home = "198.51.100.20";
    assert_eq!(
        log_in(r, "target", PASSWORD, home).await.status,
        StatusCode::OK
    );
    // Guesses from many addresses, five each, spend the name's fifty (the owner's
    // first log-in took one; one more may come back while the test runs)...
    let mut checked = 0;
    'guessing: for i in 0..20 {
        let ip = format!("203.0.113.{i}");
        for _ in 0..5 {
            let a = log_in(r, "target", "a wrong guess", &ip).await;
            if a.status == StatusCode::TOO_MANY_REQUESTS {
                break 'guessing;
            }
            assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.json);
            checked += 1;
        }
    }
    assert!((49..=51).contains(&checked), "{checked} guesses checked");
    let a = log_in(r, "target", PASSWORD, "203.0.113.99").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.json);
    // ...but not the owner's from an address it has logged in from.
    assert_eq!(
        log_in(r, "target", PASSWORD, home).await.status,
        StatusCode::OK
    );
}

async fn account_names_are_their_owners_alone(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let alice = sign_up(r, "Alice").await;
    for name in ["Alice", "alice", "ALICE", " Alice "] {
        let a = call(
            r,
            "POST",
            "/api/games",
            body(json!({"variant": "kalah", "name": name})),
        )
        .await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name}: {}",
            a.json
        );
        assert!(
            a.json["error"].as_str().unwrap().contains("account"),
            "{}",
            a.json
        );
    }
    // Joining under the name is refused too; a name that is no account's is fine.
    let g = call(r, "POST", "/api/games", body(json!({"variant": "kalah"}))).await;
    let id = g.json["id"].as_str().unwrap();
    let join = |name: &'static str| {
        let invite = g.json["invite"].clone();
        async move {
            call(
                r,
                "POST",
                &format!("/api/games/{id}/join"),
                body(json!({"invite": invite, "name": name})),
            )
            .await
        }
    };
    assert_eq!(join("aLiCe").await.status, StatusCode::UNPROCESSABLE_ENTITY);
    let ok = join("Alice Cooper").await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.json);
    // Alice herself plays as Alice, marked as the account.
    let mine = call(
        r,
        "POST",
        "/api/games",
        Call {
            body: json!({"variant": "kalah", "public": true, "name": "someone else"}),
            ..with_cookie(&alice)
        },
    )
    .await;
    assert_eq!(mine.status, StatusCode::CREATED, "{}", mine.json);
    let lobby = call(r, "GET", "/api/lobby", Call::default()).await.json;
    let listed = lobby["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == mine.json["id"])
        .unwrap_or_else(|| panic!("{lobby}"));
    assert_eq!(listed["players"][0]["name"], "Alice");
    assert_eq!(listed["players"][0]["account"], "alice");
}

async fn the_cross_site_check_compares_scheme_host_and_port(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let cookie = sign_up(r, "victim").await;
    let new_game = json!({"variant": "kalah", "houses": 3, "seeds": 2});
    let post = |headers: Vec<(&'static str, &'static str)>| {
        let (cookie, new_game) = (cookie.clone(), new_game.clone());
        async move {
            let c = Call {
                cookie: Some(&cookie),
                headers,
                body: new_game,
                ..Call::default()
            };
            call(r, "POST", "/api/games", c).await.status
        }
    };
    let refused = StatusCode::FORBIDDEN;
    // The server is served over http on the default port.
    assert_eq!(
        post(vec![("origin", "https://mancala.test")]).await,
        refused
    );
    assert_eq!(
        post(vec![("origin", "http://mancala.test:8080")]).await,
        refused
    );
    assert_eq!(
        post(vec![("origin", "http://mancala.test")]).await,
        StatusCode::CREATED
    );
    assert_eq!(
        post(vec![("origin", "http://mancala.test:80")]).await,
        StatusCode::CREATED
    );
    // Without an Origin, a hostile Referer is refused; our own passes.
    assert_eq!(
        post(vec![("referer", "https://evil.example/x")]).await,
        refused
    );
    let ours = post(vec![("referer", "http://mancala.test/g/abc")]).await;
    assert_eq!(ours, StatusCode::CREATED);
    // The browser's Sec-Fetch-Site is believed.
    let cross = vec![
        ("sec-fetch-site", "cross-site"),
        ("origin", "http://mancala.test"),
    ];
    assert_eq!(post(cross).await, refused);
    assert_eq!(post(vec![("sec-fetch-site", "same-site")]).await, refused);
    let same = post(vec![("sec-fetch-site", "same-origin")]).await;
    assert_eq!(same, StatusCode::CREATED);
    // Over TLS (a trusted proxy says so), https is ours and http is not.
    let tls = vec![
        ("x-forwarded-proto", "https"),
        ("origin", "https://mancala.test"),
    ];
    assert_eq!(post(tls).await, StatusCode::CREATED);
    let downgraded = vec![
        ("x-forwarded-proto", "https"),
        ("origin", "http://mancala.test"),
    ];
    assert_eq!(post(downgraded).await, refused);
}

async fn a_password_change_ends_the_other_sessions(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let here = sign_up(r, "Ann").await;
    let there = log_in(r, "ann", PASSWORD, "192.0.2.1").await.session();
    let change = |current: &'static str, new: &'static str| {
        let here = here.clone();
        async move {
            let c = Call {
                body: json!({"current": current, "new": new}),
                ..with_cookie(&here)
            };
            call(r, "POST", "/api/me/password", c).await
        }
    };
    let wrong = change("not it at all", "a brand new one").await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN, "{}", wrong.json);
    let weak = change(PASSWORD, "password1").await;
    assert_eq!(
        weak.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        weak.json
    );
    assert!(weak.json["error"].as_str().unwrap().contains("common"));
    let done = change(PASSWORD, "a brand new one").await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.json);
    assert_eq!(done.json["ended_sessions"], 1, "{}", done.json);
    assert!(
        done.json["message"]
            .as_str()
            .unwrap()
            .contains("1 other session was logged out")
    );
    let me = |cookie: String| async move {
        call(r, "GET", "/api/me", with_cookie(&cookie)).await.status
    };
    assert_eq!(
        me(here.clone()).await,
        StatusCode::OK,
        "the asking session stays"
    );
    assert_eq!(
        me(there).await,
        StatusCode::UNAUTHORIZED,
        "the other one ended"
    );
    let old = log_in(r, "ann", PASSWORD, "192.0.2.2").await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let new = log_in(r, "ann", "a brand new one", "192.0.2.2").await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.json);
    // A bot's token cannot change the password.
    let token = call(r, "POST", "/api/me/tokens", with_cookie(&here)).await;
    let token = token.json["token"].as_str().unwrap().to_owned();
    let by_token = Call {
        body: json!({"current": "a brand new one", "new": "yet another one"}),
        ..bearing(&token)
    };
    let refused = call(r, "POST", "/api/me/password", by_token).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.json);
}

async fn sessions_are_listed_and_ended_everywhere(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let first = sign_up(r, "Ann").await;
    s.clock.advance(Duration::from_secs(120));
    let second = log_in(r, "ann", PASSWORD, "192.0.2.1").await.session();
    let list = call(r, "GET", "/api/me/sessions", with_cookie(&second)).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.json);
    let sessions = list.json["sessions"].as_array().unwrap().clone();
    assert_eq!(sessions.len(), 2, "{}", list.json);
    // The newest first; the asking one marked; times in seconds; no secrets.
    assert_eq!(sessions[0]["current"], true);
    assert_eq!(sessions[1]["current"], false);
    assert_eq!(sessions[0]["created_at"], T0 / 1000 + 120);
    assert_eq!(sessions[1]["created_at"], T0 / 1000);
    assert!(sessions[0]["expires_at"].as_i64().unwrap() > T0 / 1000 + 29 * 86_400);
    assert_eq!(sessions[0]["id"].as_str().unwrap().len(), 16);
    let text = list.json.to_string();
    assert!(!text.contains(&first) && !text.contains(&second), "{text}");
    // Used again later: its last use moves (to the minute).
    s.clock.advance(Duration::from_secs(300));
    assert_eq!(
        call(r, "GET", "/api/me", with_cookie(&first)).await.status,
        StatusCode::OK
    );
    let list = call(r, "GET", "/api/me/sessions", with_cookie(&second)).await;
    assert_eq!(list.json["sessions"][1]["last_used_at"], T0 / 1000 + 420);
    // Logging out everywhere ends both, this one too.
    let out = call(r, "DELETE", "/api/me/sessions", with_cookie(&second)).await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.json);
    assert_eq!(out.json["ended_sessions"], 2);
    for cookie in [&first, &second] {
        let me = call(r, "GET", "/api/me", with_cookie(cookie)).await;
        assert_eq!(me.status, StatusCode::UNAUTHORIZED);
    }
    let anonymous = call(r, "GET", "/api/me/sessions", Call::default()).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

async fn tokens_are_listed_without_their_secret_and_revoked(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let cookie = sign_up(r, "Robo").await;
    let empty = call(r, "GET", "/api/me/tokens", with_cookie(&cookie)).await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.json);
    assert_eq!(empty.json["tokens"], json!([]));
    let mut secrets = Vec::new();
    for _ in 0..2 {
        let t = call(r, "POST", "/api/me/tokens", with_cookie(&cookie)).await;
        assert_eq!(t.status, StatusCode::CREATED, "{}", t.json);
        secrets.push(t.json["token"].as_str().unwrap().to_owned());
        s.clock.advance(Duration::from_secs(60));
    }
    let list = call(r, "GET", "/api/me/tokens", with_cookie(&cookie)).await;
    let tokens = list.json["tokens"].as_array().unwrap().clone();
    assert_eq!(tokens.len(), 2, "{}", list.json);
    let text = list.json.to_string();
    assert!(secrets.iter().all(|s| !text.contains(s.as_str())), "{text}");
    assert_eq!(tokens[0]["expires_at"], Value::Null);
    assert_eq!(tokens[1]["created_at"], T0 / 1000);
    // A token cannot list or revoke tokens.
    let by_token = call(r, "GET", "/api/me/tokens", bearing(&secrets[0])).await;
    assert_eq!(by_token.status, StatusCode::UNAUTHORIZED);
    // Revoking the older one: it no longer acts; the newer one does.
    let id = tokens[1]["id"].as_str().unwrap();
    let gone = call(
        r,
        "DELETE",
        &format!("/api/me/tokens/{id}"),
        with_cookie(&cookie),
    )
    .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    let me = |t: String| async move { call(r, "GET", "/api/me", bearing(&t)).await.status };
    assert_eq!(me(secrets[0].clone()).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me(secrets[1].clone()).await, StatusCode::OK);
    let again = call(
        r,
        "DELETE",
        &format!("/api/me/tokens/{id}"),
        with_cookie(&cookie),
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.json);
    // Another account cannot revoke it.
    let other = sign_up(r, "Other").await;
    let newer = tokens[0]["id"].as_str().unwrap();
    let theft = call(
        r,
        "DELETE",
        &format!("/api/me/tokens/{newer}"),
        with_cookie(&other),
    )
    .await;
    assert_eq!(theft.status, StatusCode::NOT_FOUND);
    assert_eq!(me(secrets[1].clone()).await, StatusCode::OK);
}

/// What `mancala account reset-password` does: a new password, every session ended,
/// bot tokens kept.
async fn the_operator_resets_a_password(db: TestDb) {
    let s = site(&db, 5).await;
    let r = &s.router;
    let cookie = sign_up(r, "Robo").await;
    let token = call(r, "POST", "/api/me/tokens", with_cookie(&cookie)).await;
    let token = token.json["token"].as_str().unwrap().to_owned();
    let missing = s.games.reset_password("nobody", "a fresh start").await;
    assert!(format!("{missing:?}").contains("no account"), "{missing:?}");
    assert!(s.games.reset_password("robo", "robo-2000").await.is_err());
    assert_eq!(
        s.games
            .reset_password("ROBO", "a fresh start")
            .await
            .unwrap(),
        1
    );
    let session = call(r, "GET", "/api/me", with_cookie(&cookie)).await;
    assert_eq!(session.status, StatusCode::UNAUTHORIZED, "sessions end");
    let bot = call(r, "GET", "/api/me", bearing(&token)).await;
    assert_eq!(bot.status, StatusCode::OK, "bot tokens stay");
    let a = log_in(r, "robo", "a fresh start", "192.0.2.9").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.json);
}
