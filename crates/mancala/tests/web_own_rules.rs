//! A game of one's own rules in the browser (issue 51): made through the API with a
//! description no list of the server has, its page draws the game from the entry its
//! view carries (its name in the rules line, its board, no stores where it has none),
//! and a move is played on it; at a laptop's and a phone's size, light and dark.

mod browser;
mod server;
mod site;

use browser::{Look, js};
use serde_json::json;
use site::{Site, hold_seat, open};

const LAPTOP: (u32, u32) = (1366, 900);
const PHONE: (u32, u32) = (390, 844);

/// Micro-Wari on three houses a side, under a key and name of its own.
fn three_house_wari() -> String {
    include_str!("../../mancala-core/games/micro-wari.toml")
        .replace("key = \"micro-wari\"", "key = \"wari-of-three\"")
        .replace("name = \"Micro-Wari\"", "name = \"Wari of three\"")
        .replace("houses = 2", "houses = 3")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_ones_own_rules_is_drawn_from_its_view() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    for (size, dark) in [(LAPTOP, false), (PHONE, true)] {
        let body = json!({"rules": three_house_wari(), "opponent": "easy", "name": "Ann"});
        let (status, g) = site.server.call("POST", "/api/games", None, Some(body));
        assert_eq!(status, 201, "{g}");
        let id = g["id"].as_str().unwrap().to_owned();
        let c = site
            .browser(Look {
                dark,
                ..Look::new(size)
            })
            .await;
        hold_seat(&c, &id, 1, g["token"].as_str().unwrap()).await;
        open(
            &c,
            &base,
            &format!("/g/{id}"),
            "document.querySelector('#board button.house.legal')",
        )
        .await;
        let line = js(
            &c,
            "return document.getElementById('rules-line').textContent;",
        )
        .await;
        assert!(
            line.as_str()
                .unwrap()
                .starts_with("Wari of three, 3 houses, 1 seed"),
            "{size:?}: {line}"
        );
        let houses = js(
            &c,
            "return document.querySelectorAll('#board .house').length;",
        )
        .await;
        assert_eq!(houses, json!(6), "{size:?}");
        // Captures are banked off the board: the game's entry says it has no stores.
        let words = js(&c, "return document.body.innerText;").await;
        let words = words.as_str().unwrap();
        assert!(
            !words.contains("wari-of-three"),
            "the key shown for the name: {words}"
        );
        let wide = js(
            &c,
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
        )
        .await;
        assert_eq!(wide, json!(0), "{size:?}: the page scrolls sideways");
        // A move is played on the board drawn, and reaches the game.
        js(
            &c,
            "document.querySelector('#board button.house.legal').click();",
        )
        .await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let (_, view) = site
                .server
                .call("GET", &format!("/api/games/{id}"), None, None);
            if view["ply"].as_u64().unwrap() >= 1 {
                assert_eq!(view["game"]["name"], "Wari of three", "{view}");
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no move reached the game: {view}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        c.close().await.unwrap();
    }
}

/// A public game of one's own rules waiting for a friend is named in the lobby by its
/// name, which no list of variants has, not by its key; the API's entry carries it (at
/// a laptop's size in the light theme and a phone's in the dark).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_names_a_game_of_ones_own_rules() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let body = json!({"rules": three_house_wari(), "public": true, "name": "Ann"});
    let (status, g) = site.server.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_owned();
    let (_, lobby) = site.server.call("GET", "/api/lobby", None, None);
    assert_eq!(
        lobby["games"][0]["game"]["name"], "Wari of three",
        "{lobby}"
    );
    for (size, dark) in [(LAPTOP, false), (PHONE, true)] {
        let look = Look {
            dark,
            ..Look::new(size)
        };
        let c = site.browser(look).await;
        let entry = format!("#lobby-list a[href='/g/{id}']");
        open(
            &c,
            &base,
            "/",
            &format!("document.querySelector(\"{entry}\")"),
        )
        .await;
        let text = js(
            &c,
            &format!("return document.querySelector(\"{entry}\").closest('li').textContent;"),
        )
        .await;
        let text = text.as_str().unwrap();
        assert!(text.starts_with("Wari of three 3×1"), "{size:?}: {text}");
        assert!(!text.contains("wari-of-three"), "{size:?}: {text}");
        c.close().await.unwrap();
    }
}
