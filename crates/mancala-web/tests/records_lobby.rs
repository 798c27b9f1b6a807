//! Game records (download, import, positions ply by ply), the move marks of the
//! history, and the public games (lobby, watching) through the router, on SQLite and
//! on PostgreSQL.

mod common;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_core::Rules;
use mancala_session::parse_records;
use mancala_web::{Expiry, Games, Limits, app};
use serde_json::{Value, json};
use tower::ServiceExt;

on_both_backends!(
    a_game_downloads_as_its_record,
    a_downloaded_record_imports_to_the_same_game,
    an_imported_game_continues_against_the_computer,
    an_import_can_take_on_the_record_s_player_2,
    bad_imports_are_refused_whole,
    positions_and_history_marks_step_through_a_game,
    public_games_are_listed_and_joined_without_invite,
    an_expired_public_game_leaves_its_lists,
    the_viewer_and_its_scripts_are_served,
    a_resigned_game_s_record_names_the_players_and_the_resignation,
    an_imported_record_keeps_its_players_names,
);

/// A request's answer: status, headers and the body as text.
struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

async fn call(
    r: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<String>,
) -> Answer {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    let response = r.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        text: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

async fn get(r: &Router, uri: &str) -> Answer {
    call(r, "GET", uri, None, None).await
}

async fn post(r: &Router, uri: &str, body: Value) -> Answer {
    call(r, "POST", uri, None, Some(body.to_string())).await
}

/// Creates a game; the grant (id, seat, token, invite).
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

/// Plays `houses` in turn, each with the token of the seat to move.
async fn play_all(r: &Router, id: &str, tokens: [&str; 2], houses: &[u8]) -> Value {
    let mut view = get(r, &format!("/api/games/{id}")).await.json();
    for &house in houses {
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let body = json!({"house": house, "ply": view["ply"]}).to_string();
        let a = call(
            r,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(tokens[seat - 1]),
            Some(body),
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        view = a.json();
    }
    view
}

fn moves_of(view: &Value) -> Vec<u64> {
    view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap())
        .collect()
}

async fn a_game_downloads_as_its_record(db: TestDb) {
    let r = app(db.games().await);
    let (id, t1, t2) = joined(&r, json!({"variant": "kalah", "houses": 4, "seeds": 3})).await;
    play_all(&r, &id, [&t1, &t2], &[2, 1]).await;
    let a = get(&r, &format!("/api/games/{id}/record")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.headers[header::CONTENT_TYPE], "text/plain; charset=utf-8");
    assert_eq!(
        a.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"mancala-{id}.txt\"").as_str()
    );
    for tag in [
        "[Variant \"kalah\"]",
        "[Houses \"4\"]",
        "[Seeds \"3\"]",
        "[Player1 \"Player 1\"]",
        "[Player2Kind \"human\"]",
        "[Result \"*\"]",
        "[Termination \"unterminated\"]",
    ] {
        assert!(a.text.contains(tag), "{tag} in {}", a.text);
    }
    assert!(a.text.contains("[Date \"20"), "{}", a.text);
    // The library reads it back to the same moves; the same game gives the same bytes.
    let records = parse_records(&a.text, Rules::kalah(6, 4)).unwrap();
    let houses: Vec<u8> = records[0].moves().iter().map(|m| m.house()).collect();
    assert_eq!(houses, [2, 1]);
    assert_eq!(
        get(&r, &format!("/api/games/{id}/record")).await.text,
        a.text
    );
    // The other formats of `mancala record convert`.
    let moves = get(&r, &format!("/api/games/{id}/record?format=moves")).await;
    assert_eq!(moves.text, "2 1 *\n");
    let bad = get(&r, &format!("/api/games/{id}/record?format=pgn")).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(
        bad.json()["error"]
            .as_str()
            .unwrap()
            .contains("unknown record format")
    );
    let kalah_oware2 = get(&r, &format!("/api/games/{id}/record?format=oware2")).await;
    assert_eq!(kalah_oware2.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        get(&r, "/api/games/nope/record").await.status,
        StatusCode::NOT_FOUND
    );

    // A computer opponent is recorded by its spec, and named as the library names it.
    let g = create(&r, json!({"variant": "oware", "opponent": "greedy"})).await;
    let text = get(
        &r,
        &format!("/api/games/{}/record", g["id"].as_str().unwrap()),
    )
    .await
    .text;
    assert!(
        text.contains("[Player2 \"Greedy bot\"]\n[Player2Kind \"greedy\"]"),
        "{text}"
    );
    assert!(!text.contains("EmptyCapture"), "{text}");
}

