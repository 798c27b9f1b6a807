//! `mancala perft`: count move sequences from the start position.

use std::io::Write;

use clap::Args;
use mancala_core::{Position, perft};

use mancala_cli::RulesArgs;

/// Arguments of `mancala perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// Count sequences of 1 to DEPTH plies
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    depth: u32,
}

/// Prints `d N` for d = 1..=depth: the number of legal move sequences of exactly d plies.
pub fn run(args: &PerftArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let start = Position::new(args.rules.rules()?);
    for d in 1..=args.depth {
        writeln!(out, "{d} {}", perft(&start, d))?;
        out.flush()?;
    }
    Ok(())
}
