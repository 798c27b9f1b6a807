//! `mancala match`: computer players against each other, games in parallel.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

use mancala_engine::{PlayerError, PlayerInfo, PlayerSpec};
use mancala_match::{Contestant, MatchConfig, MatchStats, Seated, ready_players, repeated_games};
use mancala_session::{Record, RecordFormat, write_records};
use serde::Serialize;

use crate::match_games::{play_games, record_of};
use mancala_cli::{RulesArgs, StartArgs};

/// Arguments of `mancala match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Every game starts here (--position), or at the end of a recorded game
    /// (--record), whose moves the records of the match keep
    #[command(flatten)]
    start: StartArgs,
    /// Write every game played to this file, as game records in the strict format
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
    /// The player the statistics are about, e.g. alphabeta:ms=100, hard, or
    /// 'ext:COMMAND' for a program speaking the engine protocol
    /// (docs/engine-protocol.md)
    #[arg(long, value_name = "SPEC")]
    p1: Contestant,
    /// The opponent
    #[arg(long, value_name = "SPEC")]
    p2: Contestant,
    /// The time budget per move sent to external engines
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    ext_ms: u64,
    /// How much longer than the budget an external engine may take before its move is
    /// late (a late, illegal or garbled reply loses the game)
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    ext_grace_ms: u64,
    /// Games played at once (default: one per core); 1 for timed players that should
    /// not share the machine with each other
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Games to play
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of the players' randomness and the openings
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play half of the games with the seats exchanged
    #[arg(long)]
    swap: bool,
    /// Random plies before the players take over (the same for both games of a
    /// swapped pair): variety for deterministic players
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    opening_plies: u32,
    /// Balanced openings: redraw each random opening until a 12-ply search scores it
    /// within this many seeds either way
    #[arg(long, value_name = "SEEDS")]
    balanced: Option<u32>,
    /// Print one JSON object instead of the table
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Summary {
    games: u32,
    p1_wins: u32,
    p2_wins: u32,
    draws: u32,
    p1_score_rate: f64,
    /// The 95% interval of the score rate (Wilson's).
    p1_score_low: f64,
    p1_score_high: f64,
    /// Games lost by an external engine's failure.
    forfeits: usize,
    /// Games that repeat an earlier game move for move, `p1` in the same seat.
    repeated: u32,
    /// The rules played, as the table names them: `togyzkumalak(9,9)`.
    rules: String,
}

/// `contestant` with the match's time budget and grace period if it is an external
/// engine.
fn timed(contestant: &Contestant, args: &MatchArgs) -> Contestant {
    match contestant {
        Contestant::External(ext) => Contestant::External(
            ext.clone()
                .with_budget(Duration::from_millis(args.ext_ms))
                .with_grace(Duration::from_millis(args.ext_grace_ms)),
        ),
        builtin => builtin.clone(),
    }
}

/// Checks the players before any game and waits for their endgame tables, as
/// `run_match` does, saying so on `bar` (a table takes seconds); then sets `bar` up to
/// count the games.
fn prepare(config: &MatchConfig, bar: &ProgressBar) -> Result<[Seated; 2], PlayerError> {
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg}  {elapsed}").expect("a valid template"),
    );
    bar.set_message("preparing the players (endgame tables)");
    bar.enable_steady_tick(Duration::from_millis(100));
    let ready = ready_players(config);
    bar.disable_steady_tick();
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})")
            .expect("a valid template"),
    );
    bar.reset_elapsed();
    ready
}

