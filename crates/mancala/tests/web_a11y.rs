//! The web game readable and usable by everyone, end to end in headless Chromium: every
//! text on the home page, a game in progress, a finished game and the replay viewer
//! (with a game's computer analysis, too) meets WCAG AA contrast (4.5:1, 3:1 for large text) in the light and the dark theme,
//! at a laptop's width (1366 px) and two phones' (390 and 320 px), measured in the page from the
//! computed styles; axe-core (from npm: `scripts/test.sh` installs it in `.axe-core/`)
//! finds nothing serious or critical there; the houses are played from the keyboard and
//! named for screen readers; a system that asks for reduced motion gets no sowing
//! animation.

mod browser;
mod server;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use browser::{Driver, Look, chromedriver, js, session, start_driver, wait_for};
use fantoccini::Client;
use serde_json::{Value, json};
use server::{Server, TestDb};

const LAPTOP: (u32, u32) = (1366, 768);
const PHONE: (u32, u32) = (390, 844);
const SMALL_PHONE: (u32, u32) = (320, 700);

/// axe-core's script: `MANCALA_AXE`, else where `scripts/test.sh` installs it. `None`
/// when it is not there: a failure under `CI=true`, a loud skip elsewhere.
fn axe_source() -> Option<String> {
    let path = std::env::var_os("MANCALA_AXE").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../.axe-core/node_modules/axe-core/axe.min.js")
        },
        PathBuf::from,
    );
    match std::fs::read_to_string(&path) {
        Ok(source) => Some(source),
        Err(e) => {
            let message = format!(
                "axe-core is not installed at {} ({e}): run scripts/test.sh, or \
                 `npm install --prefix .axe-core axe-core@4`",
                path.display()
            );
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
            eprintln!("SKIPPED the axe-core checks: {message}");
            None
        }
    }
}

