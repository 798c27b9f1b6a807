//! `mancala serve`: the web game.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, ValueEnum};
use mancala_web::{
    ConnectionLimits, DEFAULT_COMPUTER_LEASE, DbLocation, Expiry, Games, Limits, Metrics,
    Operations, Rate, RateLimits, Store, StoreOptions, StreamLimits, ThinkLimits, parse_duration,
    serve_metrics, serve_with,
};

/// The environment variable that may hold `--metrics-token` (kept out of `ps`).
const METRICS_TOKEN_ENV: &str = "MANCALA_METRICS_TOKEN";

/// Arguments of `mancala serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback unless told otherwise)
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,

    /// Where games are stored: an SQLite file (a path or sqlite:PATH), or PostgreSQL
    /// (postgres://USER[:PASSWORD]@HOST[:PORT]/DB), which several instances can share.
    /// Default: $DATABASE_URL, else games.sqlite in the data directory
    /// ($XDG_DATA_HOME/mancala or ~/.local/share/mancala)
    #[arg(long, value_name = "PATH|URL")]
    db: Option<String>,

    /// PostgreSQL: connections this instance keeps open at most
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    db_connections: u32,

    /// How long an instance holds a computer's turn without renewing it: after a crash
    /// another instance takes the turn over within this time
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_COMPUTER_LEASE.as_secs_f64())]
    computer_lease: f64,

    /// How the log is written: text, or one JSON object per line (each request's
    /// lines carry its x-request-id either way)
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,

    /// The same as --log-format json (the option's earlier name)
    #[arg(long, hide = true, conflicts_with = "log_format")]
    log_json: bool,

    /// Serve the Prometheus metrics at http://ADDR/metrics, an address of their own
    /// (keep it private: loopback, or a network only Prometheus reaches). Without this
    /// or --metrics-token, no metrics are served
    #[arg(long, value_name = "ADDR")]
    metrics_listen: Option<SocketAddr>,

    /// Also serve GET /metrics on --addr, to requests with `Authorization: Bearer
    /// TOKEN` (at least 16 characters). Default: $MANCALA_METRICS_TOKEN, which keeps
    /// it out of the process list
    #[arg(long, value_name = "TOKEN")]
    metrics_token: Option<String>,

    #[command(flatten)]
    limits: LimitArgs,
}

/// How the log is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    /// Human-readable lines (colored on a terminal)
    Text,
    /// One JSON object per line (tracing-subscriber's JSON format)
    Json,
}

