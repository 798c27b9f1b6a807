//! A game of one's own rules on the web: `POST /api/games` with `rules` (the text of a
//! rules file) makes an unrated game the server plays from the description: its view
//! carries the game's entry (no list has it), the computer plays it, it reads back
//! from the store after the process forgot nothing but the row, and its record carries
//! the description. Bad descriptions and settings that contradict one are refused with
//! 422 and the field.

mod common;

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use common::calls::{Answer, body, call};
use common::{Backend, TestDb};
use mancala_core::Rules;
use mancala_web::{Games, Limits, RULES_LIMIT, app};
use serde_json::{Value, json};

on_both_backends!(a_game_of_ones_own_rules_is_played_against_the_computer);

/// Micro-Wari on three houses a side, under a key of its own.
fn three_house_wari() -> String {
    include_str!("../../mancala-core/games/micro-wari.toml")
        .replace("key = \"micro-wari\"", "key = \"wari-of-three\"")
        .replace("name = \"Micro-Wari\"", "name = \"Wari of three\"")
        .replace("houses = 2", "houses = 3")
}

/// The service on `db` and its router, which lets one client create many games.
async fn service(db: &TestDb) -> (Games, Router) {
    let mut limits = Limits::default();
    limits.rates.create = "1000/60s".parse().unwrap();
    let games = db.games_with(limits).await;
    (games.clone(), app(games))
}

fn sqlite() -> TestDb {
    TestDb::new(Backend::Sqlite, "own_rules").unwrap()
}

async fn create(r: &Router, request: Value) -> Answer {
    call(r, "POST", "/api/games", body(request)).await
}

