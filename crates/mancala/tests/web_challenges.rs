//! Challenges in a real headless Chromium against the real binary (issue 54): a person
//! challenges another from their profile page (at laptop size); the challenged person
//! sees the challenge as a notice (at phone size, nothing wider than the screen) and
//! accepts it, and both browsers open the new game, rated and held by the two
//! accounts; a second challenge is declined, and the challenger reads the reason; the
//! lobby marks a rated game.

mod browser;
mod server;
mod site;

use browser::{Look, click, js, wait_for};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use site::{Site, open, sign_up};

/// Opens `who`'s profile in `c` and waits for its challenge form.
async fn open_challenge_form(c: &Client, base: &str, who: &str) {
    open(
        c,
        base,
        &format!("/@/{who}"),
        "!document.getElementById('challenge-form').hidden && document.getElementById('challenge-variant').options.length > 0",
    )
    .await;
}

/// Whether nothing on the page is wider than the window.
async fn fits(c: &Client) -> bool {
    js(
        c,
        "return document.documentElement.scrollWidth <= window.innerWidth;",
    )
    .await
        == json!(true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_from_a_profile_is_accepted_and_another_declined() {
    let Some(mut site) = Site::start() else {
        return;
    };
    let base = site.server.base.clone();
    let ann = site.browser(Look::new((1366, 900))).await;
    let bob = site.browser(Look::new((360, 740))).await;
    sign_up(&ann, "Ann").await;
    sign_up(&bob, "Bob").await;
    // Bob waits on the home page, logged in.
    open(
        &bob,
        &base,
        "/",
        "!document.getElementById('me-link').hidden",
    )
    .await;
    assert!(js(&bob, "return document.getElementById('challenges').hidden;").await == json!(true));

    challenge_accepted(&ann, &bob, &site.server).await;
    challenge_declined(&ann, &bob, &base).await;
    lobby_marks_rated_games(&ann, &bob, &base).await;
}

/// A public rated game of Ann's is marked "rated" in Bob's lobby (only accounts may
/// take its seat).
async fn lobby_marks_rated_games(ann: &Client, bob: &Client, base: &str) {
    let status = ann
        .execute(
            "return fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, \
               body: JSON.stringify({variant: 'kalah', rated: true, public: true})}).then(r => r.status);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(status, json!(201));
    open(
        bob,
        base,
        "/",
        "document.getElementById('lobby-list').textContent.includes('Kalah 6×4, rated against')",
    )
    .await;
}

/// Ann challenges Bob to a rated game of Oware from his profile; Bob accepts from the
/// notice; both browsers open the game.
async fn challenge_accepted(ann: &Client, bob: &Client, server: &server::Server) {
    let base = server.base.clone();
    // Ann, on Bob's profile: a rated game of Oware.
    open_challenge_form(ann, &base, "Bob").await;
    assert!(
        js(
            ann,
            "return document.querySelector('#profile-logout').hidden;"
        )
        .await
            == json!(true),
        "another's profile"
    );
    ann.execute(
        "const s = document.getElementById('challenge-variant'); s.value = 'oware'; \
         document.getElementById('challenge-rated').checked = true;",
        vec![],
    )
    .await
    .unwrap();
    click(ann, "challenge-send").await;
    wait_for(
        ann,
        "document.getElementById('challenge-status').textContent.includes('waiting for an answer')",
        "the challenge to be sent",
    )
    .await;

    // Bob sees it, names and all, on a phone's width.
    let notice = wait_for(
        bob,
        "!document.getElementById('challenges').hidden && document.querySelector('#challenge-list li .what')?.textContent",
        "the challenge's notice",
    )
    .await;
    let notice = notice.as_str().unwrap();
    assert!(notice.contains("Ann challenges you"), "{notice}");
    assert!(
        notice.contains("Oware") && notice.contains("rated"),
        "{notice}"
    );
    assert!(fits(bob).await, "the notice fits a phone's width");
    bob.find(Locator::Css("#challenge-list li button.accept"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // Both browsers open the same new game, Ann's by her event stream.
    let path = wait_for(
        bob,
        "location.pathname.startsWith('/g/') && location.pathname",
        "Bob's browser to open the game",
    )
    .await;
    let path = path.as_str().unwrap().to_owned();
    wait_for(
        ann,
        &format!("location.pathname === '{path}'"),
        "Ann's browser to open the same game",
    )
    .await;
    let (status, view) = server.call("GET", &path.replacen("/g/", "/api/games/", 1), None, None);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["variant"], "oware");
    assert_eq!(view["rated"], true);
    assert_eq!(
        (
            &view["players"][0]["account"],
            &view["players"][1]["account"]
        ),
        (&json!("ann"), &json!("bob"))
    );
}

/// Ann challenges Bob again; Bob declines from the notice, and Ann reads it.
async fn challenge_declined(ann: &Client, bob: &Client, base: &str) {
    // Again, declined: Ann reads why, and may challenge again.
    open_challenge_form(ann, base, "Bob").await;
    click(ann, "challenge-send").await;
    wait_for(
        ann,
        "document.getElementById('challenge-status').textContent.includes('waiting for an answer')",
        "the second challenge to be sent",
    )
    .await;
    open(
        bob,
        base,
        "/",
        "!document.getElementById('challenges').hidden",
    )
    .await;
    bob.find(Locator::Css("#challenge-list li button.decline"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        bob,
        "document.getElementById('challenges').hidden",
        "the notice to go once declined",
    )
    .await;
    let said: Value = wait_for(
        ann,
        "document.getElementById('challenge-status').textContent.includes('declined') && document.getElementById('challenge-status').textContent",
        "Ann to hear of the decline",
    )
    .await;
    assert_eq!(said, json!("Bob declined."));
    assert!(
        js(
            ann,
            "return document.getElementById('challenge-send').disabled;"
        )
        .await
            == json!(false)
    );
    assert!(fits(ann).await);
}
