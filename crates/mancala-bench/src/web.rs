//! `mancala bench web`: load a running `mancala serve` (or several instances of it on
//! one database) with many concurrent games and measure moves per second and move
//! latency; with `--hostile`, measure it without and
//! with abusive clients beside the normal players in one run. The abusers come and go
//! in alternating windows while the normal players play throughout, so that whatever
//! else loads the machine weighs on both figures alike.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use serde_json::{Value, json};

use crate::abuse::{AbuseTally, Schedule, start_abusers};
use crate::http::{Http, address, percentile};

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

/// Everything `run` can print.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum WebReport {
    /// One phase of normal players.
    Plain(WebFigures),
    /// `--hostile`.
    Hostile(Box<HostileFigures>),
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
    let abusers = start_abusers(args.abusers, &bases, schedule)?;
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
