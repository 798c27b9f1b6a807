//! Several `mancala serve` instances on one PostgreSQL database, as behind a load
//! balancer: any instance takes any request, live streams on each follow moves made
//! through the other, one ply lets exactly one move in whichever instances the racing
//! requests reach, killing an instance loses no acknowledged move, and each computer
//! move is thought out and stored exactly once, by another instance when the one
//! thinking is killed.
//!
//! Real processes on loopback, a throwaway cluster (skipped loudly where PostgreSQL
//! cannot be installed, never under `CI=true`).

mod server;

use std::collections::HashMap;
use std::sync::{Arc, Barrier, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use server::{Server, TestDb};

/// How soon a live stream must show a move made through either instance.
const LIVE_WITHIN: Duration = Duration::from_secs(1);

/// Two instances on one fresh database, started with `args`: one told the database by
/// `--db`, the other by `DATABASE_URL`. Every request here comes from one client
/// (127.0.0.1) playing as fast as the instances answer, so the per-client rate limits
/// are raised out of the way.
fn two_instances(test: &str, args: &[&str]) -> Option<(TestDb, [Arc<Server>; 2])> {
    let db = TestDb::postgres(test)?;
    let open = "1000000/1s";
    let mut all = vec![
        "--rate-create",
        open,
        "--rate-join",
        open,
        "--rate-move",
        open,
    ];
    all.extend(["--rate-read", open, "--rate-live", open]);
    all.extend(args);
    let a = Server::start_with(&db, &all);
    let b = Server::start_from_env(&db, &all);
    Some((db, [Arc::new(a), Arc::new(b)]))
}

fn create(s: &Server, body: Value) -> (String, String) {
    let (status, v) = s.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().into(),
        v["token"].as_str().unwrap().into(),
    )
}

/// A game against a friend made through `s`: (id, player 1's token, the invite).
fn create_friend_game(s: &Server, body: Value) -> (String, String, Value) {
    let (status, v) = s.call("POST", "/api/games", None, Some(body));
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().into(),
        v["token"].as_str().unwrap().into(),
        v["invite"].clone(),
    )
}

/// Takes seat 2 with the invite through `s`; player 2's token.
fn join(s: &Server, id: &str, invite: &Value) -> String {
    let body = json!({ "invite": invite });
    let (status, v) = s.call("POST", &format!("/api/games/{id}/join"), None, Some(body));
    assert_eq!(status, 200, "{v}");
    v["token"].as_str().unwrap().into()
}

fn view(s: &Server, id: &str) -> Value {
    let (status, v) = s.call("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(status, 200, "{v}");
    v
}

fn play(s: &Server, id: &str, token: &str, house: &Value, ply: &Value) -> (u16, Value) {
    s.call(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"house": house, "ply": ply})),
    )
}

/// Waits on a live stream for the view at `ply`; how long after `since` it came.
fn live_view_at(
    stream: &mpsc::Receiver<(Instant, Value)>,
    ply: u64,
    since: Instant,
) -> (Duration, Value) {
    let deadline = since + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (at, v) = stream
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no live view at ply {ply}"));
        if v["ply"] == ply {
            return (at.saturating_duration_since(since), v);
        }
    }
}

#[test]
fn a_game_played_through_two_instances() {
    let Some((_db, [a, b])) = two_instances("a_game_played_through_two_instances", &[]) else {
        return;
    };
    let (id, t1, invite) =
        create_friend_game(&a, json!({"variant": "kalah", "houses": 4, "seeds": 3}));
    let streams = [a.follow(&id), b.follow(&id)];
    let t2 = join(&b, &id, &invite);
    for s in &streams {
        live_view_at(s, 0, Instant::now());
    }
    let tokens = [t1, t2];
    let mut v = view(&a, &id);
    let mut slowest = Duration::ZERO;
    while v["over"] != true {
        let ply = v["ply"].as_u64().unwrap();
        // Moves alternate between the instances, whoever is to move.
        let through = if ply % 2 == 0 { &a } else { &b };
        let seat = v["to_move"].as_u64().unwrap() as usize;
        let (status, next) = play(
            through,
            &id,
            &tokens[seat - 1],
            &v["legal_moves"][0],
            &v["ply"],
        );
        assert_eq!(status, 200, "{next}");
        let acknowledged = Instant::now();
        for s in &streams {
            let (late, live) = live_view_at(s, ply + 1, acknowledged);
            assert_eq!(live["houses"], next["houses"]);
            slowest = slowest.max(late);
        }
        v = next;
    }
    eprintln!("slowest live update after the acknowledgement: {slowest:?}");
    assert!(slowest < LIVE_WITHIN, "{slowest:?}");
    assert_eq!(view(&a, &id), view(&b, &id));
}

