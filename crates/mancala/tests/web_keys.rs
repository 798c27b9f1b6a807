//! The game page for people who play without a mouse or without sight, and for rated
//! games (issue 53), in headless Chromium against the real binary: keyboard play keeps
//! the focus on the board and the opponent's reply is said; every spoken count equals
//! the one shown, the end's sweep included; the clocks say whose they are and their
//! time; a rated game shows both ratings beside the names and asks a logged-out friend
//! to log in before taking the seat.

mod browser;
mod server;
mod site;

use std::time::{Duration, Instant};

use browser::{Look, js, wait_for};
use fantoccini::Client;
use serde_json::{Value, json};
use site::{Site, account, finished_game, hold_seat, open, play, sign_up};

const LAPTOP: (u32, u32) = (1366, 900);
const PHONE: (u32, u32) = (390, 844);

/// Presses Enter on whatever has the focus.
async fn enter(c: &Client) {
    let active = c.active_element().await.unwrap();
    active.send_keys("\u{E007}").await.unwrap();
}

/// Waits until game `id` has at least `plies` moves and is back with player 1 (or
/// over), through the API; its view. Waiting for the count alone raced a computer's
/// extra turn: the view was read between its two sowings.
async fn wait_turn(site: &Site, id: &str, plies: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, view) = site
            .server
            .call("GET", &format!("/api/games/{id}"), None, None);
        let back = view["to_move"] == 1 || view["over"] == true;
        if view["ply"].as_u64().unwrap() >= plies && back {
            return view;
        }
        assert!(
            Instant::now() < deadline,
            "{plies} plies not reached: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A move played with Enter keeps the focus on the board: on the board while the
/// computer answers, then on a legal house, so that the next Enter plays again with no
/// Tab (the focus fell back to the page: six Tabs through the header). The computer's
/// reply is said in a polite live region. With the sowing animated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyboard_play_keeps_the_focus_on_the_board() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let body = json!({"variant": "kalah", "opponent": "easy", "name": "Ann"});
    let (status, g) = site.server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let c = site.browser(Look::new(LAPTOP)).await;
    hold_seat(&c, &id, 1, g["token"].as_str().unwrap()).await;
    js(&c, "localStorage.setItem('mancala:speed', '60');").await;
    let base = site.server.base.clone();
    open(
        &c,
        &base,
        &format!("/g/{id}"),
        "document.querySelector('#board button.house.legal')",
    )
    .await;
    // House 1 of Kalah 6×4 ends in house 5: the computer moves next.
    js(&c, "document.getElementById('h1-1').focus();").await;
    let mut plies = 0;
    for round in 0..3 {
        enter(&c).await;
        let on_board = "document.getElementById('board').contains(document.activeElement)";
        wait_for(
            &c,
            on_board,
            "the focus on the board while the move is sown",
        )
        .await;
        let view = wait_turn(&site, &id, plies + 1).await;
        plies = view["ply"].as_u64().unwrap();
        let focused = "document.getElementById('status').textContent.startsWith('Your turn') && \
            document.activeElement.matches('#board button.house.legal') && document.activeElement.id";
        wait_for(
            &c,
            focused,
            &format!("the focus on a legal house, round {round}"),
        )
        .await;
        // Round 0 always has a reply (house 1 does not end in the store); a later
        // round's house may give Ann an extra turn, and then there is none to say.
        let reply = &view["last_move"];
        assert!(round > 0 || reply["seat"] == 2, "{view}");
        if reply["seat"] == 2 {
            let said = format!("Easy bot sows house {}.", reply["house"]);
            let now = js(&c, "return document.getElementById('said').textContent;").await;
            assert_eq!(now, json!(said), "round {round}");
        }
        if view["over"] == true || view["to_move"] != 1 {
            break;
        }
    }
    c.close().await.unwrap();
}

/// Each pit's spoken label and shown count: those that differ.
const LABELS_UNLIKE_COUNTS: &str = "return [...document.querySelectorAll('#board [data-count]')].filter(e => \
    !e.classList.contains('claimed') && !e.getAttribute('aria-label').endsWith(`, ${e.dataset.count} seed${e.dataset.count === '1' ? '' : 's'}`)) \
    .map(e => `${e.id}: ${e.getAttribute('aria-label')} but ${e.dataset.count} shown`);";

