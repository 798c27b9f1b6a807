//! The API through the router, without a socket: every status code of the contract,
//! on SQLite and on PostgreSQL.

mod common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::TestDb;
use http_body_util::BodyExt;
use mancala_web::app;
use serde_json::{Value, json};
use tower::ServiceExt;

async fn router(db: &TestDb) -> Router {
    app(db.games().await)
}

on_both_backends!(
    a_game_between_two_people,
    every_error_status,
    a_rejected_request_changes_nothing,
    the_computer_answers_and_join_is_refused,
    the_master_level_plays_on_the_web,
    rematch_seats_both_players_in_a_new_game,
    the_ui_is_served,
    the_end_of_a_game_says_why_and_where_the_seeds_went,
    a_body_not_sent_as_json_is_refused_with_415,
    a_wrong_field_is_named_with_what_it_must_be,
    a_person_cannot_take_a_computer_player_s_name,
    an_unknown_page_is_not_found_and_an_unknown_game_is_no_such_game,
);

async fn call(
    router: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    let response = router.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value)
}

async fn create(router: &Router, body: Value) -> (String, String) {
    let v = create_grant(router, body).await;
    (
        v["id"].as_str().unwrap().to_owned(),
        v["token"].as_str().unwrap().to_owned(),
    )
}

/// Creates a game; returns the whole answer (id, seat, token, invite).
async fn create_grant(router: &Router, body: Value) -> Value {
    let (status, v) = call(router, "POST", "/api/games", None, Some(body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["seat"], 1);
    v
}

/// Creates a game against a friend and takes seat 2 with the invite: (id, t1, t2).
async fn create_joined(router: &Router, body: Value) -> (String, String, String) {
    let g = create_grant(router, body).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let join = json!({"invite": g["invite"]}).to_string();
    let (s, j) = call(
        router,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(join),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(j["seat"], 2);
    (
        id,
        g["token"].as_str().unwrap().to_owned(),
        j["token"].as_str().unwrap().to_owned(),
    )
}

async fn play(router: &Router, id: &str, token: &str, house: u64, ply: u64) -> (StatusCode, Value) {
    call(
        router,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"house": house, "ply": ply}).to_string()),
    )
    .await
}

async fn a_game_between_two_people(db: TestDb) {
    let r = router(&db).await;
    let g = create_grant(&r, json!({"variant": "kalah"})).await;
    let (id, t1) = (
        g["id"].as_str().unwrap().to_owned(),
        g["token"].as_str().unwrap().to_owned(),
    );
    assert!(t1.len() >= 32, "128 bits at least");

    let (s, v) = call(&r, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["houses"], json!([[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]]));
    assert_eq!(
        (v["to_move"].clone(), v["ply"].clone(), v["over"].clone()),
        (json!(1), json!(0), json!(false))
    );
    assert_eq!(v["players"][1]["joined"], false);

    let join = json!({"invite": g["invite"]}).to_string();
    let (s, j) = call(
        &r,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(join.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(j["seat"], 2);
    let t2 = j["token"].as_str().unwrap().to_owned();
    assert_ne!(t1, t2);
    // 409: the seat is taken.
    let (s, e) = call(
        &r,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(join),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(e["error"].as_str().unwrap().contains("taken"));

    // Player 1 sows house 3 into the store and moves again, then house 1.
    let (s, v) = play(&r, &id, &t1, 3, 0).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["last_move"]["again"], true);
    assert_eq!(
        v["last_move"]["steps"][0],
        json!({"op": "lift", "pit": "h1-3", "seeds": 4})
    );
    assert_eq!(
        v["last_move"]["steps"][4],
        json!({"op": "drop", "pit": "s1", "seeds": 1})
    );
    // 403: not player 2's turn (with the current ply).
    let (s, _) = play(&r, &id, &t2, 1, 1).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, v) = play(&r, &id, &t1, 1, 1).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["to_move"], 2);
    assert_eq!(v["moves"], json!([3, 1]));
    // 409: a retry of the same ply, checked before the turn.
    let (s, e) = play(&r, &id, &t1, 1, 1).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    // 422: an empty house, and a house off the board.
    let (s, e) = play(&r, &id, &t2, 7, 2).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("there is no house 7 (houses are 1 to 6)")
    );
    let (s, _) = play(&r, &id, &t2, 2, 2).await;
    assert_eq!(s, StatusCode::OK);
}

