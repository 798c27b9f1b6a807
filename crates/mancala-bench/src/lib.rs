//! `mancala bench`: speed figures printed as one JSON line each.
//!
//! The benchmarks live apart from the binary, which only parses `mancala bench` into
//! [`BenchArgs`] and calls [`run`]: their dependencies (linear algebra for the weight
//! fit, an HTTP client for the server load) stay out of the players' program, and the
//! binary stays its subcommands.

#![forbid(unsafe_code)]

mod abuse;
mod http;
mod search;
mod strength;
mod tune;
mod web;
mod web_viewers;

use std::io::Write;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use mancala_core::described::Described;
use mancala_core::{NoSteps, Position, RepetitionTracker, Rules, perft};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use mancala_cli::RulesArgs;

/// Arguments of `mancala bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchCommand,
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Uniformly random games from the start on one thread
    Playouts {
        #[command(flatten)]
        rules: RulesArgs,
        /// How long to run, in seconds
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Seed of the random move choices
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play by the game's description (the one engine every description runs on)
        /// instead of its hand-tuned rule set
        #[arg(long)]
        described: bool,
    },
    /// Perft from the start (the last ply counted in bulk) on one thread
    Perft {
        #[command(flatten)]
        rules: RulesArgs,
        /// Plies to count
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=40))]
        depth: u32,
    },
    /// Fixed-depth alpha-beta search from the start on one thread
    Search(crate::search::SearchArgs),
    /// Monte-Carlo tree search from the start on one thread
    Mcts(crate::search::MctsArgs),
    /// Build the exact solver's Kalah endgame database (on every core by default)
    Endgame(crate::search::EndgameArgs),
    /// How often players keep the exact value of small positions (the solver judges)
    Accuracy(crate::strength::AccuracyArgs),
    /// Nodes and simulations a second on one thread and on several
    Threads(crate::strength::ThreadsArgs),
    /// Fit the evaluation's weights to self-play results (logistic regression)
    Tune(crate::tune::TuneArgs),
    /// Load a running `mancala serve` with many concurrent games (loopback only)
    Web(crate::web::WebArgs),
}

#[derive(Serialize)]
struct PlayoutFigures {
    games: u64,
    moves: u64,
    seconds: f64,
    games_per_sec: f64,
    moves_per_sec: f64,
}

#[derive(Serialize)]
struct PerftFigures {
    depth: u32,
    leaves: u64,
    seconds: f64,
    leaves_per_sec: f64,
}

/// Runs the benchmark asked for and prints its JSON line.
pub fn run(args: &BenchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    match &args.what {
        BenchCommand::Playouts {
            rules,
            seconds,
            seed,
            described,
        } => {
            anyhow::ensure!(
                seconds.is_finite() && *seconds > 0.0,
                "--seconds must be a positive number"
            );
            let rules = rules.rules()?;
            let budget = Duration::from_secs_f64(*seconds);
            let engine = described.then(|| Described::new(&rules.description()));
            let figures = playouts(rules, budget, *seed, engine.as_ref());
            serde_json::to_writer(&mut *out, &figures)?;
        }
        BenchCommand::Perft { rules, depth } => {
            let start = Position::new(rules.rules()?);
            let clock = Instant::now();
            let leaves = perft(&start, *depth);
            let seconds = clock.elapsed().as_secs_f64();
            let figures = PerftFigures {
                depth: *depth,
                leaves,
                seconds,
                leaves_per_sec: leaves as f64 / seconds,
            };
            serde_json::to_writer(&mut *out, &figures)?;
        }
        BenchCommand::Search(args) => crate::search::search(args, &mut *out)?,
        BenchCommand::Mcts(args) => crate::search::mcts(args, &mut *out)?,
        BenchCommand::Endgame(args) => crate::search::endgame(args, &mut *out)?,
        // Several lines, each ended already.
        BenchCommand::Accuracy(args) => return crate::strength::accuracy(args, out),
        BenchCommand::Threads(args) => return crate::strength::threads(args, out),
        BenchCommand::Tune(args) => return crate::tune::tune(args, out),
        BenchCommand::Web(args) if args.viewers > 0 => {
            serde_json::to_writer(&mut *out, &crate::web_viewers::run(args)?)?;
        }
        BenchCommand::Web(args) => serde_json::to_writer(&mut *out, &crate::web::run(args)?)?,
    }
    writeln!(out)?;
    Ok(())
}

/// Plays random games from the start until `budget` has passed, by the rule set of
/// `rules` or, when given, by the description engine.
fn playouts(
    rules: Rules,
    budget: Duration,
    seed: u64,
    described: Option<&Described>,
) -> PlayoutFigures {
    let start = Position::new(rules);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut repetitions = RepetitionTracker::new(&start);
    // Only variants with the repetition rule need its bookkeeping (and without it a
    // random game of one can go round for ever).
    let track = rules.variant().has_repetition_rule();
    let (mut games, mut moves) = (0u64, 0u64);
    let clock = Instant::now();
    loop {
        // Check the clock every 256 games: reading it costs more than a short game.
        for _ in 0..256 {
            let mut p = start;
            repetitions.reset(&start);
            loop {
                let legal = match described {
                    _ if p.is_over() => break,
                    Some(engine) => engine.legal_moves(&p),
                    None => p.legal_moves(),
                };
                let mv = legal[rng.random_range(0..legal.len())];
                moves += 1;
                let before = p;
                match described {
                    Some(engine) => {
                        engine.play(&mut p, mv, &mut NoSteps);
                    }
                    None => {
                        p.play_unchecked(mv);
                    }
                }
                if track && repetitions.record(&before, &p) {
                    break;
                }
            }
            games += 1;
        }
        if clock.elapsed() >= budget {
            break;
        }
    }
    let seconds = clock.elapsed().as_secs_f64();
    PlayoutFigures {
        games,
        moves,
        seconds,
        games_per_sec: games as f64 / seconds,
        moves_per_sec: moves as f64 / seconds,
    }
}
