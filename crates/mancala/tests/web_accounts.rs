//! Accounts in a real headless Chromium against the real binary, on SQLite and
//! PostgreSQL (issue 44): signing up in the dialog moves this browser's games to the
//! account, a rated game reaches a second browser's account, its end shows both
//! rating changes live, the profile and the leaderboard pages, the cookie out of the
//! scripts' reach, and logging out.

mod browser;
mod server;

use browser::{Look, chromedriver, click, form_ready, js, session, start_driver, wait_for};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use server::{Server, TestDb};

on_both_backends_async!(
    an_account_s_games_ratings_profile_and_leaderboard,
    neither_a_password_nor_its_hash_is_logged,
);

/// The real server, logging everything (`RUST_LOG=trace`), takes a sign-up, a log-in
/// and a wrong password: neither password nor any argon2 hash is in its log.
async fn neither_a_password_nor_its_hash_is_logged(db: TestDb) {
    let server = Server::start_logging(&db, "trace");
    let password = "hunter2-but-longer";
    for (path, secret, status) in [
        ("/api/accounts", password, 201),
        ("/api/session", password, 200),
        ("/api/session", "a-wrong-password", 401),
    ] {
        let (got, body) = server.call(
            "POST",
            path,
            None,
            Some(json!({"username": "careful", "password": secret})),
        );
        assert_eq!(got, status, "{path}: {body}");
    }
    // The log lines of the requests come after their answers: wait for the last.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while server
        .log()
        .iter()
        .filter(|l| l.contains("/api/session"))
        .count()
        < 2
    {
        assert!(std::time::Instant::now() < deadline, "{:?}", server.log());
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let log = server.log().join("\n");
    for secret in [password, "a-wrong-password", "$argon2"] {
        let line = log.lines().find(|l| l.contains(secret));
        assert!(line.is_none(), "{secret} in the log: {line:?}");
    }
}

/// Signs `name` up in the page's dialog (password "sowing seeds 4 ever": a password may
/// not contain the username), and waits for the page to come back logged in.
async fn sign_up_in_dialog(c: &Client, name: &str) {
    click(c, "login-open").await;
    wait_for(
        c,
        "document.getElementById('account-dialog').open",
        "the dialog",
    )
    .await;
    c.find(Locator::Id("account-username"))
        .await
        .unwrap()
        .send_keys(name)
        .await
        .unwrap();
    c.find(Locator::Id("account-password"))
        .await
        .unwrap()
        .send_keys("sowing seeds 4 ever")
        .await
        .unwrap();
    c.find(Locator::Css("#account-form button[value=signup]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        &format!("!document.getElementById('me-link').hidden && document.getElementById('me-link').textContent === '{name}'"),
        "the header to name the account",
    )
    .await;
}

async fn an_account_s_games_ratings_profile_and_leaderboard(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&db);
    let driver = start_driver(path);
    let ann = session(&driver, &dir.path().join("ann"), Look::new((1366, 900))).await;
    let bob = session(&driver, &dir.path().join("bob"), Look::new((360, 740))).await;

    // Ann plays the computer before she has an account; the seat is this browser's.
    let (status, early) = server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "oware", "opponent": "random"})),
    );
    assert_eq!(status, 201, "{early}");
    ann.goto(&server.base).await.unwrap();
    let entry = json!({"seat": 1, "token": early["token"], "at": 1}).to_string();
    ann.execute(
        "localStorage.setItem(arguments[0], arguments[1]);",
        vec![
            json!(format!("mancala:seat:{}", early["id"].as_str().unwrap())),
            json!(entry),
        ],
    )
    .await
    .unwrap();
    ann.goto(&server.base).await.unwrap();
    assert_eq!(
        js(&ann, "return document.getElementById('login-open').hidden;").await,
        false
    );
    assert_eq!(
        js(&ann, "return document.getElementById('rated-row').hidden;").await,
        true,
        "no account, no rated games"
    );

    sign_up_in_dialog(&ann, "Ann").await;
    assert_eq!(
        js(&ann, "return document.cookie.includes('mancala_session');").await,
        false,
        "the session cookie is out of the scripts' reach (HttpOnly)"
    );
    // The game played before signing up is the account's now, listed from the server.
    wait_for(
        &ann,
        &format!("[...document.querySelectorAll('#my-games-list a')].some(a => a.href.endsWith('/g/{}'))", early["id"].as_str().unwrap()),
        "the earlier game among the account's games",
    )
    .await;

    // A rated game against a friend, from the home form.
    form_ready(&ann).await;
    js(&ann, "document.getElementById('settings').open = true;").await;
    wait_for(
        &ann,
        "!document.getElementById('rated-row').hidden",
        "the Rated box",
    )
    .await;
    click(&ann, "rated").await;
    click(&ann, "start").await;
    let invite = wait_for(
        &ann,
        "document.getElementById('share-link').value",
        "the invite link",
    )
    .await;
    let invite = invite.as_str().unwrap().to_owned();
    let id = wait_for(&ann, "location.pathname.split('/')[2]", "the game's id").await;
    let id = id.as_str().unwrap().to_owned();
    wait_for(
        &ann,
        "document.getElementById('players').textContent.includes('rated')",
        "the game says it is rated",
    )
    .await;

    // Bob, on a phone, signs up, then opens the invite and joins.
    bob.goto(&server.base).await.unwrap();
    sign_up_in_dialog(&bob, "Bob").await;
    // Logged in on a 360 px phone, the header shows the leaderboard, the name and "Log
    // out" whole, inside it and the screen (on its two lines), and the page does not
    // scroll sideways.
    let fits = js(
        &bob,
        "const top = document.querySelector('header.top').getBoundingClientRect(); \
         const whole = (e) => { const r = e.getBoundingClientRect(); \
           return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth && r.top >= top.top && r.bottom <= top.bottom; }; \
         return {width: window.innerWidth, sideways: document.documentElement.scrollWidth - window.innerWidth, \
                 whole: [...document.querySelectorAll('.account-nav a, .account-nav button:not([hidden])')].every(whole), \
                 lines: top.height < 6 * 16};",
    )
    .await;
    assert_eq!(
        fits,
        json!({"width": 360, "sideways": 0, "whole": true, "lines": true}),
        "{fits}"
    );
    bob.goto(&invite).await.unwrap();
    wait_for(
        &bob,
        "!document.getElementById('join-box').hidden",
        "the join box",
    )
    .await;
    click(&bob, "join").await;
    wait_for(&bob, "document.body.innerText.includes('Ann')", "the game").await;
    let players = wait_for(&ann, "document.getElementById('players').querySelectorAll('a').length === 2 && document.getElementById('players').innerText", "both names linked").await;
    assert!(
        players.as_str().unwrap().starts_with("Ann vs Bob"),
        "{players}"
    );

    // A move each (a rated game cannot be resigned before), each from its own browser.
    for _ in 0..8 {
        let moved = js(
            &ann,
            &format!("return api('GET', '/api/games/{id}').then(v => v.history.map(h => h.seat));"),
        )
        .await;
        let seats: Vec<u64> = moved
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        if seats.contains(&1) && seats.contains(&2) {
            break;
        }
        for c in [&ann, &bob] {
            js(
                c,
                &format!(
                    "const s = loadSeat('{id}'); return api('GET', '/api/games/{id}').then(v => \
                     v.to_move === s.seat ? api('POST', '/api/games/{id}/moves', \
                     {{house: v.legal_moves[0], ply: v.ply}}, s.token) : null).then(() => true);"
                ),
            )
            .await;
        }
    }
    // Bob resigns; both browsers show the rating changes as soon as the game is rated.
    let resigned = js(
        &bob,
        &format!("return api('POST', '/api/games/{id}/resign', undefined, loadSeat('{id}').token).then(v => v.over);"),
    )
    .await;
    assert_eq!(resigned, true);
    for (c, who) in [(&ann, "Ann"), (&bob, "Bob")] {
        let line = wait_for(
            c,
            "!document.getElementById('end-rating').hidden && document.getElementById('end-rating').textContent.includes('(') && document.getElementById('end-rating').textContent",
            "the rating changes",
        )
        .await;
        let line = line.as_str().unwrap().to_owned();
        assert!(
            line.contains("Ann") && line.contains("Bob"),
            "{who}: {line}"
        );
        assert!(line.contains("(+"), "the winner gains: {line}");
        assert!(line.contains("(−"), "the loser loses: {line}");
    }

    // Bob's profile, from Ann's browser: his rating and the game.
    ann.goto(&format!("{}/@/bob", server.base)).await.unwrap();
    wait_for(
        &ann,
        "document.getElementById('profile-name').textContent === 'Bob'",
        "Bob's profile",
    )
    .await;
    let row = wait_for(
        &ann,
        "document.querySelector('#profile-ratings-body tr')?.innerText",
        "a rating row",
    )
    .await;
    assert!(
        row.as_str().unwrap().contains('?'),
        "one game: provisional: {row}"
    );
    let games = js(
        &ann,
        "return document.querySelectorAll('#profile-games li').length;",
    )
    .await;
    assert_eq!(games, 1);
    let others = js(
        &ann,
        "return document.getElementById('settings-card').hidden;",
    )
    .await;
    assert_eq!(others, true, "another's profile shows no account settings");

    // Bob, on his own profile: where he is logged in, and a password change.
    bob.goto(&format!("{}/@/bob", server.base)).await.unwrap();
    let sessions = wait_for(
        &bob,
        "!document.getElementById('settings-card').hidden && document.querySelector('#sessions-list li')?.textContent",
        "Bob's sessions",
    )
    .await;
    assert!(
        sessions.as_str().unwrap().contains("this browser"),
        "{sessions}"
    );
    for (field, text) in [
        ("password-current", "sowing seeds 4 ever"),
        ("password-new", "a new one for him"),
    ] {
        bob.find(Locator::Id(field))
            .await
            .unwrap()
            .send_keys(text)
            .await
            .unwrap();
    }
    bob.find(Locator::Css("#password-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let status = wait_for(
        &bob,
        "document.getElementById('password-status').textContent",
        "the password change's answer",
    )
    .await;
    assert!(
        status.as_str().unwrap().starts_with("Password changed."),
        "{status}"
    );
    let me = js(&bob, "return fetch('/api/me').then(r => r.status);").await;
    assert_eq!(me, 200, "this browser stays logged in");

    // The leaderboard lists established players only: nobody yet.
    ann.goto(&format!("{}/leaderboard?variant=kalah", server.base))
        .await
        .unwrap();
    wait_for(
        &ann,
        "!document.getElementById('leaders-empty').hidden",
        "the empty leaderboard",
    )
    .await;
    // An unknown profile is the not-found page.
    let (status, _) = server.try_call("GET", "/@/nobody", None, None).unwrap();
    assert_eq!(status, 404);

    // Logging out: the header offers to log in again, and the server forgot the session.
    ann.goto(&server.base).await.unwrap();
    wait_for(
        &ann,
        "!document.getElementById('logout').hidden",
        "the log-out button",
    )
    .await;
    click(&ann, "logout").await;
    wait_for(
        &ann,
        "!document.getElementById('login-open').hidden",
        "logged out",
    )
    .await;
    let me = js(&ann, "return fetch('/api/me').then(r => r.status);").await;
    assert_eq!(me, 401);
    ann.close().await.unwrap();
    bob.close().await.unwrap();
}