/// The texts of the page whose contrast with what is behind them is below WCAG AA:
/// each visible text node (and each form field's value, and text the style sheet
/// draws before or after an element) against the colours of its
/// element's ancestors, composed from the page's canvas up (every stop of a gradient
/// counts). Text in a disabled control drawn faded is exempt, as WCAG exempts inactive
/// components.
const LOW_CONTRAST: &str = r#"
const canvas = document.createElement('canvas');
canvas.width = canvas.height = 1;
const ctx = canvas.getContext('2d', {willReadFrequently: true});
const rgba = (css) => {
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = 'rgba(0,0,0,0)';
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
};
const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
// The colours that can be behind element `el`: one, or one per gradient stop.
const backgrounds = (el) => {
  const chain = [];
  for (let e = el; e; e = e.parentElement) chain.unshift(e);
  let under = [[255, 255, 255, 1]];
  for (const e of chain) {
    const s = getComputedStyle(e);
    const stops = (s.backgroundImage.match(/(rgba?|color)\([^)]*\)/g) || []).map(rgba);
    if (stops.length) under = stops.flatMap(stop => under.map(u => over(stop, u)));
    const bg = rgba(s.backgroundColor);
    if (bg[3] > 0) under = under.map(u => over(bg, u));
  }
  return under;
};
const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
const visible = (el) => {
  if (!el.getClientRects().length) return false;
  const s = getComputedStyle(el);
  if (s.visibility !== 'visible') return false;
  const r = el.getBoundingClientRect();
  return r.width > 1 && r.height > 1;
};
const failures = [];
const check = (el, text, pseudo) => {
  if (!visible(el)) return;
  const o = opacity(el);
  if (o < 1 && el.closest(':disabled')) return;
  const s = getComputedStyle(el, pseudo);
  const size = parseFloat(s.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
  const need = large ? 3 : 4.5;
  const fg = rgba(s.color);
  for (const bg of backgrounds(el)) {
    const shown = over([fg[0], fg[1], fg[2], fg[3] * o], bg);
    const r = ratio(shown, bg);
    if (r < need) {
      failures.push(`${text.trim().slice(0, 40)} (${el.tagName.toLowerCase()}#${el.id}.${el.className}): ` +
        `${r.toFixed(2)} < ${need}, ${s.color} on rgb(${bg.slice(0, 3).map(Math.round)})`);
      return;
    }
  }
};
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (n.textContent.trim() && n.parentElement && !n.parentElement.closest('script, style, noscript, option')) {
    check(n.parentElement, n.textContent);
  }
}
// Text the style sheet draws (a pit's count and letter).
for (const el of document.body.querySelectorAll('*')) {
  for (const pseudo of ['::before', '::after']) {
    const content = getComputedStyle(el, pseudo).content;
    if (content && content !== 'none' && content !== 'normal' && content.replace(/["']/g, '').trim()) check(el, content, pseudo);
  }
}
for (const f of document.querySelectorAll('input[readonly], input[type=text], input[type=number], input:not([type]), select, textarea')) {
  const text = f.tagName === 'SELECT' ? (f.selectedOptions[0] || {}).textContent || '' : f.value;
  if (text.trim()) check(f, text);
}
return failures;
"#;

/// Runs axe-core in the page; its serious and critical findings, in words.
async fn axe_findings(c: &Client, axe: &str) -> Value {
    // Run through WebDriver (not a script element), which the page's
    // Content-Security-Policy does not stop.
    c.execute(&format!("{axe}\nreturn typeof axe;"), vec![])
        .await
        .expect("axe-core loads");
    c.execute_async(
        "const done = arguments[arguments.length - 1]; \
         axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations \
           .filter(v => v.impact === 'serious' || v.impact === 'critical') \
           .map(v => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', ') + ' ' + v.nodes[0].failureSummary + ' ' + v.nodes[0].html)), \
           e => done([`axe failed: ${e}`]));",
        vec![],
    )
    .await
    .expect("axe-core runs")
}

/// The checks on the page as it is now, named `page` in the failures.
async fn page_reads_well(c: &Client, axe: Option<&str>, page: &str, problems: &mut Vec<String>) {
    // Animations (a sowing's flash, the final sweep) run out first: the page as it stays.
    wait_for(
        c,
        "document.getAnimations().length === 0",
        "the animations to end",
    )
    .await;
    if let Some(dir) = std::env::var_os("MANCALA_A11Y_SHOTS") {
        let name = page.replace([' ', ','], "-");
        std::fs::write(
            PathBuf::from(dir).join(format!("{name}.png")),
            c.screenshot().await.unwrap(),
        )
        .unwrap();
    }
    let low = js(c, LOW_CONTRAST).await;
    for f in low.as_array().expect("the contrast check ran") {
        problems.push(format!("{page}: contrast: {}", f.as_str().unwrap()));
    }
    if let Some(axe) = axe {
        for f in axe_findings(c, axe).await.as_array().unwrap() {
            problems.push(format!("{page}: axe: {}", f.as_str().unwrap()));
        }
    }
    let sideways = js(
        c,
        "return document.documentElement.scrollWidth - window.innerWidth;",
    )
    .await;
    if sideways != json!(0) {
        problems.push(format!("{page}: scrolls sideways by {sideways} px"));
    }
}

/// A friend game through the API between Ann (player 1) and Bob: its id and both tokens.
fn friend_game(server: &Server, body: Value) -> (String, [String; 2]) {
    let (status, g) = server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let join = json!({"invite": g["invite"], "name": "Bob"});
    let (status, j) = server.call("POST", &format!("/api/games/{id}/join"), None, Some(join));
    assert_eq!(status, 200, "{j}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    (id, [token(&g), token(&j)])
}

/// Plays game `id` on, each side sowing one of its legal houses in turn, until `done`
/// says so of its view; that view.
fn play_on(
    server: &Server,
    id: &str,
    tokens: &[String; 2],
    done: impl Fn(&Value) -> bool,
) -> Value {
    let mut view = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .1;
    while !done(&view) && view["over"] == false {
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let legal = view["legal_moves"].as_array().unwrap();
        let house = &legal[view["ply"].as_u64().unwrap() as usize % legal.len()];
        let body = json!({"house": house, "ply": view["ply"]});
        let (status, next) = server.call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&tokens[seat - 1]),
            Some(body),
        );
        assert_eq!(status, 200, "{next}");
        view = next;
    }
    view
}

/// Signs `name` up through the API; the session cookie's `name=value`.
fn account(server: &Server, name: &str) -> String {
    let answer = ureq::post(&format!("{}/api/accounts", server.base))
        .send_json(json!({"username": name, "password": "sowing seeds 4 ever"}))
        .unwrap_or_else(|e| panic!("signing {name} up: {e}"));
    let cookie = answer.header("set-cookie").expect("a session cookie");
    cookie.split(';').next().unwrap().to_owned()
}

/// A rated Kalah(4,3) game between new accounts `names`, which the second resigns
/// after a move each: its id (the game-over panel shows the rating changes).
fn rated_game(server: &Server, names: [&str; 2]) -> String {
    let cookies = names.map(|n| account(server, n));
    let call = |cookie: &str, path: &str, body: Value| -> Value {
        ureq::post(&format!("{}{path}", server.base))
            .set("Cookie", cookie)
            .send_json(body)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .into_json()
            .unwrap()
    };
    let g = call(
        &cookies[0],
        "/api/games",
        json!({"variant": "kalah", "houses": 4, "seeds": 3, "rated": true}),
    );
    let id = g["id"].as_str().unwrap().to_owned();
    let j = call(
        &cookies[1],
        &format!("/api/games/{id}/join"),
        json!({"invite": g["invite"]}),
    );
    // A move each: a rated game cannot be resigned before.
    let token = |v: &Value| v["token"].as_str().unwrap().to_owned();
    let both_moved = |v: &Value| {
        let seats: Vec<u64> = v["history"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|h| h["seat"].as_u64())
            .collect();
        seats.contains(&1) && seats.contains(&2)
    };
    play_on(server, &id, &[token(&g), token(&j)], both_moved);
    call(&cookies[1], &format!("/api/games/{id}/resign"), json!({}));
    id
}

/// Gives the browser seat `seat` of game `id` (as if it had made or joined it), and
/// the name Ann; the browser must be on the server's site.
async fn hold_seat(c: &Client, id: &str, seat: u8, token: &str) {
    c.execute(
        "localStorage.setItem('mancala:seat:' + arguments[0], JSON.stringify({seat: arguments[1], token: arguments[2], at: Date.now()})); \
         localStorage.setItem('mancala:name', 'Ann'); localStorage.setItem('mancala:speed', '0');",
        vec![json!(id), json!(seat), json!(token)],
    )
    .await
    .unwrap();
}

/// The games the pages show: an open public game and one being watched (for the home
/// page's lists), a game in progress with a clock and a draw offered to Ann, and a
/// finished game whose rematch Bob asked for. Ann's seats are given to browser `c`.
struct Games {
    playing: String,
    finished: String,
    /// Togyz Kumalak with both players' tuzdyks on the board, Ann to move.
    togyz: String,
    /// A finished Kalah(4,3) game with its computer analysis stored.
    analysed: String,
    seats: Vec<(String, String)>,
}

fn games(server: &Server) -> Games {
    server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "oware", "public": true, "name": "Cleo"})),
    );
    let (_, watched) = server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "kalah", "opponent": "medium", "public": true, "name": "Dan"})),
    );
    server.call(
        "POST",
        &format!("/api/games/{}/moves", watched["id"].as_str().unwrap()),
        watched["token"].as_str(),
        Some(json!({"house": 2, "ply": 0})),
    );
    let clock = json!({"variant": "kalah", "name": "Ann", "time_control": {"initial_s": 180, "increment_s": 2}});
    let (playing, tokens) = friend_game(server, clock);
    play_on(server, &playing, &tokens, |v| {
        v["ply"].as_u64().unwrap() >= 6 && v["to_move"] == 1
    });
    let (status, offer) = server.call(
        "POST",
        &format!("/api/games/{playing}/offer"),
        Some(&tokens[1]),
        Some(json!({"kind": "draw"})),
    );
    assert_eq!(status, 200, "{offer}");
    let (finished, done) = friend_game(server, json!({"variant": "kalah", "name": "Ann"}));
    play_on(server, &finished, &done, |_| false);
    // Bob asks for a rematch: Ann's page offers to join it.
    let (status, rematch) = server.call(
        "POST",
        &format!("/api/games/{finished}/rematch"),
        Some(&done[1]),
        None,
    );
    assert_eq!(status, 201, "{rematch}");
    // Togyz Kumalak: after 1, 5, 2, 1, 3 each player owns a house of the other's row.
    let (togyz, t) = friend_game(server, json!({"variant": "togyzkumalak", "name": "Ann"}));
    for (ply, house) in [1, 5, 2, 1, 3].into_iter().enumerate() {
        let body = json!({"house": house, "ply": ply});
        let path = format!("/api/games/{togyz}/moves");
        let (status, v) = server.call("POST", &path, Some(&t[ply % 2]), Some(body));
        assert_eq!(status, 200, "{v}");
    }
    let view = play_on(server, &togyz, &t, |v| v["to_move"] == 1);
    assert_eq!(view["claimed"], json!([5, 1]), "{view}");
    let small = json!({"variant": "kalah", "houses": 4, "seeds": 3, "name": "Ann"});
    let (analysed, a) = friend_game(server, small);
    play_on(server, &analysed, &a, |_| false);
    let started = Instant::now();
    while server
        .call(
            "GET",
            &format!("/api/games/{analysed}/analysis"),
            None,
            None,
        )
        .0
        != 200
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "never analysed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Games {
        seats: vec![
            (playing.clone(), tokens[0].clone()),
            (finished.clone(), done[0].clone()),
            (togyz.clone(), t[0].clone()),
        ],
        playing,
        finished,
        togyz,
        analysed,
    }
}