async fn a_downloaded_record_imports_to_the_same_game(db: TestDb) {
    let r = app(db.games().await);
    // A whole game: both players sow their first legal house until the end.
    let (id, t1, t2) = joined(&r, json!({"variant": "kalah", "houses": 3, "seeds": 2})).await;
    let mut view = get(&r, &format!("/api/games/{id}")).await.json();
    while view["over"] == false {
        let house = view["legal_moves"][0].as_u64().unwrap() as u8;
        view = play_all(&r, &id, [&t1, &t2], &[house]).await;
    }
    let record = get(&r, &format!("/api/games/{id}/record")).await.text;
    assert!(record.contains("[Score \""), "{record}");
    let a = post(
        &r,
        "/api/games/import",
        json!({"record": record, "opponent": "human"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let grant = a.json();
    assert_eq!(grant["seat"], 1);
    let new_id = grant["id"].as_str().unwrap();
    assert_ne!(new_id, id);
    let copy = get(&r, &format!("/api/games/{new_id}")).await.json();
    for key in [
        "moves", "history", "houses", "stores", "result", "over", "end",
    ] {
        assert_eq!(copy[key], view[key], "{key}");
    }
    // And its record is the original's, but for the date.
    let again = get(&r, &format!("/api/games/{new_id}/record")).await.text;
    let without_date = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("[Date"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_date(&again), without_date(&record));
}

/// Polls game `id` until `seat` is to move (the computer has answered); the view.
async fn until_to_move(r: &Router, id: &str, seat: u64) -> Value {
    let mut view = Value::Null;
    for _ in 0..500 {
        view = get(r, &format!("/api/games/{id}")).await.json();
        if view["to_move"] == seat {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    view
}

/// Plays the first legal house of `view` in game `id` as the holder of `token`.
async fn play_first_legal(r: &Router, id: &str, token: &str, view: &Value) {
    let house = view["legal_moves"][0].clone();
    let body = json!({"house": house, "ply": view["ply"]}).to_string();
    let uri = format!("/api/games/{id}/moves");
    let played = call(r, "POST", &uri, Some(token), Some(body)).await;
    assert_eq!(played.status, StatusCode::OK, "{}", played.text);
}

async fn an_imported_game_continues_against_the_computer(db: TestDb) {
    let r = app(db.games().await);
    // Kalah 6x4: 3 reaches the store (player 1 again), 1 ends in a house: the
    // computer's turn.
    let a = post(
        &r,
        "/api/games/import",
        json!({"record": "1. 3+ 1", "opponent": "greedy"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let g = a.json();
    let (id, token) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    assert!(g.get("invite").is_none(), "no invite against the computer");
    let view = until_to_move(&r, id, 1).await;
    assert_eq!(view["to_move"], 1, "the computer answered: {view}");
    let moves = moves_of(&view);
    assert_eq!(&moves[..2], &[3, 1]);
    assert!(moves.len() >= 3);
    assert_eq!(view["players"][1]["computer"], "greedy");
    assert_eq!(view["players"][1]["name"], "Greedy bot");
    // The importer plays on with the token.
    play_first_legal(&r, id, token, &view).await;

    // The two-digit Oware notation reads too, with the record's rules; the second game
    // of a file is asked for by number.
    let file = "[Variant \"oware\"]\n1. 64 64 2. 21 32 *\n\n[Variant \"oware\"]\n64 *\n";
    let a = post(
        &r,
        "/api/games/import",
        json!({"record": file, "game": 2, "opponent": "human"}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let view = get(
        &r,
        &format!("/api/games/{}", a.json()["id"].as_str().unwrap()),
    )
    .await
    .json();
    assert_eq!(
        (view["variant"].as_str(), moves_of(&view)),
        (Some("oware"), vec![6])
    );
    assert_eq!(view["started"], false, "a friend is still to join");
}

async fn an_import_can_take_on_the_record_s_player_2(db: TestDb) {
    let r = app(db.games().await);
    // Kalah 6x4: player 1 sows 3 (to the store, again), then 1: player 2's turn, which
    // is the importer's. The web game seats the importer as its player 1, so the sides
    // are exchanged: its player 2 (the computer) moved first.
    let a = post(
        &r,
        "/api/games/import",
        json!({"record": "1. 3+ 1", "opponent": "greedy", "seat": 2}),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let g = a.json();
    let (id, token) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    let view = get(&r, &format!("/api/games/{id}")).await.json();
    assert_eq!(
        (view["first"].as_u64(), view["to_move"].as_u64()),
        (Some(2), Some(1)),
        "{view}"
    );
    assert_eq!(
        moves_of(&view),
        vec![3, 1],
        "the computer did not move for the importer"
    );
    // The record's player 1 sowed their houses 3 then 1: the game's player 2's.
    assert_eq!(
        view["houses"],
        json!([[4, 4, 4, 4, 4, 4], [0, 5, 1, 6, 6, 5]]),
        "{view}"
    );
    assert_eq!(view["stores"], json!([0, 1]), "{view}");
    // The importer plays on; the computer answers.
    play_first_legal(&r, id, token, &view).await;
    let view = until_to_move(&r, id, 1).await;
    assert!(moves_of(&view).len() >= 4, "the computer answered: {view}");

    // A record that leaves its player 1 to move leaves the computer to move: it moves.
    // So does an empty one, in which the computer moves first.
    for record in ["1. 3+ 1 2. 1", "*"] {
        let a = post(
            &r,
            "/api/games/import",
            json!({"record": record, "opponent": "greedy", "seat": 2}),
        )
        .await;
        assert_eq!(a.status, StatusCode::CREATED, "{record}: {}", a.text);
        let id = a.json()["id"].as_str().unwrap().to_owned();
        let view = until_to_move(&r, &id, 1).await;
        let imported = if record == "*" { 0 } else { 3 };
        assert_eq!(
            view["to_move"], 1,
            "{record}: the computer answered: {view}"
        );
        assert!(moves_of(&view).len() > imported, "{record}: {view}");
    }

    // Only seats 1 and 2.
    let a = post(
        &r,
        "/api/games/import",
        json!({"record": "1. 3+ 1", "seat": 3}),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", a.text);
    assert!(a.text.contains("seat is 1 or 2"), "{}", a.text);
}

async fn bad_imports_are_refused_whole(db: TestDb) {
    let r = app(db.games().await);
    let refused = |record: &str, game: Option<usize>| {
        // Public, so that a game created by mistake would show in the lobby.
        let body = json!({"record": record, "game": game, "opponent": "human", "public": true});
        let r = r.clone();
        async move { post(&r, "/api/games/import", body).await }
    };
    let illegal = refused("3 6 1 3", None).await;
    assert_eq!(illegal.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        illegal.json()["error"],
        "the record does not read: game 1, line 1: move 2 (player 1, ply 4), \"3\": house 3 is empty"
    );
    let missing = refused("3 6", Some(2)).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        missing.json()["error"],
        "game 2 asked for; the record holds 1 game"
    );
    let setup = "[Position \"kalah 6x4 4,4,0,5,5,5/1 4,4,4,4,4,4/0 1\"]\n6 *\n";
    let setup = refused(setup, None).await;
    assert_eq!(setup.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(setup.text.contains("set-up position"), "{}", setup.text);
    let bad_opponent = post(
        &r,
        "/api/games/import",
        json!({"record": "3", "opponent": "nobody"}),
    )
    .await;
    assert_eq!(bad_opponent.status, StatusCode::UNPROCESSABLE_ENTITY);
    let unknown_field = post(
        &r,
        "/api/games/import",
        json!({"record": "3", "colour": "red"}),
    )
    .await;
    assert_eq!(unknown_field.status, StatusCode::BAD_REQUEST);
    // Records may be longer than other requests (4 KiB), up to 64 KiB.
    let comment = "x".repeat(8 * 1024);
    let long = post(
        &r,
        "/api/games/import",
        json!({"record": format!("{{{comment}}} 3 *"), "opponent": "human", "public": true}),
    )
    .await;
    assert_eq!(long.status, StatusCode::CREATED, "{}", long.text);
    let huge = "y".repeat(70 * 1024);
    let huge = post(
        &r,
        "/api/games/import",
        json!({"record": format!("{{{huge}}} 3 *"), "public": true}),
    )
    .await;
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE);
    // Of the public imports, only the one accepted created a game.
    let lobby = get(&r, "/api/lobby").await.json();
    let listed: Vec<&Value> = lobby["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["id"])
        .collect();
    assert_eq!(listed, [&long.json()["id"]]);
}

async fn positions_and_history_marks_step_through_a_game(db: TestDb) {
    let r = app(db.games().await);
    let (id, t1, t2) = joined(&r, json!({"variant": "kalah"})).await;
    // 3 reaches the store; 1 ends in house 5; then player 2 sows 6 (4 seeds: into the
    // store and player 1's houses 1 to 3)...
    let view = play_all(&r, &id, [&t1, &t2], &[3, 1, 6]).await;
    let history = &view["history"];
    assert_eq!(
        history[0],
        json!({"seat": 1, "house": 3, "captured": 0, "again": true})
    );
    assert_eq!(
        history[1],
        json!({"seat": 1, "house": 1, "captured": 0, "again": false})
    );
    assert_eq!(history[2]["seat"], 2);
    let a = get(&r, &format!("/api/games/{id}/positions")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let p = a.json();
    let positions = p["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4, "the start and one per move");
    assert_eq!(
        positions[0]["notation"],
        "kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1"
    );
    assert_eq!(
        positions[1]["notation"],
        "kalah 6x4 4,4,0,5,5,5/1 4,4,4,4,4,4/0 1"
    );
    assert_eq!(positions[1]["houses"][0], json!([4, 4, 0, 5, 5, 5]));
    assert_eq!(positions[1]["to_move"], 1);
    assert_eq!(positions[2]["to_move"], 2);
    assert_eq!(positions[3]["houses"], view["houses"]);
    assert_eq!(positions[3]["stores"], view["stores"]);

    // A capture is marked; the last move of a finished game has its end.
    let (id, t1, t2) = joined(&r, json!({"variant": "kalah", "houses": 2, "seeds": 1})).await;
    // 1 -> house 2; 2 sows 1 -> its house 2; 1 sows 2 -> store (again)...
    let mut view = get(&r, &format!("/api/games/{id}")).await.json();
    while view["over"] == false {
        let house = view["legal_moves"][0].as_u64().unwrap() as u8;
        view = play_all(&r, &id, [&t1, &t2], &[house]).await;
    }
    let last = view["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last["again"], false,
        "the move that ends the game has no extra turn"
    );
    let positions = get(&r, &format!("/api/games/{id}/positions")).await.json();
    let positions = positions["positions"].as_array().unwrap();
    assert_eq!(positions.len(), view["ply"].as_u64().unwrap() as usize + 1);
    assert_eq!(positions.last().unwrap()["to_move"], Value::Null);
    assert_eq!(
        get(&r, "/api/games/nope/positions").await.status,
        StatusCode::NOT_FOUND
    );
}

async fn public_games_are_listed_and_joined_without_invite(db: TestDb) {
    let r = app(db.games().await);
    let body = json!({"variant": "oware", "houses": 5, "public": true, "name": "Ann",
                      "time_control": {"initial_s": 180, "increment_s": 2}});
    let open = create(&r, body).await;
    let private = create(&r, json!({"variant": "kalah", "public": false})).await;
    let default = create(&r, json!({"variant": "kalah"})).await;
    let computer = create(
        &r,
        json!({"variant": "kalah", "opponent": "greedy", "public": true}),
    )
    .await;
    let lobby = get(&r, "/api/lobby").await;
    assert_eq!(lobby.status, StatusCode::OK);
    let games = lobby.json()["games"].as_array().unwrap().clone();
    let open_id = open["id"].as_str().unwrap();
    assert_eq!(
        games.len(),
        1,
        "only the public game waiting for a friend: {games:?}"
    );
    assert_eq!(games[0]["id"], open_id);
    assert_eq!(games[0]["variant"], "oware");
    assert_eq!(games[0]["rules"]["houses"], 5);
    assert_eq!(games[0]["players"][1]["joined"], false);
    assert_eq!(games[0]["join"], format!("/api/games/{open_id}/join"));
    // What a player chooses a game by: the creator and the clock.
    assert_eq!(games[0]["players"][0]["name"], "Ann");
    assert_eq!(
        games[0]["time_control"],
        json!({"initial_s": 180, "increment_s": 2})
    );
    // The computer game is there to watch (and not in the lobby).
    let computer_id = computer["id"].as_str().unwrap();
    let token = computer["token"].as_str().unwrap();
    let body = json!({"house": 1, "ply": 0}).to_string();
    let a = call(
        &r,
        "POST",
        &format!("/api/games/{computer_id}/moves"),
        Some(token),
        Some(body),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let watch = get(&r, "/api/watch").await.json();
    let ids: Vec<&str> = watch["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [computer_id]);
    assert!(watch["games"][0].get("join").is_none());

    // Anyone joins the public game without the invite; it leaves the lobby for the
    // games to watch.
    let j = call(
        &r,
        "POST",
        &format!("/api/games/{open_id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.text);
    assert_eq!(j.json()["seat"], 2);
    assert_eq!(get(&r, "/api/lobby").await.json()["games"], json!([]));
    let watch = get(&r, "/api/watch").await.json();
    assert_eq!(watch["games"].as_array().unwrap().len(), 2);
    // A private game still takes the invite.
    for g in [&private, &default] {
        let j = call(
            &r,
            "POST",
            &format!("/api/games/{}/join", g["id"].as_str().unwrap()),
            None,
            None,
        )
        .await;
        assert_eq!(j.status, StatusCode::FORBIDDEN);
    }
}

async fn an_expired_public_game_leaves_its_lists(db: TestDb) {
    let limits = Limits {
        expiry: Expiry {
            unstarted: Duration::from_millis(300),
            ..Expiry::default()
        },
        ..Limits::default()
    };
    let games = Games::with_limits(db.store().await, limits);
    let r = app(games.clone());
    create(&r, json!({"variant": "kalah", "public": true})).await;
    assert_eq!(
        get(&r, "/api/lobby").await.json()["games"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    // Out of the list as soon as it has expired, and deleted with its listing.
    assert_eq!(get(&r, "/api/lobby").await.json()["games"], json!([]));
    assert_eq!(games.expire().await.unwrap(), 1);
    assert_eq!(get(&r, "/api/lobby").await.json()["games"], json!([]));
}

async fn the_viewer_and_its_scripts_are_served(db: TestDb) {
    let r = app(db.games().await);
    let id = create(&r, json!({"variant": "kalah"})).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let page = get(&r, &format!("/g/{id}/replay")).await;
    assert_eq!(page.status, StatusCode::OK);
    // The page loads the scripts under their versioned addresses.
    for script in ["catalogue.js", "lobby.js", "replay.js"] {
        let at = page
            .text
            .find(&format!("/static/{script}?v="))
            .unwrap_or_else(|| panic!("{script}"));
        let uri = page.text[at..].split('"').next().unwrap().to_owned();
        let a = get(&r, &uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        assert_eq!(
            a.headers[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
    }
    let icon = get(&r, "/favicon-turn.svg").await;
    assert_eq!(
        (icon.status, &icon.headers[header::CONTENT_TYPE]),
        (
            StatusCode::OK,
            &"image/svg+xml".parse::<axum::http::HeaderValue>().unwrap()
        )
    );
    assert_eq!(
        get(&r, "/g/nope/replay").await.status,
        StatusCode::NOT_FOUND
    );
}

async fn a_resigned_game_s_record_names_the_players_and_the_resignation(db: TestDb) {
    let r = app(db.games().await);
    let body = json!({"variant": "kalah", "houses": 4, "seeds": 3, "name": "Ann"});
    let g = create(&r, body).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let j = post(
        &r,
        &format!("/api/games/{id}/join"),
        json!({"invite": g["invite"], "name": "Bob"}),
    )
    .await;
    assert_eq!(j.status, StatusCode::OK, "{}", j.text);
    let bob = j.json()["token"].as_str().unwrap().to_owned();
    play_all(&r, &id, [g["token"].as_str().unwrap(), &bob], &[1, 1]).await;
    let resigned = call(
        &r,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&bob),
        None,
    )
    .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.text);
    let text = get(&r, &format!("/api/games/{id}/record")).await.text;
    assert!(text.contains("[Player1 \"Ann\"]"), "{text}");
    assert!(text.contains("[Player2 \"Bob\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    let games = parse_records(&text, Rules::kalah(4, 3)).unwrap();
    assert_eq!(games[0].names(), &["Ann", "Bob"]);
}

/// An imported record's players keep their names (in the web game's seats), to review
/// or play on; a computer is named by its level, and a name no player could give (a
/// computer's) is left to the web game.
async fn an_imported_record_keeps_its_players_names(db: TestDb) {
    /// Imports `body`; the new game's view.
    async fn import(r: &Router, body: Value) -> Value {
        let a = post(r, "/api/games/import", body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        let id = a.json()["id"].as_str().unwrap().to_owned();
        get(r, &format!("/api/games/{id}")).await.json()
    }
    let r = app(db.games().await);
    let record = "[Variant \"kalah\"]\n[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n\n1. 3+ 1 *\n";
    let names =
        |view: &Value| [0, 1].map(|i| view["players"][i]["name"].as_str().unwrap().to_owned());
    // To review, or play on with a friend (who names themself when they join).
    let view = import(&r, json!({"record": record, "opponent": "human"})).await;
    assert_eq!(names(&view), ["Ann", "Bob"]);
    // Taking on the record's player 2 exchanges the seats, and their names.
    let view = import(
        &r,
        json!({"record": record, "opponent": "human", "seat": 2}),
    )
    .await;
    assert_eq!(names(&view), ["Bob", "Ann"]);
    // Against the computer: the computer is named by its level.
    let view = import(&r, json!({"record": record, "opponent": "greedy"})).await;
    assert_eq!(names(&view), ["Ann", "Greedy bot"]);
    // A record whose player is named as a computer is: the default name.
    let robot = record.replace("Bob", "Medium bot");
    let view = import(&r, json!({"record": robot, "opponent": "human"})).await;
    assert_eq!(names(&view), ["Ann", "Player 2"]);
}
