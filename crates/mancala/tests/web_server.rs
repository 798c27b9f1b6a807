//! The web server as a process, on SQLite and on PostgreSQL: games survive `kill -9`,
//! racing requests for one ply let exactly one move in, and a database URL of an
//! unknown kind is refused.

mod server;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::{Server, TestDb};

on_both_backends!(
    games_survive_kill_9_and_continue,
    racing_moves_for_one_ply_let_exactly_one_in,
    many_games_at_once,
);

fn new_game(s: &Server, body: Value) -> (String, String) {
    let (status, v) = s.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().into(),
        v["token"].as_str().unwrap().into(),
    )
}

/// A game against a friend with both seats taken (the friend joins with the invite):
/// (id, player 1's token, player 2's token).
fn friend_game(s: &Server, body: Value) -> (String, String, String) {
    let (status, g) = s.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{g}");
    let id: String = g["id"].as_str().unwrap().into();
    let join = json!({"invite": g["invite"]});
    let (status, v) = s.call("POST", &format!("/api/games/{id}/join"), None, Some(join));
    assert_eq!(status, 200, "{v}");
    (
        id,
        g["token"].as_str().unwrap().into(),
        v["token"].as_str().unwrap().into(),
    )
}

fn view(s: &Server, id: &str) -> Value {
    let (status, v) = s.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(status, 200);
    v
}

/// Plays the first legal move for whoever is to move; returns the new view.
fn play_first_legal(s: &Server, id: &str, tokens: &[String; 2]) -> Value {
    let v = view(s, id);
    let seat = v["to_move"].as_u64().unwrap() as usize;
    let house = v["legal_moves"][0].as_u64().unwrap();
    let (status, next) = s.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&tokens[seat - 1]),
        Some(json!({"house": house, "ply": v["ply"]})),
    );
    assert_eq!(status, 200, "{next}");
    next
}

