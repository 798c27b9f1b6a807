//! `mancala bench web`: load a running `mancala serve` (or several instances of it on
//! one database) with many concurrent games and measure moves per second and move
//! latency; with `--hostile`, measure it without and
//! with abusive clients beside the normal players in one run. The abusers come and go
//! in alternating windows while the normal players play throughout, so that whatever
//! else loads the machine weighs on both figures alike.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::{Value, json};

/// Arguments of `mancala bench web`.
#[derive(Args, Debug)]
pub struct WebArgs {
    /// The server to load, e.g. http://127.0.0.1:8080 (loopback only: this is a load
    /// test). Repeated for several instances of one site: requests take turns between
    /// them, as behind a load balancer without sticky sessions
    #[arg(long, required = true)]
    url: Vec<String>,
    /// Games played at once (one client thread each)
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    games: u32,
    /// How long to run, in seconds (with --hostile: the time of each condition, without
    /// and with abusers; the run takes twice as long)
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// With --hostile: the length of a window, in seconds; the abusers are off in the
    /// even windows and on in the odd ones, and the first third of each window (while
    /// the abusers start, or the last computer moves they asked for finish) is left
    /// out of the figures
    #[arg(long, default_value_t = 6.0)]
    window: f64,
    /// A normal player's pause between moves, in milliseconds (0: as fast as the server
    /// answers, which only a server with raised rate limits allows)
    #[arg(long, default_value_t = 0)]
    pub(crate) pause_ms: u64,
    /// Normal players alone and beside abusers (expensive computer opponents, creation
    /// floods, live stream floods, oversized and malformed requests), in alternating
    /// windows. Each client is a different address in X-Forwarded-For, so the server
    /// must run with --trust-forwarded-for.
    #[arg(long)]
    hostile: bool,
    /// With --hostile: client threads per kind of abuse
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    abusers: u32,
    /// Normal players against the computer (`medium`), for the computer's reply time
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    computer_games: u32,
    /// Instead of many games: one game watched by this many live streams (server-sent
    /// events), played a move every --pause-ms; measures each move's delivery to every
    /// viewer and the moves viewers missed (the server needs its stream limits raised)
    #[arg(long, default_value_t = 0, conflicts_with = "hostile",
          value_parser = clap::value_parser!(u32).range(0..=50_000))]
    pub(crate) viewers: u32,
    /// With --viewers: the server's process id, to read its memory before and with the
    /// streams
    #[arg(long, value_name = "PID", requires = "viewers")]
    pub(crate) server_pid: Option<u32>,
}

/// The figures of one phase.
#[derive(Serialize, Debug, Clone)]
pub struct WebFigures {
    /// Instances of the site loaded (`--url`s).
    instances: usize,
    games_at_once: u32,
    /// Over the whole run (with --hostile, both conditions).
    games_finished: u64,
    moves: u64,
    /// Over the whole run (with --hostile, both conditions).
    errors: u64,
    seconds: f64,
    moves_per_sec: f64,
    latency_ms_p50: f64,
    latency_ms_p90: f64,
    latency_ms_p99: f64,
    latency_ms_max: f64,
    /// Against the computer: from the answer to a move to the computer's reply on the
    /// live stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    computer_reply_ms: Option<Percentiles>,
}

/// Median, 99th percentile and maximum, in milliseconds.
#[derive(Serialize, Debug, Clone, Copy)]
pub struct Percentiles {
    pub(crate) count: usize,
    pub(crate) p50: f64,
    pub(crate) p99: f64,
    pub(crate) max: f64,
}

/// `--hostile`: the normal players without and with the abusers, and what the abusers
/// got.
#[derive(Serialize, Debug)]
pub struct HostileFigures {
    /// How the two conditions were interleaved.
    method: String,
    without_abusers: WebFigures,
    with_abusers: WebFigures,
    /// p99 move latency with abusers over without.
    p99_ratio: f64,
    /// Throughput with abusers over without.
    throughput_ratio: f64,
    /// Per kind of abuse: requests by answer (HTTP status, or `io` for a connection
    /// error), and the most live streams held at once.
    abusers: BTreeMap<&'static str, AbuseTally>,
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
    fn count(&mut self, answer: &Answer) {
        self.requests += 1;
        *self.answers.entry(answer.label()).or_default() += 1;
    }

