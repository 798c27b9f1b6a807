//! `mancala serve`: the web game.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use mancala_web::{Games, Store, serve};

/// Arguments of `mancala serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback unless told otherwise)
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,

    /// SQLite database of games (default: games.sqlite in the data directory,
    /// $XDG_DATA_HOME/mancala or ~/.local/share/mancala)
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,

    /// Log one JSON object per line instead of text
    #[arg(long)]
    log_json: bool,
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
    let db = match &args.db {
        Some(p) => p.clone(),
        None => default_db()?,
    };
    if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let store = Store::open(&db).with_context(|| format!("opening {}", db.display()))?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let games = Games::new(store);
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("listening on {}", args.addr))?;
        let addr = listener.local_addr()?;
        tracing::info!(db = %db.display(), "games stored in {}", db.display());
        tracing::info!(%addr, "serving on http://{addr}/");
        let resumed = games.resume_computers().await?;
        tracing::debug!(resumed, "computer games checked");
        serve(listener, games, shutdown()).await?;
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