/// At the end of a game the seeds left go to their owners' stores on the board, and the
/// spoken labels say so: "Bob's store, 55 seeds" as 55 is shown, not the 48 of before
/// the sweep; every house "0 seeds". At a laptop's and a phone's size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spoken_counts_equal_the_shown_ones_at_the_end() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let (id, tokens) = finished_game(&site.server);
    let (_, view) = site
        .server
        .call("GET", &format!("/api/games/{id}"), None, None);
    let sweep = &view["end"]["sweep"];
    assert!(
        sweep[0].as_u64().unwrap() + sweep[1].as_u64().unwrap() > 0,
        "{view}"
    );
    let base = site.server.base.clone();
    for size in [LAPTOP, PHONE] {
        let c = site.browser(Look::new(size)).await;
        hold_seat(&c, &id, 1, &tokens[0]).await;
        js(&c, "localStorage.setItem('mancala:speed', '60');").await;
        open(
            &c,
            &base,
            &format!("/g/{id}"),
            "document.body.dataset.swept",
        )
        .await;
        assert_eq!(
            js(&c, LABELS_UNLIKE_COUNTS).await,
            json!([]),
            "at {} px",
            size.0
        );
        let scores =
            "return [1, 2].map(s => Number(document.getElementById('s' + s).dataset.count));";
        assert_eq!(js(&c, scores).await, view["result"]["scores"]);
        c.close().await.unwrap();
    }
}

/// Each clock is named by whose it is and the time it shows ("Your clock, 5:00 left",
/// "Easy bot's clock, 5:00 left"): the name replaces the text for a screen reader,
/// which read "Your clock" and no time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clocks_say_whose_they_are_and_their_time() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let body = json!({"variant": "kalah", "opponent": "easy", "name": "Ann",
        "time_control": {"initial_s": 300, "increment_s": 0}});
    let (status, g) = site.server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let c = site.browser(Look::new(PHONE)).await;
    hold_seat(&c, &id, 1, g["token"].as_str().unwrap()).await;
    let base = site.server.base.clone();
    open(
        &c,
        &base,
        &format!("/g/{id}"),
        "document.getElementById('clock-1').textContent",
    )
    .await;
    let clocks = "return [1, 2].map(s => { const c = document.getElementById('clock-' + s); return [c.getAttribute('aria-label'), c.textContent]; });";
    let shown = js(&c, clocks).await;
    for (i, owner) in ["Your", "Easy bot's"].iter().enumerate() {
        let [label, text] = [&shown[i][0], &shown[i][1]];
        assert_eq!(
            *label,
            json!(format!("{owner} clock, {} left", text.as_str().unwrap())),
            "{shown}"
        );
    }
    c.close().await.unwrap();
}

