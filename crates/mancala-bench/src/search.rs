//! `mancala bench search` and `mancala bench mcts`: the engine's speed as JSON.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use mancala_core::Position;
use mancala_engine::{Limits, Mcts, MctsLimits, Searcher};
use serde::Serialize;

use mancala_cli::RulesArgs;

/// Arguments of `mancala bench search`.
#[derive(Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Plies to search (one sowing per ply)
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=mancala_engine::MAX_DEPTH as i64))]
    depth: u32,
}

/// Arguments of `mancala bench mcts`.
#[derive(Args, Debug)]
pub struct MctsArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// How long to run, in seconds
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
}

/// Arguments of `mancala bench endgame`.
#[derive(Args, Debug)]
pub struct EndgameArgs {
    /// Houses a side (Kalah)
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=8))]
    houses: u8,
    /// Build the database of every board with at most this many seeds in play
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u16).range(0..=127))]
    endgame_seeds: u16,
    /// Threads to build it on (default: every core)
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

#[derive(Serialize)]
struct EndgameFigures {
    seeds: usize,
    boards: u64,
    seconds: f64,
    boards_per_sec: f64,
    threads: usize,
}

#[derive(Serialize)]
struct SearchFigures {
    nodes: u64,
    seconds: f64,
    nodes_per_sec: f64,
    /// The score for player 1 (see `mancala_engine::Score`: quarter seeds, or
    /// 30000 + margin for a proven result).
    value: i32,
    best_move: u8,
}

#[derive(Serialize)]
struct MctsFigures {
    sims: u64,
    seconds: f64,
    sims_per_sec: f64,
}

/// Runs `bench search` and writes its JSON (without the newline): one alpha-beta search
/// of the start position to `--depth`, with a 64 MiB table.
pub fn search(args: &SearchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let position = Position::new(args.rules.rules()?);
    let mut searcher = Searcher::new(64);
    let start = Instant::now();
    let r = searcher.search_position(&position, Limits::depth(args.depth));
    let seconds = start.elapsed().as_secs_f64();
    let figures = SearchFigures {
        nodes: r.nodes,
        seconds,
        nodes_per_sec: r.nodes as f64 / seconds.max(1e-9),
        value: r.score.raw(),
        best_move: r.best.house(),
    };
    serde_json::to_writer(out, &figures)?;
    Ok(())
}

/// Runs `bench mcts` and writes its JSON (without the newline): one MCTS player
/// thinking about the start position for `--seconds`.
pub fn mcts(args: &MctsArgs, out: &mut impl Write) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.seconds.is_finite() && args.seconds > 0.0,
        "--seconds must be a positive number"
    );
    let position = Position::new(args.rules.rules()?);
    let limits = MctsLimits {
        sims: None,
        time: Some(Duration::from_secs_f64(args.seconds)),
    };
    let mut player = Mcts::new(limits, 1);
    let start = Instant::now();
    let (_, sims, _) = player.search(&position);
    let seconds = start.elapsed().as_secs_f64();
    let figures = MctsFigures {
        sims,
        seconds,
        sims_per_sec: sims as f64 / seconds.max(1e-9),
    };
    serde_json::to_writer(out, &figures)?;
    Ok(())
}

/// Runs `bench endgame` and writes its JSON (without the newline).
pub fn endgame(args: &EndgameArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let seeds = usize::from(args.endgame_seeds);
    let max_bytes = mancala_cli::available_memory().map_or(usize::MAX, |a| a / 10 * 8);
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        pool = pool.num_threads(usize::from(t));
    }
    let rules = mancala_core::Rules::kalah(args.houses, 1);
    let b = pool
        .build()?
        .install(|| mancala_solver::bench_endgame(rules, seeds, max_bytes))?;
    let figures = EndgameFigures {
        seeds: b.seeds,
        boards: b.boards,
        seconds: b.seconds,
        boards_per_sec: b.boards_per_sec(),
        threads: b.threads,
    };
    serde_json::to_writer(out, &figures)?;
    Ok(())
}
