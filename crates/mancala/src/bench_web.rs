//! `mancala bench web`: load a running `mancala serve` (or several instances of it on
//! one database) with many concurrent games and measure moves per second and move
//! latency.

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
    /// How long to run, in seconds
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
}

/// The figures printed as one JSON line.
#[derive(Serialize, Debug)]
pub struct WebFigures {
    instances: usize,
    games_at_once: u32,
    games_finished: u64,
    moves: u64,
    errors: u64,
    seconds: f64,
    moves_per_sec: f64,
    latency_ms_p50: f64,
    latency_ms_p90: f64,
    latency_ms_p99: f64,
    latency_ms_max: f64,
}

struct ClientResult {
    latencies: Vec<Duration>,
    games_finished: u64,
    errors: u64,
    /// The first few error messages, for the report.
    first_errors: Vec<String>,
}

impl ClientResult {
    fn error(&mut self, what: &str, e: &str) {
        self.errors += 1;
        if self.first_errors.len() < 3 {
            self.first_errors.push(format!("{what}: {e}"));
        }
    }
}

fn post(agent: &ureq::Agent, url: &str, token: Option<&str>, body: Value) -> Result<Value, String> {
    let mut req = agent.post(url);
    if let Some(t) = token {
        req = req.set("Authorization", &format!("Bearer {t}"));
    }
    req.send_json(body)
        .map_err(|e| e.to_string())?
        .into_json()
        .map_err(|e| e.to_string())
}

/// The instances of one site, taken in turn by one client's requests.
struct Rotation {
    bases: Vec<String>,
    next: usize,
}

impl Rotation {
    fn new(bases: &[String], start: usize) -> Rotation {
        Rotation {
            bases: bases.to_vec(),
            next: start,
        }
    }

    /// The base URL for the next request.
    fn base(&mut self) -> &str {
        let i = self.next % self.bases.len();
        self.next += 1;
        &self.bases[i]
    }
}

/// One client: plays Kalah games against itself (both seats) until the deadline,
/// timing every move request.
fn client(bases: &mut Rotation, deadline: Instant, seed: u64) -> ClientResult {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut result = ClientResult {
        latencies: Vec::new(),
        games_finished: 0,
        errors: 0,
        first_errors: Vec::new(),
    };
    'games: while Instant::now() < deadline {
        let created = match post(
            &agent,
            &format!("{}/api/games", bases.base()),
            None,
            json!({"variant": "kalah"}),
        ) {
            Ok(v) => v,
            Err(e) => {
                result.error("create", &e);
                continue;
            }
        };
        let id = created["id"].as_str().unwrap_or_default().to_owned();
        let joined = match post(
            &agent,
            &format!("{}/api/games/{id}/join", bases.base()),
            None,
            json!({}),
        ) {
            Ok(v) => v,
            Err(e) => {
                result.error("join", &e);
                continue;
            }
        };
        let tokens = [
            created["token"].as_str().unwrap_or_default().to_owned(),
            joined["token"].as_str().unwrap_or_default().to_owned(),
        ];
        let mut view =
            json!({"to_move": 1, "ply": 0, "legal_moves": [1, 2, 3, 4, 5, 6], "over": false});
        while view["over"] != true {
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
            match post(
                &agent,
                &format!("{}/api/games/{id}/moves", bases.base()),
                Some(&tokens[seat - 1]),
                json!({"house": house, "ply": view["ply"]}),
            ) {
                Ok(next) => {
                    result.latencies.push(started.elapsed());
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

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}

/// Runs the load and returns its figures.
pub fn run(args: &WebArgs) -> anyhow::Result<WebFigures> {
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
    anyhow::ensure!(
        args.seconds.is_finite() && args.seconds > 0.0,
        "--seconds must be a positive number"
    );
    let clock = Instant::now();
    let deadline = clock + Duration::from_secs_f64(args.seconds);
    let handles: Vec<_> = (0..args.games)
        .map(|i| {
            let mut rotation = Rotation::new(&bases, i as usize);
            std::thread::spawn(move || client(&mut rotation, deadline, u64::from(i)))
        })
        .collect();
    let mut latencies = Vec::new();
    let (mut games_finished, mut errors) = (0, 0);
    for h in handles {
        let r = h
            .join()
            .map_err(|_| anyhow::anyhow!("a client thread panicked"))?;
        latencies.extend(r.latencies);
        games_finished += r.games_finished;
        errors += r.errors;
        for e in r.first_errors {
            eprintln!("error: {e}");
        }
    }
    let seconds = clock.elapsed().as_secs_f64();
    latencies.sort_unstable();
    Ok(WebFigures {
        instances: bases.len(),
        games_at_once: args.games,
        games_finished,
        moves: latencies.len() as u64,
        errors,
        seconds,
        moves_per_sec: latencies.len() as f64 / seconds,
        latency_ms_p50: percentile(&latencies, 0.50),
        latency_ms_p90: percentile(&latencies, 0.90),
        latency_ms_p99: percentile(&latencies, 0.99),
        latency_ms_max: percentile(&latencies, 1.0),
    })
}
