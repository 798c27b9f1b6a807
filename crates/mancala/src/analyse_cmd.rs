//! `mancala analyse`: every move of a game set against the best, with labels and each
//! player's accuracy (the engine's `analyse`; docs/analysis.md).

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use mancala_core::Game;
use mancala_engine::{Analysis, AnalysisProgress, AnalysisSettings, analyse};
use mancala_session::parse_house_number;

use mancala_cli::{RulesArgs, StartArgs};

/// Arguments of `mancala analyse`.
#[derive(Args, Debug)]
// The shared --record starts the other commands from a record's end; here a record's
// game is analysed from its first move.
#[command(mut_arg("record", |a| a.help(
    "Analyse the game in this record file, from its first move (\"-\" for standard \
     input); the rule options above are the rules of a record without tags"
)))]
pub struct AnalyseArgs {
    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    start: StartArgs,

    /// Moves to analyse (house numbers as the mover sees them), after those of --record
    /// or from --position or the start
    #[arg(long, value_name = "M", num_args = 1..)]
    moves: Vec<String>,

    /// Print the analysis as one JSON document instead of a table
    #[arg(long)]
    json: bool,

    /// Milliseconds of search for a position the solver does not prove
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    search_ms: u64,

    /// The most milliseconds the exact solver is given for one position
    #[arg(long, value_name = "MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    solve_ms: u64,

    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,

    /// The solver's memory in MiB (Kalah: its table; Oware: the positions it reaches)
    #[arg(long, value_name = "MB", default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=16384))]
    hash_mb: u32,
}

/// Analyses the game and prints the table or the JSON document.
pub fn run(args: &AnalyseArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let game = game_to_analyse(args)?;
    anyhow::ensure!(
        game.ply() > 0,
        "there are no moves to analyse: give a game with --record FILE, or moves with --moves"
    );
    let settings = AnalysisSettings {
        search_time: Duration::from_millis(args.search_ms),
        solve_time: Duration::from_millis(args.solve_ms),
        threads: usize::from(args.threads),
        hash_mb: args.hash_mb as usize,
    };
    let bar = progress_bar(game.ply() + 1);
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let analysis = analyse(&game, &settings, |p| show(&bar, p), &stop)?;
    bar.finish_and_clear();
    if args.json {
        serde_json::to_writer(&mut *out, &analysis)?;
        writeln!(out)?;
    } else {
        print_table(&game, &analysis, started.elapsed(), out)?;
    }
    Ok(())
}

/// The game: `--record`'s (from its start), `--position` or the start, then `--moves`.
fn game_to_analyse(args: &AnalyseArgs) -> anyhow::Result<Game> {
    let mut game = args.start.game(&args.rules)?;
    let houses = game.rules().houses();
    let before = game.ply();
    for (i, text) in args.moves.iter().enumerate() {
        let ply = before + i + 1;
        let mv = parse_house_number(text, houses)
            .map_err(|e| anyhow::anyhow!("move {ply} ({text:?}): {e}"))?;
        game.play(mv)
            .map_err(|e| anyhow::anyhow!("move {ply} ({text}): {e}"))?;
    }
    Ok(game)
}

/// A bar of the positions valued, on standard error when it is a terminal.
fn progress_bar(positions: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(positions as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg:>24} [{bar:30}] {pos}/{len} positions, {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn show(bar: &ProgressBar, p: AnalysisProgress) {
    match p {
        AnalysisProgress::Table => bar.set_message("building endgame table"),
        AnalysisProgress::Positions { done, exact, .. } => {
            bar.set_position(done as u64);
            bar.set_message(format!("{exact} exact"));
        }
    }
}

/// The table: a line a move, then the accuracy and what was exact.
fn print_table(
    game: &Game,
    analysis: &Analysis,
    elapsed: Duration,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{}, {} moves. Values: the mover's final margin in seeds under best play, before \
         the move (best) and after it (played); ~ marks a search estimate.",
        game.rules(),
        game.ply()
    )?;
    writeln!(
        out,
        "{:>4}  {:>6}  {:>6}  {:<12}  {:>5}  {:>6}  label",
        "ply", "player", "played", "best", "best", "played"
    )?;
    for p in &analysis.plies {
        let best: Vec<String> = p.best.iter().map(u8::to_string).collect();
        let mark = if p.exact { " " } else { "~" };
        writeln!(
            out,
            "{:>4}  {:>6}  {:>6}  {:<12}  {mark}{:>+4}  {mark}{:>+5}  {}",
            p.ply,
            p.mover,
            p.played,
            best.join(" "),
            p.value_best,
            p.value_played,
            p.label.name()
        )?;
    }
    let exact = analysis.plies.iter().filter(|p| p.exact).count();
    writeln!(
        out,
        "accuracy: player 1 {:.1}, player 2 {:.1}; {exact} of {} moves exact; {:.1} s",
        analysis.accuracy[0],
        analysis.accuracy[1],
        analysis.plies.len(),
        elapsed.as_secs_f64()
    )?;
    Ok(())
}
