//! `mancala console`: the line console.

use std::io::{self, Write};

use clap::Args;
use mancala_console::{Console, Seat};
use mancala_core::{Rules, Side, Variant};
use mancala_engine::PlayerSpec;

use crate::args::RulesArgs;

/// Arguments of `mancala console`.
#[derive(Args, Debug)]
pub struct ConsoleArgs {
    #[command(flatten)]
    rules: RulesArgs,

    /// Player 1: human, or a computer player such as random, greedy or robot
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    p1: PlayerSpec,

    /// Player 2: human, or a computer player such as random, greedy or robot
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    p2: PlayerSpec,

    /// Player 1's name, where the layout shows names (Oware)
    #[arg(long, default_value = "Player A")]
    name1: String,

    /// Player 2's name, where the layout shows names (Oware)
    #[arg(long, default_value = "Player B")]
    name2: String,

    /// Kalah: the new/save/load menu of the 2021 specifications
    #[arg(long)]
    menu: bool,

    /// Seed for computer players that use randomness
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn seat(spec: &PlayerSpec, rules: Rules, seed: u64) -> anyhow::Result<Seat> {
    if spec.is_human() {
        return Ok(Seat::Human);
    }
    Ok(Seat::Computer(spec.build(rules, seed)?))
}

/// Plays one console game on standard input and output.
pub fn run(args: &ConsoleArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    if args.menu && rules.variant() != Variant::Kalah {
        anyhow::bail!(
            "--menu is the Kalah menu format; {} does not have it",
            rules.variant()
        );
    }
    let mut console = Console::new(rules)
        .seat(Side::South, seat(&args.p1, rules, args.seed)?)
        .seat(
            Side::North,
            seat(&args.p2, rules, args.seed.wrapping_add(1))?,
        )
        .names([args.name1.clone(), args.name2.clone()])
        .menu(args.menu);
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    console.run(stdin.lock(), &mut out)?;
    out.flush()?;
    Ok(())
}
