//! The browser UI's ways to find, come back to and look back at games, end to end:
//! the real binary on a free loopback port, driven through headless Chromium over
//! WebDriver (Debian's `chromium` and `chromium-driver`). Records (save, load, replay),
//! the move list, the lobby and "your games", and the layout at phone and laptop
//! widths. The store behind them is tested on both backends by the router tests
//! (crates/mancala-web/tests/records_lobby.rs); these run on SQLite.
//!
//! `MANCALA_SCREENSHOTS=DIR cargo test -p mancala --test web_look -- --ignored
//! screenshots` writes docs/web.md's screenshots to DIR (an absolute path: the test runs
//! in crates/mancala).

mod browser;
mod server;

use std::time::{Duration, Instant};

use browser::{Driver, Look, chromedriver, click, form_ready, js, session, start_driver, wait_for};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use server::{Server, TestDb};

/// A headless Chromium session with its own profile, `width` × `height` pixels, in
/// the light or the dark colour scheme.
async fn browser(
    driver: &Driver,
    profile: &std::path::Path,
    size: (u32, u32),
    dark: bool,
) -> Client {
    let look = Look {
        dark,
        ..Look::new(size)
    };
    session(driver, profile, look).await
}

/// Waits until the page's status line starts with `prefix`.
async fn wait_status(c: &Client, prefix: &str) {
    let expr = format!("document.getElementById('status').textContent.startsWith({prefix:?})");
    wait_for(c, &expr, &format!("the status {prefix:?}")).await;
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
    form_ready(c).await;
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

/// The text of the page element `id`.
async fn text_of(c: &Client, id: &str) -> Value {
    js(
        c,
        &format!("return document.getElementById('{id}').textContent;"),
    )
    .await
}

/// Presses a key (a WebDriver key code) on the page.
async fn press(c: &Client, key: &str) {
    let body = c.find(Locator::Css("body")).await.unwrap();
    body.send_keys(key).await.unwrap();
}

const HOME_KEY: &str = "\u{E011}";
const RIGHT_KEY: &str = "\u{E014}";

/// The record behind game `id`'s download link, checking that it is a download.
async fn save_record(c: &Client, base: &str, id: &str) -> String {
    let link = js(c, "return document.getElementById('record-link').href;").await;
    assert_eq!(link, json!(format!("{base}/api/games/{id}/record")));
    let saved = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             fetch(document.getElementById('record-link').href) \
               .then(r => r.text().then(t => done([r.headers.get('content-disposition'), t])));",
            vec![],
        )
        .await
        .unwrap();
    let attachment = format!("attachment; filename=\"mancala-{id}.txt\"");
    assert_eq!(saved[0], json!(attachment));
    saved[1].as_str().unwrap().to_owned()
}

/// Loads `record` on the home page, to go on as `how` (a level, `human` or
/// `review`), taking on the record's player `seat` ("1" or "2"); the page it leads
/// to, once there.
async fn load_record(c: &Client, base: &str, record: &str, how: &str, seat: &str) -> String {
    c.goto(base).await.unwrap();
    form_ready(c).await;
    js(c, "document.getElementById('import').open = true;").await;
    c.execute(
        "document.getElementById('import-text').value = arguments[0]; \
         document.getElementById('import-as').value = arguments[1]; \
         document.getElementById('import-seat').value = arguments[2];",
        vec![json!(record), json!(how), json!(seat)],
    )
    .await
    .unwrap();
    click(c, "import-start").await;
    let path = wait_for(
        c,
        "location.pathname !== '/' && location.pathname",
        "the loaded game",
    )
    .await;
    path.as_str().unwrap().to_owned()
}

