//! Ordinary paths of the home page, the lobby and the replay viewer (issue 38), each
//! in a real headless Chromium against the real binary, on SQLite and PostgreSQL.

mod browser;
mod server;

use std::time::{Duration, Instant};

use browser::{Driver, Look, chromedriver, session, start_driver};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use server::{Server, TestDb};

/// The server, the driver and one browser; the browser closes with [`Flow::close`].
struct Flow {
    _dir: tempfile::TempDir,
    _db: TestDb,
    server: Server,
    _driver: Driver,
    c: Client,
}

impl Flow {
    async fn start(path: &str, db: TestDb) -> Flow {
        let dir = tempfile::tempdir().unwrap();
        let server = Server::start(&db);
        let driver = start_driver(path);
        let c = session(&driver, &dir.path().join("profile"), Look::new((1366, 900))).await;
        Flow {
            _dir: dir,
            _db: db,
            server,
            _driver: driver,
            c,
        }
    }

    /// Runs `script` in the page; its value.
    async fn js(&self, script: &str) -> Value {
        self.c.execute(script, vec![]).await.unwrap()
    }

    /// Waits until `expr` is truthy in the page; its value.
    async fn wait_for(&self, expr: &str, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self
                .c
                .execute(&format!("return ({expr});"), vec![])
                .await
                .unwrap_or(Value::Null);
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            let url = self.c.current_url().await.map(|u| u.to_string());
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; at {url:?}: {}",
                self.js("return document.body.innerText.slice(0, 600);")
                    .await
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// `POST`s `body` to `path`; the answer, which must be a success.
    fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let (status, v) = self.server.call("POST", path, token, Some(body));
        assert!((200..300).contains(&status), "{path}: {status} {v}");
        v
    }

    /// Keeps the seat of `grant` in this browser, as the page does when it creates or
    /// joins a game.
    async fn keep_seat(&self, grant: &Value) {
        let entry = json!({"seat": grant["seat"], "token": grant["token"], "at": 1}).to_string();
        let key = format!("mancala:seat:{}", grant["id"].as_str().unwrap());
        self.c
            .execute(
                "localStorage.setItem(arguments[0], arguments[1]);",
                vec![json!(key), json!(entry)],
            )
            .await
            .unwrap();
    }

    async fn close(self) {
        self.c.close().await.unwrap();
    }
}

on_both_backends_async!(
    your_games_stay_listed_after_an_aborted_game,
    the_lobby_s_join_uses_the_name_kept_in_the_browser,
    the_replay_follows_the_address_and_numbers_moves_as_the_list_does,
    reviewing_an_imported_record_shows_its_players_names,
    a_public_game_s_page_offers_its_seat_and_a_spent_invite_says_so,
);

/// D1: an aborted game (no result) among this browser's games leaves "Your games" and
/// the other lists working.
async fn your_games_stay_listed_after_an_aborted_game(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    f.c.goto(&f.server.base).await.unwrap();
    let aborted = f.post("/api/games", None, json!({"variant": "kalah"}));
    let id = aborted["id"].as_str().unwrap();
    f.post(
        &format!("/api/games/{id}/abort"),
        aborted["token"].as_str(),
        json!({}),
    );
    let playing = f.post(
        "/api/games",
        None,
        json!({"variant": "oware", "opponent": "greedy"}),
    );
    f.keep_seat(&aborted).await;
    f.keep_seat(&playing).await;
    f.c.goto(&f.server.base).await.unwrap();
    f.wait_for(
        "!document.getElementById('my-games').hidden && document.body.dataset.lists",
        "the lists",
    )
    .await;
    assert_eq!(f.js("return document.body.dataset.lists;").await, "fresh");
    let items = f
        .js("return [...document.querySelectorAll('#my-games-list li')].map(li => li.textContent);")
        .await;
    let items: Vec<String> = serde_json::from_value(items).unwrap();
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(
        items.iter().any(|t| t.ends_with(": aborted")),
        "the aborted game says so: {items:?}"
    );
    assert!(
        items.iter().any(|t| t.ends_with(": your turn")),
        "{items:?}"
    );
    assert_eq!(
        f.js("return document.title;").await,
        "(1) Mancala: your turn",
        "the tab counts the games waiting for you"
    );
    f.close().await;
}

/// D3: Join in the lobby takes the seat under the name this browser keeps, as the
/// invite link does.
async fn the_lobby_s_join_uses_the_name_kept_in_the_browser(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    let open = f.post(
        "/api/games",
        None,
        json!({"variant": "kalah", "public": true, "name": "Ann"}),
    );
    let id = open["id"].as_str().unwrap();
    f.c.goto(&f.server.base).await.unwrap();
    f.js("localStorage.setItem('mancala:name', 'Zoë');").await;
    f.c.goto(&f.server.base).await.unwrap();
    let join = format!("#lobby-list button.join[data-game='{id}']");
    f.wait_for(
        &format!("document.querySelector(\"{join}\")"),
        "the open game in the lobby",
    )
    .await;
    f.c.find(Locator::Css(&join))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    f.wait_for(
        &format!("location.pathname === '/g/{id}'"),
        "the game's page",
    )
    .await;
    let (_, view) = f
        .server
        .call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["players"][1]["joined"], true, "{view}");
    assert_eq!(view["players"][1]["name"], "Zoë", "{view}");
    f.close().await;
}