async fn every_error_status(db: TestDb) {
    let r = router(&db).await;
    let (id, t1, t2) =
        create_joined(&r, json!({"variant": "kalah", "houses": 2, "seeds": 1})).await;
    let moves = format!("/api/games/{id}/moves");
    let good = json!({"house": 2, "ply": 0}).to_string();

    // 401: no token, a token of another game, a malformed header.
    let (s, e) = call(&r, "POST", &moves, None, Some(good.clone())).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert!(e["error"].is_string());
    let (_, other) = create(&r, json!({"variant": "oware"})).await;
    assert_eq!(
        call(&r, "POST", &moves, Some(&other), Some(good.clone()))
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        call(&r, "POST", &moves, Some("x"), Some(good.clone()))
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );

    // 400: not the expected JSON.
    for body in [
        "",
        "not json",
        r#"{"house":2}"#,
        r#"{"house":-1,"ply":0}"#,
        r#"{"house":2,"ply":0,"extra":1}"#,
    ] {
        let (s, e) = call(&r, "POST", &moves, Some(&t1), Some(body.into())).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
    }
    assert_eq!(
        call(&r, "POST", "/api/games", None, Some("{".into()))
            .await
            .0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        call(
            &r,
            "POST",
            "/api/games",
            None,
            Some(r#"{"houses":6}"#.into())
        )
        .await
        .0,
        StatusCode::BAD_REQUEST
    );

    // 413: a body past the limit.
    let big = format!(r#"{{"house":2,"ply":0,"pad":"{}"}}"#, "x".repeat(10_000));
    let (s, e) = call(&r, "POST", &moves, Some(&t1), Some(big)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{e}");

    // 404: unknown games, everywhere.
    for (m, uri) in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/join"),
        ("POST", "/api/games/nope/moves"),
        ("GET", "/api/games/nope/live"),
        ("GET", "/api/nothing"),
    ] {
        assert_eq!(
            call(&r, m, uri, Some(&t1), Some(good.clone())).await.0,
            StatusCode::NOT_FOUND,
            "{uri}"
        );
    }

    // 422: settings outside the rules.
    for body in [
        json!({"variant": "kalah", "houses": 0}),
        json!({"variant": "oware", "empty_capture": true}),
        json!({"variant": "oware", "opponent": "robot"}),
        json!({"variant": "kalah", "opponent": "nobody"}),
    ] {
        let (s, e) = call(&r, "POST", "/api/games", None, Some(body.to_string())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {e}");
    }
    // The options are the games' own fields: one that names no option of any game is
    // an unknown field (400), a switch that is not a boolean is refused (400), a value
    // the option does not take is the rules' words (422); a game's view shows the
    // options its game takes, and none for a game without options.
    for (body, status, message) in [
        (
            json!({"variant": "kalah", "sowing": "clockwise"}),
            StatusCode::BAD_REQUEST,
            "unknown field `sowing`, expected one of `variant`, `rules`",
        ),
        (
            json!({"variant": "kalah", "empty_capture": "yes"}),
            StatusCode::BAD_REQUEST,
            "empty_capture must be true or false, not \"yes\"",
        ),
        (
            json!({"variant": "kalah", "end_rule": "never"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown end-rule \"never\" (expected mover-cannot-move or either-side-empty)",
        ),
    ] {
        let (s, e) = call(&r, "POST", "/api/games", None, Some(body.to_string())).await;
        assert_eq!(s, status, "{body}: {e}");
        assert!(
            e["error"].as_str().unwrap().starts_with(message),
            "{body}: {e}"
        );
    }
    let body = json!({"variant": "kalah", "empty_capture": true, "end_rule": "either-side-empty"});
    let (kalah, _) = create(&r, body).await;
    let (_, v) = call(&r, "GET", &format!("/api/games/{kalah}"), None, None).await;
    assert_eq!(
        v["rules"],
        json!({"houses": 6, "seeds": 4, "empty_capture": true, "end_rule": "either-side-empty"})
    );
    let (oware, _) = create(&r, json!({"variant": "oware"})).await;
    let (_, v) = call(&r, "GET", &format!("/api/games/{oware}"), None, None).await;
    assert_eq!(v["rules"], json!({"houses": 6, "seeds": 4}));
    // A Kalah option for another variant is refused in the session's words, naming
    // only what was given.
    for (body, message) in [
        (
            json!({"variant": "oware", "empty_capture": true}),
            "oware takes no rule options; empty-capture is a Kalah option",
        ),
        (
            json!({"variant": "oware-simplified", "end_rule": "either-side-empty"}),
            "oware-simplified takes no rule options; end-rule is a Kalah option",
        ),
    ] {
        let (s, e) = call(&r, "POST", "/api/games", None, Some(body.to_string())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {e}");
        assert_eq!(e["error"], message, "{body}");
    }

    // 422: a move after the game is over. Kalah(2,1): 2, 1 (player 1), 2 (player 2) ends it.
    assert_eq!(play(&r, &id, &t1, 2, 0).await.0, StatusCode::OK);
    assert_eq!(play(&r, &id, &t1, 1, 1).await.0, StatusCode::OK);
    let (s, v) = play(&r, &id, &t2, 2, 2).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["over"], true);
    assert_eq!(v["result"], json!({"winner": 1, "scores": [3, 1]}));
    assert_eq!(v["to_move"], Value::Null);
    let (s, e) = play(&r, &id, &t2, 1, 3).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"].as_str().unwrap().contains("over"));
}

async fn a_rejected_request_changes_nothing(db: TestDb) {
    let r = router(&db).await;
    let (id, t1) = create(&r, json!({"variant": "oware"})).await;
    let before = call(&r, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .1;
    for (token, body) in [
        (None, r#"{"house":1,"ply":0}"#),
        (Some(t1.as_str()), r#"{"house":1,"ply":5}"#),
        (Some(t1.as_str()), r#"{"house":9,"ply":0}"#),
        (Some(t1.as_str()), "[]"),
    ] {
        let (s, _) = call(
            &r,
            "POST",
            &format!("/api/games/{id}/moves"),
            token,
            Some(body.into()),
        )
        .await;
        assert!(s.is_client_error());
    }
    assert_eq!(
        call(&r, "GET", &format!("/api/games/{id}"), None, None)
            .await
            .1,
        before
    );
}

async fn the_computer_answers_and_join_is_refused(db: TestDb) {
    let r = router(&db).await;
    let (id, t1) = create(&r, json!({"variant": "kalah", "opponent": "greedy"})).await;
    let join = json!({"invite": "00"}).to_string();
    let (s, e) = call(
        &r,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(join),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(e["error"].as_str().unwrap().contains("computer"));
    let (s, v) = play(&r, &id, &t1, 1, 0).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["to_move"], 2);
    assert_eq!(
        v["players"][1],
        json!({"seat": 2, "kind": "computer", "joined": true, "name": "Greedy bot", "computer": "greedy"})
    );
    // The computer moves off the request path; wait for its reply.
    for _ in 0..200 {
        let v = call(&r, "GET", &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if v["to_move"] == 1 {
            assert!(v["moves"].as_array().unwrap().len() >= 2);
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the computer did not move");
}

async fn rematch_seats_both_players_in_a_new_game(db: TestDb) {
    let r = router(&db).await;
    let (id, t1, t2) =
        create_joined(&r, json!({"variant": "kalah", "houses": 2, "seeds": 1})).await;
    let rematch = format!("/api/games/{id}/rematch");
    assert_eq!(
        call(&r, "POST", &rematch, Some(&t1), None).await.0,
        StatusCode::CONFLICT,
        "not over yet"
    );
    for (t, h, p) in [(&t1, 2, 0), (&t1, 1, 1), (&t2, 2, 2)] {
        assert_eq!(play(&r, &id, t, h, p).await.0, StatusCode::OK);
    }
    assert_eq!(
        call(&r, "POST", &rematch, None, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (s, a) = call(&r, "POST", &rematch, Some(&t2), None).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(a["seat"], 1);
    let (s, b) = call(&r, "POST", &rematch, Some(&t1), None).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(
        (b["seat"].clone(), b["id"].clone()),
        (json!(2), a["id"].clone())
    );
    let old = call(&r, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .1;
    assert_eq!(old["rematch"], a["id"]);
}

async fn the_ui_is_served(db: TestDb) {
    let r = router(&db).await;
    let (id, _) = create(&r, json!({"variant": "kalah"})).await;
    let page = format!("/g/{id}");
    for uri in ["/", &page, "/static/app.js", "/static/style.css"] {
        let response = r
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
    }
}

/// The game JSON says how a game ended: the reason, the sweep and the words. The Oware
/// game of the exactly-half defect: player 1 captures half (6 of 12), player 2 cannot
/// feed player 1's empty row and takes their own last seed: a 6-6 draw.
async fn the_end_of_a_game_says_why_and_where_the_seeds_went(db: TestDb) {
    let r = router(&db).await;
    let body = json!({"variant": "oware", "houses": 3, "seeds": 2});
    let (id, t1, t2) = create_joined(&r, body).await;
    let mut last = Value::Null;
    for (ply, house) in [2, 2, 3, 3, 3, 2, 2, 3, 3].into_iter().enumerate() {
        let token = if ply % 2 == 0 { &t1 } else { &t2 };
        let (s, v) = play(&r, &id, token, house, ply as u64).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["end"].is_null(), ply < 8, "{v}");
        last = v;
    }
    assert_eq!(last["result"], json!({"winner": null, "scores": [6, 6]}));
    assert_eq!(
        last["end"],
        json!({
            "reason": "cannot-feed", "player": 2, "sweep": [0, 1], "unclaimed": 0,
            "headline": "A draw, 6 to 6",
            "text": "Player 2 cannot give Player 1 any seeds, so Player 2 takes the 1 seed \
                     left in their houses."
        })
    );
}

/// A storage failure answers 500 with a generic body; the detail goes to the log only.
/// (On PostgreSQL, where another connection can drop a table meanwhile.)
#[tokio::test]
async fn a_storage_failure_is_a_500_that_tells_no_detail() {
    let test = "a_storage_failure_is_a_500_that_tells_no_detail";
    let Some(db) = TestDb::new(common::Backend::Postgres, test) else {
        return;
    };
    let r = router(&db).await;
    let (id, _) = create(&r, json!({"variant": "kalah"})).await;
    let Some(mancala_web::DbLocation::Postgres(url)) = &db.location else {
        unreachable!()
    };
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client.batch_execute("DROP TABLE moves").await.unwrap();
    let (s, e) = call(&r, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(e, json!({"error": "internal server error"}));
}

/// The top level plays on the web too (on one thread, within the server's time bound).
async fn the_master_level_plays_on_the_web(db: TestDb) {
    let r = router(&db).await;
    let body = json!({"variant": "kalah", "houses": 4, "seeds": 3, "opponent": "master"});
    let (id, t1) = create(&r, body).await;
    let (s, v) = play(&r, &id, &t1, 1, 0).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["players"][1]["computer"], "master");
    for _ in 0..1000 {
        let v = call(&r, "GET", &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if v["to_move"] == 1 || v["over"] == true {
            assert!(v["moves"].as_array().unwrap().len() >= 2, "{v}");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("master did not move");
}

/// Sends `body` as `content_type` (none: no header); the status and the error.
async fn send_as(
    router: &Router,
    uri: &str,
    content_type: Option<&str>,
    body: &str,
) -> (StatusCode, String) {
    let mut req = Request::builder().method("POST").uri(uri);
    if let Some(t) = content_type {
        req = req.header(header::CONTENT_TYPE, t);
    }
    let response = router
        .clone()
        .oneshot(req.body(Body::from(body.to_owned())).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (
        status,
        value["error"].as_str().unwrap_or_default().to_owned(),
    )
}

/// JSON comes as `application/json`: a `text/plain` or form body (what another site's
/// page may send without asking) gets 415 saying what to send, and changes nothing.
async fn a_body_not_sent_as_json_is_refused_with_415(db: TestDb) {
    let r = router(&db).await;
    let new_game = r#"{"variant":"kalah"}"#;
    for content_type in [
        Some("text/plain"),
        Some("text/plain;charset=UTF-8"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let (status, error) = send_as(&r, "/api/games", content_type, new_game).await;
        assert_eq!(
            status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        assert!(
            error.contains("Content-Type: application/json"),
            "{content_type:?}: {error}"
        );
    }
    let (id, t1, _) = create_joined(&r, json!({"variant": "kalah"})).await;
    let req = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{id}/moves"))
        .header(header::CONTENT_TYPE, "text/plain")
        .header(header::AUTHORIZATION, format!("Bearer {t1}"));
    let response = r
        .clone()
        .oneshot(req.body(Body::from(r#"{"house":3,"ply":0}"#)).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (_, view) = call(&r, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(view["ply"], 0, "nothing played");
    // JSON with a charset, and other JSON types, are JSON.
    for content_type in [
        "application/json; charset=utf-8",
        "application/merge-patch+json",
    ] {
        let (status, error) = send_as(&r, "/api/games", Some(content_type), new_game).await;
        assert_eq!(status, StatusCode::CREATED, "{content_type}: {error}");
    }
}

/// A body of the wrong shape gets 400 naming the field and what it must be, not
/// where a parser stopped.
async fn a_wrong_field_is_named_with_what_it_must_be(db: TestDb) {
    let r = router(&db).await;
    let (id, t1, _) = create_joined(&r, json!({"variant": "kalah"})).await;
    let moves = format!("/api/games/{id}/moves");
    let unknown_game = format!(
        "variant: {}",
        mancala_core::RulesError::UnknownVariant("chess".into())
    );
    for (uri, body, error) in [
        (
            moves.as_str(),
            r#"{"house":"3","ply":0}"#,
            r#"house must be a whole number, 0 or more, not the string "3""#,
        ),
        (
            &moves,
            r#"{"house":3,"ply":-1}"#,
            "ply must be a whole number, 0 or more, not -1",
        ),
        (&moves, r#"{"house":3}"#, "missing field `ply`"),
        (
            "/api/games",
            r#"{"variant":"kalah","houses":"6"}"#,
            r#"houses must be a whole number from 0 to 255, not the string "6""#,
        ),
        (
            "/api/games",
            r#"{"variant":"kalah","public":"yes"}"#,
            r#"public must be true or false, not the string "yes""#,
        ),
        (
            "/api/games",
            r#"{"variant":"kalah","first":"me"}"#,
            r#"first must be 1, 2 or "random""#,
        ),
        (
            "/api/games",
            r#"{"variant":"chess"}"#,
            // The rules' own message, which names every game of the catalogue.
            unknown_game.as_str(),
        ),
        (
            "/api/games",
            r#"{"variant":"kalah","time_control":{"initial_s":"3m"}}"#,
            r#"time_control.initial_s must be a whole number, 0 or more, not the string "3m""#,
        ),
    ] {
        let (status, e) = call(&r, "POST", uri, Some(&t1), Some(body.into())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert_eq!(e["error"], error, "{body}");
    }
    // Broken JSON says where it breaks.
    let (status, e) = call(&r, "POST", &moves, Some(&t1), Some(r#"{"house":3,"#.into())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let error = e["error"].as_str().unwrap();
    assert!(
        error.starts_with("the body is not valid JSON: ") && error.contains("line 1 column"),
        "{error}"
    );
}

/// Computer players' names are theirs: a person may not take one, in any case, when
/// creating or joining a game.
async fn a_person_cannot_take_a_computer_player_s_name(db: TestDb) {
    let r = router(&db).await;
    for name in [
        "Medium bot",
        "medium BOT",
        " Robot ",
        "Perfect  bot",
        "Computer",
    ] {
        let body = json!({"variant": "kalah", "name": name}).to_string();
        let (status, e) = call(&r, "POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{name}: {e}");
        assert!(
            e["error"]
                .as_str()
                .unwrap()
                .contains("is the name of a computer player"),
            "{e}"
        );
    }
    let g = create_grant(&r, json!({"variant": "kalah"})).await;
    let id = g["id"].as_str().unwrap();
    let join = json!({"invite": g["invite"], "name": "Easy bot"}).to_string();
    let uri = format!("/api/games/{id}/join");
    let (status, _) = call(&r, "POST", &uri, None, Some(join)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // Names that merely look alike are a person's.
    for name in ["Medium", "Bot", "Robota", "Medium bot 2"] {
        let body = json!({"variant": "kalah", "name": name}).to_string();
        let (status, e) = call(&r, "POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{name}: {e}");
    }
}

/// An address with nothing there is "page not found" (404, a page with a way home);
/// a game address without a game is "no such game".
async fn an_unknown_page_is_not_found_and_an_unknown_game_is_no_such_game(db: TestDb) {
    let r = router(&db).await;
    let page = |uri: &'static str| {
        let r = r.clone();
        async move {
            let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
            let response = r.oneshot(req).await.unwrap();
            let status = response.status();
            let html = response.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html");
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            assert!(html, "{uri}");
            (status, String::from_utf8(bytes.to_vec()).unwrap())
        }
    };
    for uri in [
        "/wp-admin",
        "/g",
        "/g/",
        "/static/nothing.js",
        "/index.php?x=1",
    ] {
        let (status, text) = page(uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(text.contains("<h1>Page not found</h1>"), "{uri}: {text}");
        assert!(!text.contains("No such game"), "{uri}");
        assert!(text.contains(r#"href="/""#), "{uri}");
    }
    for uri in ["/g/nosuchgame", "/g/nosuchgame/replay"] {
        let (status, text) = page(uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(text.contains("<h1>No such game</h1>"), "{uri}: {text}");
    }
    // The API's own 404s stay JSON.
    let (status, e) = call(&r, "GET", "/api/wp-admin", None, None).await;
    assert_eq!(
        (status, &e["error"]),
        (StatusCode::NOT_FOUND, &json!("no such endpoint"))
    );
}