/// The move (a player 1 move and player 2's answer, as the move list numbers them) that
/// ply `ply` of the game `view` belongs to, and the name of its mover: what the replay
/// viewer says at that ply ("Move 3 of 5 (Ann)").
fn move_of_ply(view: &Value, ply: usize) -> (usize, String) {
    let history = view["history"].as_array().unwrap();
    let seat = |i: usize| history[i]["seat"].as_u64().unwrap();
    let number = (0..ply)
        .filter(|&i| i == 0 || (seat(i) == 1 && seat(i - 1) == 2))
        .count();
    let name = view["players"][seat(ply - 1) as usize - 1]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    (number, name)
}

/// Steps through game `id`'s replay: the start, one move on, a clicked move, the end
/// (which shows `last`, a game of `plies` plies).
async fn step_through_replay(c: &Client, server: &Server, id: &str, last: &Value, plies: u64) {
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    let where_at = |ply: usize| {
        let (number, name) = move_of_ply(&view, ply);
        let (moves, _) = move_of_ply(&view, plies as usize);
        format!("Move {number} of {moves} ({name})")
    };
    c.goto(&format!("{}/g/{id}/replay", server.base))
        .await
        .unwrap();
    wait_for(
        c,
        "document.body.dataset.replay === 'ready'",
        "the replay viewer",
    )
    .await;
    assert_eq!(
        &board_counts(c).await,
        last,
        "the viewer opens at the last move"
    );
    press(c, HOME_KEY).await;
    for (pit, n) in board_counts(c).await.as_object().unwrap() {
        let expected = if pit.starts_with('s') { "0" } else { "3" };
        assert_eq!(n, expected, "{pit} at the start");
    }
    let moves = move_of_ply(&view, plies as usize).0;
    assert_eq!(
        text_of(c, "replay-where").await,
        json!(format!("Start ({moves} moves)"))
    );
    press(c, RIGHT_KEY).await;
    assert_eq!(text_of(c, "replay-where").await, json!(where_at(1)));
    let current = js(
        c,
        "return document.querySelector('#history li.current').dataset.ply;",
    )
    .await;
    assert_eq!(current, json!("1"));
    assert_eq!(js(c, "return location.hash;").await, json!("#ply=1"));
    // Clicking a move goes to it, with its position's notation; the last button to
    // the end.
    let third = c
        .find(Locator::Css("#history li[data-ply=\"3\"]"))
        .await
        .unwrap();
    third.click().await.unwrap();
    assert_eq!(text_of(c, "replay-where").await, json!(where_at(3)));
    let (_, positions) = server.call("GET", &format!("/api/games/{id}/positions"), None, None);
    assert_eq!(
        text_of(c, "position-line").await,
        positions["positions"][3]["notation"]
    );
    click(c, "replay-last").await;
    assert_eq!(&board_counts(c).await, last);
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
    let plies = view["ply"].as_u64().unwrap();
    let all_shown = format!("document.querySelectorAll('#history li').length === {plies}");
    wait_for(c, &all_shown, "the moves").await;
    let counts = board_counts(c).await;
    let moves = move_list(c).await;

    let record = save_record(c, &server.base, &id).await;
    assert!(record.contains("[Player2Kind \"greedy\"]"), "{record}");

    // Loaded to continue against the computer: the same position and history.
    let path = load_record(c, &server.base, &record, "easy", "1").await;
    let new_id = path.trim_start_matches("/g/").to_owned();
    assert_ne!(new_id, id);
    wait_status(c, "Your turn").await;
    assert_eq!(board_counts(c).await, counts, "the same position");
    assert_eq!(move_list(c).await, moves, "the same history");
    step_through_replay(c, server, &new_id, &counts, plies).await;

    // Loaded to review, the record opens in the viewer at its last move.
    let path = load_record(c, &server.base, &record, "review", "1").await;
    assert!(path.ends_with("/replay"), "{path}");
    wait_for(c, "document.body.dataset.replay === 'ready'", "the review").await;
    let review = path.trim_start_matches("/g/").trim_end_matches("/replay");
    let (_, view) = server.call("GET", &format!("/api/games/{review}"), None, None);
    let (last, mover) = move_of_ply(&view, plies as usize);
    assert_eq!(
        text_of(c, "replay-where").await,
        json!(format!("Move {last} of {last} ({mover})"))
    );
    assert_eq!(board_counts(c).await, counts);
    assert_eq!(move_list(c).await, moves);

    // Loaded taking on the record's player 2, against the computer: the record left
    // its player 1 to move, so the computer (in that seat) moves first, then it is
    // the person's turn again.
    load_record(c, &server.base, &record, "easy", "2").await;
    wait_status(c, "Your turn").await;
    let more = format!("document.querySelectorAll('#history li').length > {plies}");
    wait_for(c, &more, "the computer's answer").await;
    h.close().await;
}

