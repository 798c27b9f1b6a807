//! What the server plays, as the browser learns it (`GET /api/variants`,
//! `GET /api/players`), checked against the descriptions in core and the engine; and a
//! Togyz Kumalak game over the API: tuzdyks in the view, seeds sown into the other
//! player's tuzdyk, its record downloaded and imported back.

mod common;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_core::Variant;
use mancala_engine::PlayerInfo;
use mancala_web::{Games, Limits, Store, app};
use serde_json::{Value, json};
use tower::ServiceExt;

on_both_backends!(
    a_togyz_kumalak_game_between_two_people,
    a_togyz_kumalak_record_imports_to_the_same_game,
    togyz_kumalak_against_the_computer_and_in_the_lobby,
    every_catalogue_game_is_played_against_medium,
);

/// A request's answer: status, headers and the body as text.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

async fn send(r: &Router, req: Request<Body>) -> Answer {
    let response = r.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        text: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

async fn call(
    r: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Answer {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    send(r, req).await
}

async fn get(r: &Router, uri: &str) -> Answer {
    call(r, "GET", uri, None, None).await
}

async fn post(r: &Router, uri: &str, body: Value) -> Answer {
    call(r, "POST", uri, None, Some(body)).await
}

/// A router on a new in-memory store that lets one client create many games.
fn router() -> Router {
    let mut limits = Limits::default();
    limits.rates.create = "1000/60s".parse().unwrap();
    app(Games::with_limits(Store::in_memory().unwrap(), limits))
}

/// Creates a game; the grant.
async fn create(r: &Router, body: Value) -> Value {
    let a = post(r, "/api/games", body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.json()
}

/// A game between two people, joined: (id, token 1, token 2).
async fn joined(r: &Router, body: Value) -> (String, String, String) {
    let g = create(r, body).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let j = post(
        r,
        &format!("/api/games/{id}/join"),
        json!({"invite": g["invite"]}),
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.text);
    let t1 = g["token"].as_str().unwrap().to_owned();
    (id, t1, j.json()["token"].as_str().unwrap().to_owned())
}

/// Plays `houses` in turn, each with the token of the seat to move; the last view.
async fn play_all(r: &Router, id: &str, tokens: [&str; 2], houses: &[u8]) -> Value {
    let mut view = get(r, &format!("/api/games/{id}")).await.json();
    for &house in houses {
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let body = json!({"house": house, "ply": view["ply"]});
        let uri = format!("/api/games/{id}/moves");
        let a = call(r, "POST", &uri, Some(tokens[seat - 1]), Some(body)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        view = a.json();
    }
    view
}

#[tokio::test]
async fn every_variant_is_served_as_core_describes_it() {
    let r = router();
    let a = get(&r, "/api/variants").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.headers[header::CONTENT_TYPE], "application/json");
    let variants = a.json()["variants"].as_array().unwrap().clone();
    assert_eq!(variants.len(), Variant::catalogue().len());
    for (v, variant) in variants.iter().zip(Variant::catalogue().iter().copied()) {
        let info = variant.info();
        let d = variant.description();
        let expected = json!({
            "key": info.key,
            "name": info.name,
            "rules": info.rules,
            "tip": info.tip,
            "default_houses": info.default_houses,
            "default_seeds": info.default_seeds,
            "max_houses": info.max_houses,
            "max_seeds": info.max_seeds,
            "options": info.options.iter().map(|o| json!({
                "key": o.key,
                "field": o.key.replace('-', "_"),
                "summary": o.summary,
                "values": o.values,
            })).collect::<Vec<_>>(),
            "stores": info.stores,
            "extra_turns": info.extra_turns,
            "repetition": info.repetition,
            "must_feed": info.must_feed,
            "leftover": v["leftover"],
            "leftover_text": info.leftover.describe(),
            "claim_word": mancala_core::description::Description::builtin(info.key)
                .and_then(|d| d.claim)
                .map(|c| c.word),
            "bank": info.bank,
            "aliases": d.aliases,
            "region": d.region,
            "summary": d.summary,
            "mechanics": d.mechanics().iter().map(|m| m.words()).collect::<Vec<_>>(),
            "search": d.search_text(),
        });
        assert_eq!(v, &expected, "{}", info.key);
    }
    // The four games with kernels each say what happens to the seeds left.
    let leftovers: Vec<&str> = variants[..4]
        .iter()
        .map(|v| v["leftover"].as_str().unwrap())
        .collect();
    assert_eq!(
        leftovers,
        [
            "own-row",
            "own-row-unless-decided",
            "nobody",
            "own-row-unless-decided"
        ]
    );
    assert_eq!(
        leftovers,
        [
            "own-row",
            "own-row-unless-decided",
            "nobody",
            "own-row-unless-decided"
        ]
    );
    let togyz = &variants[3];
    assert_eq!(
        (&togyz["key"], &togyz["name"], &togyz["bank"]),
        (
            &json!("togyzkumalak"),
            &json!("Togyz Kumalak"),
            &json!("captured")
        )
    );
    assert_eq!(
        (&togyz["default_houses"], &togyz["default_seeds"]),
        (&json!(9), &json!(9))
    );
}

/// Each option's `field` is the field of a new game that sets it, and a game view's
/// `rules` holds it there: a switch as a boolean, any other option as its value.
#[tokio::test]
async fn every_option_is_set_through_its_field() {
    let r = router();
    let variants = get(&r, "/api/variants").await.json();
    for v in variants["variants"].as_array().unwrap() {
        for option in v["options"].as_array().unwrap() {
            let field = option["field"].as_str().unwrap();
            let values = option["values"].as_array().unwrap();
            let switch = values == &[json!("off"), json!("on")];
            for (i, value) in values.iter().enumerate() {
                let given = if switch { json!(i == 1) } else { value.clone() };
                let body = json!({"variant": v["key"], field: given});
                let id = create(&r, body).await["id"].as_str().unwrap().to_owned();
                let view = get(&r, &format!("/api/games/{id}")).await.json();
                assert_eq!(view["rules"][field], given, "{field} = {value}");
            }
        }
        // A variant without options takes none of another's.
        if v["options"].as_array().unwrap().is_empty() {
            let body = json!({"variant": v["key"], "empty_capture": true});
            let a = post(&r, "/api/games", body).await;
            assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
        }
    }
}

#[tokio::test]
async fn the_players_menus_offer_are_served_as_the_engine_describes_them() {
    let r = router();
    let a = get(&r, "/api/players").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let players = a.json()["players"].as_array().unwrap().clone();
    let offered: Vec<&PlayerInfo> = PlayerInfo::ALL.iter().filter(|p| p.in_menus).collect();
    assert_eq!(players.len(), offered.len());
    for (p, info) in players.iter().zip(offered) {
        let plays: Vec<&str> = Variant::catalogue()
            .iter()
            .filter(|&&v| info.plays(v))
            .map(|v| v.info().key)
            .collect();
        let expected = json!({
            "name": info.name,
            "summary": info.summary,
            "cost": info.cost.key(),
            "variants": plays,
        });
        assert_eq!(p, &expected);
    }
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"medium") && !names.contains(&"alphabeta"));
    // What the list says a player plays, a new game takes; what it does not, it
    // refuses (the robot on every board without extra turns).
    for p in &players {
        for &variant in Variant::catalogue() {
            let key = variant.info().key;
            let plays = p["variants"].as_array().unwrap().contains(&json!(key));
            let cheap = p["cost"] != "second";
            if plays && !cheap {
                continue; // Building them takes their tables; the levels suffice.
            }
            let body = json!({"variant": key, "opponent": p["name"]});
            let a = post(&r, "/api/games", body).await;
            let want = if plays {
                StatusCode::CREATED
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            assert_eq!(a.status, want, "{} on {key}: {}", p["name"], a.text);
        }
    }
}

/// Both lists are the same for the life of the server: cacheable, with an entity tag
/// that a browser may send back for a 304.
#[tokio::test]
async fn the_descriptions_are_cacheable() {
    let r = router();
    for uri in ["/api/variants", "/api/players"] {
        let a = get(&r, uri).await;
        assert_eq!(a.headers[header::CACHE_CONTROL], "public, max-age=3600");
        let etag = a.headers[header::ETAG].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"') && etag.len() > 8, "{etag}");
        // The same answer again, with the same tag.
        let b = get(&r, uri).await;
        assert_eq!(
            (b.text, &b.headers[header::ETAG]),
            (a.text, &a.headers[header::ETAG])
        );
        let req = Request::builder()
            .uri(uri)
            .header(header::IF_NONE_MATCH, &etag)
            .body(Body::empty())
            .unwrap();
        let c = send(&r, req).await;
        assert_eq!(c.status, StatusCode::NOT_MODIFIED, "{uri}");
        assert!(c.text.is_empty());
        // The security headers are there as on every answer.
        assert_eq!(c.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        let req = Request::builder()
            .uri(uri)
            .header(header::IF_NONE_MATCH, "\"something else\"")
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(&r, req).await.status, StatusCode::OK);
    }
    // Not an address for anything but reading.
    let a = post(&r, "/api/variants", json!({})).await;
    assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED);
}

/// They count as reads for the rate limit.
#[tokio::test]
async fn reading_the_descriptions_is_rate_limited() {
    let mut limits = Limits::default();
    limits.rates.read = "3/60s".parse().unwrap();
    limits.rates.refusal_delay = Duration::ZERO;
    let r = app(Games::with_limits(Store::in_memory().unwrap(), limits));
    let statuses = [
        get(&r, "/api/variants").await.status,
        get(&r, "/api/players").await.status,
        get(&r, "/api/variants").await.status,
    ];
    assert_eq!(statuses, [StatusCode::OK; 3]);
    let a = get(&r, "/api/players").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    assert!(a.headers.contains_key(header::RETRY_AFTER));
}

/// Player 1's house 1, player 2's house 3, player 1's house 2, then player 2's house 1
/// makes player 1's house 1 hold 3: player 2's tuzdyk (docs/rules.md).
const TUZDYK_LINE: [u8; 4] = [1, 3, 2, 1];

async fn a_togyz_kumalak_game_between_two_people(db: TestDb) {
    let r = app(db.games().await);
    // Without a board, the variant's own: 9 houses of 9.
    let (id, t1, t2) = joined(&r, json!({"variant": "togyzkumalak"})).await;
    let view = get(&r, &format!("/api/games/{id}")).await.json();
    assert_eq!(view["variant"], "togyzkumalak");
    assert_eq!(
        (
            view["rules"]["houses"].clone(),
            view["rules"]["seeds"].clone()
        ),
        (json!(9), json!(9))
    );
    assert_eq!(view["houses"], json!([vec![9; 9], vec![9; 9]]));
    assert_eq!(view["claimed"], json!([null, null]));
    assert_eq!(view["legal_moves"], json!([1, 2, 3, 4, 5, 6, 7, 8, 9]));

    let view = play_all(&r, &id, [&t1, &t2], &TUZDYK_LINE).await;
    assert_eq!(view["claimed"], json!([null, 1]), "{view}");
    assert_eq!(view["houses"][0][0], 0, "a tuzdyk holds no seeds");
    let last = &view["last_move"];
    assert_eq!(
        (last["seat"].clone(), last["claim"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(last["captured"], 3);
    let claims: Vec<Value> = view["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.get("claim").cloned().unwrap_or(Value::Null))
        .collect();
    assert_eq!(claims, [Value::Null, Value::Null, Value::Null, json!(1)]);
    assert_eq!(view["stores"], json!([2, 3]));

    // Player 1's house 9 holds 11: one back into it, nine over player 2's row, the
    // last into house 1, player 2's tuzdyk: a drop into player 2's store.
    let view = play_all(&r, &id, [&t1, &t2], &[9]).await;
    let steps = view["last_move"]["steps"].as_array().unwrap();
    assert_eq!(view["last_move"]["seat"], 1);
    assert_eq!(
        steps.last().unwrap(),
        &json!({"op": "drop", "pit": "s2", "seeds": 1}),
        "{steps:?}"
    );
    assert!(view["last_move"].get("claim").is_none());
    assert_eq!(view["stores"], json!([2, 4]));
    assert_eq!(view["houses"][0][0], 0);
    assert_eq!(view["claimed"], json!([null, 1]));

    // The positions ply by ply carry the tuzdyks, and the notation marks one `x`.
    let positions = get(&r, &format!("/api/games/{id}/positions")).await.json();
    let positions = positions["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 6);
    assert_eq!(positions[3]["claimed"], json!([null, null]));
    assert_eq!(positions[4]["claimed"], json!([null, 1]));
    let notation = positions[4]["notation"].as_str().unwrap();
    assert!(notation.starts_with("togyzkumalak 9x9 x,"), "{notation}");

    // A Kalah game's view has no tuzdyks at all.
    let kalah = create(&r, json!({"variant": "kalah"})).await;
    let uri = format!("/api/games/{}", kalah["id"].as_str().unwrap());
    let view = get(&r, &uri).await.json();
    assert!(view.get("claimed").is_none(), "{view}");
    assert_eq!(view["rules"]["houses"], 6);
}

async fn a_togyz_kumalak_record_imports_to_the_same_game(db: TestDb) {
    let r = app(db.games().await);
    let (id, t1, t2) = joined(&r, json!({"variant": "togyzkumalak", "name": "Ann"})).await;
    let mut houses = TUZDYK_LINE.to_vec();
    houses.push(9);
    let view = play_all(&r, &id, [&t1, &t2], &houses).await;
    let record = get(&r, &format!("/api/games/{id}/record")).await.text;
    assert!(record.contains("[Variant \"togyzkumalak\"]"), "{record}");
    assert!(
        record.contains("[Houses \"9\"]") && record.contains("[Seeds \"9\"]"),
        "{record}"
    );
    assert!(!record.contains("EmptyCapture"), "{record}");
    assert!(record.contains("[Player1 \"Ann\"]"), "{record}");

    let a = post(
        &r,
        "/api/games/import",
        json!({"record": record, "opponent": "human"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let new_id = a.json()["id"].as_str().unwrap().to_owned();
    let copy = get(&r, &format!("/api/games/{new_id}")).await.json();
    for key in [
        "variant",
        "rules",
        "moves",
        "history",
        "houses",
        "stores",
        "claimed",
        "to_move",
        "last_move",
    ] {
        assert_eq!(copy[key], view[key], "{key}");
    }
    assert_eq!(copy["players"][0]["name"], "Ann");
    let again = get(&r, &format!("/api/games/{new_id}/record")).await.text;
    let without_date = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("[Date"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_date(&again), without_date(&record));
    // The bare house numbers with the rules tags read too.
    let bare = "[Variant \"togyzkumalak\"]\n[Houses \"9\"]\n[Seeds \"9\"]\n\n1 3 2 1 *\n";
    let a = post(
        &r,
        "/api/games/import",
        json!({"record": bare, "opponent": "human"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let uri = format!("/api/games/{}", a.json()["id"].as_str().unwrap());
    assert_eq!(get(&r, &uri).await.json()["claimed"], json!([null, 1]));
}

async fn togyz_kumalak_against_the_computer_and_in_the_lobby(db: TestDb) {
    let r = app(db.games().await);
    // The robot reasons about extra moves, which Togyz Kumalak has not.
    let a = post(
        &r,
        "/api/games",
        json!({"variant": "togyzkumalak", "opponent": "robot"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);

    let g = create(&r, json!({"variant": "togyzkumalak", "opponent": "medium"})).await;
    let (id, token) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    let body = json!({"house": 5, "ply": 0});
    let uri = format!("/api/games/{id}/moves");
    let a = call(&r, "POST", &uri, Some(token), Some(body)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let mut view = Value::Null;
    for _ in 0..1000 {
        view = get(&r, &format!("/api/games/{id}")).await.json();
        if view["ply"] == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(view["ply"], 2, "the computer answered: {view}");
    assert_eq!(view["to_move"], 1);
    assert_eq!(view["players"][1]["name"], "Medium bot");

    // A public game waiting for a friend is in the lobby with its variant's key.
    let open = create(&r, json!({"variant": "togyzkumalak", "public": true})).await;
    let lobby = get(&r, "/api/lobby").await.json();
    let entry = &lobby["games"][0];
    assert_eq!(entry["id"], open["id"]);
    assert_eq!(entry["variant"], "togyzkumalak");
    assert_eq!(
        (
            entry["rules"]["houses"].clone(),
            entry["rules"]["seeds"].clone()
        ),
        (json!(9), json!(9))
    );
}

/// Every game of the catalogue, the ones the description engine plays among them, is
/// created against `medium`, takes a person's move, gets the computer's answer, and
/// reads back from the store as the same game (on both databases).
async fn every_catalogue_game_is_played_against_medium(db: TestDb) {
    let mut limits = Limits::default();
    limits.rates.create = "1000/60s".parse().unwrap();
    let r = app(db.games_with(limits).await);
    for variant in Variant::catalogue() {
        let key = variant.name();
        let g = create(&r, json!({"variant": key, "opponent": "medium"})).await;
        let (id, token) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
        let view = get(&r, &format!("/api/games/{id}")).await.json();
        assert_eq!(view["variant"], key);
        let house = view["legal_moves"][0].as_u64().unwrap();
        let body = json!({"house": house, "ply": 0});
        let uri = format!("/api/games/{id}/moves");
        let a = call(&r, "POST", &uri, Some(token), Some(body)).await;
        assert_eq!(a.status, StatusCode::OK, "{key}: {}", a.text);
        let mut view = a.json();
        for _ in 0..1000 {
            // The computer may move several times (extra turns) before it is player
            // 1's turn again.
            if view["over"] == true || view["to_move"] == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
            view = get(&r, &format!("/api/games/{id}")).await.json();
        }
        assert!(
            view["over"] == true || view["to_move"] == 1,
            "{key}: the computer did not answer: {view}"
        );
        let seeds: u64 = view["houses"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_array().unwrap())
            .chain(view["stores"].as_array().unwrap())
            .map(|n| n.as_u64().unwrap())
            .sum();
        let info = variant.info();
        let total = 2 * u64::from(info.default_houses) * u64::from(info.default_seeds);
        let start: u64 = variant
            .description()
            .board
            .start
            .iter()
            .map(|&n| u64::from(n))
            .sum();
        assert_eq!(
            seeds,
            if start > 0 { 2 * start } else { total },
            "{key}: {view}"
        );
    }
}
