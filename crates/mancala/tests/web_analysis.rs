//! The replay viewer's computer analysis (issue 40), end to end: a finished game's
//! replay offers "Request computer analysis", says "Analysing…" while the server
//! computes it (202), then draws the value graph, marks the moves with their labels
//! and lights the best move on the board; in a real headless Chromium against the real
//! binary, on SQLite and PostgreSQL.
//!
//! `MANCALA_ANALYSIS_SHOTS=DIR` (an absolute path) keeps screenshots of the analysed
//! replay at 1280x800 and 390x844, light and dark.

mod browser;
mod server;

use browser::{Driver, Look, chromedriver, click, js, session, start_driver, wait_for};
use fantoccini::Client;
use mancala_core::{Game, Rules, Side};
use serde_json::{Value, json};
use server::{Server, TestDb};

on_both_backends_async!(a_finished_game_s_replay_is_analysed_on_request);

/// A Kalah(4,3) game between two people played to its end through the API, each move
/// picked by a fixed pseudo-random sequence (so that some are mistakes): its id.
fn finished_game(server: &Server) -> String {
    let (status, g) = server.call(
        "POST",
        "/api/games",
        None,
        Some(json!({"variant": "kalah", "houses": 4, "seeds": 3, "name": "Ann"})),
    );
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let (status, j) = server.call(
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"invite": g["invite"], "name": "Ben"})),
    );
    assert_eq!(status, 200, "{j}");
    let tokens = [g["token"].as_str().unwrap(), j["token"].as_str().unwrap()];
    let mut game = Game::new(Rules::kalah(4, 3));
    let mut seed: u64 = 7;
    while !game.is_over() {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let legal = game.legal_moves();
        let mv = legal[(seed >> 33) as usize % legal.len()];
        let seat = usize::from(game.position().to_move() != Side::South);
        let (status, v) = server.call(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(tokens[seat]),
            Some(json!({"house": mv.house(), "ply": game.ply()})),
        );
        assert_eq!(status, 200, "{v}");
        game.play(mv).unwrap();
    }
    id
}

async fn a_finished_game_s_replay_is_analysed_on_request(db: TestDb) {
    let Some(path) = chromedriver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&db);
    let driver = start_driver(path);
    let id = finished_game(&server);
    let c = session(&driver, &dir.path().join("p"), Look::new((1280, 800))).await;
    c.goto(&format!("{}/g/{id}/replay#ply=0", server.base))
        .await
        .unwrap();
    wait_for(&c, "document.body.dataset.replay === 'ready'", "the viewer").await;
    // Not analysed yet: the viewer offers it, and asking started nothing.
    wait_for(
        &c,
        "!document.getElementById('analysis-request').hidden",
        "the request button",
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return document.getElementById('analysis-graph').childElementCount;"
        )
        .await,
        0
    );
    if let Ok(shots) = std::env::var("MANCALA_ANALYSIS_SHOTS") {
        js(
            &c,
            "document.getElementById('analysis-box').scrollIntoView({block: 'center'});",
        )
        .await;
        let to = std::path::Path::new(&shots);
        std::fs::create_dir_all(to).unwrap();
        std::fs::write(
            to.join("analysis-request-laptop-light.png"),
            c.screenshot().await.unwrap(),
        )
        .unwrap();
    }
    click(&c, "analysis-request").await;
    wait_for(
        &c,
        "document.body.dataset.analysis",
        "the analysis to be asked for",
    )
    .await;
    let status = js(
        &c,
        "return document.getElementById('analysis-status').textContent;",
    )
    .await;
    let pending = js(&c, "return document.body.dataset.analysis;").await;
    assert!(
        pending == "ready" || status.as_str().unwrap().starts_with("Analysing…"),
        "{pending} {status}"
    );
    wait_for(
        &c,
        "document.body.dataset.analysis === 'ready'",
        "the analysis",
    )
    .await;
    check_analysed(&c).await;
    // The analysis is stored: a new look shows it at once, with no button.
    c.refresh().await.unwrap();
    wait_for(
        &c,
        "document.body.dataset.analysis === 'ready'",
        "the stored analysis",
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return document.getElementById('analysis-request').hidden;"
        )
        .await,
        true
    );
    c.close().await.unwrap();
    if let Ok(shots) = std::env::var("MANCALA_ANALYSIS_SHOTS") {
        screenshots(
            &driver,
            &server,
            &id,
            std::path::Path::new(&shots),
            dir.path(),
        )
        .await;
    }
}