/// A whole game between two people through the API, long enough for turn 10: Kalah
/// 8×6, each player sowing their legal houses in turn. Its final view.
fn long_finished_game(server: &Server) -> Value {
    let body = json!({"variant": "kalah", "houses": 8, "seeds": 6});
    let (_, g) = server.call("POST", "/api/games", None, Some(body));
    let id = g["id"].as_str().unwrap();
    let join = json!({"invite": g["invite"]});
    let (_, j) = server.call("POST", &format!("/api/games/{id}/join"), None, Some(join));
    let tokens = [g["token"].as_str().unwrap(), j["token"].as_str().unwrap()];
    let mut view = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .1;
    while view["over"] == false {
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let legal = view["legal_moves"].as_array().unwrap();
        let house = &legal[view["ply"].as_u64().unwrap() as usize % legal.len()];
        let body = json!({"house": house, "ply": view["ply"]});
        let path = format!("/api/games/{id}/moves");
        view = server
            .call("POST", &path, Some(tokens[seat - 1]), Some(body))
            .1;
    }
    view
}

/// Each move of `view`'s history as the move list writes it, from the API's marks.
fn marked_moves(view: &Value) -> Vec<String> {
    let history = view["history"].as_array().unwrap();
    let marked = |m: &Value| {
        let mut text = m["house"].to_string();
        if m["captured"].as_u64().unwrap() > 0 {
            text.push('x');
        }
        if m["again"] == true {
            text.push('+');
        }
        text
    };
    history.iter().map(marked).collect()
}