/// Every page, at a laptop's and two phones' widths, in one colour scheme.
async fn every_page_reads_well(dark: bool) {
    let Some(path) = chromedriver() else { return };
    let axe = axe_source();
    let db = TestDb::sqlite();
    let mut server = Server::start(&db);
    let games = games(&server);
    let driver: Driver = start_driver(path);
    let dir = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for (i, size) in [LAPTOP, PHONE, SMALL_PHONE].into_iter().enumerate() {
        let look = Look {
            dark,
            ..Look::new(size)
        };
        let c = session(&driver, &dir.path().join(format!("p{i}")), look).await;
        let at = |page: &str| {
            format!(
                "{page} at {} px{}",
                size.0,
                if dark { ", dark" } else { "" }
            )
        };
        c.goto(&server.base).await.unwrap();
        for (id, token) in &games.seats {
            hold_seat(&c, id, 1, token).await;
        }
        c.refresh().await.unwrap();
        wait_for(
            &c,
            "document.body.dataset.lists === 'fresh' && document.body.dataset.form === 'ready' && \
             !document.getElementById('my-games').hidden",
            "the home page's lists",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("the home page"), &mut problems).await;

        c.goto(&format!("{}/g/{}", server.base, games.playing))
            .await
            .unwrap();
        wait_for(
            &c,
            "document.querySelector('#board button.house.legal') && !document.getElementById('offer-box').hidden",
            "the game in progress with the draw offer",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("a game in progress"), &mut problems).await;

        c.goto(&format!("{}/g/{}", server.base, games.finished))
            .await
            .unwrap();
        wait_for(
            &c,
            "!document.getElementById('end-box').hidden && document.body.dataset.swept && \
             !document.getElementById('rematch-offer').hidden",
            "the finished game with Bob's rematch offer",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("a finished game"), &mut problems).await;

        c.goto(&format!("{}/g/{}", server.base, games.togyz))
            .await
            .unwrap();
        wait_for(
            &c,
            "document.querySelectorAll('#board .house.claimed').length === 2 && \
             document.querySelector('#board button.house.legal')",
            "the Togyz Kumalak game with its tuzdyks",
        )
        .await;
        page_reads_well(
            &c,
            axe.as_deref(),
            &at("a Togyz Kumalak game with tuzdyks"),
            &mut problems,
        )
        .await;

        c.goto(&format!(
            "{}/g/{}/replay#ply=5",
            server.base, games.finished
        ))
        .await
        .unwrap();
        wait_for(
            &c,
            "document.body.dataset.replay === 'ready'",
            "the replay viewer",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("the replay viewer"), &mut problems).await;

        c.goto(&format!(
            "{}/g/{}/replay#ply=3",
            server.base, games.analysed
        ))
        .await
        .unwrap();
        wait_for(
            &c,
            "document.body.dataset.analysis === 'ready'",
            "the analysed replay",
        )
        .await;
        page_reads_well(
            &c,
            axe.as_deref(),
            &at("the analysed replay"),
            &mut problems,
        )
        .await;

        // Accounts: a rated game's end with the rating changes, a profile, the
        // leaderboard, and the log-in dialog.
        let [winner, loser] = [format!("Winner{i}"), format!("Loser{i}")];
        let rated = rated_game(&server, [&winner, &loser]);
        c.goto(&format!("{}/g/{rated}", server.base)).await.unwrap();
        wait_for(
            &c,
            "!document.getElementById('end-rating').hidden && document.body.dataset.swept",
            "the rated game's rating changes",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("a rated game's end"), &mut problems).await;
        c.goto(&format!("{}/@/{winner}", server.base))
            .await
            .unwrap();
        wait_for(
            &c,
            "document.querySelector('#profile-ratings-body tr') && document.querySelector('#profile-games li')",
            "the profile",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("a profile"), &mut problems).await;
        c.goto(&format!("{}/leaderboard", server.base))
            .await
            .unwrap();
        wait_for(
            &c,
            "!document.getElementById('leaders-empty').hidden",
            "the leaderboard",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("the leaderboard"), &mut problems).await;
        c.goto(&server.base).await.unwrap();
        browser::click(&c, "login-open").await;
        wait_for(
            &c,
            "document.getElementById('account-dialog').open",
            "the log-in dialog",
        )
        .await;
        page_reads_well(&c, axe.as_deref(), &at("the log-in dialog"), &mut problems).await;

        // The game in progress with the server gone: the reconnecting banner.
        c.goto(&format!("{}/g/{}", server.base, games.playing))
            .await
            .unwrap();
        wait_for(
            &c,
            "document.body.dataset.live === 'open'",
            "the live connection",
        )
        .await;
        server.kill();
        wait_for(
            &c,
            "document.body.dataset.banner === 'offline'",
            "the banner",
        )
        .await;
        page_reads_well(
            &c,
            axe.as_deref(),
            &at("a game reconnecting"),
            &mut problems,
        )
        .await;
        server = Server::restart(&db, &server);
        c.close().await.unwrap();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_reads_well_in_the_light_theme() {
    every_page_reads_well(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_reads_well_in_the_dark_theme() {
    every_page_reads_well(true).await;
}

/// A game against the computer given to a new browser of `look`: the server, the
/// driver, the browser and the game's id.
async fn game_against_the_computer(
    look: Look,
) -> Option<(Server, TestDb, Driver, tempfile::TempDir, Client, String)> {
    let path = chromedriver()?;
    let db = TestDb::sqlite();
    let server = Server::start(&db);
    let body = json!({"variant": "kalah", "opponent": "greedy", "name": "Ann"});
    let (status, g) = server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let driver = start_driver(path);
    let dir = tempfile::tempdir().unwrap();
    let c = session(&driver, &dir.path().join("p"), look).await;
    c.goto(&server.base).await.unwrap();
    hold_seat(&c, &id, 1, g["token"].as_str().unwrap()).await;
    Some((server, db, driver, dir, c, id))
}

/// Tab reaches the houses, each named for a screen reader by whose it is, its number
/// and its seeds, and Enter sows the one with the focus.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_houses_are_named_and_played_from_the_keyboard() {
    let Some((server, _db, _driver, _dir, c, id)) =
        game_against_the_computer(Look::new(LAPTOP)).await
    else {
        return;
    };
    c.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
    wait_for(
        &c,
        "document.querySelector('#board button.house.legal')",
        "a playable house",
    )
    .await;
    let names = js(
        &c,
        "return ['h1-3', 'h2-3', 's1', 's2'].map(id => document.getElementById(id).getAttribute('aria-label'));",
    )
    .await;
    assert_eq!(
        names,
        json!([
            "your house 3, 4 seeds",
            "Greedy bot's house 3, 4 seeds",
            "your store, 0 seeds",
            "Greedy bot's store, 0 seeds"
        ])
    );
    let body = c.find(fantoccini::Locator::Css("body")).await.unwrap();
    let mut focused = Value::Null;
    for _ in 0..40 {
        body.send_keys("\u{E004}").await.unwrap();
        focused = js(
            &c,
            "const e = document.activeElement; return e && e.matches('button.house') ? e.id : null;",
        )
        .await;
        if !focused.is_null() {
            break;
        }
    }
    assert_eq!(focused, json!("h1-1"), "Tab reaches your first house");
    let active = c.active_element().await.unwrap();
    active.send_keys("\u{E007}").await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, view) = server.call("GET", &format!("/api/games/{id}"), None, None);
        if view["history"][0]["house"] == 1 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "Enter did not sow house 1: {view}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    c.close().await.unwrap();
}

/// With reduced motion asked for, a move is drawn at once, however slow the chosen
/// sowing speed: the page never shows a sowing in progress.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reduced_motion_skips_the_sowing_animation() {
    let look = Look {
        reduced_motion: true,
        ..Look::new(LAPTOP)
    };
    let Some((server, _db, _driver, _dir, c, id)) = game_against_the_computer(look).await else {
        return;
    };
    c.execute("localStorage.setItem('mancala:speed', '400');", vec![])
        .await
        .unwrap();
    c.goto(&format!("{}/g/{id}", server.base)).await.unwrap();
    wait_for(
        &c,
        "document.querySelector('#board button.house.legal')",
        "a playable house",
    )
    .await;
    // Every status the page shows from now on.
    js(
        &c,
        "window.statuses = []; new MutationObserver(() => window.statuses.push(document.getElementById('status').textContent)) \
           .observe(document.getElementById('status'), {childList: true, characterData: true, subtree: true});",
    )
    .await;
    // House 1 of Kalah(6,4) ends in a house: the computer answers.
    js(&c, "document.getElementById('h1-1').click();").await;
    wait_for(
        &c,
        "document.querySelectorAll('#history li[data-seat=\"2\"]').length > 0 && \
         document.getElementById('status').textContent.startsWith('Your turn')",
        "the computer's answer",
    )
    .await;
    let statuses = js(&c, "return window.statuses;").await;
    let sowing: Vec<&Value> = statuses
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s.as_str().unwrap().contains("sow"))
        .collect();
    assert!(sowing.is_empty(), "a sowing was animated: {statuses}");
    c.close().await.unwrap();
}
