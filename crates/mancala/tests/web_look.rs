//! The browser UI's ways to find, come back to and look back at games, end to end:
//! the real binary on a free loopback port, driven through headless Chromium over
//! WebDriver (Debian's `chromium` and `chromium-driver`). Records (save, load, replay),
//! the move list, the lobby and "your games", and the layout at phone and laptop
//! widths. The store behind them is tested on both backends by the router tests
//! (crates/mancala-web/tests/records_lobby.rs); these run on SQLite.
//!
//! `MANCALA_SCREENSHOTS=DIR cargo test -p mancala --test web_look -- --ignored
//! screenshots` writes the README's screenshots to DIR.

mod server;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use server::{Server, TestDb};

/// The chromedriver binary, or `None` (a failure under `CI=true`, a skip elsewhere).
fn chromedriver() -> Option<&'static str> {
    let path = "/usr/bin/chromedriver";
    if std::path::Path::new(path).exists() && std::path::Path::new("/usr/bin/chromium").exists() {
        return Some(path);
    }
    let message = "chromium and chromium-driver are not installed (scripts/test.sh installs them)";
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("SKIPPED: {message}");
    None
}

struct Driver(Child, u16);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromedriver on a free port (again on another one if it exits instead of
/// listening: the port can be taken between choosing and binding it).
fn start_driver(path: &str) -> Driver {
    for _ in 0..3 {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Driver(child, port);
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("chromedriver exited three times instead of listening");
}

/// A headless Chromium session with its own profile, `width` × `height` pixels, in
/// the light or the dark colour scheme.
async fn browser(
    driver: &Driver,
    profile: &std::path::Path,
    size: (u32, u32),
    dark: bool,
) -> Client {
    let mut args = vec![
        "--headless=new".to_owned(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--hide-scrollbars".into(),
        format!("--window-size={},{}", size.0, size.1),
        format!("--user-data-dir={}", profile.display()),
    ];
    if dark {
        args.push("--blink-settings=preferredColorScheme=0".into());
    }
    let mut options = json!({"binary": "/usr/bin/chromium", "args": args});
    if size.0 < 500 {
        // Chromium's windows are at least 500 px wide: a phone's width is emulated.
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": size.0, "height": size.1, "pixelRatio": 1.0, "touch": true, "mobile": true}
        });
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    let url = format!("http://127.0.0.1:{}", driver.1);
    let mut attempts = 0;
    loop {
        attempts += 1;
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            Err(e) if attempts < 3 => {
                eprintln!("WebDriver session attempt {attempts} failed: {e}; retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => panic!("a WebDriver session: {e}"),
        }
    }
}

/// Evaluates `expr` in the page until it is truthy; returns its value.
async fn wait_for(c: &Client, expr: &str, what: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = js(c, &format!("return ({expr});")).await;
        if !(v.is_null() || v == json!(false) || v == json!("")) {
            return v;
        }
        if Instant::now() > deadline {
            let page = js(c, "return {url: location.href, status: document.getElementById('status')?.textContent, \
                              error: (document.getElementById('form-error') || {}).textContent};").await;
            panic!("timed out waiting for {what}; page: {page}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or(Value::Null)
}

async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The server, chromedriver and one browser per size given.
struct Harness {
    _dir: tempfile::TempDir,
    _db: TestDb,
    server: Server,
    _driver: Driver,
    browsers: Vec<Client>,
}

impl Harness {
    async fn start(sizes: &[(u32, u32)]) -> Option<Harness> {
        Harness::start_in(sizes, false).await
    }

    async fn start_in(sizes: &[(u32, u32)], dark: bool) -> Option<Harness> {
        let path = chromedriver()?;
        let db = TestDb::sqlite();
        let dir = tempfile::tempdir().unwrap();
        let server = Server::start(&db);
        let driver = start_driver(path);
        let mut browsers = Vec::new();
        for (i, &size) in sizes.iter().enumerate() {
            let profile = dir.path().join(format!("profile{i}"));
            browsers.push(browser(&driver, &profile, size, dark).await);
        }
        Some(Harness {
            _dir: dir,
            _db: db,
            server,
            _driver: driver,
            browsers,
        })
    }

    async fn close(self) {
        for b in self.browsers {
            b.close().await.unwrap();
        }
    }
}

const LAPTOP: (u32, u32) = (1280, 800);
const PHONE: (u32, u32) = (360, 740);

/// Starts a game from the folded settings; its id.
async fn start_game(c: &Client, base: &str, settings: &str, quick: &str) -> String {
    c.goto(base).await.unwrap();
    js(c, "document.getElementById('speed').value = '0'; document.getElementById('speed').dispatchEvent(new Event('change'));").await;
    js(
        c,
        &format!("document.getElementById('settings').open = true; {settings}"),
    )
    .await;
    click(c, quick).await;
    let path = wait_for(
        c,
        "location.pathname.startsWith('/g/') && location.pathname",
        "the game page",
    )
    .await;
    path.as_str().unwrap().trim_start_matches("/g/").to_owned()
}

/// Plays the first playable house whenever it is this browser's turn, until the game
/// has `plies` moves or is over.
async fn play_until(c: &Client, server: &Server, id: &str, plies: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
        // Stop at the end, or once there are enough moves and it is the person's turn.
        let enough = view["ply"].as_u64().unwrap() >= plies && view["to_move"] == 1;
        if view["over"] == true || enough {
            return view;
        }
        assert!(
            Instant::now() < deadline,
            "the game did not reach {plies} plies: {view}"
        );
        js(c, "const b = document.querySelector('button.house.legal:not([disabled])'); \
               if (b && document.getElementById('status').textContent.startsWith('Your turn')) b.click();")
            .await;
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

/// Every pit's count on the board, by id.
async fn board_counts(c: &Client) -> Value {
    js(c, "return Object.fromEntries([...document.querySelectorAll('#board [data-count]')].map(e => [e.id, e.dataset.count]));").await
}

/// The move list as shown: each numbered turn's text (the moves with their marks).
async fn move_list(c: &Client) -> Value {
    js(c, "return [...document.querySelectorAll('#history .round')].map(r => [...r.children].map(e => e.textContent || '-').join(' '));").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_saves_and_loads_back_to_the_same_game() {
    let Some(h) = Harness::start(&[LAPTOP]).await else {
        return;
    };
    let (c, server) = (&h.browsers[0], &h.server);
    let settings = "document.getElementById('houses').value = '5'; document.getElementById('seeds').value = '3'; \
                    document.getElementById('level').value = 'greedy';";
    let id = start_game(c, &server.base, settings, "quick-computer").await;
    let view = play_until(c, server, &id, 8).await;
    wait_for(
        c,
        &format!(
            "document.querySelectorAll('#history li').length === {}",
            view["ply"]
        ),
        "the moves",
    )
    .await;
    let counts = board_counts(c).await;
    let moves = move_list(c).await;

    // Save: the page's download link gives the record as a file.
    let link = js(c, "return document.getElementById('record-link').href;").await;
    assert_eq!(
        link,
        json!(format!("{}/api/games/{id}/record", server.base))
    );
    let saved = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             fetch(document.getElementById('record-link').href) \
               .then(r => r.text().then(t => done([r.headers.get('content-disposition'), t])));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        saved[0],
        json!(format!("attachment; filename=\"mancala-{id}.txt\""))
    );
    let record = saved[1].as_str().unwrap().to_owned();
    assert!(record.contains("[Player2Kind \"greedy\"]"), "{record}");

    // Load it on the home page, to continue against the computer.
    c.goto(&server.base).await.unwrap();
    js(c, "document.getElementById('import').open = true;").await;
    c.execute(
        "document.getElementById('import-text').value = arguments[0]; \
         document.getElementById('import-as').value = 'easy';",
        vec![json!(record)],
    )
    .await
    .unwrap();
    click(c, "import-start").await;
    let new_path = wait_for(c, &format!("location.pathname.startsWith('/g/') && location.pathname !== '/g/{id}' && location.pathname"), "the loaded game").await;
    let new_id = new_path
        .as_str()
        .unwrap()
        .trim_start_matches("/g/")
        .to_owned();
    wait_for(
        c,
        "document.getElementById('status').textContent.startsWith('Your turn')",
        "the loaded game, my turn",
    )
    .await;
    assert_eq!(board_counts(c).await, counts, "the same position");
    assert_eq!(move_list(c).await, moves, "the same history");

    // The replay viewer steps back to the start and forth again.
    c.goto(&format!("{}/g/{new_id}/replay", server.base))
        .await
        .unwrap();
    wait_for(
        c,
        "document.body.dataset.replay === 'ready'",
        "the replay viewer",
    )
    .await;
    assert_eq!(
        board_counts(c).await,
        counts,
        "the viewer opens at the last move"
    );
    let plies = view["ply"].as_u64().unwrap();
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E011}")
        .await
        .unwrap(); // Home
    let start = board_counts(c).await;
    for (pit, n) in start.as_object().unwrap() {
        let expected = if pit.starts_with('s') { "0" } else { "3" };
        assert_eq!(n, expected, "{pit} at the start");
    }
    assert_eq!(
        js(
            c,
            "return document.getElementById('replay-where').textContent;"
        )
        .await,
        json!(format!("Start ({plies} moves)"))
    );
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E014}")
        .await
        .unwrap(); // ArrowRight
    assert_eq!(
        js(
            c,
            "return document.getElementById('replay-where').textContent;"
        )
        .await,
        json!(format!("Move 1 of {plies}"))
    );
    assert_eq!(
        js(
            c,
            "return document.querySelector('#history li.current').dataset.ply;"
        )
        .await,
        json!("1")
    );
    assert_eq!(js(c, "return location.hash;").await, json!("#ply=1"));
    // Clicking a move goes to it; the last button to the end.
    c.find(Locator::Css("#history li[data-ply=\"3\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        js(
            c,
            "return document.getElementById('replay-where').textContent;"
        )
        .await,
        json!(format!("Move 3 of {plies}"))
    );
    let (_, positions) = server.call("GET", &format!("/api/games/{new_id}/positions"), None, None);
    let third = &positions["positions"][3];
    assert_eq!(
        js(
            c,
            "return document.getElementById('position-line').textContent;"
        )
        .await,
        third["notation"]
    );
    click(c, "replay-last").await;
    assert_eq!(board_counts(c).await, counts);

    // Loaded to review, the record opens in the viewer at its last move.
    c.goto(&server.base).await.unwrap();
    js(c, "document.getElementById('import').open = true;").await;
    c.execute(
        "document.getElementById('import-text').value = arguments[0]; \
         document.getElementById('import-as').value = 'review';",
        vec![json!(record)],
    )
    .await
    .unwrap();
    click(c, "import-start").await;
    wait_for(
        c,
        "location.pathname.endsWith('/replay') && document.body.dataset.replay === 'ready'",
        "the review",
    )
    .await;
    assert_eq!(
        js(
            c,
            "return document.getElementById('replay-where').textContent;"
        )
        .await,
        json!(format!("Move {plies} of {plies}"))
    );
    assert_eq!(board_counts(c).await, counts);
    assert_eq!(move_list(c).await, moves);
    h.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_list_numbers_turns_without_cutting_them() {
    let Some(h) = Harness::start(&[LAPTOP, PHONE]).await else {
        return;
    };
    let server = &h.server;
    // A whole game between two people through the API, long enough for turn 10.
    let (_, g) = server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "kalah", "houses": 8, "seeds": 6})),
    );
    let id = g["id"].as_str().unwrap();
    let (_, j) = server.call(
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"invite": g["invite"]})),
    );
    let tokens = [
        g["token"].as_str().unwrap().to_owned(),
        j["token"].as_str().unwrap().to_owned(),
    ];
    let mut view = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .1;
    while view["over"] == false {
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let legal = view["legal_moves"].as_array().unwrap();
        // The houses in turn: a long game, whatever the rules make of it.
        let house = &legal[view["ply"].as_u64().unwrap() as usize % legal.len()];
        let body = json!({"house": house, "ply": view["ply"]});
        view = server
            .call(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&tokens[seat - 1]),
                Some(body),
            )
            .1;
    }
    // The marks the list must show, from the API.
    let marked: Vec<String> = view["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut t = m["house"].to_string();
            if m["captured"].as_u64().unwrap() > 0 {
                t.push('x');
            }
            if m["again"] == true {
                t.push('+');
            }
            t
        })
        .collect();
    for c in &h.browsers {
        c.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
        wait_for(
            c,
            "!document.getElementById('end-box').hidden",
            "the finished game",
        )
        .await;
        let shown = js(
            c,
            "return [...document.querySelectorAll('#history li')].map(li => li.textContent);",
        )
        .await;
        assert_eq!(shown, json!(marked));
        let rounds = js(
            c,
            "return document.querySelectorAll('#history .round .num').length;",
        )
        .await;
        assert!(rounds.as_u64().unwrap() >= 10, "{rounds} turns");
        // Every number is whole and inside the list's box, scrolled to or not.
        let cut = js(c, "const box = document.getElementById('history').getBoundingClientRect(); \
                         return [...document.querySelectorAll('#history .num')].filter(n => { \
                           const r = n.getBoundingClientRect(); \
                           return n.scrollWidth > n.clientWidth || r.left < box.left || r.right > box.right; \
                         }).map(n => n.textContent);").await;
        assert_eq!(cut, json!([]), "numbers cut off");
        assert_eq!(
            js(
                c,
                "return document.querySelectorAll('#history .num')[9].textContent;"
            )
            .await,
            json!("10.")
        );
        let result = js(
            c,
            "return document.querySelector('#history .result-mark').textContent;",
        )
        .await;
        let expected = match view["result"]["winner"].as_u64() {
            Some(1) => "1-0",
            Some(2) => "0-1",
            _ => "½-½",
        };
        assert_eq!(result, json!(expected));
        // The list scrolls rather than growing without end.
        let scrolls = js(
            c,
            "const h = document.getElementById('history'); return h.scrollHeight > h.clientHeight;",
        )
        .await;
        assert_eq!(scrolls, json!(true));
    }
    h.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_a_public_game_and_one_click_joins() {
    let Some(h) = Harness::start(&[LAPTOP, LAPTOP]).await else {
        return;
    };
    let (a, b, server) = (&h.browsers[0], &h.browsers[1], &h.server);
    b.goto(&server.base).await.unwrap();
    wait_for(b, "document.body.dataset.lists === 'fresh'", "the lists").await;
    assert_eq!(
        js(b, "return document.getElementById('lobby-empty').hidden;").await,
        json!(false)
    );

    let id = start_game(
        a,
        &server.base,
        "document.getElementById('public').checked = true;",
        "quick-friend",
    )
    .await;
    // Without reloading, b's home page shows the game; one click takes the seat.
    let button = format!("#lobby-list button[data-game=\"{id}\"]");
    wait_for(
        b,
        &format!("document.querySelector('{button}')"),
        "the open game in the lobby",
    )
    .await;
    let entry = js(
        b,
        "return document.querySelector('#lobby-list li a').textContent;",
    )
    .await;
    assert_eq!(entry, json!("Kalah 6×4 against Player 1"));
    b.find(Locator::Css(&button))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        b,
        &format!("location.pathname === '/g/{id}'"),
        "the joined game",
    )
    .await;
    wait_for(
        b,
        "document.getElementById('status').textContent.startsWith('Waiting for player 1')",
        "b seated",
    )
    .await;
    wait_for(
        a,
        "document.getElementById('status').textContent.startsWith('Your turn')",
        "a's turn",
    )
    .await;
    // The tab says so, title and icon.
    assert_eq!(
        js(a, "return document.title;").await,
        json!("(Your turn) Mancala")
    );
    assert_eq!(
        js(
            a,
            "return document.querySelector('link[rel=icon]').getAttribute('href');"
        )
        .await,
        json!("/favicon-turn.svg")
    );

    // Back home, each finds the game among theirs; the lobby no longer lists it, the
    // games to watch do.
    a.goto(&server.base).await.unwrap();
    wait_for(
        a,
        "document.body.dataset.lists === 'fresh' && !document.getElementById('my-games').hidden",
        "a's games",
    )
    .await;
    assert_eq!(
        js(a, "return [...document.querySelectorAll('#my-games-list li')].map(li => [li.className, li.textContent]);").await,
        json!([["my-turn", "Kalah 6×4 against Player 2: your turn"]])
    );
    assert_eq!(
        js(a, "return document.title;").await,
        json!("(1) Mancala: your turn")
    );
    assert_eq!(
        js(
            a,
            "return document.querySelector('link[rel=icon]').getAttribute('href');"
        )
        .await,
        json!("/favicon-turn.svg")
    );
    assert_eq!(
        js(
            a,
            "return document.getElementById('lobby-list').children.length;"
        )
        .await,
        json!(0)
    );
    let watch = js(
        a,
        "return document.querySelector('#watch-list li a').getAttribute('href');",
    )
    .await;
    assert_eq!(watch, json!(format!("/g/{id}")));
    b.goto(&server.base).await.unwrap();
    wait_for(
        b,
        "document.querySelector('#my-games-list li')",
        "b's games",
    )
    .await;
    assert_eq!(
        js(
            b,
            "return document.querySelector('#my-games-list li').textContent;"
        )
        .await,
        json!("Kalah 6×4 against Player 1: their turn")
    );
    h.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_fit_a_phone_and_a_laptop() {
    let Some(h) = Harness::start(&[PHONE, LAPTOP]).await else {
        return;
    };
    let (phone, laptop, server) = (&h.browsers[0], &h.browsers[1], &h.server);
    let sideways = "return document.documentElement.scrollWidth - window.innerWidth;";
    phone.goto(&server.base).await.unwrap();
    wait_for(phone, "document.body.dataset.lists", "the home page").await;
    assert_eq!(js(phone, "return window.innerWidth;").await, json!(PHONE.0));
    assert_eq!(
        js(phone, sideways).await,
        json!(0),
        "the home page scrolls sideways"
    );
    js(phone, "document.getElementById('settings').open = true; document.getElementById('import').open = true;").await;
    assert_eq!(
        js(phone, sideways).await,
        json!(0),
        "the settings scroll sideways"
    );
    // A setting out of range, folded away, is shown rather than ignored; a refusal of
    // the server shows under the buttons.
    js(phone, "document.getElementById('settings').open = false; document.getElementById('seeds').value = '99';").await;
    click(phone, "quick-computer").await;
    assert_eq!(
        js(phone, "return document.getElementById('settings').open;").await,
        json!(true)
    );
    assert_eq!(js(phone, "return location.pathname;").await, json!("/"));
    js(phone, "document.getElementById('seeds').value = '4'; document.getElementById('level').value = 'robot'; \
               document.getElementById('variant').value = 'oware';").await;
    click(phone, "quick-computer").await;
    let error = wait_for(
        phone,
        "document.getElementById('form-error').textContent",
        "the server's refusal",
    )
    .await;
    assert!(error.as_str().unwrap().contains("robot"), "{error}");

    // A 16-house game on both.
    let (_, g) = server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "oware", "houses": 16, "opponent": "greedy"})),
    );
    let id = g["id"].as_str().unwrap();
    for c in [phone, laptop] {
        c.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
        wait_for(
            c,
            "document.getElementById('h1-16') && document.getElementById('s2').dataset.count",
            "the board",
        )
        .await;
        assert_eq!(
            js(c, sideways).await,
            json!(0),
            "the game page scrolls sideways"
        );
        let hidden = js(c, "const wrap = document.getElementById('board-wrap'); \
                            return [...document.querySelectorAll('#board .house, #board .store')].filter(p => { \
                              const r = p.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth || r.width < 30; \
                            }).map(p => p.id).concat(wrap.scrollWidth > wrap.clientWidth ? ['scrolls'] : []);").await;
        assert_eq!(hidden, json!([]), "pits out of sight or too small to tap");
    }
    assert_eq!(
        js(
            laptop,
            "return document.getElementById('board').classList.contains('down');"
        )
        .await,
        json!(false)
    );
    assert_eq!(
        js(
            phone,
            "return document.getElementById('board').classList.contains('down');"
        )
        .await,
        json!(true)
    );
    // The stores name their players.
    assert_eq!(
        js(
            laptop,
            "return [1, 2].map(s => document.querySelector(`#s${s} .who`).innerText);"
        )
        .await,
        json!(["Player 1\ncaptures", "Greedy\ncaptures"])
    );
    h.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dark_mode_follows_the_system() {
    let Some(h) = Harness::start_in(&[LAPTOP], true).await else {
        return;
    };
    let c = &h.browsers[0];
    c.goto(&h.server.base).await.unwrap();
    wait_for(c, "document.body.dataset.lists", "the home page").await;
    assert_eq!(
        js(
            c,
            "return matchMedia('(prefers-color-scheme: dark)').matches;"
        )
        .await,
        json!(true)
    );
    assert_eq!(
        js(
            c,
            "return getComputedStyle(document.documentElement).backgroundColor;"
        )
        .await,
        json!("rgb(27, 23, 20)")
    );
    h.close().await;
}