/// Turn numbers cut off or outside the move list's box, scrolled to or not.
const CUT_NUMBERS: &str = "const box = document.getElementById('history').getBoundingClientRect(); \
    return [...document.querySelectorAll('#history .num')].filter(n => { \
      const r = n.getBoundingClientRect(); \
      return n.scrollWidth > n.clientWidth || r.left < box.left || r.right > box.right; \
    }).map(n => n.textContent);";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_list_numbers_turns_without_cutting_them() {
    let Some(h) = Harness::start(&[LAPTOP, PHONE]).await else {
        return;
    };
    let server = &h.server;
    let view = long_finished_game(server);
    let id = view["id"].as_str().unwrap();
    let marked = marked_moves(&view);
    let result = match view["result"]["winner"].as_u64() {
        Some(1) => "1-0",
        Some(2) => "0-1",
        _ => "½-½",
    };
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
        let numbers = js(
            c,
            "return [...document.querySelectorAll('#history .num')].map(n => n.textContent);",
        )
        .await;
        let numbers = numbers.as_array().unwrap();
        assert!(numbers.len() >= 10, "{numbers:?}");
        assert_eq!(numbers[9], json!("10."));
        assert_eq!(js(c, CUT_NUMBERS).await, json!([]), "numbers cut off");
        let end = js(
            c,
            "return document.querySelector('#history .result-mark').textContent;",
        )
        .await;
        assert_eq!(end, json!(result));
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

/// The address of the tab's icon.
const ICON: &str = "return document.querySelector('link[rel=icon]').getAttribute('href');";

/// `b`, on the home page, joins game `id` from the lobby in one click, without
/// reloading: the game shows up there once `a` has created it.
async fn join_from_the_lobby(b: &Client, id: &str) {
    let button = format!("#lobby-list button[data-game=\"{id}\"]");
    let shown = format!("document.querySelector('{button}')");
    wait_for(b, &shown, "the open game in the lobby").await;
    let entry = js(
        b,
        "return document.querySelector('#lobby-list li a').textContent;",
    )
    .await;
    assert_eq!(entry, json!("Kalah 6×4, 3+2 against Player 1"));
    b.find(Locator::Css(&button))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let there = format!("location.pathname === '/g/{id}'");
    wait_for(b, &there, "the joined game").await;
    wait_status(b, "Waiting for Player 1").await;
}

/// The home page's list of this browser's games: each entry's class and text.
async fn my_games(c: &Client) -> Value {
    let ready =
        "document.body.dataset.lists === 'fresh' && !document.getElementById('my-games').hidden";
    wait_for(c, ready, "the list of my games").await;
    js(c, "return [...document.querySelectorAll('#my-games-list li')].map(li => [li.className, li.textContent]);").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_a_public_game_and_one_click_joins() {
    let Some(h) = Harness::start(&[LAPTOP, LAPTOP]).await else {
        return;
    };
    let (a, b, server) = (&h.browsers[0], &h.browsers[1], &h.server);
    b.goto(&server.base).await.unwrap();
    wait_for(b, "document.body.dataset.lists === 'fresh'", "the lists").await;
    let empty = js(b, "return document.getElementById('lobby-empty').hidden;").await;
    assert_eq!(empty, json!(false));

    let public = "document.getElementById('public').checked = true; \
                  document.getElementById('time-control').value = '3+2';";
    let id = start_game(a, &server.base, public, "quick-friend").await;
    join_from_the_lobby(b, &id).await;
    wait_status(a, "Your turn").await;
    // The tab says so, title and icon.
    assert_eq!(
        js(a, "return document.title;").await,
        json!("(Your turn) Mancala")
    );
    assert_eq!(js(a, ICON).await, json!("/favicon-turn.svg"));

    // Back home, each finds the game among theirs; the lobby no longer lists it, the
    // games to watch do.
    a.goto(&server.base).await.unwrap();
    let mine = json!([["my-turn", "Kalah 6×4, 3+2 against Player 2: your turn"]]);
    assert_eq!(my_games(a).await, mine);
    assert_eq!(
        js(a, "return document.title;").await,
        json!("(1) Mancala: your turn")
    );
    assert_eq!(js(a, ICON).await, json!("/favicon-turn.svg"));
    let lobby = js(
        a,
        "return document.getElementById('lobby-list').children.length;",
    )
    .await;
    assert_eq!(lobby, json!(0));
    let watch = js(
        a,
        "return document.querySelector('#watch-list li a').getAttribute('href');",
    )
    .await;
    assert_eq!(watch, json!(format!("/g/{id}")));
    b.goto(&server.base).await.unwrap();
    let theirs = json!([["", "Kalah 6×4, 3+2 against Player 1: their turn"]]);
    assert_eq!(my_games(b).await, theirs);
    h.close().await;
}

/// How far the page scrolls sideways.
const SIDEWAYS: &str = "return document.documentElement.scrollWidth - window.innerWidth;";

/// Pits of the board out of sight or too narrow to tap, and whether the board scrolls.
const HIDDEN_PITS: &str = "const wrap = document.getElementById('board-wrap'); \
    return [...document.querySelectorAll('#board .house, #board .store')].filter(p => { \
      const r = p.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth || r.width < 30; \
    }).map(p => p.id).concat(wrap.scrollWidth > wrap.clientWidth ? ['scrolls'] : []);";

/// On the home page: a setting out of range, folded away, is shown rather than
/// ignored by the quick buttons; a refusal of the server shows under them.
async fn quick_buttons_say_what_is_wrong(c: &Client) {
    form_ready(c).await;
    js(c, "document.getElementById('settings').open = false; document.getElementById('seeds').value = '99';").await;
    click(c, "quick-computer").await;
    let open = js(c, "return document.getElementById('settings').open;").await;
    assert_eq!(open, json!(true));
    assert_eq!(js(c, "return location.pathname;").await, json!("/"));
    // The form offers only what the server plays; a name it keeps for the computer is
    // one thing it still refuses.
    js(c, "document.getElementById('seeds').value = '4'; document.getElementById('player-name').value = 'Medium bot';").await;
    click(c, "quick-computer").await;
    let refused = "document.getElementById('form-error').textContent";
    let error = wait_for(c, refused, "the server's refusal").await;
    assert!(
        error
            .as_str()
            .unwrap()
            .contains("name of a computer player"),
        "{error}"
    );
    // Not kept for next time.
    js(c, "document.getElementById('player-name').value = ''; localStorage.removeItem('mancala:name');").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_fit_a_phone_and_a_laptop() {
    let Some(h) = Harness::start(&[PHONE, LAPTOP]).await else {
        return;
    };
    let (phone, laptop, server) = (&h.browsers[0], &h.browsers[1], &h.server);
    phone.goto(&server.base).await.unwrap();
    wait_for(phone, "document.body.dataset.lists", "the home page").await;
    assert_eq!(js(phone, "return window.innerWidth;").await, json!(PHONE.0));
    assert_eq!(
        js(phone, SIDEWAYS).await,
        json!(0),
        "the home page scrolls sideways"
    );
    js(phone, "document.getElementById('settings').open = true; document.getElementById('import').open = true;").await;
    assert_eq!(
        js(phone, SIDEWAYS).await,
        json!(0),
        "the settings scroll sideways"
    );
    quick_buttons_say_what_is_wrong(phone).await;

    // A 16-house game on both: all of it in sight, across a laptop, down a phone.
    let body = json!({"variant": "oware", "houses": 16, "opponent": "greedy"});
    let (_, g) = server.call("POST", "/api/games", None, Some(body));
    let id = g["id"].as_str().unwrap();
    let board = "document.getElementById('h1-16') && document.getElementById('s2').dataset.count";
    for c in [phone, laptop] {
        c.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
        wait_for(c, board, "the board").await;
        assert_eq!(
            js(c, SIDEWAYS).await,
            json!(0),
            "the game page scrolls sideways"
        );
        assert_eq!(
            js(c, HIDDEN_PITS).await,
            json!([]),
            "pits out of sight or too small to tap"
        );
    }
    let down = "return document.getElementById('board').classList.contains('down');";
    assert_eq!(js(laptop, down).await, json!(false));
    assert_eq!(js(phone, down).await, json!(true));
    // The stores name their players.
    let labels = "return [1, 2].map(s => document.querySelector(`#s${s} .who`).innerText);";
    let names = json!(["Player 1\ncaptured", "Greedy bot\ncaptured"]);
    assert_eq!(js(laptop, labels).await, names);
    h.close().await;
}

/// What does not fit a phone's game page as it should: a count or a house's label on
/// more than one line, houses of unequal height, a store's name cut short, a header
/// whose parts are cut by the screen's edges or whose words wrap (it has two lines on a
/// phone, one on a laptop; of the parts it shows: the account links of the other
/// state, logged in or out, are hidden); and how far the page scrolls sideways.
const CRAMPED: &str = "const tall = (el) => el.getBoundingClientRect().height > 1.7 * parseFloat(getComputedStyle(el).fontSize); \
    const broken = (el) => { const t = el.firstChild; if (!t || t.nodeType !== 3) return false; \
      return [...t.textContent.matchAll(/\\S+/g)].some(m => { const r = document.createRange(); \
        r.setStart(t, m.index); r.setEnd(t, m.index + m[0].length); \
        return new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1; }); }; \
    const found = []; \
    for (const c of document.querySelectorAll('#board .count')) if (tall(c)) found.push(`count ${c.parentElement.id}`); \
    for (const l of document.querySelectorAll('#board .label')) if (tall(l)) found.push(`label ${l.parentElement.id}`); \
    const heights = new Set([...document.querySelectorAll('#board .house')].map(h => Math.round(h.getBoundingClientRect().height))); \
    if (heights.size > 1) found.push(`house heights ${[...heights]}`); \
    for (const b of document.querySelectorAll('#board .store .who b')) \
      if (b.scrollWidth > b.clientWidth || broken(b) || getComputedStyle(b).textOverflow === 'ellipsis') found.push(`store name ${b.textContent}`); \
    const top = document.querySelector('header.top'); \
    const parts = [...top.querySelectorAll('a, select, input, label:not(:has(select))')].filter(e => e.getClientRects().length > 0); \
    const middles = parts.map(e => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; }); \
    if (middles.length && Math.max(...middles) - Math.min(...middles) > 4 && window.innerWidth > 640) found.push('header wraps'); \
    if (parts.some(e => e.matches('a, label') && tall(e))) found.push('header text wraps'); \
    if (parts.some(e => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; })) found.push('header cut'); \
    const sideways = document.documentElement.scrollWidth - window.innerWidth; \
    if (sideways > 0) found.push(`scrolls sideways ${sideways}`); \
    const wrap = document.getElementById('board-wrap'); \
    if (wrap.scrollWidth > wrap.clientWidth) found.push('the board scrolls'); \
    return found;";

/// Phones 390 and 360 px wide: a count of 10 on one line, house labels on one line
/// and houses of one height, "Medium bot" whole in its store, the header on one line,
/// and nothing to scroll sideways, the board included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_shows_counts_labels_names_and_header_whole() {
    let Some(h) = Harness::start(&[(390, 844), PHONE]).await else {
        return;
    };
    let settings = "document.getElementById('seeds').value = '10'; document.getElementById('level').value = 'medium';";
    for c in &h.browsers {
        start_game(c, &h.server.base, settings, "quick-computer").await;
        wait_for(
            c,
            "document.querySelector('#board button.house.legal')",
            "the board",
        )
        .await;
        assert_eq!(
            js(c, "return document.getElementById('h1-1').dataset.count;").await,
            json!("10")
        );
        let width = js(c, "return window.innerWidth;").await;
        assert_eq!(js(c, CRAMPED).await, json!([]), "at {width} px");
    }
    h.close().await;
}

/// A Togyz Kumalak game between Ann (player 1) and Bob through the API, played on until
/// each owns a tuzdyk (1, 5, 2, 1, 3: Ann Bob's house 5, Bob Ann's house 1) and Bob
/// has moved again: its id and Ann's token.
fn togyz_with_claims(server: &Server) -> (String, String) {
    let body = json!({"variant": "togyzkumalak", "name": "Ann"});
    let (_, g) = server.call("POST", "/api/games", None, Some(body));
    let id = g["id"].as_str().unwrap().to_owned();
    let join = json!({"invite": g["invite"], "name": "Bob"});
    let (_, j) = server.call("POST", &format!("/api/games/{id}/join"), None, Some(join));
    let tokens = [g["token"].as_str().unwrap(), j["token"].as_str().unwrap()];
    for (ply, house) in [1, 5, 2, 1, 3, 7].into_iter().enumerate() {
        let body = json!({"house": house, "ply": ply});
        let path = format!("/api/games/{id}/moves");
        let (status, v) = server.call("POST", &path, Some(tokens[ply % 2]), Some(body));
        assert_eq!(status, 200, "{v}");
    }
    (id, tokens[0].to_owned())
}

/// Opens game `id` in browser `c` as the holder of seat 1's `token`, the sowing
/// animation off; once its board is drawn.
async fn open_as_player_1(c: &Client, base: &str, id: &str, token: &str) {
    c.goto(base).await.unwrap();
    c.execute(
        "localStorage.setItem('mancala:seat:' + arguments[0], JSON.stringify({seat: 1, token: arguments[1], at: Date.now()})); \
         localStorage.setItem('mancala:speed', '0');",
        vec![json!(id), json!(token)],
    )
    .await
    .unwrap();
    c.goto(&format!("{base}/g/{id}")).await.unwrap();
    wait_for(
        c,
        "document.querySelectorAll('#board .house.claimed').length === 2 && document.querySelector('#board button.house.legal')",
        "the board with its tuzdyks",
    )
    .await;
}

/// Each tuzdyk's badge, and whether it is drawn whole inside its house.
const TUZDYK_BADGES: &str = "return [...document.querySelectorAll('#board .house.claimed')].map(h => { \
    const a = h.getBoundingClientRect(), b = h.querySelector('.badge').getBoundingClientRect(); \
    return [h.id, h.dataset.owner, b.width > 0 && b.left >= a.left && b.right <= a.right && b.top >= a.top && b.bottom <= a.bottom]; });";

/// Togyz Kumalak's nine houses a side, with a tuzdyk each, on a laptop (1280 × 800,
/// across) and a phone (390 × 844, down the screen), light and dark: every pit in
/// sight and wide enough to tap, counts, labels and names whole, and each tuzdyk's
/// badge inside its house. `MANCALA_LOOK_SHOTS=DIR` keeps a screenshot of each.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn togyz_kumalak_fits_a_laptop_and_a_phone_with_its_tuzdyks() {
    for dark in [false, true] {
        let Some(h) = Harness::start_in(&[(1280, 800), (390, 844)], dark).await else {
            return;
        };
        let (id, token) = togyz_with_claims(&h.server);
        for (c, down) in h.browsers.iter().zip([false, true]) {
            open_as_player_1(c, &h.server.base, &id, &token).await;
            let width = js(c, "return window.innerWidth;").await;
            let at = format!("at {width} px{}", if dark { ", dark" } else { "" });
            assert_eq!(js(c, CRAMPED).await, json!([]), "{at}");
            assert_eq!(js(c, HIDDEN_PITS).await, json!([]), "{at}");
            let is_down = "return document.getElementById('board').classList.contains('down');";
            assert_eq!(js(c, is_down).await, json!(down), "{at}");
            assert_eq!(
                js(c, TUZDYK_BADGES).await,
                json!([["h2-5", "1", true], ["h1-1", "2", true]]),
                "{at}"
            );
            if let Some(dir) = std::env::var_os("MANCALA_LOOK_SHOTS") {
                let theme = if dark { "dark" } else { "light" };
                let name = format!("togyz-{width}-{theme}.png");
                let path = std::path::PathBuf::from(dir).join(name);
                std::fs::write(path, c.screenshot().await.unwrap()).unwrap();
            }
        }
        h.close().await;
    }
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

/// The screenshots of docs/web.md (and the README), at phone and laptop size: the home
/// page, a game in progress, its end, and the replay viewer.
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
    // Togyz Kumalak with a tuzdyk each.
    let (id, token) = togyz_with_claims(server);
    for (c, size) in h.browsers.iter().zip(["laptop", "phone"]) {
        open_as_player_1(c, &server.base, &id, &token).await;
        std::fs::write(
            dir.join(format!("togyz-{size}.png")),
            c.screenshot().await.unwrap(),
        )
        .unwrap();
    }
    h.close().await;
    // A game in the dark theme, on a laptop.
    let Some(h) = Harness::start_in(&[LAPTOP], true).await else {
        return;
    };
    let (c, server) = (&h.browsers[0], &h.server);
    let settings = "document.getElementById('level').value = 'greedy'; document.getElementById('seeds').value = '4';";
    let id = start_game(c, &server.base, settings, "quick-computer").await;
    play_until(c, server, &id, 7).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    std::fs::write(
        dir.join("dark-game-laptop.png"),
        c.screenshot().await.unwrap(),
    )
    .unwrap();
    h.close().await;
}
