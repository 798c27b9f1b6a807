//! The browser UI end to end: the real binary on a free loopback port, driven through
//! two independent headless Chromium sessions over WebDriver (Debian's `chromium` and
//! `chromium-driver`, which `scripts/test.sh` installs when missing).

mod browser;
mod server;

use std::time::{Duration, Instant};

use browser::{Driver, Look, chromedriver, click, session, start_driver};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use server::{Server, TestDb};

/// A light laptop-sized Chromium session of its own profile.
async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    session(driver, profile, Look::new((1100, 900))).await
}

/// Evaluates `expr` in the page until it is truthy; returns its value.
async fn wait_for(c: &Client, expr: &str, what: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = c
            .execute(&format!("return ({expr});"), vec![])
            .await
            .unwrap_or(Value::Null);
        if !(v.is_null() || v == json!(false) || v == json!("")) {
            return v;
        }
        if Instant::now() > deadline {
            panic!(
                "timed out waiting for {what}; page: {}",
                page_state(c).await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the page says, for failure messages.
async fn page_state(c: &Client) -> Value {
    c.execute(
        "return {url: location.href, status: document.getElementById('status')?.textContent, \
         message: document.getElementById('message')?.textContent, \
         legal: [...document.querySelectorAll('button.house.legal')].map(b => b.id)};",
        vec![],
    )
    .await
    .unwrap_or(Value::Null)
}

/// Sets the sowing animation speed (milliseconds per seed, 0 for none).
async fn set_speed(c: &Client, ms: u32) {
    c.execute(
        &format!("const s = document.getElementById('speed'); s.value = '{ms}'; s.dispatchEvent(new Event('change'));"),
        vec![],
    )
    .await
    .unwrap();
}

/// The `value` of an input.
async fn value(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// A server with a fresh database, chromedriver, and `n` independent browsers.
struct Harness {
    _dir: tempfile::TempDir,
    _db: TestDb,
    server: Server,
    _driver: Driver,
    browsers: Vec<Client>,
}

impl Harness {
    async fn start(path: &str, db: TestDb, n: usize) -> Harness {
        Harness::start_with(path, db, n, &[]).await
    }

    /// [`Harness::start`], with more arguments to `mancala serve`.
    async fn start_with(path: &str, db: TestDb, n: usize, args: &[&str]) -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let server = Server::start_with(&db, args);
        let driver = start_driver(path);
        let mut browsers = Vec::new();
        for i in 0..n {
            browsers.push(browser(&driver, &dir.path().join(format!("profile{i}"))).await);
        }
        Harness {
            _dir: dir,
            _db: db,
            server,
            _driver: driver,
            browsers,
        }
    }

    async fn close(self) {
        for b in self.browsers {
            b.close().await.unwrap();
        }
    }
}

async fn text(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

async fn new_game(
    c: &Client,
    base: &str,
    houses: u32,
    seeds: u32,
    opponent: Option<&str>,
) -> String {
    new_game_with(c, base, houses, seeds, opponent, "").await
}

/// [`new_game`], running `setup` (JavaScript) on the form before starting.
async fn new_game_with(
    c: &Client,
    base: &str,
    houses: u32,
    seeds: u32,
    opponent: Option<&str>,
    setup: &str,
) -> String {
    c.goto(base).await.unwrap();
    browser::form_ready(c).await;
    if !setup.is_empty() {
        c.execute(setup, vec![]).await.unwrap();
    }
    // The fastest visible animation, so sowing is still exercised.
    set_speed(c, 60).await;
    // The settings are folded away under the one-click buttons.
    c.execute("document.getElementById('settings').open = true;", vec![])
        .await
        .unwrap();
    for (id, v) in [("houses", houses), ("seeds", seeds)] {
        let input = c.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(&v.to_string()).await.unwrap();
    }
    if let Some(level) = opponent {
        click(c, "against-computer").await;
        c.execute(
            &format!("document.getElementById('level').value = '{level}';"),
            vec![],
        )
        .await
        .unwrap();
    }
    click(c, "start").await;
    let url = wait_for(
        c,
        "location.pathname.startsWith('/g/') && location.pathname",
        "the game page",
    )
    .await;
    url.as_str().unwrap().trim_start_matches("/g/").to_owned()
}

/// Waits until the page's status line starts with `prefix`.
async fn wait_status(c: &Client, prefix: &str) {
    wait_for(
        c,
        &format!("document.getElementById('status').textContent.startsWith({prefix:?})"),
        &format!("the status {prefix:?}"),
    )
    .await;
}

/// Plays the first legal house whenever it is this browser's turn; true if it moved.
async fn take_turn(c: &Client) -> bool {
    let clicked = c
        .execute(
            "const b = document.querySelector('button.house.legal:not([disabled])'); \
             if (b && document.getElementById('status').textContent.startsWith('Your turn')) { b.click(); return true; } return false;",
            vec![],
        )
        .await
        .unwrap();
    clicked == json!(true)
}

async fn game_over(c: &Client) -> bool {
    c.execute("return !document.getElementById('end-box').hidden;", vec![])
        .await
        .unwrap()
        == json!(true)
}

// Each browser test on SQLite and on PostgreSQL.
on_both_backends_async!(
    two_people_play_a_whole_game_in_two_browsers,
    one_person_plays_the_computer_while_someone_watches,
    eight_tabs_each_follow_their_game,
    the_live_connection_ends_with_the_wait_for_a_rematch,
    players_named_as_text_take_back_offer_a_draw_and_resign,
    the_computer_moves_first_and_the_clocks_tick,
    messages_without_animation_and_the_end_sweeps_the_houses,
    feeding_is_said_without_animation,
    a_chosen_sound_plays_on_the_opponent_s_move,
    a_lost_connection_shows_a_banner_and_keeps_the_move,
    a_refused_live_stream_is_said_plainly,
    a_flagged_clock_reads_zero,
);

async fn two_people_play_a_whole_game_in_two_browsers(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 2).await;
    let (a, b, server) = (&h.browsers[0], &h.browsers[1], &h.server);

    let id = new_game(a, &server.base, 3, 2, None).await;
    wait_status(a, "Waiting for your friend").await;
    // Nothing to play before the friend is there.
    assert!(
        a.find(Locator::Css("#board button.house.legal"))
            .await
            .is_err(),
        "no playable house before the opponent joins"
    );
    let link = value(a, "share-link").await;
    let watch = value(a, "watch-link").await;
    assert_eq!(watch, format!("{}/g/{id}", server.base));
    assert!(
        link.starts_with(&format!("{watch}#invite=")) && link.len() > watch.len() + 40,
        "the invite link carries a secret: {link}"
    );

    // The watch link does not offer the seat.
    b.goto(&watch).await.unwrap();
    wait_status(b, "Watching.").await;
    assert!(
        b.execute("return document.getElementById('join-box').hidden;", vec![])
            .await
            .unwrap()
            == json!(true)
    );

    b.goto(&link).await.unwrap();
    b.refresh().await.unwrap();
    set_speed(b, 0).await;
    wait_for(
        b,
        "!document.getElementById('join-box').hidden",
        "the join button",
    )
    .await;
    click(b, "join").await;
    wait_status(b, "Waiting for Player 1").await;
    // The secret leaves the address bar once used.
    assert_eq!(
        b.current_url().await.unwrap().as_str(),
        format!("{}/g/{id}", server.base)
    );
    // Player 1's page hears of the join live and asks for a move.
    wait_status(a, "Your turn").await;
    let first = a
        .find(Locator::Css("#board button.house.legal"))
        .await
        .unwrap();
    assert_eq!(first.attr("id").await.unwrap().as_deref(), Some("h1-1"));

    let deadline = Instant::now() + Duration::from_secs(60);
    let mut moves = 0;
    while !(game_over(a).await && game_over(b).await) {
        if Instant::now() > deadline {
            panic!(
                "the game did not finish; pages: {} {}",
                page_state(a).await,
                page_state(b).await
            );
        }
        for c in [a, b] {
            if take_turn(c).await {
                moves += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let (status, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(status, 200);
    assert_eq!(view["over"], true);
    assert_eq!(
        view["moves"].as_array().unwrap().len(),
        moves,
        "every click made exactly one move"
    );
    let score = |i: usize| view["result"]["scores"][i].as_u64().unwrap();
    let (p1, p2) = (score(0), score(1));
    let expected = match view["result"]["winner"].as_u64() {
        Some(1) => (
            format!("You win, {p1} to {p2}."),
            format!("Player 1 wins, {p1} to {p2}."),
        ),
        Some(2) => (
            format!("Player 2 wins, {p2} to {p1}."),
            format!("You win, {p2} to {p1}."),
        ),
        _ => (
            format!("A draw, {p1} to {p2}."),
            format!("A draw, {p1} to {p2}."),
        ),
    };
    assert_eq!((text(a, "result").await, text(b, "result").await), expected);
    assert_eq!(
        a.find_all(Locator::Css("#history li")).await.unwrap().len(),
        moves
    );

    // A rematch: player 2 asks, player 1 follows into the same new game.
    click(b, "rematch").await;
    let new_id = wait_for(
        b,
        &format!("location.pathname !== '/g/{id}' && location.pathname.slice(3)"),
        "the rematch page",
    )
    .await;
    let new_id = new_id.as_str().unwrap().to_owned();
    assert_ne!(new_id, id);
    // Player 1's page hears of it live (its stream stays open for the rematch).
    wait_for(
        a,
        "!document.getElementById('rematch-offer').hidden && \
         document.getElementById('rematch').textContent === 'Join'",
        "the rematch offer",
    )
    .await;
    assert_eq!(text(a, "rematch-offer").await, "Player 2 wants a rematch:");
    click(a, "rematch").await;
    wait_for(
        a,
        &format!("location.pathname === '/g/{new_id}'"),
        "player 1 in the rematch",
    )
    .await;
    wait_status(b, "Your turn").await;
    wait_status(a, "Waiting for Player 1").await;
    // Each player holds one seat of the rematch.
    let (_, rematch) = server.call("GET", &format!("/api/games/{new_id}"), None, None);
    assert_eq!(rematch["players"][1]["joined"], true);
    h.close().await;
}

async fn one_person_plays_the_computer_while_someone_watches(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 2).await;
    let (a, w, server) = (&h.browsers[0], &h.browsers[1], &h.server);

    let id = new_game(a, &server.base, 4, 2, Some("greedy")).await;
    w.goto(&value(a, "watch-link").await).await.unwrap();
    wait_status(w, "Watching.").await;
    assert!(
        w.find(Locator::Css("#board button.house.legal"))
            .await
            .is_err(),
        "a spectator has no playable house"
    );

    let deadline = Instant::now() + Duration::from_secs(60);
    while !game_over(a).await {
        if Instant::now() > deadline {
            panic!(
                "the game against the computer did not finish; page: {}",
                page_state(a).await
            );
        }
        take_turn(a).await;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert!(
        view["history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["seat"] == 2),
        "the computer moved"
    );
    // The spectator followed the whole game live.
    wait_for(
        w,
        "!document.getElementById('end-box').hidden",
        "the spectator's end screen",
    )
    .await;
    let seen = w.find_all(Locator::Css("#history li")).await.unwrap().len();
    assert_eq!(seen, view["moves"].as_array().unwrap().len());
    // The player asks for a rematch: the spectator is told, with a link to watch it.
    click_when_ready(a, "rematch").await;
    let rematch = wait_for(
        a,
        &format!("location.pathname !== '/g/{id}' && location.pathname"),
        "the rematch page",
    )
    .await;
    wait_for(
        w,
        "!document.getElementById('rematch-offer').hidden && !document.getElementById('rematch-link').hidden",
        "the spectator told of the rematch",
    )
    .await;
    assert_eq!(text(w, "rematch-offer").await, "Player 1 wants a rematch.");
    let link = w
        .execute(
            "return document.getElementById('rematch-link').getAttribute('href');",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(link, rematch);
    // Player 2's moves, in their column of the numbered turns, are the computer's.
    let seat_2 = w
        .execute(
            "return [...document.querySelectorAll('#history li[data-seat=\"2\"]')].map(li => li.title);",
            vec![],
        )
        .await
        .unwrap();
    let seat_2 = seat_2.as_array().unwrap();
    assert!(!seat_2.is_empty());
    assert!(
        seat_2
            .iter()
            .all(|t| t.as_str().unwrap().starts_with("Greedy bot: house")),
        "{seat_2:?}"
    );
    h.close().await;
}

/// Eight tabs of one browser, each on a game in progress: the eighth loads and plays.
/// (Browsers allow a site six open event streams over HTTP/1.1; a page that held one
/// per tab left the seventh tab blank.)
async fn eight_tabs_each_follow_their_game(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let mut ids = Vec::new();
    for tab in 0..8 {
        if tab > 0 {
            let window = c.new_window(true).await.unwrap();
            c.switch_to_window(window.handle).await.unwrap();
        }
        let created = tokio::time::timeout(
            Duration::from_secs(30),
            new_game(c, &server.base, 4, 3, Some("greedy")),
        )
        .await;
        let id = created.unwrap_or_else(|_| panic!("tab {} did not load a game", tab + 1));
        wait_status(c, "Your turn").await;
        ids.push(id);
    }
    // The eighth tab plays, and the computer's answer arrives live.
    assert!(take_turn(c).await, "{}", page_state(c).await);
    wait_for(
        c,
        "[...document.querySelectorAll('#history li')].some(li => li.title.startsWith('Greedy bot'))",
        "the computer's answer in the eighth tab",
    )
    .await;
    let (_, view) = server.call("GET", &format!("/api/games/{}", ids[7]), None, None);
    assert!(view["ply"].as_u64().unwrap() >= 2, "{view}");
    h.close().await;
}

/// A finished game's page keeps its live connection while the server waits for a
/// rematch, then lets go of it, and does not open another.
async fn the_live_connection_ends_with_the_wait_for_a_rematch(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start_with(path, db, 1, &["--rematch-wait", "6s"]).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let id = new_game(c, &server.base, 2, 1, Some("greedy")).await;
    wait_for(
        c,
        "document.body.dataset.live === 'open'",
        "the live connection",
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !game_over(c).await {
        assert!(Instant::now() < deadline, "{}", page_state(c).await);
        take_turn(c).await;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["over"], true);
    assert_eq!(
        c.execute("return document.body.dataset.live;", vec![])
            .await
            .unwrap(),
        json!("open"),
        "open for a rematch"
    );
    wait_for(
        c,
        "document.body.dataset.live === 'closed'",
        "the live connection to close",
    )
    .await;
    // The server ended it, saying why.
    assert_eq!(
        c.execute("return document.body.dataset.liveEnd;", vec![])
            .await
            .unwrap(),
        json!("1000 the game is over")
    );
    // Still closed a while later: no reconnection to a finished game.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        c.execute("return document.body.dataset.live;", vec![])
            .await
            .unwrap(),
        json!("closed")
    );
    h.close().await;
}

/// Sets this browser's name on the home page (kept in its local storage).
async fn set_name(c: &Client, base: &str, name: &str) {
    c.goto(base).await.unwrap();
    // The name is among the settings folded away under the one-click buttons.
    c.execute("document.getElementById('settings').open = true;", vec![])
        .await
        .unwrap();
    let input = c.find(Locator::Id("player-name")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(name).await.unwrap();
}

/// Clicks element `id` once it is shown and enabled.
async fn click_when_ready(c: &Client, id: &str) {
    wait_for(
        c,
        &format!(
            "(e => e && !e.hidden && !e.disabled && e.offsetParent !== null)(document.getElementById('{id}'))"
        ),
        &format!("{id} to be clickable"),
    )
    .await;
    click(c, id).await;
}

/// Whether element `id` is shown.
async fn shown(c: &Client, id: &str) -> bool {
    c.execute(
        &format!("return !document.getElementById('{id}').hidden;"),
        vec![],
    )
    .await
    .unwrap()
        == json!(true)
}

/// Names are text wherever they show (markup in a name stays letters); a takeback is
/// asked for and granted, a draw offered and declined, and a resignation ends the
/// game with its reason, in two browsers.
async fn players_named_as_text_take_back_offer_a_draw_and_resign(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 2).await;
    let (a, b, server) = (&h.browsers[0], &h.browsers[1], &h.server);
    let markup = "<img src=x onerror=alert(1)>";
    set_name(a, &server.base, markup).await;
    set_name(b, &server.base, "Bob").await;
    let id = new_game(a, &server.base, 6, 4, None).await;
    let link = value(a, "share-link").await;
    b.goto(&link).await.unwrap();
    set_speed(b, 0).await;
    wait_for(
        b,
        "!document.getElementById('join-box').hidden",
        "the join button",
    )
    .await;
    click(b, "join").await;
    wait_status(a, "Your turn").await;
    let players = format!("{markup} vs Bob · {markup} moves first");
    for c in [a, b] {
        wait_for(
            c,
            &format!("document.getElementById('players').textContent === {players:?}"),
            "the names as text",
        )
        .await;
        let images = c
            .execute("return document.querySelectorAll('img').length;", vec![])
            .await
            .unwrap();
        assert_eq!(images, json!(0), "a name is never markup");
    }
    wait_status(b, &format!("Waiting for {markup}")).await;

    // Player 1 moves, asks to take it back, and Bob agrees.
    click_when_ready(a, "h1-1").await;
    wait_status(b, "Your turn").await;
    click_when_ready(a, "offer-takeback").await;
    wait_for(
        b,
        "!document.getElementById('accept').hidden && document.getElementById('offer-text').textContent.includes('take back')",
        "the takeback request",
    )
    .await;
    assert_eq!(
        text(b, "offer-text").await,
        format!("{markup} asks to take back their last move.")
    );
    click_when_ready(b, "accept").await;
    wait_for(
        a,
        "document.querySelectorAll('#history li').length === 0",
        "the move taken back",
    )
    .await;
    wait_status(a, "Your turn").await;

    // A draw offered and declined; then Bob resigns.
    click_when_ready(a, "h1-1").await;
    wait_status(b, "Your turn").await;
    click_when_ready(a, "offer-draw").await;
    wait_for(
        b,
        "document.getElementById('offer-text').textContent.includes('draw')",
        "the draw offer",
    )
    .await;
    assert_eq!(
        text(b, "offer-text").await,
        format!("{markup} offers you a draw.")
    );
    click_when_ready(b, "decline").await;
    wait_for(
        a,
        "document.getElementById('offer-box').hidden",
        "the offer gone",
    )
    .await;
    // Until each side has moved once the page offers an abort instead of resigning.
    assert!(shown(b, "abort").await && !shown(b, "resign").await);
    click_when_ready(b, "h2-1").await;
    // Resigning takes a second click: the first only asks for it.
    click_when_ready(b, "resign").await;
    wait_for(
        b,
        "document.getElementById('resign').textContent === 'Confirm resignation' && \
         !document.getElementById('cancel-confirm').hidden",
        "the resignation to be confirmed",
    )
    .await;
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["over"], false, "one click resigned");
    click(b, "resign").await;
    for c in [a, b] {
        wait_for(c, "!document.getElementById('end-box').hidden", "the end").await;
        assert_eq!(text(c, "end-reason").await, "Bob resigned.");
        assert!(!shown(c, "play-controls").await);
    }
    assert_eq!(text(a, "result").await, "You win.");
    assert_eq!(text(b, "result").await, format!("{markup} wins."));
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["end"]["reason"], "resigned");
    assert_eq!(view["players"][0]["name"], markup);
    h.close().await;
}

/// Against the computer, the person chooses to move second, with a clock: the
/// computer moves first, and the person's clock ticks on the page from their second
/// move; an abort is offered until both have moved.
async fn the_computer_moves_first_and_the_clocks_tick(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let setup = "document.getElementById('first').value = '2'; \
                 document.getElementById('time-control').value = '3+2';";
    let id = new_game_with(c, &server.base, 6, 4, Some("greedy"), setup).await;
    wait_status(c, "Your turn").await;
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["history"][0]["seat"], 2, "{view}");
    assert_eq!(
        view["time_control"],
        json!({"initial_s": 180, "increment_s": 2})
    );
    assert!(shown(c, "clock-1").await && shown(c, "clock-2").await);
    assert_eq!(text(c, "clock-1").await, "3:00");
    assert!(
        shown(c, "abort").await,
        "nobody's clock runs yet: abort instead"
    );
    // Aborting takes a second click; Cancel takes the first back.
    click(c, "abort").await;
    assert_eq!(text(c, "abort").await, "Confirm abort");
    click(c, "cancel-confirm").await;
    assert_eq!(text(c, "abort").await, "Abort");
    assert!(!shown(c, "cancel-confirm").await);
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["over"], false, "one click aborted");
    let first = c
        .execute(
            "return document.querySelector('#history li[data-seat]').title;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        first.as_str().unwrap().starts_with("Greedy bot: house"),
        "the computer moved first: {first}"
    );
    // The first move is free; from the second on, the clock runs and ticks.
    while !take_turn(c).await {
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    wait_for(
        c,
        "document.getElementById('status').textContent.startsWith('Your turn') && \
         document.getElementById('clock-1').classList.contains('running')",
        "the person's clock running",
    )
    .await;
    wait_for(
        c,
        "document.getElementById('clock-1').textContent === '2:58'",
        "the clock ticking down",
    )
    .await;
    assert_eq!(
        text(c, "clock-2").await,
        "3:00",
        "the computer's clock stands"
    );
    assert!(!shown(c, "abort").await, "both have moved");
    assert!(shown(c, "resign").await);
    h.close().await;
}

/// With the animation off, the words for a move still come ("You move again"), and at
/// the end the seeds left in the houses go to their owner's store, so that the
/// stores show the score.
async fn messages_without_animation_and_the_end_sweeps_the_houses(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let id = new_game(c, &server.base, 6, 4, Some("greedy")).await;
    set_speed(c, 0).await;
    wait_status(c, "Your turn").await;
    // House 3 of Kalah(6,4) ends in the store.
    click_when_ready(c, "h1-3").await;
    wait_for(
        c,
        "document.getElementById('message').textContent === 'You move again.'",
        "the extra turn said without animation",
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while !game_over(c).await {
        assert!(Instant::now() < deadline, "{}", page_state(c).await);
        take_turn(c).await;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    wait_for(
        c,
        &format!("document.body.dataset.swept === '{}'", view["version"]),
        "the final sweep",
    )
    .await;
    let count = |pit: &str| format!("Number(document.getElementById('{pit}').dataset.count)");
    let shown_stores = c
        .execute(
            &format!("return [{}, {}];", count("s1"), count("s2")),
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(shown_stores, view["result"]["scores"], "{view}");
    let left = c
        .execute(
            "return [...document.querySelectorAll('button.house')].reduce((n, b) => n + Number(b.dataset.count), 0);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(left, json!(0), "Kalah leaves no seed in the houses");
    // The end is said once, in the game-over panel: not again in the status line or
    // the move's message.
    let said = c
        .execute(
            "return document.body.innerText.split(arguments[0]).length - 1;",
            vec![view["end"]["text"].clone()],
        )
        .await
        .unwrap();
    assert_eq!(said, json!(1), "the end's words, on the page");
    assert_eq!(
        text(c, "end-reason").await,
        view["end"]["text"].as_str().unwrap()
    );
    h.close().await;
}

/// In Oware, when a player's houses are empty the page says the other must feed
/// them, with the animation off: player 1 in the browser, player 2 through the API.
async fn feeding_is_said_without_animation(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let setup = "const v = document.getElementById('variant'); v.value = 'oware'; \
                 v.dispatchEvent(new Event('change'));";
    let id = new_game_with(c, &server.base, 4, 2, None, setup).await;
    set_speed(c, 0).await;
    let link = value(c, "share-link").await;
    let invite = link.rsplit("#invite=").next().unwrap();
    let (status, j) = server.call(
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"invite": invite})),
    );
    assert_eq!(status, 200, "{j}");
    let token = j["token"].as_str().unwrap();
    // Oware(4,2): after these, player 1's houses are empty and player 2 is to move.
    let line = [1, 1, 2, 1, 3, 1, 4];
    for (ply, house) in line.into_iter().enumerate() {
        if ply % 2 == 0 {
            click_when_ready(c, &format!("h1-{house}")).await;
        } else {
            wait_status(c, "Waiting for Player 2").await;
            let body = json!({"house": house, "ply": ply});
            let path = format!("/api/games/{id}/moves");
            let (status, v) = server.call("POST", &path, Some(token), Some(body));
            assert_eq!(status, 200, "{v}");
        }
    }
    wait_for(
        c,
        "document.getElementById('message').textContent === \
         'You capture 3 seeds. You have no seeds: Player 2 must give you some.'",
        "the feeding message",
    )
    .await;
    h.close().await;
}

/// The sound is off until chosen; chosen, the opponent's move plays it and the player's
/// own does not.
async fn a_chosen_sound_plays_on_the_opponent_s_move(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let chimes = "return Number(document.body.dataset.chimes || 0);";
    new_game(c, &server.base, 6, 4, Some("greedy")).await;
    set_speed(c, 0).await;
    wait_status(c, "Your turn").await;
    // House 1 of Kalah(6,4) ends in a house: the computer answers. No sound chosen.
    click_when_ready(c, "h1-1").await;
    wait_status(c, "Your turn").await;
    assert_eq!(c.execute(chimes, vec![]).await.unwrap(), json!(0));
    click(c, "sound").await;
    // Play on (a move into the store is answered by another of ours) until the
    // computer moves.
    let deadline = Instant::now() + Duration::from_secs(30);
    while c.execute(chimes, vec![]).await.unwrap() == json!(0) {
        assert!(Instant::now() < deadline, "{}", page_state(c).await);
        assert!(
            !game_over(c).await,
            "the game ended before the computer moved"
        );
        take_turn(c).await;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let stored = "return localStorage.getItem('mancala:sound');";
    assert_eq!(c.execute(stored, vec![]).await.unwrap(), json!("on"));
    h.close().await;
}

/// With the server gone the page says it is reconnecting; a move played meanwhile is
/// said not to have been sent, and is sent once the server is back.
async fn a_lost_connection_shows_a_banner_and_keeps_the_move(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let id = new_game(c, &server.base, 6, 4, Some("greedy")).await;
    set_speed(c, 0).await;
    wait_status(c, "Your turn").await;
    wait_for(
        c,
        "document.body.dataset.live === 'open'",
        "the live connection",
    )
    .await;
    assert!(!shown(c, "conn-banner").await);
    server.kill();
    wait_for(
        c,
        "!document.getElementById('conn-banner').hidden && \
         document.getElementById('conn-banner').textContent === 'Connection lost. Reconnecting…'",
        "the reconnecting banner",
    )
    .await;
    // House 1 of Kalah(6,4) ends in a house: the computer answers once it is sent.
    click_when_ready(c, "h1-1").await;
    wait_for(
        c,
        "document.getElementById('message').textContent === \
         'Your move (house 1) could not be sent: it will be sent when the connection is back.'",
        "the move said not sent",
    )
    .await;
    let page = c
        .execute("return document.body.innerText;", vec![])
        .await
        .unwrap();
    assert!(
        !page.as_str().unwrap().contains("Failed to fetch"),
        "{page}"
    );
    let back = Server::restart(&h._db, server);
    wait_for(
        c,
        "document.getElementById('conn-banner').hidden",
        "the banner gone",
    )
    .await;
    wait_for(
        c,
        "[...document.querySelectorAll('#history li')].some(li => li.title.startsWith('Greedy bot'))",
        "the kept move sent and answered",
    )
    .await;
    let (_, view) = back.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(view["history"][0]["house"], 1, "{view}");
    h.close().await;
}

/// At the per-client cap of live streams the page says so in words, not an empty bar.
async fn a_refused_live_stream_is_said_plainly(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start_with(&db, &["--max-streams-per-client", "1"]);
    let driver = start_driver(path);
    let c = browser(&driver, &dir.path().join("profile")).await;
    let first = new_game(&c, &server.base, 6, 4, Some("greedy")).await;
    wait_for(
        &c,
        "document.body.dataset.live === 'open'",
        "the first stream",
    )
    .await;
    let window = c.new_window(true).await.unwrap();
    c.switch_to_window(window.handle).await.unwrap();
    let second = new_game(&c, &server.base, 6, 4, Some("greedy")).await;
    assert_ne!(first, second);
    let banner = wait_for(
        &c,
        "document.body.dataset.banner === 'refused' && document.getElementById('conn-banner').textContent",
        "the refusal said",
    )
    .await;
    assert_eq!(
        banner,
        json!(
            "Live updates are paused: this browser follows too many games at once. \
             Close some game tabs; this page tries again by itself."
        )
    );
    c.close().await.unwrap();
}

/// A player whose time ran out has a clock that reads 0:00.
async fn a_flagged_clock_reads_zero(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let h = Harness::start(path, db, 1).await;
    let (c, server) = (&h.browsers[0], &h.server);
    let body = json!({"variant": "kalah", "time_control": {"initial_s": 10, "increment_s": 0}});
    let (status, g) = server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap();
    let join = json!({"invite": g["invite"]});
    let (_, j) = server.call("POST", &format!("/api/games/{id}/join"), None, Some(join));
    let tokens = [g["token"].as_str().unwrap(), j["token"].as_str().unwrap()];
    // Player 1's second move (into their store) leaves them to move again: their clock
    // runs from that move on, and runs out.
    for (ply, (seat, house)) in [(0, 1), (1, 1), (0, 2)].into_iter().enumerate() {
        let body = json!({"house": house, "ply": ply});
        let (status, v) = server.call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(tokens[seat]),
            Some(body),
        );
        assert_eq!(status, 200, "{v}");
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
        if view["over"] == true {
            assert_eq!(view["end"]["reason"], "out-of-time", "{view}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the clock did not run out: {view}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    c.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
    wait_for(c, "!document.getElementById('end-box').hidden", "the end").await;
    let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
    let flagged = view["end"]["player"].as_u64().unwrap();
    assert_eq!(text(c, &format!("clock-{flagged}")).await, "0:00");
    h.close().await;
}
