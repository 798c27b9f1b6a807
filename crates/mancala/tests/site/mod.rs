//! What the browser tests of the game page share (web_screens.rs, web_keys.rs): the
//! site (the real server and chromedriver) and browsers opened on it, games set up
//! through the API (between friends, finished, rated between accounts, Togyz Kumalak
//! with claimed houses), and a browser holding a seat or an account.

#![allow(dead_code)]

use fantoccini::Client;
use serde_json::{Value, json};

use crate::browser::{Driver, Look, chromedriver, js, session, start_driver, wait_for};
use crate::server::{Server, TestDb};

/// The server and chromedriver, and browsers opened on them.
pub struct Site {
    _db: TestDb,
    /// The real binary serving the site.
    pub server: Server,
    driver: Driver,
    dir: tempfile::TempDir,
    opened: usize,
}

impl Site {
    /// The site on a new SQLite file, or `None` where chromium is not installed
    /// (outside CI; under CI a failure).
    pub fn start() -> Option<Site> {
        let path = chromedriver()?;
        let db = TestDb::sqlite();
        let server = Server::start(&db);
        Some(Site {
            _db: db,
            server,
            driver: start_driver(path),
            dir: tempfile::tempdir().unwrap(),
            opened: 0,
        })
    }

    /// A new browser (its own profile) on the site's home page, the sowing not animated.
    pub async fn browser(&mut self, look: Look) -> Client {
        self.opened += 1;
        let profile = self.dir.path().join(format!("p{}", self.opened));
        let c = session(&self.driver, &profile, look).await;
        c.goto(&self.server.base).await.unwrap();
        js(&c, "localStorage.setItem('mancala:speed', '0');").await;
        c
    }
}

/// Gives browser `c` seat `seat` of game `id` with `token`, as if it had made it.
pub async fn hold_seat(c: &Client, id: &str, seat: u8, token: &str) {
    c.execute(
        "localStorage.setItem('mancala:seat:' + arguments[0], JSON.stringify({seat: arguments[1], token: arguments[2], at: Date.now()}));",
        vec![json!(id), json!(seat), json!(token)],
    )
    .await
    .unwrap();
}

/// A game between Ann and Bob through the API (`body` says which): its id and tokens.
pub fn friend_game(server: &Server, body: Value) -> (String, [String; 2]) {
    let (status, g) = server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let join = json!({"invite": g["invite"], "name": "Bob"});
    let (status, j) = server.call("POST", &format!("/api/games/{id}/join"), None, Some(join));
    assert_eq!(status, 200, "{j}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    (id, [token(&g), token(&j)])
}

/// Plays `houses` in turn from the start of game `id`; the last view.
pub fn play(server: &Server, id: &str, tokens: &[String; 2], houses: &[u8]) -> Value {
    let mut view = Value::Null;
    for &house in houses {
        let (_, now) = server.call("GET", &format!("/api/games/{id}"), None, None);
        let seat = now["to_move"].as_u64().unwrap() as usize;
        let body = json!({"house": house, "ply": now["ply"]});
        let path = format!("/api/games/{id}/moves");
        let (status, v) = server.call("POST", &path, Some(&tokens[seat - 1]), Some(body));
        assert_eq!(status, 200, "{v}");
        view = v;
    }
    view
}

/// A whole Kalah 8×6 game, each side sowing its legal houses in turn: its id and tokens.
pub fn finished_game(server: &Server) -> (String, [String; 2]) {
    let body = json!({"variant": "kalah", "houses": 8, "seeds": 6, "name": "Ann"});
    let (id, tokens) = friend_game(server, body);
    let mut view = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .1;
    while view["over"] == false {
        let legal = view["legal_moves"].as_array().unwrap();
        let house = legal[view["ply"].as_u64().unwrap() as usize % legal.len()].clone();
        view = play(server, &id, &tokens, &[house.as_u64().unwrap() as u8]);
    }
    (id, tokens)
}

/// Togyz Kumalak on until each player owns a claimed house (docs/rules.md's line):
/// its id and tokens.
pub fn togyz_with_claims(server: &Server) -> (String, [String; 2]) {
    let body = json!({"variant": "togyzkumalak", "name": "Ann"});
    let (id, tokens) = friend_game(server, body);
    play(server, &id, &tokens, &[1, 5, 2, 1, 3, 7]);
    (id, tokens)
}

/// Opens `path` and waits for `ready`.
pub async fn open(c: &Client, base: &str, path: &str, ready: &str) {
    c.goto(&format!("{base}{path}")).await.unwrap();
    wait_for(c, ready, &format!("{path} drawn")).await;
}

/// Signs `name` up in browser `c` (on the site's pages) and keeps the name as the page does.
pub async fn sign_up(c: &Client, name: &str) {
    let status = c
        .execute(
            "return fetch('/api/accounts', {method: 'POST', headers: {'Content-Type': 'application/json'}, \
               body: JSON.stringify({username: arguments[0], password: 'sowing seeds 4 ever'})}) \
             .then(r => { localStorage.setItem('mancala:account', arguments[0]); return r.status; });",
            vec![json!(name)],
        )
        .await
        .unwrap();
    assert_eq!(status, json!(201), "signing {name} up");
}

/// Signs `name` up through the API; the session cookie's `name=value`.
pub fn account(server: &Server, name: &str) -> String {
    let answer = ureq::post(&format!("{}/api/accounts", server.base))
        .send_json(json!({"username": name, "password": "sowing seeds 4 ever"}))
        .unwrap_or_else(|e| panic!("signing {name} up: {e}"));
    let cookie = answer.header("set-cookie").expect("a session cookie");
    cookie.split(';').next().unwrap().to_owned()
}

/// A rated Kalah game between new accounts `names`, which the second resigns after a
/// move each: its id.
pub fn rated_game(server: &Server, names: [&str; 2]) -> String {
    let cookies = names.map(|n| account(server, n));
    let call = |cookie: &str, path: &str, body: Value| -> Value {
        ureq::post(&format!("{}{path}", server.base))
            .set("Cookie", cookie)
            .send_json(body)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .into_json()
            .unwrap()
    };
    let body = json!({"variant": "kalah", "rated": true});
    let g = call(&cookies[0], "/api/games", body);
    let id = g["id"].as_str().unwrap().to_owned();
    let j = call(
        &cookies[1],
        &format!("/api/games/{id}/join"),
        json!({"invite": g["invite"]}),
    );
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    // Houses 1 and 2 give no extra turn: a move each, then the second resigns.
    play(server, &id, &[token(&g), token(&j)], &[1, 2]);
    call(&cookies[1], &format!("/api/games/{id}/resign"), json!({}));
    id
}