/// The README's screenshots, at phone and laptop size: the home page, a game in
/// progress, its end, and the replay viewer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the screenshots: MANCALA_SCREENSHOTS=DIR"]
async fn screenshots() {
    let dir = std::path::PathBuf::from(
        std::env::var("MANCALA_SCREENSHOTS").expect("MANCALA_SCREENSHOTS=DIR"),
    );
    std::fs::create_dir_all(&dir).unwrap();
    let Some(h) = Harness::start(&[LAPTOP, PHONE]).await else {
        return;
    };
    let server = &h.server;
    // Something in the lists: an open public game and a public game being played.
    server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "oware", "public": true})),
    );
    let (_, watched) = server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "kalah", "opponent": "greedy", "public": true})),
    );
    server.call(
        "POST",
        &format!("/api/games/{}/moves", watched["id"].as_str().unwrap()),
        watched["token"].as_str(),
        Some(json!({"house": 2, "ply": 0})),
    );
    for (c, size) in h.browsers.iter().zip(["laptop", "phone"]) {
        let shot = |name: &str| dir.join(format!("{name}-{size}.png"));
        c.goto(&server.base).await.unwrap();
        wait_for(c, "document.body.dataset.lists === 'fresh'", "the lists").await;
        std::fs::write(shot("home"), c.screenshot().await.unwrap()).unwrap();
        let settings = "document.getElementById('level').value = 'greedy'; document.getElementById('houses').value = '6'; document.getElementById('seeds').value = '3';";
        let id = start_game(c, &server.base, settings, "quick-computer").await;
        play_until(c, server, &id, 9).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        std::fs::write(shot("game"), c.screenshot().await.unwrap()).unwrap();
        play_until(c, server, &id, 1000).await;
        wait_for(c, "!document.getElementById('end-box').hidden", "the end").await;
        js(
            c,
            "document.getElementById('end-box').scrollIntoView({block: 'center'});",
        )
        .await;
        std::fs::write(shot("end"), c.screenshot().await.unwrap()).unwrap();
        c.goto(&format!("{}/g/{id}/replay#ply=7", server.base))
            .await
            .unwrap();
        wait_for(
            c,
            "document.body.dataset.replay === 'ready'",
            "the replay viewer",
        )
        .await;
        std::fs::write(shot("replay"), c.screenshot().await.unwrap()).unwrap();
    }
    h.close().await;
}
