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
        Flow::start_with(path, db, &[]).await
    }

    /// [`Flow::start`] with more arguments to `mancala serve`.
    async fn start_with(path: &str, db: TestDb, args: &[&str]) -> Flow {
        let dir = tempfile::tempdir().unwrap();
        let server = Server::start_with(&db, args);
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
    togyz_kumalak_from_the_home_page_against_the_computer,
    a_tuzdyk_is_claimed_marked_and_sown_into,
    the_home_page_says_when_it_cannot_load_what_the_server_plays,
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
    browser::form_ready(&f.c).await;
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
    browser::click(&f.c, "import-start").await;
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
    browser::click(&f.c, "join").await;
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

/// The values of the options of select `id`.
const OPTIONS: &str =
    "return [...document.getElementById(arguments[0]).options].map(o => o.value);";

impl Flow {
    /// The values of select `id`'s options.
    async fn options(&self, id: &str) -> Vec<String> {
        let v = self.c.execute(OPTIONS, vec![json!(id)]).await.unwrap();
        serde_json::from_value(v).unwrap()
    }

    /// Chooses `value` in select `id` as a person does.
    async fn choose(&self, id: &str, value: &str) {
        let select = self.c.find(Locator::Id(id)).await.unwrap();
        select.select_by_value(value).await.unwrap();
    }

    /// Types `text` over what field `id` holds.
    async fn type_in(&self, id: &str, text: &str) {
        let input = self.c.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(text).await.unwrap();
        self.js(&format!(
            "document.getElementById('{id}').dispatchEvent(new Event('input'));"
        ))
        .await;
    }

    /// The board's fields: houses and seeds.
    async fn board(&self) -> Value {
        self.js("return [document.getElementById('houses').value, document.getElementById('seeds').value];")
            .await
    }
}

/// The home form is the server's: its variants by name, each one's board, options and
/// computer players. Togyz Kumalak sets a 9 × 9 board, takes no options and is not
/// offered the robot (a Kalah player); started against the computer, a board of nine
/// houses a side comes up and the computer answers a move.
async fn togyz_kumalak_from_the_home_page_against_the_computer(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    f.c.goto(&f.server.base).await.unwrap();
    browser::form_ready(&f.c).await;
    f.js("document.getElementById('settings').open = true; localStorage.setItem('mancala:speed', '60');")
        .await;
    let names = f
        .js("return [...document.getElementById('variant').options].map(o => o.textContent);")
        .await;
    // Every game of the catalogue, in its order.
    let catalogue: Vec<&str> = mancala_core::Variant::catalogue()
        .iter()
        .map(|v| v.info().name)
        .collect();
    assert_eq!(names, json!(catalogue));
    assert_eq!(f.board().await, json!(["6", "4"]));
    assert!(f.options("level").await.contains(&"robot".to_owned()));
    let kalah_options = "return [...document.querySelectorAll('#rule-options [data-field]')].map(e => [e.dataset.field, e.type]);";
    assert_eq!(
        f.js(kalah_options).await,
        json!([["empty_capture", "checkbox"], ["end_rule", "select-one"]])
    );

    f.choose("variant", "togyzkumalak").await;
    assert_eq!(f.board().await, json!(["9", "9"]));
    let levels = f.options("level").await;
    assert!(
        !levels.contains(&"robot".to_owned()) && levels.contains(&"medium".to_owned()),
        "{levels:?}"
    );
    let shown = f
        .js("return [document.getElementById('level').value, document.getElementById('rule-options').hidden, \
                     document.getElementById('help-title').textContent, document.getElementById('houses').max];")
        .await;
    assert_eq!(
        shown,
        json!(["medium", true, "How to play Togyz Kumalak", "16"])
    );

    // A board typed by hand stays when the variant changes; one left alone follows it.
    f.choose("variant", "oware").await;
    assert_eq!(f.board().await, json!(["6", "4"]));
    f.type_in("houses", "5").await;
    f.choose("variant", "togyzkumalak").await;
    assert_eq!(f.board().await, json!(["5", "9"]));
    f.type_in("houses", "9").await;

    browser::click(&f.c, "quick-computer").await;
    f.wait_for(
        "document.querySelectorAll('#board button.house').length === 18 && document.getElementById('h2-9') && \
         document.querySelector('#board button.house.legal')",
        "a board of nine houses a side",
    )
    .await;
    let id = f.js("return location.pathname.slice(3);").await;
    let id = id.as_str().unwrap().to_owned();
    let page = f
        .js(
            "return [document.getElementById('rules-line').textContent, \
                     [1, 2].map(s => document.querySelector(`#s${s} .who`).innerText), \
                     document.getElementById('board').classList.contains('down')];",
        )
        .await;
    assert_eq!(
        page,
        json!([
            "Togyz Kumalak, 9 houses, 9 seeds",
            ["You\ncaptured", "Medium bot\ncaptured"],
            false
        ])
    );
    browser::click(&f.c, "h1-5").await;
    f.wait_for(
        "document.querySelectorAll('#history li[data-seat=\"2\"]').length === 1 && \
         document.getElementById('status').textContent.startsWith('Your turn')",
        "the computer's answer",
    )
    .await;
    let (_, view) = f
        .server
        .call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(
        (view["ply"].clone(), view["history"][0]["house"].clone()),
        (json!(2), json!(5))
    );
    // The board shows the view's counts.
    let counts = f
        .js("return [1, 2].map(s => [...Array(9).keys()].map(i => Number(document.getElementById(`h${s}-${i + 1}`).dataset.count)));")
        .await;
    assert_eq!(counts, view["houses"]);
    f.close().await;
}

/// A tuzdyk on the board: Bob claims Ann's house 1 (the line of docs/rules.md), and
/// Ann's page says so, marks the house as Bob's and names it so for screen readers;
/// Ann's next sowing ends in it, and its seed goes to Bob's store.
async fn a_tuzdyk_is_claimed_marked_and_sown_into(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let f = Flow::start(path, db).await;
    let g = f.post(
        "/api/games",
        None,
        json!({"variant": "togyzkumalak", "name": "Ann"}),
    );
    let id = g["id"].as_str().unwrap().to_owned();
    let j = f.post(
        &format!("/api/games/{id}/join"),
        None,
        json!({"invite": g["invite"], "name": "Bob"}),
    );
    let tokens = [g["token"].as_str().unwrap(), j["token"].as_str().unwrap()];
    for (ply, house) in [1, 3, 2].into_iter().enumerate() {
        let body = json!({"house": house, "ply": ply});
        f.post(
            &format!("/api/games/{id}/moves"),
            Some(tokens[ply % 2]),
            body,
        );
    }
    f.c.goto(&f.server.base).await.unwrap();
    f.keep_seat(&json!({"id": id, "seat": 1, "token": tokens[0]}))
        .await;
    f.js("localStorage.setItem('mancala:speed', '60');").await;
    f.c.goto(&format!("{}/g/{id}", f.server.base))
        .await
        .unwrap();
    f.wait_for("document.body.dataset.live === 'open'", "the live game")
        .await;
    assert_eq!(
        f.js("return document.querySelectorAll('#board .claimed').length;")
            .await,
        0
    );
    f.post(
        &format!("/api/games/{id}/moves"),
        Some(tokens[1]),
        json!({"house": 1, "ply": 3}),
    );
    let message = f
        .wait_for(
            "document.getElementById('message').textContent.includes('tuzdyk') && document.getElementById('message').textContent",
            "the word of the tuzdyk",
        )
        .await;
    assert_eq!(
        message,
        "Bob captures 3 seeds. Bob claims a tuzdyk: your house 1. Every seed sown there from now on goes to Bob."
    );
    let house = f
        .js("const h = document.getElementById('h1-1'); \
             return [h.classList.contains('claimed'), h.dataset.owner, h.getAttribute('aria-label'), \
                     getComputedStyle(h.querySelector('.badge')).display, \
                     document.getElementById('claim-2').textContent, document.getElementById('claim-2').hidden, \
                     document.getElementById('claim-1').hidden, \
                     document.querySelector('#history li[data-ply=\"4\"]').title];")
        .await;
    assert_eq!(
        house,
        json!([
            true,
            "2",
            "Bob's tuzdyk on your house 1",
            "block",
            "tuzdyk: your house 1",
            false,
            true,
            "Bob: house 1, captures 3, claims a tuzdyk on house 1"
        ])
    );

    // Ann's house 9 holds 11: its last seed is sown into Bob's tuzdyk, and goes to Bob.
    f.wait_for(
        "document.getElementById('status').textContent.startsWith('Your turn')",
        "Ann's turn",
    )
    .await;
    browser::click(&f.c, "h1-9").await;
    f.wait_for(
        "document.querySelectorAll('#history li').length === 5 && document.getElementById('s2').dataset.count === '4'",
        "Ann's sowing into Bob's tuzdyk",
    )
    .await;
    let (_, view) = f
        .server
        .call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["stores"], json!([2, 4]));
    assert_eq!(
        f.js("return [document.getElementById('s1').dataset.count, document.getElementById('h1-1').dataset.count, \
                      document.getElementById('s2').getAttribute('aria-label')];")
            .await,
        json!(["2", "0", "Bob's captured seeds, 4 seeds"])
    );
    f.close().await;
}