    fn merge(&mut self, other: AbuseTally) {
        self.requests += other.requests;
        for (k, v) in other.answers {
            *self.answers.entry(k).or_default() += v;
        }
        if let Some(n) = other.streams_held {
            *self.streams_held.get_or_insert(0) += n;
        }
    }
}

/// Everything `run` can print.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum WebReport {
    /// One phase of normal players.
    Plain(WebFigures),
    /// `--hostile`.
    Hostile(Box<HostileFigures>),
}

/// A client of the server: an agent and the address it claims through the proxy.
pub(crate) struct Http {
    agent: ureq::Agent,
    /// The instances of the site, taken in turn by this client's requests.
    bases: Vec<String>,
    /// The instance of the next request.
    next: AtomicUsize,
    /// The X-Forwarded-For of every request (the server must trust it to tell clients
    /// apart on loopback), or `None`.
    address: Option<String>,
}

/// An answer: the status and body, or a connection error.
pub(crate) enum Answer {
    Status(u16, Value),
    Io(String),
}

impl Answer {
    fn label(&self) -> String {
        match self {
            Answer::Status(code, _) => code.to_string(),
            Answer::Io(_) => "io".into(),
        }
    }

    pub(crate) fn ok(self) -> Result<Value, String> {
        match self {
            Answer::Status(200..=299, v) => Ok(v),
            Answer::Status(code, v) => Err(format!("{code} {v}")),
            Answer::Io(e) => Err(e),
        }
    }
}

impl Http {
    /// A client of the instances `bases`, starting with the `start`th.
    pub(crate) fn new(bases: &[String], start: usize, address: Option<String>) -> Http {
        Http {
            agent: ureq::AgentBuilder::new()
                .timeout(Duration::from_secs(30))
                .build(),
            bases: bases.to_vec(),
            next: AtomicUsize::new(start),
            address,
        }
    }

    /// The base URL for the next request.
    fn base(&self) -> &str {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.bases.len();
        &self.bases[i]
    }

    fn request(&self, method: &str, path: &str, token: Option<&str>) -> ureq::Request {
        let mut req = self
            .agent
            .request(method, &format!("{}{path}", self.base()));
        if let Some(a) = &self.address {
            req = req.set("X-Forwarded-For", a);
        }
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        req
    }

    fn answer(result: Result<ureq::Response, ureq::Error>) -> Answer {
        match result {
            Ok(r) => Answer::Status(r.status(), r.into_json().unwrap_or(Value::Null)),
            Err(ureq::Error::Status(code, r)) => {
                Answer::Status(code, r.into_json().unwrap_or(Value::Null))
            }
            Err(e) => Answer::Io(e.to_string()),
        }
    }

    pub(crate) fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let req = self.request(method, path, token);
        Http::answer(match body {
            Some(b) => req.send_json(b),
            None => req.call(),
        })
    }

    fn send_bytes(&self, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> Answer {
        let req = self
            .request(method, path, token)
            .set("Content-Type", "application/json");
        Http::answer(req.send_bytes(body))
    }
}

/// The `n`th address of a group, from the benchmarking range 198.18.0.0/15 (RFC 2544):
/// only ever a header value here, never a destination.
fn address(group: u8, n: u32) -> String {
    format!(
        "198.{}.{}.{}",
        18 + group / 128,
        (group % 128) * 2 + (n / 250) as u8 % 2,
        n % 250 + 1
    )
}

/// When the abusers are on: alternating windows from `start`, off first.
#[derive(Clone, Copy)]
struct Schedule {
    start: Instant,
    window: Duration,
    /// The start of each window left out of the figures.
    settle: Duration,
    end: Instant,
}

impl Schedule {
    /// A run without abusers: one long window, all of it counted.
    fn plain(start: Instant, end: Instant) -> Schedule {
        Schedule {
            start,
            window: end - start + Duration::from_secs(1),
            settle: Duration::ZERO,
            end,
        }
    }