/// Plays the match and prints the table or the JSON object; writes the records of
/// the games if asked.
pub fn run(args: &MatchArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let start = args.start.game(&args.rules)?;
    if args.records.is_some() && (args.p1.spec().is_none() || args.p2.spec().is_none()) {
        anyhow::bail!("--records: a game record has no seat for an external engine");
    }
    // A player unknown, or one that does not play the variant, is refused naming its
    // flag, as the console and the terminal game refuse theirs.
    for (flag, contestant) in [("--p1", &args.p1), ("--p2", &args.p2)] {
        if let Some(spec) = contestant.spec() {
            let known = PlayerInfo::find(spec.name()).is_some();
            if !known || PlayerSpec::cannot_play(spec.name(), start.rules().variant()).is_some() {
                spec.build(start.rules(), args.seed)
                    .map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
            }
        }
    }
    let config = MatchConfig {
        rules: start.rules(),
        p1: timed(&args.p1, args),
        p2: timed(&args.p2, args),
        games: args.games,
        seed: args.seed,
        swap: args.swap,
        opening_plies: args.opening_plies,
        balanced: args.balanced,
    };
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(u64::from(args.games))
    } else {
        ProgressBar::hidden()
    };
    // Held to the end so that the games share what the players built.
    let ready = prepare(&config, &bar)?;
    let jobs = args
        .jobs
        .map_or_else(rayon::current_num_threads, |n| n as usize);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start the match's threads")?;
    let played = pool.install(|| play_games(&config, &start, || bar.inc(1)))?;
    drop(ready);
    bar.finish_and_clear();
    for p in &played {
        if let Some(why) = &p.forfeit {
            eprintln!("game {}: {why}", p.result.index + 1);
        }
    }
    let forfeits = played.iter().filter(|p| p.forfeit.is_some()).count();
    let stats = MatchStats::from_results(played.iter().map(|p| p.result).collect());
    let repeated = repeated_games(&played);
    if repeated > 0 {
        eprintln!(
            "{}",
            repeat_warning(repeated, stats.games(), args.opening_plies)
        );
    }
    if let Some(path) = &args.records {
        let records: Vec<Record> = played.iter().map(|p| record_of(&config, p)).collect();
        let text = write_records(&records, RecordFormat::Strict)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        let summary = Summary {
            games: stats.games(),
            p1_wins: stats.p1_wins,
            p2_wins: stats.p2_wins,
            draws: stats.draws,
            p1_score_rate: stats.score_rate(),
            p1_score_low: stats.confidence_interval().0,
            p1_score_high: stats.confidence_interval().1,
            forfeits,
            repeated,
            rules: config.rules.to_string(),
        };
        serde_json::to_writer(&mut *out, &summary)?;
        writeln!(out)?;
    } else {
        write_table(&config, &stats, out)?;
        if forfeits > 0 {
            writeln!(out, "{:<16} {forfeits}", "forfeits")?;
        }
    }
    Ok(())
}

fn write_table(
    config: &MatchConfig,
    stats: &MatchStats,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let (lo, hi) = stats.confidence_interval();
    let rows = [
        ("rules", config.rules.to_string()),
        ("p1", config.p1.to_string()),
        ("p2", config.p2.to_string()),
        ("games", games_row(config, stats)),
        ("p1 wins", stats.p1_wins.to_string()),
        ("draws", stats.draws.to_string()),
        ("p1 losses", stats.p2_wins.to_string()),
        (
            "average margin",
            format!("{:+.2} seeds", stats.average_margin()),
        ),
        (
            "p1 score rate",
            format!("{:.1}%", 100.0 * stats.score_rate()),
        ),
        (
            "95% interval",
            format!("{:.1}% to {:.1}%", 100.0 * lo, 100.0 * hi),
        ),
    ];
    for (k, v) in rows {
        writeln!(out, "{k:<16} {v}")?;
    }
    Ok(())
}

/// The games row: how many, and with `--swap` how many `p1` played in each seat (an odd
/// number of games cannot be split in half).
fn games_row(config: &MatchConfig, stats: &MatchStats) -> String {
    let games = stats.games();
    if !config.swap {
        return games.to_string();
    }
    let (first, second) = stats.p1_seats();
    format!("{games} (p1 as player 1 in {first}, as player 2 in {second})")
}

/// What to say when `repeated` of `games` games repeat an earlier one: the statistics
/// count copies, and random opening plies are the cure.
fn repeat_warning(repeated: u32, games: u32, opening_plies: u32) -> String {
    let cure = if opening_plies == 0 {
        "try --opening-plies 4 for varied starts".to_owned()
    } else {
        format!("try more than --opening-plies {opening_plies}")
    };
    format!(
        "warning: {repeated} of {games} games repeat an earlier game move for move \
         (deterministic players from the same start), so the interval overstates what \
         was measured; {cure}"
    )
}
