//! `mancala bench web --viewers N`: many live viewers of one game (`bench` sends
//! `--viewers` here, the rest of `bench web` to `bench_web`). Opens N live
//! streams (server-sent events) on one game from one process, measures the server's
//! memory before and with them, then plays the game at a steady pace and measures
//! how long each move takes from its request to each viewer, and how many viewers
//! missed a move.
//!
//! The streams are held by one small tokio runtime with hyper's client, so that ten
//! thousand of them cost the measuring client little beside the server it measures.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::Semaphore;

use crate::http::{Http, percentile};
use crate::web::{Percentiles, WebArgs, loopback_bases};

/// Streams being opened at once (the rest wait their turn).
const OPENING_AT_ONCE: usize = 256;

/// How long the viewers are given to see the last move once it is played.
const LAST_MOVE_WAIT: Duration = Duration::from_secs(10);

/// What `--viewers` measured.
#[derive(Serialize, Debug)]
pub struct ViewerFigures {
    /// Viewers asked for.
    viewers: usize,
    /// Streams the server opened, and refused (any answer but 200, or no answer).
    streams_open: usize,
    streams_refused: usize,
    /// How long opening them all took, in seconds.
    seconds_to_open: f64,
    /// Moves played, and views of them that should have reached the open streams.
    moves: usize,
    deliveries_expected: usize,
    /// Views of a move that never reached a viewer.
    missed: usize,
    /// From the move's request to a viewer reading its view, over every delivery.
    delivery_ms: Percentiles,
    /// The server's resident memory before the streams and with them open, in MiB,
    /// and what one stream adds, in KiB (with --server-pid).
    #[serde(skip_serializing_if = "Option::is_none")]
    server_rss_mib_before: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    server_rss_mib_streams: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kib_per_stream: Option<f64>,
}

/// What the viewers share with the player.
struct Shared {
    /// Turns to open a stream.
    opening: Semaphore,
    /// Streams answered (opened or refused), and opened.
    answered: AtomicUsize,
    open: AtomicUsize,
    /// The ply of the game's last move, once it is played.
    last: AtomicU64,
}

/// The fields of a view a viewer reads.
#[derive(Deserialize)]
struct Seen {
    ply: u64,
    over: bool,
}

/// A friend game with both seats held: (id, token of seat 1, token of seat 2).
fn joined_game(http: &Http) -> anyhow::Result<(String, String, String)> {
    let created = http
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"variant": "kalah"})),
        )
        .ok()
        .map_err(|e| anyhow::anyhow!("creating the game: {e}"))?;
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let join = json!({"invite": created["invite"]});
    let joined = http
        .call("POST", &format!("/api/games/{id}/join"), None, Some(join))
        .ok()
        .map_err(|e| anyhow::anyhow!("joining the game: {e}"))?;
    let token = |v: &serde_json::Value| v["token"].as_str().unwrap_or_default().to_owned();
    Ok((id, token(&created), token(&joined)))
}

/// The resident memory of process `pid`, in MiB.
fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// One viewer: opens the game's live stream and notes when each ply's view arrives,
/// until the game is over, the ply `shared.last` (the last one played, once the
/// player stops) has arrived, or the stream ends. `None` when the stream was refused.
async fn view(
    client: Client<HttpConnector, Empty<Bytes>>,
    url: hyper::Uri,
    shared: Arc<Shared>,
) -> Option<Vec<(u64, Instant)>> {
    let response = {
        let _turn = shared.opening.acquire().await.ok()?;
        let response = client.get(url).await;
        shared.answered.fetch_add(1, Ordering::Relaxed);
        match response {
            Ok(r) if r.status() == hyper::StatusCode::OK => r,
            _ => return None,
        }
    };
    shared.open.fetch_add(1, Ordering::Relaxed);
    let last = &shared.last;
    let mut body = response.into_body();
    let mut seen = Vec::new();
    let mut pending = Vec::new();
    while let Some(Ok(frame)) = body.frame().await {
        let Ok(data) = frame.into_data() else {
            continue;
        };
        pending.extend_from_slice(&data);
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            if let Some(json) = line.strip_prefix(&b"data:"[..]) {
                if let Ok(Seen { ply, over }) = serde_json::from_slice(json) {
                    seen.push((ply, Instant::now()));
                    if over || ply == last.load(Ordering::Acquire) {
                        return Some(seen);
                    }
                }
            }
        }
    }
    Some(seen)
}