/// The graph, the labels in the move list and the best move on the board.
async fn check_analysed(c: &Client) {
    let graph = js(
        c,
        "const s = document.querySelector('#analysis-graph svg'); \
         return s && {title: s.querySelector('title').textContent, \
                      desc: s.querySelector('desc').textContent, \
                      labelled: s.getAttribute('aria-labelledby'), \
                      path: s.querySelector('path.value').getAttribute('d').length, \
                      role: s.getAttribute('role')};",
    )
    .await;
    assert_eq!(graph["title"], "Value over the game", "{graph}");
    assert_eq!(graph["role"], "img", "{graph}");
    assert!(
        graph["desc"].as_str().unwrap().contains("final margin"),
        "{graph}"
    );
    assert!(graph["path"].as_u64().unwrap() > 20, "{graph}");
    // Every move carries its label, as a mark and in words.
    let marks: Value = js(
        c,
        "return [...document.querySelectorAll('#history li[data-ply]')].map(li => \
           ({label: li.dataset.label, words: li.getAttribute('aria-label')}));",
    )
    .await;
    let marks = marks.as_array().unwrap();
    assert!(!marks.is_empty());
    let words = [
        ("best", "best move"),
        ("good", "good move"),
        ("inaccuracy", "inaccuracy"),
        ("mistake", "mistake"),
        ("blunder", "blunder"),
    ];
    for m in marks {
        let label = m["label"].as_str().unwrap();
        let word = words.iter().find(|(l, _)| *l == label).unwrap().1;
        assert!(m["words"].as_str().unwrap().contains(word), "{m}");
    }
    assert!(
        marks.iter().any(|m| m["label"] != "best"),
        "a game of random moves has a move that is not best"
    );
    // At the start, player 1's best houses are lit and said, and the move explained.
    let best = js(
        c,
        "return [...document.querySelectorAll('#board .house.best')].map(b => b.id + ': ' + b.getAttribute('aria-label'));",
    )
    .await;
    let best = best.as_array().unwrap();
    assert!(!best.is_empty(), "no best move on the board");
    for b in best {
        let b = b.as_str().unwrap();
        assert!(b.starts_with("h1-") && b.ends_with(", best move"), "{b}");
    }
    let line = js(
        c,
        "return document.getElementById('analysis-move').textContent;",
    )
    .await;
    assert!(
        line.as_str().unwrap().starts_with("Best here: house"),
        "{line}"
    );
    let accuracy = js(
        c,
        "return document.getElementById('analysis-accuracy').textContent;",
    )
    .await;
    assert!(
        accuracy.as_str().unwrap().starts_with("Accuracy: Ann "),
        "{accuracy}"
    );
    // Stepping on moves the best move with the position shown.
    click(c, "replay-next").await;
    wait_for(
        c,
        "document.getElementById('replay-ply').value === '1'",
        "ply 1",
    )
    .await;
    let shown = js(
        c,
        "return document.querySelector('#graph-at').getAttribute('x1');",
    )
    .await;
    assert_ne!(
        shown,
        json!("0"),
        "the graph's line follows the position shown"
    );
    // The position after move 1 (where the graph's dot of move 1 is) explains move 1,
    // Ann's, with why it got its label; it explained the next move.
    let line = js(
        c,
        "return document.getElementById('analysis-move').textContent;",
    )
    .await;
    let line = line.as_str().unwrap();
    assert!(line.starts_with("Ann played house "), "{line}");
    assert!(line.contains(" move") || line.contains(" where "), "{line}");
}

/// Screenshots of the analysed replay at a laptop's and a phone's size, light and dark.
async fn screenshots(
    driver: &Driver,
    server: &Server,
    id: &str,
    to: &std::path::Path,
    profiles: &std::path::Path,
) {
    std::fs::create_dir_all(to).unwrap();
    for (size, name) in [((1280, 800), "laptop"), ((390, 844), "phone")] {
        for dark in [false, true] {
            let look = Look {
                dark,
                ..Look::new(size)
            };
            let profile = profiles.join(format!("{name}{dark}"));
            let c = session(driver, &profile, look).await;
            c.goto(&format!("{}/g/{id}/replay#ply=5", server.base))
                .await
                .unwrap();
            wait_for(
                &c,
                "document.body.dataset.analysis === 'ready'",
                "the analysis",
            )
            .await;
            // The analysis card in view.
            js(
                &c,
                "document.getElementById('analysis-box').scrollIntoView({block: 'center'});",
            )
            .await;
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            let theme = if dark { "dark" } else { "light" };
            std::fs::write(
                to.join(format!("analysis-{name}-{theme}.png")),
                c.screenshot().await.unwrap(),
            )
            .unwrap();
            c.close().await.unwrap();
        }
    }
}