/// A rated game between accounts: a logged-out friend opening the invite is told to
/// log in (not that the seat is theirs: Join then failed with a lower-case error and
/// no way to log in), "Log in to join" opens the log-in dialog; logged in, they join,
/// and both panels show the ratings beside the names ("1500?", provisional), then the
/// rating and its change after the game, each entry of the end panel's line whole; the
/// end's sentence keeps a username as written (it read "Bob_b resigned.").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_asks_to_log_in_and_shows_the_ratings() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let ann = account(&site.server, "ann_r");
    let g: Value = ureq::post(&format!("{}/api/games", site.server.base))
        .set("Cookie", &ann)
        .send_json(json!({"variant": "kalah", "rated": true}))
        .unwrap()
        .into_json()
        .unwrap();
    let id = g["id"].as_str().unwrap().to_owned();
    let invite = g["invite"].as_str().unwrap();
    let c = site.browser(Look::new(PHONE)).await;
    let base = site.server.base.clone();
    let join_box = "!document.getElementById('join-box').hidden && document.getElementById('join-box').textContent";
    open(&c, &base, &format!("/g/{id}#invite={invite}"), join_box).await;
    let words = js(&c, "return [document.querySelector('#join-box p').textContent, document.getElementById('join').textContent];").await;
    assert_eq!(
        words,
        json!([
            "This game is rated: log in or create an account to take player 2's seat.",
            "Log in to join"
        ])
    );
    js(&c, "document.getElementById('join').click();").await;
    wait_for(
        &c,
        "document.getElementById('account-dialog').open",
        "the log-in dialog",
    )
    .await;
    js(&c, "document.getElementById('account-dialog').close();").await;
    sign_up(&c, "bob_b").await;
    // Away and back, as the dialog's reload does (the same address would only scroll).
    c.goto(&base).await.unwrap();
    open(&c, &base, &format!("/g/{id}#invite={invite}"), join_box).await;
    assert_eq!(
        js(&c, "return document.getElementById('join').textContent;").await,
        json!("Join as player 2")
    );
    js(&c, "document.getElementById('join').click();").await;
    let ratings = "return [1, 2].map(s => document.getElementById('rating-' + s).textContent);";
    wait_for(
        &c,
        "document.getElementById('rating-2').textContent",
        "the ratings",
    )
    .await;
    assert_eq!(js(&c, ratings).await, json!(["1500?", "1500?"]));
    // A move each (no extra turn), then Bob resigns from his seat in this browser.
    let seat = js(
        &c,
        &format!("return JSON.parse(localStorage.getItem('mancala:seat:{id}')).token;"),
    )
    .await;
    let tokens = [
        g["token"].as_str().unwrap().to_owned(),
        seat.as_str().unwrap().to_owned(),
    ];
    play(&site.server, &id, &tokens, &[1, 2]);
    let (status, v) = site.server.call(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&tokens[1]),
        Some(json!({})),
    );
    assert_eq!(status, 200, "{v}");
    let rated = "/^\\d+\\? [+−]\\d+$/.test(document.getElementById('rating-2').textContent) && document.querySelectorAll('#end-rating .entry').length === 2";
    wait_for(&c, rated, "the ratings after the game").await;
    let entries = "return [...document.querySelectorAll('#end-rating .entry')].map(e => getComputedStyle(e).whiteSpace);";
    assert_eq!(js(&c, entries).await, json!(["nowrap", "nowrap"]));
    // A username begins the end's sentence as its owner wrote it ("Bob_b resigned.").
    let reason = js(
        &c,
        "return document.getElementById('end-reason').textContent;",
    )
    .await;
    assert_eq!(reason, json!("bob_b resigned."));
    c.close().await.unwrap();
}

/// A declined draw offer and an accepted takeback are said to the player who asked,
/// who was told nothing: the offer just went away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_asker_is_told_the_answer_to_an_offer() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let body = json!({"variant": "kalah", "name": "Ann"});
    let (id, tokens) = site::friend_game(&site.server, body);
    let c = site.browser(Look::new(PHONE)).await;
    hold_seat(&c, &id, 1, &tokens[0]).await;
    let base = site.server.base.clone();
    let legal = "document.querySelector('#board button.house.legal')";
    open(&c, &base, &format!("/g/{id}"), legal).await;
    let answer = |path: &str| {
        let (status, v) = site.server.call(
            "POST",
            &format!("/api/games/{id}/{path}"),
            Some(&tokens[1]),
            None,
        );
        assert_eq!(status, 200, "{path}: {v}");
    };
    let offered = "!document.getElementById('offer-box').hidden && document.getElementById('offer-text').textContent.startsWith('You offered')";
    let message =
        |text: &str| format!("document.getElementById('message').textContent === {text:?}");
    js(&c, "document.getElementById('offer-draw').click();").await;
    wait_for(&c, offered, "the draw offered").await;
    answer("decline");
    wait_for(
        &c,
        &message("Your draw offer was declined."),
        "the draw declined said",
    )
    .await;
    // House 1 of Kalah 6×4 gives no extra turn: Ann asks to take it back, Bob accepts.
    play(&site.server, &id, &tokens, &[1]);
    let can_ask = "!document.getElementById('offer-takeback').hidden";
    wait_for(&c, can_ask, "the takeback button").await;
    js(&c, "document.getElementById('offer-takeback').click();").await;
    wait_for(&c, offered, "the takeback asked").await;
    answer("accept");
    let accepted = message("Your takeback was accepted: your last move is taken back.");
    wait_for(&c, &accepted, "the takeback accepted said").await;
    c.close().await.unwrap();
}