/// D12: the viewer goes where a changed `#ply=` says, and numbers its moves as the move
/// list does (turns; a Kalah extra move stays in its turn).
async fn the_replay_follows_the_address_and_numbers_moves_as_the_list_does(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    // Kalah 6x4: 1. 3+ 1 (Ann again after her extra move) 4 (Bob), 2. 6 (Ann).
    let record = "[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n\n1. 3+ 1 4 2. 6 *\n";
    let grant = f.post(
        "/api/games/import",
        None,
        json!({"record": record, "opponent": "human"}),
    );
    let id = grant["id"].as_str().unwrap();
    f.c.goto(&format!("{}/g/{id}/replay#ply=3", f.server.base))
        .await
        .unwrap();
    f.wait_for("document.body.dataset.replay === 'ready'", "the viewer")
        .await;
    let where_ = || f.js("return document.getElementById('replay-where').textContent;");
    assert_eq!(
        where_().await,
        "Move 1 of 2 (Bob)",
        "ply 3 is Bob's, in turn 1"
    );
    let number_in_list = f
        .js("return document.querySelector('#history li[data-ply=\"4\"]').closest('.round').querySelector('.num').textContent;")
        .await;
    assert_eq!(number_in_list, "2.");
    // A changed address moves the viewer.
    f.js("location.hash = '#ply=4';").await;
    f.wait_for(
        "document.getElementById('replay-ply').value === '4'",
        "the viewer at ply 4",
    )
    .await;
    assert_eq!(where_().await, "Move 2 of 2 (Ann)");
    f.js("location.hash = '#ply=0';").await;
    f.wait_for(
        "document.getElementById('replay-ply').value === '0'",
        "the viewer at the start",
    )
    .await;
    assert_eq!(where_().await, "Start (2 moves)");
    f.close().await;
}

/// D13: a record loaded to review shows its players' names.
async fn reviewing_an_imported_record_shows_its_players_names(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    f.c.goto(&f.server.base).await.unwrap();
    f.js("document.getElementById('import').open = true; \
          const as = document.getElementById('import-as'); as.value = 'review'; \
          as.dispatchEvent(new Event('change'));")
        .await;
    let record = "[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n\n1. 3+ 1 4 2. 6 *\n";
    f.c.find(Locator::Id("import-text"))
        .await
        .unwrap()
        .send_keys(record)
        .await
        .unwrap();
    f.c.find(Locator::Id("import-start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    f.wait_for("document.body.dataset.replay === 'ready'", "the viewer")
        .await;
    let players = f
        .js("return document.getElementById('players').textContent;")
        .await;
    assert!(
        players.as_str().unwrap().starts_with("Ann vs Bob"),
        "{players}"
    );
    f.close().await;
}

/// D9: a public game opened from its link (the lobby's title link) offers its seat;
/// an invite link whose seat is taken says so and leaves the address.
async fn a_public_game_s_page_offers_its_seat_and_a_spent_invite_says_so(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    let open = f.post(
        "/api/games",
        None,
        json!({"variant": "kalah", "public": true, "name": "Ann"}),
    );
    let id = open["id"].as_str().unwrap();
    f.c.goto(&format!("{}/g/{id}", f.server.base))
        .await
        .unwrap();
    f.wait_for(
        "!document.getElementById('join-box').hidden",
        "the offer of the seat",
    )
    .await;
    f.c.find(Locator::Id("join"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    f.wait_for(
        "document.getElementById('join-box').hidden && !!localStorage.getItem('mancala:seat:' + location.pathname.slice(3))",
        "the seat taken",
    )
    .await;
    let (_, view) = f
        .server
        .call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["players"][1]["joined"], true, "{view}");

    // An invite someone else used first.
    let friend = f.post("/api/games", None, json!({"variant": "kalah"}));
    let id = friend["id"].as_str().unwrap();
    let invite = friend["invite"].as_str().unwrap();
    f.post(
        &format!("/api/games/{id}/join"),
        None,
        json!({"invite": invite}),
    );
    f.c.goto(&format!("{}/g/{id}#invite={invite}", f.server.base))
        .await
        .unwrap();
    let status = f
        .wait_for(
            "document.getElementById('status').textContent.includes('invite was already used') && document.getElementById('status').textContent",
            "the word that the invite is spent",
        )
        .await;
    assert!(status.as_str().unwrap().contains("Watching."), "{status}");
    assert_eq!(f.js("return location.hash;").await, "");
    assert_eq!(
        f.js("return document.getElementById('join-box').hidden;")
            .await,
        true
    );
    f.close().await;
}
