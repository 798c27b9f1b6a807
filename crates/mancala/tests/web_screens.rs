//! The game page on every screen (issue 53), as a player sees it in headless Chromium
//! against the real binary: at 320 px nothing is wider than the screen, on a phone each
//! store sits beside its own player's panel, the replay opens at its top, the move
//! list never shows half a row at its top, and on a laptop the board takes at least a
//! fifth of the window. The keyboard, screen readers and ratings are web_keys.rs's.

mod browser;
mod server;
mod site;

use browser::{Look, js, wait_for};
use fantoccini::Client;
use serde_json::{Value, json};
use site::{
    Site, finished_game, friend_game, hold_seat, open, rated_game, sign_up, togyz_with_claims,
};

const LAPTOP: (u32, u32) = (1366, 900);
const PHONE: (u32, u32) = (390, 844);
const SMALL: (u32, u32) = (320, 700);

/// How far the page is wider than the screen, and what of the header sticks out.
const TOO_WIDE: &str = "const w = window.innerWidth; const out = []; \
    const sideways = document.scrollingElement.scrollWidth - w; if (sideways > 0) out.push(`scrolls sideways ${sideways}`); \
    for (const e of document.querySelectorAll('header.top *')) { const r = e.getBoundingClientRect(); \
      if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) out.push(`header: ${e.id || e.className || e.tagName} out`); \
      if (e.matches('a, button') && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis') out.push(`header: ${e.id || e.tagName} cut`); } \
    return [w, out];";

/// Every page at 320 × 700, logged out and logged in, light or dark: none scrolls
/// sideways and nothing in the header is cut (the page was 355 px wide: "Log in" cut
/// to "Lo", a name to "ann_", a player's name one letter a line beside a claim badge).
async fn nothing_is_wider_than_a_small_phone(dark: bool) {
    let Some(mut site) = Site::start() else {
        return;
    };
    let c = site
        .browser(Look {
            dark,
            ..Look::new(SMALL)
        })
        .await;
    let base = site.server.base.clone();
    let (togyz, tokens) = togyz_with_claims(&site.server);
    hold_seat(&c, &togyz, 1, &tokens[0]).await;
    let (finished, _) = finished_game(&site.server);
    let board = "document.querySelectorAll('#board .house.claimed').length === 2";
    let replay = "document.getElementById('replay-where').textContent";
    let pages = [
        ("/", "document.body.dataset.lists"),
        (&format!("/g/{togyz}") as &str, board),
        (&format!("/g/{togyz}/replay"), board),
        (
            &format!("/g/{finished}"),
            "!document.getElementById('end-box').hidden",
        ),
        (&format!("/g/{finished}/replay"), replay),
        (
            "/leaderboard",
            "document.getElementById('leaders-pool').options.length",
        ),
    ];
    let mut found = Vec::new();
    for login in [false, true] {
        if login {
            sign_up(&c, "ann_rasmussen_long").await;
            // A profile with its ratings' table (it ran to 346 px).
            let rated = rated_game(&site.server, ["cleo_rasmussen_x", "dan"]);
            let profile = "!document.getElementById('profile-ratings').hidden";
            let profiles = [
                ("/@/cleo_rasmussen_x", profile),
                (
                    "/@/ann_rasmussen_long",
                    "document.getElementById('profile-name').textContent",
                ),
            ];
            pages_at(&c, &base, &profiles, &mut found, "logged in").await;
            pages_at(
                &c,
                &base,
                &[(
                    &format!("/g/{rated}"),
                    "!document.getElementById('end-box').hidden",
                )],
                &mut found,
                "a rated game",
            )
            .await;
        }
        let state = if login { "logged in" } else { "logged out" };
        pages_at(&c, &base, &pages, &mut found, state).await;
    }
    assert_eq!(found, Vec::<String>::new(), "dark: {dark}");
    c.close().await.unwrap();
}

