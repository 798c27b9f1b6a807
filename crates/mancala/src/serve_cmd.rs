//! `mancala serve`: the web game.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use mancala_web::{DEFAULT_COMPUTER_LEASE, DbLocation, Games, Store, StoreOptions, serve};

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

    /// Log one JSON object per line instead of text
    #[arg(long)]
    log_json: bool,
}

/// The database `--db`, `DATABASE_URL` or the default names.
fn location(args: &ServeArgs) -> anyhow::Result<DbLocation> {
    let named = args
        .db
        .clone()
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

/// Serves until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,tower_http=info".into()),
        )
        .with_writer(std::io::stderr);
    if args.log_json {
        logs.json().init();
    } else {
        logs.with_ansi(std::io::stderr().is_terminal()).init();
    }
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
        let games = Games::with_computer_lease(store, lease);
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("listening on {}", args.addr))?;
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
        serve(listener, games, shutdown).await?;
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