    fn window_of(&self, at: Instant) -> (u64, Duration) {
        let t = at.saturating_duration_since(self.start);
        let k = (t.as_secs_f64() / self.window.as_secs_f64()) as u64;
        (k, t - self.window.mul_f64(k as f64))
    }

    /// Whether the abusers are on at `at`.
    fn on(&self, at: Instant) -> bool {
        self.window_of(at).0 % 2 == 1
    }

    /// For a sample taken at `at`: whether the abusers were on, or `None` when it falls
    /// in the settling part of a window.
    fn condition(&self, at: Instant) -> Option<bool> {
        let (k, into) = self.window_of(at);
        (into >= self.settle).then_some(k % 2 == 1)
    }

    /// The seconds counted for condition `on`.
    fn counted_seconds(&self, on: bool) -> f64 {
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

struct ClientResult {
    /// (when the request was sent, how long the answer took)
    latencies: Vec<(Instant, Duration)>,
    /// (when the move's answer came, how long until the computer's reply)
    replies: Vec<(Instant, Duration)>,
    games_finished: u64,
    errors: u64,
    /// The first few error messages, for the report.
    first_errors: Vec<String>,
}

impl ClientResult {
    fn new() -> ClientResult {
        ClientResult {
            latencies: Vec::new(),
            replies: Vec::new(),
            games_finished: 0,
            errors: 0,
            first_errors: Vec::new(),
        }
    }

    fn error(&mut self, what: &str, e: &str) {
        self.errors += 1;
        if self.first_errors.len() < 3 {
            self.first_errors.push(format!("{what}: {e}"));
        }
    }
}

/// A game against a friend with both seats held by `http`: (id, tokens).
fn friend_game(http: &Http, variant: Value) -> Result<(String, [String; 2]), String> {
    let created = http.call("POST", "/api/games", None, Some(variant)).ok()?;
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let join = json!({"invite": created["invite"]});
    let joined = http
        .call("POST", &format!("/api/games/{id}/join"), None, Some(join))
        .ok()?;
    let token = |v: &Value| v["token"].as_str().unwrap_or_default().to_owned();
    Ok((id, [token(&created), token(&joined)]))
}

/// One normal client: plays Kalah games against itself (both seats) until the deadline,
/// pausing `pause` before each move, timing every move request.
fn client(http: &Http, deadline: Instant, seed: u64, pause: Duration) -> ClientResult {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut result = ClientResult::new();
    'games: while Instant::now() < deadline {
        let (id, tokens) = match friend_game(http, json!({"variant": "kalah"})) {
            Ok(g) => g,
            Err(e) => {
                result.error("create and join", &e);
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
        };
        let mut view =
            json!({"to_move": 1, "ply": 0, "legal_moves": [1, 2, 3, 4, 5, 6], "over": false});
        while view["over"] != true {
            std::thread::sleep(pause);
            if Instant::now() >= deadline {
                break 'games;
            }
            let seat = view["to_move"].as_u64().unwrap_or(1) as usize;
            let legal = view["legal_moves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                result.error("move", "a game in progress offered no legal move");
                continue 'games;
            }
            let house = &legal[rng.random_range(0..legal.len())];
            let started = Instant::now();
            let body = json!({"house": house, "ply": view["ply"]});
            let answer = http.call(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&tokens[seat - 1]),
                Some(body),
            );
            match answer.ok() {
                Ok(next) => {
                    result.latencies.push((started, started.elapsed()));
                    view = next;
                }
                Err(e) => {
                    result.error("move", &e);
                    continue 'games;
                }
            }
        }
        if view["over"] == true {
            result.games_finished += 1;
        }
    }
    result
}

/// Follows a game's server-sent events on a thread of its own, sending each view.
fn follow(http: &Http, id: &str) -> Result<mpsc::Receiver<Value>, String> {
    let response = http
        .request("GET", &format!("/api/games/{id}/live"), None)
        .call()
        .map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel();
    let reader = BufReader::new(response.into_reader());
    std::thread::spawn(move || {
        for line in reader.lines().map_while(Result::ok) {
            if let Some(data) = line.strip_prefix("data:") {
                if let Ok(v) = serde_json::from_str(data.trim()) {
                    if tx.send(v).is_err() {
                        return;
                    }
                }
            }
        }
    });
    Ok(rx)
}

/// A normal player against the computer: moves after a pause, and times the computer's
/// reply from the answer to the move to the reply's view on the live stream.
fn computer_client(http: &Http, deadline: Instant, pause: Duration) -> ClientResult {
    let mut result = ClientResult::new();
    while Instant::now() < deadline {
        let body = json!({"variant": "kalah", "opponent": "medium"});
        let created = match http.call("POST", "/api/games", None, Some(body)).ok() {
            Ok(v) => v,
            Err(e) => {
                result.error("create", &e);
                std::thread::sleep(Duration::from_millis(500));
                continue;
            }
        };
        let id = created["id"].as_str().unwrap_or_default().to_owned();
        let token = created["token"].as_str().unwrap_or_default().to_owned();
        let views = match follow(http, &id) {
            Ok(rx) => rx,
            Err(e) => {
                result.error("live", &e);
                continue;
            }
        };
        let mut view = match views.recv_timeout(Duration::from_secs(10)) {
            Ok(v) => v,
            Err(_) => continue,
        };
        while view["over"] != true && Instant::now() < deadline {
            std::thread::sleep(pause);
            let house = view["legal_moves"][0].clone();
            let started = Instant::now();
            let body = json!({"house": house, "ply": view["ply"]});
            let path = format!("/api/games/{id}/moves");
            match http.call("POST", &path, Some(&token), Some(body)).ok() {
                Ok(next) => {
                    result.latencies.push((started, started.elapsed()));
                    view = next;
                }
                Err(e) => {
                    result.error("move", &e);
                    break;
                }
            }
            // Wait for the computer's reply (or the end) on the stream.
            let answered = Instant::now();
            while view["over"] != true && view["to_move"] != 1 {
                match views.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                    Ok(v) if v["ply"].as_u64() >= view["ply"].as_u64() => view = v,
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            if view["to_move"] == 1 || view["over"] == true {
                result.replies.push((answered, answered.elapsed()));
            }
        }
        if view["over"] == true {
            result.games_finished += 1;
        }
    }
    result
}

pub(crate) fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// Runs the normal players (`group` picks their addresses) until `deadline`.
fn normal_players(
    args: &WebArgs,
    bases: &[String],
    group: Option<u8>,
    deadline: Instant,
) -> anyhow::Result<Vec<ClientResult>> {
    let pause = Duration::from_millis(args.pause_ms);
    let addr = |n| group.map(|g| address(g, n));
    // At a player's pace, the players arrive over one pause, as people do, rather
    // than all in the same millisecond.
    let arrival = |i: u32| pause * i / args.games.max(1);
    let mut handles: Vec<_> = (0..args.games)
        .map(|i| {
            let http = Http::new(bases, i as usize, addr(i));
            let wait = arrival(i);
            std::thread::spawn(move || {
                std::thread::sleep(wait);
                client(&http, deadline, u64::from(i), pause)
            })
        })
        .collect();
    handles.extend((0..args.computer_games).map(|i| {
        let http = Http::new(bases, (args.games + i) as usize, addr(args.games + i));
        std::thread::spawn(move || computer_client(&http, deadline, pause))
    }));
    let mut results = Vec::new();
    for h in handles {
        let r = h
            .join()
            .map_err(|_| anyhow::anyhow!("a client thread panicked"))?;
        for e in &r.first_errors {
            eprintln!("error: {e}");
        }
        results.push(r);
    }
    Ok(results)
}

/// The figures of the samples in condition `on` (the first `args.games` results are
/// the players against each other, the rest those against the computer).
fn figures(args: &WebArgs, results: &[ClientResult], schedule: &Schedule, on: bool) -> WebFigures {
    let pick = |samples: &[(Instant, Duration)]| -> Vec<Duration> {
        samples
            .iter()
            .filter(|(at, _)| schedule.condition(*at) == Some(on))
            .map(|&(_, d)| d)
            .collect()
    };
    let (mut latencies, mut replies) = (Vec::new(), Vec::new());
    for (i, r) in results.iter().enumerate() {
        if i < args.games as usize {
            latencies.extend(pick(&r.latencies));
        }
        replies.extend(pick(&r.replies));
    }
    latencies.sort_unstable();
    replies.sort_unstable();
    let seconds = schedule.counted_seconds(on);
    WebFigures {
        instances: args.url.len(),
        games_at_once: args.games,
        games_finished: results.iter().map(|r| r.games_finished).sum(),
        moves: latencies.len() as u64,
        errors: results.iter().map(|r| r.errors).sum(),
        seconds,
        moves_per_sec: latencies.len() as f64 / seconds.max(1e-9),
        latency_ms_p50: percentile(&latencies, 0.50),
        latency_ms_p90: percentile(&latencies, 0.90),
        latency_ms_p99: percentile(&latencies, 0.99),
        latency_ms_max: percentile(&latencies, 1.0),
        computer_reply_ms: (args.computer_games > 0).then(|| Percentiles {
            count: replies.len(),
            p50: percentile(&replies, 0.50),
            p99: percentile(&replies, 0.99),
            max: percentile(&replies, 1.0),
        }),
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
fn start_abusers(
    args: &WebArgs,
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
    for n in 0..args.abusers {
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

/// The instances of the site `args` names, refused unless on this machine's loopback.
///
/// # Errors
/// When one is not.
pub(crate) fn loopback_bases(args: &WebArgs) -> anyhow::Result<Vec<String>> {
    let bases: Vec<String> = args
        .url
        .iter()
        .map(|u| u.trim_end_matches('/').to_owned())
        .collect();
    for base in &bases {
        anyhow::ensure!(
            base.starts_with("http://127.")
                || base.starts_with("http://localhost")
                || base.starts_with("http://[::1]"),
            "bench web only loads servers on this machine's loopback (http://127.0.0.1:PORT)"
        );
    }
    Ok(bases)
}

/// Runs the load and returns its figures.
pub fn run(args: &WebArgs) -> anyhow::Result<WebReport> {
    let bases = loopback_bases(args)?;
    anyhow::ensure!(
        args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 300.0,
        "--seconds must be a positive number of at most 300"
    );
    let start = Instant::now();
    if !args.hostile {
        let end = start + Duration::from_secs_f64(args.seconds);
        let results = normal_players(args, &bases, None, end)?;
        let schedule = Schedule::plain(start, end);
        return Ok(WebReport::Plain(figures(args, &results, &schedule, false)));
    }
    anyhow::ensure!(
        args.window.is_finite() && args.window >= 3.0 && args.window <= args.seconds,
        "--window must be between 3 seconds and --seconds"
    );
    let window = Duration::from_secs_f64(args.window);
    // Whole pairs of windows (off, on), covering at least --seconds of each.
    let pairs = (args.seconds / args.window).ceil().max(1.0);
    let schedule = Schedule {
        start,
        window,
        settle: window / 3,
        end: start + window.mul_f64(2.0 * pairs),
    };
    eprintln!(
        "{} normal players for {:.0} s; {} abusers of each of 4 kinds on in every other \
         {} s window",
        args.games,
        (schedule.end - start).as_secs_f64(),
        args.abusers,
        args.window
    );
    let abusers = start_abusers(args, &bases, schedule)?;
    let results = normal_players(args, &bases, Some(1), schedule.end)?;
    let without = figures(args, &results, &schedule, false);
    let with = figures(args, &results, &schedule, true);
    let mut tallies: BTreeMap<&'static str, AbuseTally> = BTreeMap::new();
    for (kind, h) in abusers {
        let t = h
            .join()
            .map_err(|_| anyhow::anyhow!("an abuser thread panicked"))?;
        tallies.entry(kind).or_default().merge(t);
    }
    Ok(WebReport::Hostile(Box::new(HostileFigures {
        method: format!(
            "{} s windows, abusers off and on in turn, the first {:.0} s of each left out",
            args.window,
            schedule.settle.as_secs_f64()
        ),
        p99_ratio: with.latency_ms_p99 / without.latency_ms_p99.max(1e-9),
        throughput_ratio: with.moves_per_sec / without.moves_per_sec.max(1e-9),
        without_abusers: without,
        with_abusers: with,
        abusers: tallies,
    })))
}