/// Opens each page and notes what is too wide on it.
async fn pages_at(
    c: &Client,
    base: &str,
    pages: &[(&str, &str)],
    found: &mut Vec<String>,
    state: &str,
) {
    for (path, ready) in pages {
        open(c, base, path, ready).await;
        // The folded parts of the home page open too.
        js(
            c,
            "for (const d of document.querySelectorAll('details')) d.open = true;",
        )
        .await;
        let [w, out] = serde_json::from_value::<[Value; 2]>(js(c, TOO_WIDE).await).unwrap();
        if w != json!(SMALL.0) || out != json!([]) {
            found.push(format!("{path} ({state}): {w} px wide, {out}"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_wider_than_a_small_phone_in_the_light_theme() {
    nothing_is_wider_than_a_small_phone(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_is_wider_than_a_small_phone_in_the_dark_theme() {
    nothing_is_wider_than_a_small_phone(true).await;
}

/// For each seat, how far (vertically, between centres) its store is from its own
/// panel and from the other player's; and whether the board runs down the screen.
const STORE_DISTANCES: &str = "const mid = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return (r.top + r.bottom) / 2; }; \
    return [document.getElementById('board').classList.contains('down'), \
      [1, 2].map(s => [Math.abs(mid('s' + s) - mid('panel-' + s)), Math.abs(mid('s' + s) - mid('panel-' + (3 - s)))])];";

/// On a phone, where the board runs down the screen, each store is nearer its owner's
/// panel than the other's: Togyz Kumalak at 390 px, Kalah at 320 px, as player 1 and
/// as a spectator (the stores were drawn beside the other player: "You captured 22"
/// under the opponent's panel).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_store_is_beside_its_player_on_a_phone() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let (togyz, tokens) = togyz_with_claims(&site.server);
    let (kalah, kalah_tokens) = friend_game(
        &site.server,
        json!({"variant": "kalah", "houses": 8, "seeds": 4, "name": "Ann"}),
    );
    for (size, id, token) in [
        (PHONE, &togyz, &tokens[0]),
        (SMALL, &kalah, &kalah_tokens[0]),
    ] {
        let c = site.browser(Look::new(size)).await;
        for seat in [Some(1), None] {
            if let Some(seat) = seat {
                hold_seat(&c, id, seat, token).await;
            } else {
                js(&c, "localStorage.clear();").await;
            }
            open(
                &c,
                &base,
                &format!("/g/{id}"),
                "document.getElementById('s2').dataset.count",
            )
            .await;
            let [down, distances] =
                serde_json::from_value::<[Value; 2]>(js(&c, STORE_DISTANCES).await).unwrap();
            let at = format!("{} px, seat {seat:?}", size.0);
            assert_eq!(down, json!(true), "{at}");
            for (s, d) in distances.as_array().unwrap().iter().enumerate() {
                let (own, other) = (d[0].as_f64().unwrap(), d[1].as_f64().unwrap());
                assert!(
                    own < other,
                    "{at}: store {} is {own} px from its panel, {other} from the other",
                    s + 1
                );
            }
        }
        c.close().await.unwrap();
    }
}

/// Whether the move list's top row is whole: its scroll falls on a row's top edge.
const TOP_ROW_WHOLE: &str = "const h = document.getElementById('history'); \
    return h.scrollTop === 0 || [...h.children].some(r => Math.abs(r.offsetTop - h.scrollTop) < 1);";

/// The replay of a long game opens at the top of a phone's page (it opened scrolled
/// 180-320 px down, past the header, the opponent's panel and the top row) and stays
/// there while stepping through the moves; the move list scrolls within itself, its
/// top row whole, there and on the finished game's page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_opens_at_its_top_and_the_move_list_shows_whole_rows() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let (id, tokens) = finished_game(&site.server);
    let c = site.browser(Look::new(PHONE)).await;
    hold_seat(&c, &id, 1, &tokens[0]).await;
    let where_ = "document.getElementById('replay-where').textContent";
    open(&c, &base, &format!("/g/{id}/replay"), where_).await;
    assert_eq!(
        js(&c, "return window.scrollY;").await,
        json!(0),
        "the replay opens scrolled"
    );
    assert_eq!(
        js(&c, TOP_ROW_WHOLE).await,
        json!(true),
        "the replay's list"
    );
    js(&c, "document.getElementById('replay-first').click();").await;
    for step in 1..=4 {
        js(&c, "document.getElementById('replay-next').click();").await;
        let at =
            format!("'Move' + ' ' && document.getElementById('replay-ply').value === '{step}'");
        wait_for(&c, &at, "the next move").await;
        assert_eq!(
            js(&c, "return window.scrollY;").await,
            json!(0),
            "after › {step}"
        );
        assert_eq!(js(&c, TOP_ROW_WHOLE).await, json!(true), "after › {step}");
    }
    for size in [PHONE, LAPTOP] {
        let c = site.browser(Look::new(size)).await;
        open(
            &c,
            &base,
            &format!("/g/{id}"),
            "!document.getElementById('end-box').hidden",
        )
        .await;
        let scrolls =
            "const h = document.getElementById('history'); return h.scrollHeight > h.clientHeight;";
        assert_eq!(
            js(&c, scrolls).await,
            json!(true),
            "a list long enough to scroll"
        );
        assert_eq!(
            js(&c, TOP_ROW_WHOLE).await,
            json!(true),
            "the game's list at {} px",
            size.0
        );
        c.close().await.unwrap();
    }
    c.close().await.unwrap();
}

/// The board's share of a 1366 × 900 window.
const BOARD_SHARE: &str = "const r = document.getElementById('board').getBoundingClientRect(); return r.width * r.height / (1366 * 900);";

/// On a laptop the board takes at least a fifth of a 1366 × 900 window (it took 13%,
/// 768 × 179 px, with more than half the screen empty below it), Kalah and Togyz
/// Kumalak, still across the screen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_takes_a_fifth_of_a_laptop_window() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let (togyz, _) = togyz_with_claims(&site.server);
    let (kalah, _) = friend_game(&site.server, json!({"variant": "kalah"}));
    let c = site.browser(Look::new(LAPTOP)).await;
    for id in [kalah, togyz] {
        open(
            &c,
            &base,
            &format!("/g/{id}"),
            "document.getElementById('s2').dataset.count",
        )
        .await;
        let share = js(&c, BOARD_SHARE).await.as_f64().unwrap();
        assert!(share >= 0.2, "the board takes {share:.3} of the window");
        let down = "return document.getElementById('board').classList.contains('down');";
        assert_eq!(js(&c, down).await, json!(false));
    }
    c.close().await.unwrap();
}

/// What the home page and a game offer fits who is there: the username's and the
/// password's rules are shown in the log-in dialog before anything is sent; logged in,
/// the form no longer asks for a name (it was ignored); the games to watch say the
/// seeds banked in words ("0–1" read like a result); a game aborted before anyone took
/// the other seat offers no rematch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_pages_offer_fits_who_is_there() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    // A public game being played, for the list of games to watch.
    let body = json!({"variant": "kalah", "public": true, "name": "Cleo"});
    let (watched, tokens) = friend_game(&site.server, body);
    site::play(&site.server, &watched, &tokens, &[1]);
    let c = site.browser(Look::new(PHONE)).await;
    let lists = "document.body.dataset.lists && document.querySelector('#watch-list li')";
    open(&c, &base, "/", lists).await;
    let watch = js(
        &c,
        "return document.querySelector('#watch-list li').textContent;",
    )
    .await;
    let watch = watch.as_str().unwrap();
    assert!(
        watch.contains("seeds banked") && !watch.contains('–'),
        "{watch}"
    );
    js(&c, "document.getElementById('login-open').click();").await;
    let rules = "return ['username-rules', 'password-rules'].map(id => document.getElementById(id).getClientRects().length > 0 && document.getElementById(id).textContent);";
    let shown = js(&c, rules).await;
    assert!(shown[0].as_str().unwrap().contains("3 to 20"), "{shown}");
    assert!(shown[1].as_str().unwrap().contains("at least 8"), "{shown}");
    // A name too long is kept as typed and refused with the rules, not cut to 20.
    let long = "a".repeat(30);
    let field = c
        .find(fantoccini::Locator::Id("account-username"))
        .await
        .unwrap();
    field.send_keys(&long).await.unwrap();
    let typed = "const f = document.getElementById('account-username'); return [f.value.length, f.checkValidity()];";
    assert_eq!(js(&c, typed).await, json!([30, false]));
    js(&c, "document.getElementById('account-dialog').close();").await;
    let name_asked = "return document.getElementById('player-name').getClientRects().length > 0;";
    js(&c, "document.getElementById('settings').open = true;").await;
    assert_eq!(js(&c, name_asked).await, json!(true), "logged out");
    sign_up(&c, "ann_r").await;
    c.goto(&format!("{base}/g/none")).await.unwrap();
    open(
        &c,
        &base,
        "/",
        "document.body.dataset.form === 'ready' && !document.getElementById('me-link').hidden",
    )
    .await;
    js(&c, "document.getElementById('settings').open = true;").await;
    assert_eq!(js(&c, name_asked).await, json!(false), "logged in");
    // Ann's game against a friend who never came, aborted.
    let (status, g) = site.server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "kalah"})),
    );
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap();
    hold_seat(&c, id, 1, g["token"].as_str().unwrap()).await;
    let (status, v) = site.server.call(
        "POST",
        &format!("/api/games/{id}/abort"),
        g["token"].as_str(),
        None,
    );
    assert_eq!(status, 200, "{v}");
    open(
        &c,
        &base,
        &format!("/g/{id}"),
        "!document.getElementById('end-box').hidden",
    )
    .await;
    assert_eq!(
        js(&c, "return document.getElementById('rematch').hidden;").await,
        json!(true)
    );
    c.close().await.unwrap();
}

