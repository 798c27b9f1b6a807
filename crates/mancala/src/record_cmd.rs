//! `mancala record`: check game records, and convert them between notations.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use mancala_session::{Record, RecordFormat, write_records};

use mancala_cli::{RulesArgs, read_records};

/// Arguments of `mancala record`.
#[derive(Args, Debug)]
pub struct RecordArgs {
    #[command(subcommand)]
    command: RecordCommand,
}

#[derive(Subcommand, Debug)]
enum RecordCommand {
    /// Check every game of a record file: each move against the rules, each result
    /// against the moves; print each game's result (exit status 2 and the game, line,
    /// move and reason of the first problem)
    Check(CheckArgs),
    /// Write the games of a record file in another notation
    #[command(long_about = CONVERT_ABOUT)]
    Convert(ConvertArgs),
}

const CONVERT_ABOUT: &str = "Write the games of a record file in another notation.

The file is read as `mancala record check` reads it (strict records, bare lists of house \
numbers, the two-digit Oware notation, several games to a file) and written in one notation:

  strict  the tags, then the numbered moves: house numbers as the mover sees them, `+` when
          the same player moves next, `x` for a capture; comments in braces; the result
  oware2  the same with the moves in the two-digit Oware notation of Wikimanqala: the house
          sown and the house the last seed lands in, and after a capture the mover's
          captured seeds so far, as `53 (20)` (games without stores on the board, as
          Oware and Togyz Kumalak, on at most 9 houses)
  moves   one line a game: the house numbers and the result (`*` unless the rules ended
          the game); no tags, so the rules, start position and players are left out

docs/records.md describes the formats.";

/// Arguments of `mancala record check`.
#[derive(Args, Debug)]
struct CheckArgs {
    /// The record file ("-" for standard input)
    #[arg(value_name = "FILE")]
    file: PathBuf,

    #[command(flatten, next_help_heading = "Rules of games without tags")]
    rules: RulesArgs,
}

/// Arguments of `mancala record convert`.
#[derive(Args, Debug)]
struct ConvertArgs {
    /// The record file ("-" for standard input)
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// The notation to write: strict, oware2 or moves
    #[arg(long, default_value = "strict", value_name = "FORMAT")]
    to: RecordFormat,

    /// Write to this file instead of standard output
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,

    #[command(flatten, next_help_heading = "Rules of games without tags")]
    rules: RulesArgs,
}

/// Runs `mancala record check` or `mancala record convert`.
pub fn run(args: &RecordArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    match &args.command {
        RecordCommand::Check(a) => check(a, out),
        RecordCommand::Convert(a) => convert(a, out),
    }
    .map(|()| ExitCode::SUCCESS)
}

/// One line a game: its number, result, rules, length and how it ended.
fn summary(number: usize, record: &Record) -> String {
    let plies = record.moves().len();
    format!(
        "game {number}: {} ({}, {plies} move{}) {}",
        record.result(),
        record.rules(),
        if plies == 1 { "" } else { "s" },
        record.describe_ending()
    )
}

fn check(args: &CheckArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let records = read_records(&args.file, args.rules.rules()?)?;
    if records.is_empty() {
        writeln!(out, "no games in {}", args.file.display())?;
    }
    for (i, record) in records.iter().enumerate() {
        writeln!(out, "{}", summary(i + 1, record))?;
    }
    Ok(())
}

fn convert(args: &ConvertArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let records = read_records(&args.file, args.rules.rules()?)?;
    let text = write_records(&records, args.to)?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}