/// The server's limits (docs/api.md, "Limits"); the defaults are `Limits::default()`.
#[derive(Args, Debug)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// The longest a computer player may think about a move, in milliseconds (the
    /// `ms` of alphabeta, mcts and perfect; also the cap of every search)
    #[arg(long, value_name = "MS", default_value_t = ThinkLimits::default().max_ms,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_think_ms: u64,

    /// The most nodes an alphabeta player may be asked to search
    #[arg(long, value_name = "N", default_value_t = ThinkLimits::default().max_nodes,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,

    /// The most simulations an mcts player may run for a move
    #[arg(long, value_name = "N", default_value_t = ThinkLimits::default().max_sims,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_sims: u64,

    /// Memory shared by the computer players thinking at once (search tables, the
    /// solver, MCTS trees), in MiB; a player needing more is refused
    #[arg(long, value_name = "MIB", default_value_t = ThinkLimits::default().memory_mb,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(16..))]
    think_memory_mb: usize,

    /// The largest table one computer player may ask for (`hash`), in MiB
    #[arg(long, value_name = "MIB", default_value_t = ThinkLimits::default().max_table_mb,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_table_mb: usize,

    /// Memory of the computer players kept between their moves, one per game (a search
    /// keeps its table, `perfect` its solved positions), in MiB; 0 builds each move's
    /// player afresh
    #[arg(long, value_name = "MIB", default_value_t = ThinkLimits::default().keep_mb)]
    keep_players_mb: usize,

    /// Computer players thinking at once [default: the number of cores]
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    thinkers: Option<usize>,

    /// New games (imports and rematches too) per client, as COUNT/DURATION
    #[arg(long, value_name = "RATE", default_value_t = RateLimits::default().create)]
    rate_create: Rate,

    /// Joins per client
    #[arg(long, value_name = "RATE", default_value_t = RateLimits::default().join)]
    rate_join: Rate,

    /// Moves per client
    #[arg(long, value_name = "RATE", default_value_t = RateLimits::default().moves)]
    rate_move: Rate,

    /// Live streams opened per client
    #[arg(long, value_name = "RATE", default_value_t = RateLimits::default().live)]
    rate_live: Rate,

    /// Reads (GET /api/games/ID and its record, the lobby, pages) per client
    #[arg(long, value_name = "RATE", default_value_t = RateLimits::default().read)]
    rate_read: Rate,

    /// How long a 429 answer is held back (a flood that ignores Retry-After then gets
    /// one answer per this long per connection; 0s: at once)
    #[arg(long, value_name = "DURATION", default_value = "1s", value_parser = parse_delay)]
    refusal_delay: std::time::Duration,

    /// Live streams open at once from one client
    #[arg(long, value_name = "N", default_value_t = StreamLimits::default().per_client)]
    max_streams_per_client: usize,

    /// Connections open at once from one address (not applied with
    /// --trust-forwarded-for, where the proxy holds them all)
    #[arg(long, value_name = "N", default_value_t = ConnectionLimits::default().per_client)]
    max_connections_per_client: usize,

    /// Live streams open at once in all
    #[arg(long, value_name = "N", default_value_t = StreamLimits::default().total)]
    max_streams: usize,

    /// Keep a finished game's live streams open this long after its end, so that a
    /// rematch reaches the opponent and the spectators (they end once it has)
    #[arg(long, value_name = "DURATION", default_value = "15m", value_parser = parse_duration)]
    rematch_wait: std::time::Duration,

    /// Delete a game where no move was played this long after it was created or joined
    #[arg(long, value_name = "DURATION", default_value = "1d", value_parser = parse_duration)]
    expire_unstarted: std::time::Duration,

    /// Delete a game in progress this long after its last move
    #[arg(long, value_name = "DURATION", default_value = "7d", value_parser = parse_duration)]
    expire_idle: std::time::Duration,

    /// Delete a finished game this long after its end (a game an account played is
    /// kept: it is that player's history)
    #[arg(long, value_name = "DURATION", default_value = "30d", value_parser = parse_duration)]
    expire_finished: std::time::Duration,

    /// Count clients by the last X-Forwarded-For address (set by the proxy in front of
    /// the server) rather than the peer address: only behind such a proxy
    #[arg(long)]
    trust_forwarded_for: bool,

    /// Mark the session cookie Secure (sent only over HTTPS): the site is served over
    /// TLS by a proxy in front of the server. With --trust-forwarded-for, a request
    /// the proxy marks `X-Forwarded-Proto: https` gets a Secure cookie anyway
    #[arg(long)]
    secure_cookies: bool,
}

/// A duration that may be zero.
fn parse_delay(s: &str) -> Result<std::time::Duration, String> {
    if s.trim().trim_end_matches(|c: char| c.is_ascii_alphabetic()) == "0" {
        return Ok(std::time::Duration::ZERO);
    }
    parse_duration(s)
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            think: ThinkLimits {
                max_ms: self.max_think_ms,
                max_nodes: self.max_nodes,
                max_sims: self.max_sims,
                memory_mb: self.think_memory_mb,
                max_table_mb: self.max_table_mb,
                keep_mb: self.keep_players_mb,
                thinkers: self.thinkers.unwrap_or(ThinkLimits::default().thinkers),
            },
            rates: RateLimits {
                create: self.rate_create,
                join: self.rate_join,
                moves: self.rate_move,
                live: self.rate_live,
                read: self.rate_read,
                refusal_delay: self.refusal_delay,
            },
            streams: StreamLimits {
                per_client: self.max_streams_per_client,
                total: self.max_streams,
                rematch_wait: self.rematch_wait,
            },
            expiry: Expiry {
                unstarted: self.expire_unstarted,
                idle: self.expire_idle,
                finished: self.expire_finished,
            },
            trust_forwarded_for: self.trust_forwarded_for,
            secure_cookies: self.secure_cookies,
            connections: ConnectionLimits {
                per_client: self.max_connections_per_client,
                ..ConnectionLimits::default()
            },
            ..Limits::default()
        }
    }
}

/// The database `--db`, `DATABASE_URL` or the default names.
fn location(args: &ServeArgs) -> anyhow::Result<DbLocation> {
    db_location(args.db.as_deref())
}

/// The database `db` names, or `DATABASE_URL`, or the default one.
pub(crate) fn db_location(db: Option<&str>) -> anyhow::Result<DbLocation> {
    let named = db
        .map(str::to_owned)
        .or_else(|| std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()));
    match named {
        Some(db) => Ok(db.parse()?),
        None => Ok(DbLocation::Sqlite(default_db()?)),
    }
}

fn default_db() -> anyhow::Result<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .context("no data directory: set --db, XDG_DATA_HOME or HOME")?;
    Ok(base.join("mancala").join("games.sqlite"))
}

