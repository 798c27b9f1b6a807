//! Finding a game among the catalogue's on the site's new-game form (issue 52): typed
//! words choose the best match by any of a game's names, accents or not; a mechanic
//! narrows the list; words that match nothing say so and list every game; and a game
//! found is the game started. At a laptop's size, and a phone's in the dark theme.

mod browser;
mod server;
mod site;

use browser::{Look, click, js, wait_for};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use site::{Site, open};

const LAPTOP: (u32, u32) = (1366, 900);
const PHONE: (u32, u32) = (390, 844);

/// Clears the search box and types `text` into it, as a person does.
async fn search(c: &Client, text: &str) {
    let input = c.find(Locator::Id("variant-find")).await.unwrap();
    input.clear().await.unwrap();
    // Clearing sends no input event: one keystroke and its erasure do.
    input.send_keys(" \u{E003}").await.unwrap();
    if !text.is_empty() {
        input.send_keys(text).await.unwrap();
    }
}

/// The keys the variant list shows, in order, and the one chosen.
async fn listed(c: &Client) -> (Vec<String>, String) {
    let v = js(
        c,
        "const s = document.getElementById('variant'); \
         return [[...s.options].map(o => o.value), s.value];",
    )
    .await;
    let keys = v[0].as_array().unwrap().iter();
    let keys = keys.map(|k| k.as_str().unwrap().to_owned()).collect();
    (keys, v[1].as_str().unwrap().to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_found_by_any_of_its_names_and_started() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let (_, catalogue) = site.server.call("GET", "/api/variants", None, None);
    let catalogue = catalogue["variants"].as_array().unwrap().clone();
    let entry =
        |key: &str| -> Value { catalogue.iter().find(|v| v["key"] == key).unwrap().clone() };
    for (size, dark) in [(LAPTOP, false), (PHONE, true)] {
        let c = site
            .browser(Look {
                dark,
                ..Look::new(size)
            })
            .await;
        open(&c, &base, "/", "document.body.dataset.form === 'ready'").await;
        js(&c, "document.getElementById('settings').open = true;").await;
        let all = listed(&c).await.0;
        assert_eq!(all.len(), catalogue.len(), "{size:?}");
        // An alias finds its game; accents need not be typed, nor may they hurt.
        for (words, key) in [
            ("awale", "oware"),
            ("ünee", "unee-tugalluulax"),
            ("Unee", "unee-tugalluulax"),
            ("bohnen", "bohnenspiel"),
        ] {
            search(&c, words).await;
            let (keys, chosen) = listed(&c).await;
            assert_eq!(chosen, key, "{words:?} at {size:?}: {keys:?}");
            let help = js(
                &c,
                "return document.getElementById('help-title').textContent;",
            )
            .await;
            assert_eq!(
                help,
                json!(format!(
                    "How to play {}",
                    entry(key)["name"].as_str().unwrap()
                ))
            );
        }
        // A mechanic narrows the list to the games that have it, the search cleared.
        search(&c, "").await;
        let relay = "relay sowing";
        c.find(Locator::Id("variant-mechanic"))
            .await
            .unwrap()
            .select_by_value(relay)
            .await
            .unwrap();
        let (keys, _) = listed(&c).await;
        let expected: Vec<String> = catalogue
            .iter()
            .filter(|v| v["mechanics"].as_array().unwrap().contains(&json!(relay)))
            .map(|v| v["key"].as_str().unwrap().to_owned())
            .collect();
        assert!(expected.len() >= 3, "{expected:?}");
        assert_eq!(keys, expected, "{size:?}");
        // Words that match nothing say so, and every game is listed again.
        search(&c, "zzzz").await;
        let said = js(
            &c,
            "return document.getElementById('variant-found').textContent;",
        )
        .await;
        assert_eq!(said, json!("No game matches: every game is listed."));
        assert_eq!(listed(&c).await.0.len(), catalogue.len());
        let wide = js(
            &c,
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
        )
        .await;
        assert_eq!(wide, json!(0), "{size:?}: the page scrolls sideways");
        // The game found is the game started.
        c.find(Locator::Id("variant-mechanic"))
            .await
            .unwrap()
            .select_by_value("")
            .await
            .unwrap();
        search(&c, "bohnen").await;
        click(&c, "against-computer").await;
        click(&c, "start").await;
        let path = wait_for(
            &c,
            "location.pathname.startsWith('/g/') && location.pathname",
            "the new game's page",
        )
        .await;
        let id = path.as_str().unwrap().trim_start_matches("/g/").to_owned();
        let (_, view) = site
            .server
            .call("GET", &format!("/api/games/{id}"), None, None);
        assert_eq!(view["variant"], "bohnenspiel", "{view}");
        c.close().await.unwrap();
    }
}