/// The move list heads its columns with the players' names, and when player 2 moved
/// first its first turn shows "…" for player 1's move (the cell was blank).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_list_names_its_columns() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let body = json!({"variant": "kalah", "name": "Ann", "first": 2});
    let (id, tokens) = friend_game(&site.server, body);
    site::play(&site.server, &id, &tokens, &[1]);
    let c = site.browser(Look::new(SMALL)).await;
    hold_seat(&c, &id, 1, &tokens[0]).await;
    open(
        &c,
        &base,
        &format!("/g/{id}"),
        "document.querySelector('#history .round')",
    )
    .await;
    let heads =
        "return [...document.querySelectorAll('#history .heads span')].map(s => s.textContent);";
    assert_eq!(js(&c, heads).await, json!(["", "You", "Bob"]));
    let first = "const r = document.querySelector('#history .round'); \
        return [getComputedStyle(r.children[1], '::before').content, r.children[2].textContent];";
    assert_eq!(js(&c, first).await, json!(["\"…\"", "1"]));
    c.close().await.unwrap();
}

/// A log-in throttled after too many wrong passwords says how long to wait (it said
/// only "wait, then try again").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttled_log_in_says_how_long_to_wait() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    site::account(&site.server, "ann_r");
    let c = site.browser(Look::new(PHONE)).await;
    open(&c, &base, "/", "document.body.dataset.form === 'ready'").await;
    js(&c, "document.getElementById('login-open').click();").await;
    let mut said = Value::Null;
    for attempt in 0..8 {
        js(
            &c,
            "document.getElementById('account-username').value = 'ann_r'; \
                document.getElementById('account-password').value = 'not the password'; \
                document.getElementById('account-error').textContent = ''; \
                document.querySelector('#account-form button[value=login]').click();",
        )
        .await;
        let answered = "document.getElementById('account-error').textContent && \
            !document.querySelector('#account-form button[value=login]').disabled && \
            document.getElementById('account-error').textContent";
        said = wait_for(&c, answered, &format!("the answer to attempt {attempt}")).await;
        if said.as_str().unwrap().starts_with("Too many") {
            break;
        }
    }
    let said = said.as_str().unwrap();
    let wait = wait_said(said);
    assert!(wait.is_some(), "{said}");
    c.close().await.unwrap();
}

/// The seconds or minutes in "… (in 59 seconds).", if the text ends so.
fn wait_said(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Too many log-in attempts")?;
    let inner = rest.rsplit_once("(in ")?.1.strip_suffix(").")?;
    let (n, unit) = inner.split_once(' ')?;
    ["second", "seconds", "minutes"]
        .contains(&unit)
        .then_some(())?;
    n.parse().ok()
}