fn games_survive_kill_9_and_continue(db: TestDb) {
    let server = Server::start(&db);
    let (id, t1, t2) = friend_game(
        &server,
        json!({"variant": "oware", "houses": 4, "seeds": 3}),
    );
    let tokens = [t1, t2];
    let mut acknowledged = Value::Null;
    for _ in 0..7 {
        acknowledged = play_first_legal(&server, &id, &tokens);
    }
    // Also a game against the computer, killed right after the human's move is
    // acknowledged (the computer may still be thinking).
    let (cid, ct) = new_game(
        &server,
        json!({"variant": "kalah", "houses": 4, "seeds": 3, "opponent": "greedy"}),
    );
    let (status, _) = server.call(
        "POST",
        &format!("/api/games/{cid}/moves"),
        Some(&ct),
        Some(json!({"house": 1, "ply": 0})),
    );
    assert_eq!(status, 200);
    server.kill();

    let server = Server::start(&db);
    let after = view(&server, &id);
    for key in ["houses", "stores", "to_move", "ply", "moves"] {
        assert_eq!(after[key], acknowledged[key], "{key} after the restart");
    }
    // The same tokens still play, to the end of the game.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut v = after;
    while v["over"] != true {
        assert!(Instant::now() < deadline);
        v = play_first_legal(&server, &id, &tokens);
    }
    assert!(v["result"]["scores"].is_array());
    // The computer's turn resumes after the restart.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let c = view(&server, &cid);
        if c["to_move"] == 1 || c["over"] == true {
            assert!(
                c["history"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["seat"] == 2)
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the computer never moved after the restart"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn racing_moves_for_one_ply_let_exactly_one_in(db: TestDb) {
    let server = Arc::new(Server::start(&db));
    let (id, t1, t2) = friend_game(&server, json!({"variant": "kalah"}));
    let tokens = [t1, t2];
    // Twelve plies; for each, eight clients race with different legal moves.
    for _ in 0..12 {
        let v = view(&server, &id);
        if v["over"] == true {
            break;
        }
        let seat = v["to_move"].as_u64().unwrap() as usize;
        let ply = v["ply"].as_u64().unwrap();
        let legal: Vec<u64> = v["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_u64().unwrap())
            .collect();
        let barrier = Arc::new(Barrier::new(8));
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (server, barrier, id, token) = (
                    server.clone(),
                    barrier.clone(),
                    id.clone(),
                    tokens[seat - 1].clone(),
                );
                let house = legal[i % legal.len()];
                std::thread::spawn(move || {
                    barrier.wait();
                    server
                        .call(
                            "POST",
                            &format!("/api/games/{id}/moves"),
                            Some(&token),
                            Some(json!({"house": house, "ply": ply})),
                        )
                        .0
                })
            })
            .collect();
        let statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(
            statuses.iter().filter(|&&s| s == 200).count(),
            1,
            "ply {ply}: {statuses:?}"
        );
        assert!(
            statuses.iter().all(|&s| s == 200 || s == 409),
            "{statuses:?}"
        );
        assert_eq!(view(&server, &id)["ply"], ply + 1);
    }
}

fn many_games_at_once(db: TestDb) {
    let server = Arc::new(Server::start(&db));
    let handles: Vec<_> = (0..16)
        .map(|_| {
            let server = server.clone();
            std::thread::spawn(move || {
                let (id, t1, t2) = friend_game(
                    &server,
                    json!({"variant": "kalah", "houses": 3, "seeds": 2}),
                );
                let tokens = [t1, t2];
                let mut v = view(&server, &id);
                let mut plies = 0;
                while v["over"] != true {
                    v = play_first_legal(&server, &id, &tokens);
                    plies += 1;
                }
                (view(&server, &id)["moves"].as_array().unwrap().len(), plies)
            })
        })
        .collect();
    for h in handles {
        let (stored, played) = h.join().unwrap();
        assert_eq!(stored, played);
    }
}

/// `mancala bench web --viewers` (issue 43's site-scale figures) counts every move's
/// view on every stream it opened, and what the server's memory was.
#[test]
fn the_viewers_benchmark_sees_every_move_on_every_stream() {
    let db = TestDb::sqlite();
    let server = Server::start_with(&db, &["--rate-live", "1000/1s", "--rate-move", "1000/1s"]);
    let pid = server.pid().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args([
            "bench",
            "web",
            "--url",
            &server.base,
            "--viewers",
            "12",
            "--server-pid",
            &pid,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let figures: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(figures["streams_open"], 12, "{figures}");
    let moves = figures["moves"].as_u64().unwrap();
    assert!(moves > 5, "{figures}");
    assert_eq!(figures["deliveries_expected"], 12 * moves, "{figures}");
    assert_eq!(figures["missed"], 0, "{figures}");
    assert_eq!(figures["delivery_ms"]["count"], 12 * moves, "{figures}");
    assert!(
        figures["server_rss_mib_streams"].as_f64().unwrap() > 1.0,
        "{figures}"
    );
}

/// The server listens with room for a burst of a thousand connections arriving at
/// once (the kernel's own cap, `net.core.somaxconn`, permitting), not the 1,024 that
/// turned some of them away under load (issue 43).
#[test]
fn the_server_queues_a_burst_of_connections() {
    let db = TestDb::sqlite();
    let server = Server::start(&db);
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    let out = std::process::Command::new("ss")
        .args(["-ltnH", &format!("sport = :{port}")])
        .output()
        .expect("ss (iproute2) lists listening sockets");
    let listing = String::from_utf8_lossy(&out.stdout).to_string();
    // State, Recv-Q, Send-Q (a listener's backlog), ...
    let backlog: u32 = listing.split_whitespace().nth(2).unwrap().parse().unwrap();
    let cap: u32 = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(backlog, cap.min(4096), "{listing}");
}

/// `--db` with a URL scheme it does not know is an error, not a file name (before
/// this, `postgres://...` made an SQLite file under a directory named `postgres:`).
#[test]
fn an_unknown_database_url_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for db in ["mysql://u@127.0.0.1/games", "postgress://u@127.0.0.1/games"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{db}: the server started instead of refusing");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(!status.success(), "{db}");
        assert!(
            stderr.contains("unknown database URL scheme"),
            "{db}: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file made"
    );
}