#[test]
fn racing_requests_across_instances_let_exactly_one_in() {
    let test = "racing_requests_across_instances_let_exactly_one_in";
    let Some((_db, servers)) = two_instances(test, &[]) else {
        return;
    };
    let (id, t1, invite) = create_friend_game(&servers[0], json!({"variant": "kalah"}));
    let tokens = [t1, join(&servers[1], &id, &invite)];
    for _ in 0..8 {
        let v = view(&servers[1], &id);
        let seat = v["to_move"].as_u64().unwrap() as usize;
        let legal = v["legal_moves"].as_array().unwrap().clone();
        // Twenty requests for this ply, half through each instance.
        let barrier = Arc::new(Barrier::new(20));
        let racers: Vec<_> = (0..20)
            .map(|i| {
                let server = servers[i % 2].clone();
                let (barrier, id) = (barrier.clone(), id.clone());
                let (token, house, ply) = (
                    tokens[seat - 1].clone(),
                    legal[i % legal.len()].clone(),
                    v["ply"].clone(),
                );
                std::thread::spawn(move || {
                    barrier.wait();
                    play(&server, &id, &token, &house, &ply).0
                })
            })
            .collect();
        let statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        assert_eq!(
            statuses.iter().filter(|&&s| s == 200).count(),
            1,
            "{statuses:?}"
        );
        assert!(
            statuses.iter().all(|&s| s == 200 || s == 409),
            "{statuses:?}"
        );
        let after = view(&servers[0], &id);
        assert_eq!(after["ply"], v["ply"].as_u64().unwrap() + 1);
        assert_eq!(after, view(&servers[1], &id));
    }
}

/// One player pair hammering a game through `server` until it fails: the views it
/// acknowledged.
fn play_until_killed(server: Arc<Server>, id: String, tokens: [String; 2]) -> Vec<Value> {
    let mut acknowledged = Vec::new();
    let Ok((_, mut v)) = server.try_call("GET", &format!("/api/games/{id}"), None, None) else {
        return acknowledged;
    };
    while v["over"] != true {
        let seat = v["to_move"].as_u64().unwrap() as usize;
        let body = json!({"house": v["legal_moves"][0], "ply": v["ply"]});
        let path = format!("/api/games/{id}/moves");
        match server.try_call("POST", &path, Some(&tokens[seat - 1]), Some(body)) {
            Ok((200, next)) => {
                acknowledged.push(next.clone());
                v = next;
            }
            Ok((status, e)) => panic!("{status}: {e}"),
            Err(_) => break, // killed
        }
    }
    acknowledged
}

