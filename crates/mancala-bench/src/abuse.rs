//! `--hostile`'s abusers: clients that ask for the costliest opponents, create games in
//! bulk, hold streams open or send malformed requests, on and off by a schedule, each
//! tallying the answers it got.

use std::collections::BTreeMap;
use std::io::Read;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use crate::http::{Answer, Http, address};

/// When the abusers are on: alternating windows from `start`, off first.
#[derive(Clone, Copy)]
pub(crate) struct Schedule {
    pub(crate) start: Instant,
    pub(crate) window: Duration,
    /// The start of each window left out of the figures.
    pub(crate) settle: Duration,
    pub(crate) end: Instant,
}

impl Schedule {
    /// A run without abusers: one long window, all of it counted.
    pub(crate) fn plain(start: Instant, end: Instant) -> Schedule {
        Schedule {
            start,
            window: end - start + Duration::from_secs(1),
            settle: Duration::ZERO,
            end,
        }
    }

    pub(crate) fn window_of(&self, at: Instant) -> (u64, Duration) {
        let t = at.saturating_duration_since(self.start);
        let k = (t.as_secs_f64() / self.window.as_secs_f64()) as u64;
        (k, t - self.window.mul_f64(k as f64))
    }

    /// Whether the abusers are on at `at`.
    pub(crate) fn on(&self, at: Instant) -> bool {
        self.window_of(at).0 % 2 == 1
    }

    /// For a sample taken at `at`: whether the abusers were on, or `None` when it falls
    /// in the settling part of a window.
    pub(crate) fn condition(&self, at: Instant) -> Option<bool> {
        let (k, into) = self.window_of(at);
        (into >= self.settle).then_some(k % 2 == 1)
    }

    /// The seconds counted for condition `on`.
    pub(crate) fn counted_seconds(&self, on: bool) -> f64 {
        let mut total = Duration::ZERO;
        let mut from = self.start;
        let mut k = 0u64;
        while from < self.end {
            let to = (from + self.window).min(self.end);
            if (k % 2 == 1) == on && to > from + self.settle {
                total += to - (from + self.settle);
            }
            from += self.window;
            k += 1;
        }
        total.as_secs_f64()
    }
}

/// What one kind of abuser did and got.
#[derive(Serialize, Debug, Default, Clone)]
pub struct AbuseTally {
    requests: u64,
    answers: BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    streams_held: Option<usize>,
}

impl AbuseTally {
    pub(crate) fn count(&mut self, answer: &Answer) {
        self.requests += 1;
        *self.answers.entry(answer.label()).or_default() += 1;
    }

    pub(crate) fn merge(&mut self, other: AbuseTally) {
        self.requests += other.requests;
        for (k, v) in other.answers {
            *self.answers.entry(k).or_default() += v;
        }
        if let Some(n) = other.streams_held {
            *self.streams_held.get_or_insert(0) += n;
        }
    }
}