async fn a_game_of_ones_own_rules_is_played_against_the_computer(db: TestDb) {
    let (games, r) = service(&db).await;
    let a = create(
        &r,
        json!({"rules": three_house_wari(), "opponent": "medium"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
    let id = a.json["id"].as_str().unwrap().to_owned();
    let token = a.json["token"].as_str().unwrap().to_owned();
    let mut view = call(&r, "GET", &format!("/api/games/{id}"), body(Value::Null))
        .await
        .json;
    assert_eq!(view["variant"], "wari-of-three", "{view}");
    assert_eq!(view["game"]["name"], "Wari of three", "{view}");
    assert_eq!(view["game"]["default_houses"], 3, "{view}");
    assert_eq!(view["houses"], json!([[1, 1, 1], [1, 1, 1]]), "{view}");
    assert_eq!(view["rules"]["houses"], 3, "{view}");
    // Played to its end: every legal move of player 1 in turn, the computer answering.
    for _ in 0..200 {
        if view["over"] == true {
            break;
        }
        if view["to_move"] == 1 {
            let house = view["legal_moves"][0].clone();
            let mv = json!({"house": house, "ply": view["ply"]});
            let uri = format!("/api/games/{id}/moves");
            let played = call(
                &r,
                "POST",
                &uri,
                common::calls::Call {
                    bearer: Some(&token),
                    body: mv,
                    ..Default::default()
                },
            )
            .await;
            assert_eq!(played.status, StatusCode::OK, "{}", played.json);
        } else {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        view = call(&r, "GET", &format!("/api/games/{id}"), body(Value::Null))
            .await
            .json;
    }
    assert_eq!(view["over"], true, "{view}");
    // The store keeps the whole description as the game's rules.
    let row = games.store().load(&id).await.unwrap().unwrap();
    assert_eq!(row.rules.variant().name(), "wari-of-three");
    assert!(
        row.rules.to_text().starts_with('{'),
        "{}",
        row.rules.to_text()
    );
    assert_eq!(Rules::from_text(&row.rules.to_text()).unwrap(), row.rules);
    // Its record carries the description, so that it replays where the file is not.
    let record = records_text(&r, &id).await;
    assert!(record.contains("[Variant \"wari-of-three\"]"), "{record}");
    assert!(record.contains("[Rules \"{"), "{record}");
}

/// A request's refusal: 422 and its message, which must name `field`.
async fn refused(r: &Router, request: Value, field: &str) -> String {
    let a = create(r, request.clone()).await;
    assert_eq!(
        a.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{request}: {}",
        a.json
    );
    let message = a.json["error"].as_str().unwrap().to_owned();
    assert!(message.contains(field), "{field} not in {message:?}");
    message
}

#[tokio::test]
async fn bad_descriptions_and_contradictions_are_refused_with_the_field() {
    let (_, r) = service(&sqlite()).await;
    let wari = three_house_wari();
    // Not TOML, a field out of range, a contradiction the description check finds.
    refused(&r, json!({"rules": "key = "}), "rules").await;
    let no_seeds = wari.replace("seeds = 1", "seeds = 0");
    let m = refused(&r, json!({"rules": no_seeds}), "board.seeds").await;
    // The words docs/api.md quotes.
    assert_eq!(m, "rules: board.seeds: must be between 1 and 64, not 0");
    // Too long, even when the rest is a fine description.
    let long = format!("{wari}\n# {}\n", "x".repeat(RULES_LIMIT));
    let m = refused(&r, json!({"rules": long}), "rules").await;
    assert!(m.contains(&RULES_LIMIT.to_string()), "{m}");
    // Settings the description gives itself, or that do not go with it.
    refused(&r, json!({"rules": wari, "houses": 4}), "houses").await;
    refused(
        &r,
        json!({"rules": wari, "end_rule": "either-side-empty"}),
        "end_rule",
    )
    .await;
    refused(&r, json!({"rules": wari, "variant": "kalah"}), "variant").await;
    refused(&r, json!({"rules": wari, "rated": true}), "rated").await;
    // Neither is a missing key: 400, as for any body without a key it needs.
    let a = create(&r, json!({"opponent": "easy"})).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.json);
    assert!(
        a.json["error"]
            .as_str()
            .unwrap()
            .starts_with("variant: missing"),
        "{}",
        a.json
    );
    // A catalogue game's key on other rules would be read as that game by its key.
    let not_micro = wari.replace("key = \"wari-of-three\"", "key = \"micro-wari\"");
    let not_micro = not_micro.replace("leftover = \"own-row\"", "leftover = \"nobody\"");
    let m = refused(&r, json!({"rules": not_micro}), "key").await;
    assert!(m.contains("micro-wari"), "{m}");
}

/// A game of the catalogue given as its file is that game: its key, no entry of its
/// own in the view, and any board of it is still it.
#[tokio::test]
async fn a_catalogue_file_given_as_rules_is_that_game() {
    let (games, r) = service(&sqlite()).await;
    for (text, key) in [
        (
            include_str!("../../mancala-core/games/kalah.toml").to_owned(),
            "kalah",
        ),
        (
            include_str!("../../mancala-core/games/micro-wari.toml")
                .replace("houses = 2", "houses = 3"),
            "micro-wari",
        ),
    ] {
        let a = create(&r, json!({"rules": text, "opponent": "easy"})).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.json);
        let id = a.json["id"].as_str().unwrap();
        let view = call(&r, "GET", &format!("/api/games/{id}"), body(Value::Null))
            .await
            .json;
        assert_eq!(view["variant"], key, "{view}");
        assert!(view.get("game").is_none(), "{view}");
        let row = games.store().load(id).await.unwrap().unwrap();
        assert!(row.rules.variant().is_catalogued(), "{key}");
        assert!(!row.rules.to_text().starts_with('{'), "{key}");
    }
}

/// Game `id`'s record as the server writes it.
async fn records_text(r: &Router, id: &str) -> String {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let req = axum::http::Request::get(format!("/api/games/{id}/record"))
        .header(axum::http::header::HOST, "mancala.test")
        .body(axum::body::Body::empty())
        .unwrap();
    let response = r.clone().oneshot(req).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}