#[test]
fn killing_an_instance_loses_no_acknowledged_move() {
    let test = "killing_an_instance_loses_no_acknowledged_move";
    let Some((_db, [a, b])) = two_instances(test, &[]) else {
        return;
    };
    let games: Vec<(String, [String; 2])> = (0..4)
        .map(|_| {
            let (id, t1, invite) = create_friend_game(&b, json!({"variant": "oware"}));
            let t2 = join(&a, &id, &invite);
            (id, [t1, t2])
        })
        .collect();
    let players: Vec<_> = games
        .iter()
        .map(|(id, tokens)| {
            let (a, id, tokens) = (a.clone(), id.clone(), tokens.clone());
            std::thread::spawn(move || play_until_killed(a, id, tokens))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    a.kill();
    for ((id, tokens), player) in games.iter().zip(players) {
        let acknowledged = player.join().unwrap();
        assert!(!acknowledged.is_empty(), "moves were made before the kill");
        let last = acknowledged.last().unwrap();
        let now = view(&b, id);
        let n = last["moves"].as_array().unwrap().len();
        assert_eq!(
            now["moves"].as_array().unwrap()[..n],
            last["moves"].as_array().unwrap()[..],
            "every acknowledged move is kept"
        );
        // The game goes on through the other instance, to its end.
        let rest = play_until_killed(b.clone(), id.clone(), tokens.clone());
        let end = rest.last().unwrap_or(&now);
        assert_eq!(end["over"], true);
    }
}

/// For each (game, ply) the computer thought about: how many times, over all logs.
fn thoughts(logs: &[Vec<String>]) -> HashMap<(String, u64), usize> {
    let mut seen = HashMap::new();
    for line in logs.iter().flatten() {
        if !line.contains("computer thinking") {
            continue;
        }
        let field = |name: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .unwrap_or_default()
                .to_owned()
        };
        let ply = field("ply=").parse().expect("a ply");
        *seen.entry((field("game="), ply)).or_insert(0) += 1;
    }
    seen
}

/// Waits until a person is to move (or the game is over); the view then.
fn wait_for_person(s: &Server, id: &str, limit: Duration) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        let v = view(s, id);
        if v["over"] == true || v["to_move"] == 1 {
            return v;
        }
        assert!(Instant::now() < deadline, "the computer did not move: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The computer's moves in a game: plies where seat 2 moved.
fn computer_plies(v: &Value) -> Vec<u64> {
    (0..)
        .zip(v["history"].as_array().unwrap())
        .filter(|(_, m)| m["seat"] == 2)
        .map(|(ply, _)| ply)
        .collect()
}

#[test]
fn each_computer_move_is_made_once_with_both_instances_up() {
    let test = "each_computer_move_is_made_once_with_both_instances_up";
    // A hold of one second and thinking of a second and a half: the instance thinking
    // must renew its hold, and the other must not take the turn meanwhile.
    let Some((_db, [a, b])) = two_instances(test, &["--computer-lease", "1"]) else {
        return;
    };
    let (slow, slow_token) = create(
        &a,
        json!({"variant": "kalah", "opponent": "alphabeta:ms=1500"}),
    );
    let (quick, quick_token) = create(
        &b,
        json!({"variant": "kalah", "houses": 4, "seeds": 3, "opponent": "greedy"}),
    );
    let mut n = 0;
    for (id, token, turns) in [(&slow, &slow_token, 3), (&quick, &quick_token, 100)] {
        let mut v = view(&a, id);
        for _ in 0..turns {
            if v["over"] == true {
                break;
            }
            n += 1;
            let through = if n % 2 == 0 { &a } else { &b };
            let (status, next) = play(through, id, token, &v["legal_moves"][0], &v["ply"]);
            assert_eq!(status, 200, "{next}");
            v = wait_for_person(through, id, Duration::from_secs(20));
        }
    }
    let (slow_view, quick_view) = (view(&b, &slow), view(&a, &quick));
    assert_eq!(quick_view["over"], true);
    let seen = thoughts(&[a.log(), b.log()]);
    for (id, v) in [(&slow, &slow_view), (&quick, &quick_view)] {
        let plies = computer_plies(v);
        assert!(!plies.is_empty());
        for ply in plies {
            assert_eq!(
                seen.get(&(id.clone(), ply)),
                Some(&1),
                "{id} ply {ply}: {seen:?}"
            );
        }
    }
    assert_eq!(
        seen.len(),
        computer_plies(&slow_view).len() + computer_plies(&quick_view).len()
    );
}

#[test]
fn a_computer_turn_resumes_when_the_instance_thinking_is_killed() {
    let test = "a_computer_turn_resumes_when_the_instance_thinking_is_killed";
    // A player thinking for 3 s, past the default bound of 2 s: killed in the middle.
    let args = ["--computer-lease", "1", "--max-think-ms", "3000"];
    let Some((_db, [a, b])) = two_instances(test, &args) else {
        return;
    };
    let (id, token) = create(
        &a,
        json!({"variant": "kalah", "opponent": "alphabeta:ms=3000"}),
    );
    let (status, v) = play(&a, &id, &token, &json!(1), &json!(0));
    assert_eq!(status, 200, "{v}");
    // A holds the turn and thinks; kill it in the middle.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !a.log().iter().any(|l| l.contains("computer thinking")) {
        assert!(Instant::now() < deadline, "A never started thinking");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    a.kill();
    let killed = Instant::now();
    let v = wait_for_person(&b, &id, Duration::from_secs(30));
    eprintln!("the computer moved {:?} after the kill", killed.elapsed());
    let plies = computer_plies(&v);
    assert_eq!(plies.first(), Some(&1), "{v}");
    let seen = thoughts(&[b.log()]);
    for ply in plies {
        assert_eq!(
            seen.get(&(id.clone(), ply)),
            Some(&1),
            "B thought once: {seen:?}"
        );
    }
}

#[test]
fn an_instance_stopping_hands_its_computer_turn_over_at_once() {
    let test = "an_instance_stopping_hands_its_computer_turn_over_at_once";
    // A lease far longer than the test: only a hand-over can be this quick.
    let Some((_db, [a, b])) = two_instances(test, &["--computer-lease", "60"]) else {
        return;
    };
    let (id, token) = create(
        &a,
        json!({"variant": "kalah", "opponent": "alphabeta:ms=1000"}),
    );
    let (status, v) = play(&a, &id, &token, &json!(1), &json!(0));
    assert_eq!(status, 200, "{v}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !a.log().iter().any(|l| l.contains("computer thinking")) {
        assert!(Instant::now() < deadline, "A never started thinking");
        std::thread::sleep(Duration::from_millis(20));
    }
    a.terminate();
    let stopped = Instant::now();
    let v = wait_for_person(&b, &id, Duration::from_secs(20));
    assert!(stopped.elapsed() < Duration::from_secs(20));
    assert_eq!(computer_plies(&v).first(), Some(&1), "{v}");
    assert!(
        b.log().iter().any(|l| l.contains("computer thinking")),
        "B took the turn over"
    );
}