/// The home page's form is built from the server's lists; when they cannot be had (here
/// the reads' rate limit refuses them: the page and its files take the first ten
/// reads), the page says why, the buttons wait, and "Try again" builds the form
/// once the server answers.
async fn the_home_page_says_when_it_cannot_load_what_the_server_plays(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let args = ["--rate-read", "10/10s", "--refusal-delay", "0s"];
    let f = Flow::start_with(path, db, &args).await;
    f.c.goto(&f.server.base).await.unwrap();
    f.wait_for(
        "document.body.dataset.form === 'failed'",
        "the form's failure",
    )
    .await;
    let shown = f
        .js("return [document.getElementById('form-problem').hidden, document.getElementById('form-problem-text').textContent, \
                     document.getElementById('quick-computer').disabled, document.getElementById('start').disabled, \
                     document.getElementById('variant').options.length];")
        .await;
    assert_eq!(shown[0], false, "{shown}");
    let text = shown[1].as_str().unwrap();
    assert!(
        text.starts_with("The game settings could not be loaded from the server (too many reads"),
        "{text}"
    );
    assert_eq!(
        &shown.as_array().unwrap()[2..],
        &[json!(true), json!(true), json!(0)]
    );
    // A token comes back every second (the lists on the page take some too).
    let deadline = Instant::now() + Duration::from_secs(30);
    while f.js("return document.body.dataset.form;").await != "ready" {
        assert!(Instant::now() < deadline, "the form never came");
        tokio::time::sleep(Duration::from_millis(2500)).await;
        f.js("if (document.body.dataset.form === 'failed') document.getElementById('form-retry').click();")
            .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let ready = f
        .js("return [document.getElementById('form-problem').hidden, document.getElementById('quick-computer').disabled, \
                     document.getElementById('variant').options.length];")
        .await;
    let games = mancala_core::Variant::catalogue().len();
    assert_eq!(ready, json!([true, false, games]));
    f.close().await;
}