/// Plays the game to its end, a move every `pause`, each a random legal house (the
/// same game every run); when each ply's move was asked for.
fn play(http: &Http, game: &(String, String, String), pause: Duration) -> Vec<(u64, Instant)> {
    let (id, t1, t2) = game;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut sent = Vec::new();
    let mut view = match http
        .call("GET", &format!("/api/games/{id}"), None, None)
        .ok()
    {
        Ok(v) => v,
        Err(_) => return sent,
    };
    while view["over"] != true {
        std::thread::sleep(pause);
        let token = if view["to_move"] == 1 { t1 } else { t2 };
        let legal = view["legal_moves"].as_array().map_or(0, Vec::len);
        let house = &view["legal_moves"][rng.random_range(0..legal.max(1))];
        let body = json!({"house": house, "ply": view["ply"]});
        let asked = Instant::now();
        match http
            .call(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(token),
                Some(body),
            )
            .ok()
        {
            Ok(next) => view = next,
            Err(e) => {
                eprintln!("bench web --viewers: a move failed: {e}");
                break;
            }
        }
        sent.push((view["ply"].as_u64().unwrap_or(0), asked));
    }
    sent
}

/// Runs `--viewers`: that many streams on one game of the (first) instance, a move
/// every `--pause-ms`, the server's memory read from `/proc/PID` of `--server-pid`.
///
/// # Errors
/// When the instance is not on loopback, or the game cannot be made.
pub fn run(args: &WebArgs) -> anyhow::Result<ViewerFigures> {
    let bases = loopback_bases(args)?;
    let base = &bases[0];
    let viewers = args.viewers as usize;
    let pause = Duration::from_millis(args.pause_ms);
    let server_pid = args.server_pid;
    let http = Http::new(std::slice::from_ref(base), 0, None);
    let game = joined_game(&http)?;
    let url: hyper::Uri = format!("{base}/api/games/{}/live", game.0).parse()?;
    let rss_before = server_pid.and_then(rss_mib);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let client = Client::builder(TokioExecutor::new()).build_http::<Empty<Bytes>>();
    let shared = Arc::new(Shared {
        opening: Semaphore::new(OPENING_AT_ONCE),
        answered: AtomicUsize::new(0),
        open: AtomicUsize::new(0),
        last: AtomicU64::new(u64::MAX),
    });
    let started = Instant::now();
    let tasks: Vec<_> = (0..viewers)
        .map(|_| runtime.spawn(view(client.clone(), url.clone(), shared.clone())))
        .collect();
    while shared.answered.load(Ordering::Relaxed) < viewers {
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(300),
            "opening the streams took over 5 minutes"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let opened = shared.open.load(Ordering::Relaxed);
    let seconds_to_open = started.elapsed().as_secs_f64();
    let rss_streams = server_pid.and_then(rss_mib);
    let sent = play(&http, &game, pause);
    if let Some(&(final_ply, _)) = sent.last() {
        shared.last.store(final_ply, Ordering::Release);
    }
    let results = runtime.block_on(async {
        let mut results = Vec::new();
        let until = tokio::time::Instant::now() + LAST_MOVE_WAIT;
        for task in tasks {
            match tokio::time::timeout_at(until, task).await {
                Ok(Ok(Some(seen))) => results.push(seen),
                Ok(_) => {}
                // Still waiting for the last move: count what it saw as missing.
                Err(_) => results.push(Vec::new()),
            }
        }
        results
    });
    runtime.shutdown_background();
    Ok(figures(
        viewers,
        opened,
        seconds_to_open,
        &sent,
        &results,
        rss_before,
        rss_streams,
    ))
}

/// The figures from when each move was asked for (`sent`) and what each open
/// stream saw.
fn figures(
    viewers: usize,
    opened: usize,
    seconds_to_open: f64,
    sent: &[(u64, Instant)],
    seen: &[Vec<(u64, Instant)>],
    rss_before: Option<f64>,
    rss_streams: Option<f64>,
) -> ViewerFigures {
    let mut delays = Vec::new();
    let mut missed = 0;
    for stream in seen {
        for &(ply, asked) in sent {
            match stream.iter().find(|&&(p, _)| p == ply) {
                Some(&(_, at)) => delays.push(at.saturating_duration_since(asked)),
                None => missed += 1,
            }
        }
    }
    // Streams that opened but were lost before the end missed every move.
    missed += (opened - seen.len().min(opened)) * sent.len();
    delays.sort();
    let kib_per_stream = match (rss_before, rss_streams) {
        (Some(a), Some(b)) if opened > 0 => Some((b - a) * 1024.0 / opened as f64),
        _ => None,
    };
    ViewerFigures {
        viewers,
        streams_open: opened,
        streams_refused: viewers - opened,
        seconds_to_open,
        moves: sent.len(),
        deliveries_expected: opened * sent.len(),
        missed,
        delivery_ms: Percentiles {
            count: delays.len(),
            p50: percentile(&delays, 0.50),
            p99: percentile(&delays, 0.99),
            max: percentile(&delays, 1.0),
        },
        server_rss_mib_before: rss_before,
        server_rss_mib_streams: rss_streams,
        kib_per_stream,
    }
}