/// An expensive-opponent abuser: games against the costliest computer players the
/// server allows (and some it does not), a move whenever it is its turn.
fn abuse_expensive(http: &Http, schedule: Schedule, n: u32) -> AbuseTally {
    let mut tally = AbuseTally::default();
    let opponents = [
        "perfect",
        "alphabeta:ms=100000000",
        "alphabeta:depth=60,hash=64",
        "mcts:ms=2000",
        "mcts:sims=4000000000",
        "expert",
    ];
    let mut games: Vec<(String, String)> = Vec::new();
    let mut i = n as usize;
    while Instant::now() < schedule.end {
        if !schedule.on(Instant::now()) {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        if games.len() < 4 {
            let opponent = opponents[i % opponents.len()];
            i += 1;
            let body = json!({"variant": "kalah", "houses": 8, "seeds": 6, "opponent": opponent});
            let answer = http.call("POST", "/api/games", None, Some(body));
            tally.count(&answer);
            if let Ok(g) = answer.ok() {
                let field = |k: &str| g[k].as_str().unwrap_or_default().to_owned();
                games.push((field("id"), field("token")));
            }
        }
        let mut moved = false;
        games.retain(|(id, token)| {
            let answer = http.call("GET", &format!("/api/games/{id}"), None, None);
            tally.count(&answer);
            let Ok(v) = answer.ok() else { return true };
            if v["over"] == true {
                return false;
            }
            if v["to_move"] == 1 && v["started"] == true {
                let body = json!({"house": v["legal_moves"][0], "ply": v["ply"]});
                let answer = http.call(
                    "POST",
                    &format!("/api/games/{id}/moves"),
                    Some(token),
                    Some(body),
                );
                tally.count(&answer);
                moved = true;
            }
            true
        });
        if !moved {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    tally
}

/// A creation flood: new games as fast as the server answers.
fn abuse_create(http: &Http, schedule: Schedule) -> AbuseTally {
    let mut tally = AbuseTally::default();
    while Instant::now() < schedule.end {
        if !schedule.on(Instant::now()) {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        let body = json!({"variant": "oware", "houses": 16, "seeds": 64});
        tally.count(&http.call("POST", "/api/games", None, Some(body)));
    }
    tally
}

/// A live stream flood: opens streams on one game and holds every one it gets.
fn abuse_streams(http: &Http, schedule: Schedule, game: &str) -> AbuseTally {
    let mut tally = AbuseTally::default();
    let mut held: Vec<Box<dyn Read + Send + Sync>> = Vec::new();
    let mut most = 0;
    while Instant::now() < schedule.end {
        if !schedule.on(Instant::now()) {
            held.clear();
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        match http
            .request("GET", &format!("/api/games/{game}/live"), None)
            .call()
        {
            Ok(r) => {
                tally.count(&Answer::Status(r.status(), Value::Null));
                held.push(r.into_reader());
                most = most.max(held.len());
            }
            Err(e) => {
                tally.count(&Http::answer(Err(e)));
            }
        }
    }
    tally.streams_held = Some(most);
    tally
}

/// Oversized and malformed requests, as fast as the server answers.
fn abuse_malformed(http: &Http, schedule: Schedule, game: &str) -> AbuseTally {
    let mut tally = AbuseTally::default();
    let big = vec![b' '; 1 << 20];
    let moves = format!("/api/games/{game}/moves");
    let bad_token = "0".repeat(64);
    let mut i = 0usize;
    while Instant::now() < schedule.end {
        if !schedule.on(Instant::now()) {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        i += 1;
        let answer = match i % 8 {
            0 => http.send_bytes("POST", "/api/games", None, &big),
            1 => http.send_bytes("POST", &moves, Some(&bad_token), b"[1,0]"),
            2 => http.send_bytes("POST", "/api/games", None, b"{\"variant\":"),
            3 => http.call(
                "POST",
                &moves,
                Some(&bad_token),
                Some(json!({"house": 300, "ply": 0})),
            ),
            4 => http.call("DELETE", "/api/games", None, None),
            5 => http.call("GET", "/api/nothing/at/all", None, None),
            6 => http.call("GET", "/g/no-such-game", None, None),
            _ => http.send_bytes("POST", &moves, None, &big[..8000]),
        };
        tally.count(&answer);
    }
    tally
}

/// Starts the abusers, on and off by `schedule`; their tallies come back through the
/// handles.
pub(crate) fn start_abusers(
    abusers: u32,
    bases: &[String],
    schedule: Schedule,
) -> anyhow::Result<Vec<(&'static str, std::thread::JoinHandle<AbuseTally>)>> {
    // A game for the stream and malformed-request abusers to aim at.
    let host = Http::new(bases, 0, Some(address(100, 1)));
    let game = host
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"variant": "kalah"})),
        )
        .ok()
        .map_err(|e| anyhow::anyhow!("creating the abusers' game: {e}"))?["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut handles = Vec::new();
    for n in 0..abusers {
        let at = |kind: u8| Http::new(bases, n as usize, Some(address(101 + kind, n)));
        let (http, g) = (at(0), game.clone());
        handles.push((
            "expensive_opponents",
            std::thread::spawn(move || abuse_expensive(&http, schedule, n)),
        ));
        let http = at(1);
        handles.push((
            "creation_flood",
            std::thread::spawn(move || abuse_create(&http, schedule)),
        ));
        let http = at(2);
        handles.push((
            "stream_flood",
            std::thread::spawn(move || abuse_streams(&http, schedule, &g)),
        ));
        let (http, g) = (at(3), game.clone());
        handles.push((
            "malformed_and_oversized",
            std::thread::spawn(move || abuse_malformed(&http, schedule, &g)),
        ));
    }
    Ok(handles)
}
