//! The example bot of docs/api.md ("A bot in a dozen lines"), run as written (its
//! address and token filled in) with the system's Python against the real binary:
//! it hears a challenge on its account's event stream, accepts it, plays the rated
//! game by its personal token alone, and prints the result with its rating change
//! from the view that says the game is over.

mod server;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::{Server, TestDb};

/// The Python code of the page's section "A bot in a dozen lines".
fn example() -> String {
    let doc = include_str!("../../../docs/api.md");
    let section = &doc[doc.find("## A bot in a dozen lines").expect("the section")..];
    let code = &section[section.find("```python\n").expect("its code") + 10..];
    code[..code.find("```").unwrap()].to_owned()
}

/// A request with the session cookie `cookie` (or none): the answer's JSON.
fn with_cookie(server: &Server, method: &str, path: &str, cookie: &str, body: Value) -> Value {
    ureq::request(method, &format!("{}{path}", server.base))
        .set("Cookie", cookie)
        .send_json(body)
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
        .into_json()
        .unwrap_or(Value::Null)
}

/// Signs `name` up: its session cookie's `name=value`.
fn account(server: &Server, name: &str) -> String {
    let answer = ureq::post(&format!("{}/api/accounts", server.base))
        .send_json(json!({"username": name, "password": "sowing seeds 4 ever"}))
        .unwrap_or_else(|e| panic!("signing {name} up: {e}"));
    let cookie = answer.header("set-cookie").expect("a session cookie");
    cookie.split(';').next().unwrap().to_owned()
}

#[test]
fn the_example_bot_accepts_a_challenge_and_plays_it_by_its_token() {
    if Command::new("python3").arg("--version").output().is_err() {
        assert!(std::env::var("CI").is_err(), "python3 is needed under CI");
        eprintln!("SKIPPED: no python3 here");
        return;
    }
    let db = TestDb::sqlite();
    let server = Server::start(&db);
    let ann = account(&server, "Ann");
    let botty = account(&server, "Botty");
    let token = with_cookie(&server, "POST", "/api/me/tokens", &botty, Value::Null);
    let token = token["token"].as_str().unwrap();
    let code = example()
        .replace("http://127.0.0.1:8080", &server.base)
        .replace("…the bot's personal API token…", token);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.py");
    std::fs::write(&path, code).unwrap();
    let mut bot = Command::new("python3")
        .arg("-u")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    // The bot is listening once its stream is open: challenge it until it accepts
    // (a challenge made before it listens waits in vain, as the page says).
    let deadline = Instant::now() + Duration::from_secs(30);
    let game = loop {
        assert!(Instant::now() < deadline, "the bot never accepted");
        let body =
            json!({"to": "Botty", "variant": "kalah", "houses": 4, "seeds": 3, "rated": true});
        let ch = with_cookie(&server, "POST", "/api/challenges", &ann, body);
        std::thread::sleep(Duration::from_millis(500));
        let games = with_cookie(&server, "GET", "/api/me/games", &ann, Value::Null);
        if let Some(id) = games["games"][0]["id"].as_str() {
            break id.to_owned();
        }
        // Withdrawn, unless the bot accepted meanwhile (then 404, and the next look
        // finds the game).
        let id = ch["id"].as_str().unwrap();
        let _ = ureq::delete(&format!("{}/api/challenges/{id}", server.base))
            .set("Cookie", &ann)
            .call();
    };
    // Ann plays her side by her session; the bot its own.
    let mut view = Value::Null;
    for _ in 0..2000 {
        view = with_cookie(
            &server,
            "GET",
            &format!("/api/games/{game}"),
            &ann,
            Value::Null,
        );
        if view["over"] == true {
            break;
        }
        if view["to_move"] == 1 {
            let mv = json!({"house": view["legal_moves"][0], "ply": view["ply"]});
            with_cookie(
                &server,
                "POST",
                &format!("/api/games/{game}/moves"),
                &ann,
                mv,
            );
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert_eq!(view["over"], true, "{view}");
    let stdout = bot.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let said = rx.recv_timeout(Duration::from_secs(30));
    let _ = bot.kill();
    let _ = bot.wait();
    let said = said.expect("the bot prints the result within 30 s");
    assert!(
        said.contains("'winner'"),
        "the bot printed the result: {said:?}"
    );
    assert!(said.contains("'change'"), "and its rating change: {said:?}");
}