/// What is logged: `RUST_LOG` (by default `info`), but never PostgreSQL's statements
/// with their parameters, which `tokio_postgres` logs at `debug`: they hold password
/// hashes and the hashes of every token, which no log may keep.
fn log_filter() -> tracing_subscriber::EnvFilter {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,tower_http=info".into());
    filter.add_directive(
        "tokio_postgres::query=info"
            .parse()
            .expect("a valid directive"),
    )
}

/// Starts the log on standard error, as `--log-format` says.
fn start_log(args: &ServeArgs) {
    let logs = tracing_subscriber::fmt()
        .with_env_filter(log_filter())
        .with_writer(std::io::stderr);
    if args.log_json || args.log_format == LogFormat::Json {
        logs.json().init();
    } else {
        logs.with_ansi(std::io::stderr().is_terminal()).init();
    }
}

/// What the operator gets beside the game: the metrics token checked (from
/// `--metrics-token` or the environment), and whether metrics are counted at all.
fn operations(args: &ServeArgs) -> anyhow::Result<(Operations, bool)> {
    let token = args.metrics_token.clone().or_else(|| {
        std::env::var(METRICS_TOKEN_ENV)
            .ok()
            .filter(|t| !t.is_empty())
    });
    let mut ops = Operations::default();
    if let Some(token) = &token {
        ops = ops
            .with_metrics_token(token)
            .map_err(|e| anyhow::anyhow!("--metrics-token: {e}"))?;
    }
    Ok((ops, token.is_some() || args.metrics_listen.is_some()))
}

/// Serves the metrics on `--metrics-listen`, if given, until the runtime ends.
fn serve_metrics_apart(args: &ServeArgs, metrics: Option<&Metrics>) -> anyhow::Result<()> {
    let (Some(addr), Some(metrics)) = (args.metrics_listen, metrics) else {
        return Ok(());
    };
    let listener = listen(addr).with_context(|| format!("listening on {addr} for metrics"))?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "metrics on http://{addr}/metrics");
    let metrics = metrics.clone();
    tokio::spawn(async move {
        if let Err(e) = serve_metrics(listener, metrics, std::future::pending()).await {
            tracing::error!(error = %e, "the metrics listener stopped");
        }
    });
    Ok(())
}

/// Serves until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    start_log(args);
    let (ops, with_metrics) = operations(args)?;
    let db = location(args)?;
    anyhow::ensure!(
        args.computer_lease.is_finite() && args.computer_lease >= 0.1,
        "--computer-lease must be at least 0.1 seconds"
    );
    let lease = Duration::from_secs_f64(args.computer_lease);
    if let DbLocation::Sqlite(path) = &db {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
    }
    let options = StoreOptions {
        max_connections: args.db_connections as usize,
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let store = Store::open(&db, &options)
            .await
            .with_context(|| format!("opening {db}"))?;
        let limits = args.limits.limits();
        tracing::info!(?limits, "limits");
        let games = Games::with_computer_lease(store, limits, lease);
        let metrics = with_metrics.then(|| Metrics::new(&games));
        let ops = match &metrics {
            Some(m) => ops.with_metrics(m.clone()),
            None => ops,
        };
        serve_metrics_apart(args, metrics.as_ref())?;
        let listener = listen(args.addr).with_context(|| format!("listening on {}", args.addr))?;
        let addr = listener.local_addr()?;
        tracing::info!(db = %db, "games stored in {db}");
        tracing::info!(%addr, "serving on http://{addr}/");
        let background = games.start_background();
        let stopping = games.clone();
        let shutdown = async move {
            shutdown().await;
            // Hand the computer turns over before the wait for open connections (live
            // streams among them) to close: another instance takes them at once.
            drop(background);
            if let Err(e) = stopping.release_computer_turns().await {
                tracing::warn!(error = %e, "could not hand over computer turns");
            }
            tracing::info!("stopping");
        };
        serve_with(listener, games, &ops, shutdown).await?;
        tracing::info!("stopped");
        Ok(())
    })
}

async fn shutdown() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("install a SIGTERM handler");
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

/// Connections waiting to be accepted before the kernel turns new ones away: a burst
/// of a thousand players arriving at once (`mancala bench web --games 1000`) overflowed
/// the 1,024 that `TcpListener::bind` asks for while the server was busy, and the
/// overflow reached the players as connections reset (the kernel caps it at
/// `net.core.somaxconn`).
const LISTEN_BACKLOG: u32 = 4096;

/// A listener on `addr` with [`LISTEN_BACKLOG`] (and `SO_REUSEADDR`, as
/// `TcpListener::bind` sets it, so that a restart may listen again at once).
fn listen(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}
