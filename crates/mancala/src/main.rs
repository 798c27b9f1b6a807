//! `mancala`: play the mancala family (Kalah, Oware, Togyz Kumalak).
//!
//! A thin main over the library crates: each subcommand parses its arguments and calls
//! into `mancala-core`, `mancala-engine` or a front-end crate.
//!
//! ```text
//! mancala                 play in the terminal (the full-screen game; `mancala tui`)
//! mancala tui             the full-screen game, with its start screen
//! mancala console         the line console (classic Kalah transcripts, Oware format)
//! mancala replay          print every position of a list of moves as JSON
//! mancala perft           count move sequences from the start
//! mancala match           bot-against-bot games and their statistics
//! mancala engine          a computer player behind the engine line protocol
//! mancala bench           speed figures as JSON lines
//! mancala serve           the web game: browser UI and JSON API
//! mancala solve           the exact value of a position under perfect play
//! mancala analyse         every move of a game against the best, labels, accuracy
//! mancala record          check game records, convert them between notations
//! mancala variants        the games, from their descriptions (docs/rules-format.md)
//! mancala account         the web game's accounts: reset-password NAME
//! ```

#![forbid(unsafe_code)]

mod account_cmd;
mod analyse_cmd;
mod console_cmd;
mod engine_cmd;
mod match_cmd;
mod match_games;
mod perft_cmd;
mod record_cmd;
mod replay;
mod serve_cmd;
mod solve_cmd;
mod tui_cmd;
mod variants_cmd;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Play Kalah, Oware and Togyz Kumalak in the terminal, and tools to study them.
#[derive(Parser, Debug)]
#[command(name = "mancala", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play the full-screen terminal game (the default when no subcommand is given)
    Tui(tui_cmd::TuiArgs),
    /// Play in the line console: the classic Kalah format, or the Oware format
    ///
    /// A game with stores on the board is printed as the Auckland specifications'
    /// transcripts. The others are printed as the Bern Oware rows: player 2's row read
    /// backwards, the seeds captured beside the board, and an x for a claimed house (in
    /// a game whose captures claim houses), with a line under the scores saying whose it
    /// is. There, typing ? prints the rules of the game.
    Console(console_cmd::ConsoleArgs),
    /// Print the start position and the position after each move as JSON lines
    Replay(replay::ReplayArgs),
    /// Count the legal move sequences of 1 to DEPTH plies from the start
    Perft(perft_cmd::PerftArgs),
    /// Play computer players against each other and print the statistics
    Match(match_cmd::MatchArgs),
    /// Speak the engine line protocol on standard input and output
    /// (docs/engine-protocol.md), for other programs and `match --p1 'ext:...'`
    Engine(engine_cmd::EngineArgs),
    /// Measure speed: playouts, perft, search, MCTS or web server load, one JSON line
    Bench(mancala_bench::BenchArgs),
    /// Serve the web game: the browser UI at / and the JSON API under /api
    Serve(serve_cmd::ServeArgs),
    /// Solve a position exactly: its value under perfect play and every move's value
    Solve(solve_cmd::SolveArgs),
    /// Check game records and convert them between notations
    Record(record_cmd::RecordArgs),
    /// Analyse a game: every move's value against the best move's, a label and each
    /// player's accuracy
    ///
    /// The game is a record's, analysed from its first move (--record FILE, --game N),
    /// or --moves played from --position or the start of the rules given. Values are the mover's final margin
    /// in seeds under best play: exact where the solver proves them (Kalah and Oware
    /// near the end), else the search's estimate. See docs/analysis.md.
    Analyse(analyse_cmd::AnalyseArgs),
    /// List the games the program plays, or print one's description file
    Variants(variants_cmd::VariantsArgs),
    /// The web game's accounts: `reset-password NAME` sets a new password (the
    /// server sends no e-mail, so a forgotten password is reset by the operator)
    Account(account_cmd::AccountArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The terminal game owns the screen: it runs before standard output is locked.
    match &cli.command {
        None => return tui_cmd::run_default(),
        Some(Command::Tui(args)) => return tui_cmd::run(args),
        Some(_) => {}
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Some(Command::Console(args)) => console_cmd::run(args).map(|()| ExitCode::SUCCESS),
        Some(Command::Replay(args)) => replay::run(args, &mut out),
        Some(Command::Perft(args)) => perft_cmd::run(args, &mut out).map(|()| ExitCode::SUCCESS),
        Some(Command::Match(args)) => match_cmd::run(args, &mut out).map(|()| ExitCode::SUCCESS),
        Some(Command::Engine(args)) => {
            engine_cmd::run(args, io::stdin().lock(), &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Bench(args)) => {
            mancala_bench::run(args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Serve(args)) => serve_cmd::run(args).map(|()| ExitCode::SUCCESS),
        Some(Command::Solve(args)) => solve_cmd::run(args, &mut out).map(|()| ExitCode::SUCCESS),
        Some(Command::Record(args)) => record_cmd::run(args, &mut out),
        Some(Command::Analyse(args)) => {
            analyse_cmd::run(args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Variants(args)) => {
            variants_cmd::run(args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Account(args)) => {
            account_cmd::run(args, &mut out).map(|()| ExitCode::SUCCESS)
        }
        None | Some(Command::Tui(_)) => unreachable!("the terminal game ran above"),
    };
    let flushed = out.flush();
    match result.and_then(|code| flushed.map(|()| code).map_err(Into::into)) {
        Ok(code) => code,
        // A reader that went away (`mancala replay ... | head`) is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|io| io.kind() == io::ErrorKind::BrokenPipe)
}
