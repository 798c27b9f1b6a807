//! `mancala console`: the line console.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use mancala_console::{Console, Ending};
use mancala_core::Side;
use mancala_session::{Seat, Session, name_or_default};

use mancala_cli::{RulesArgs, player_help};

/// Arguments of `mancala console`.
#[derive(Args, Debug)]
pub struct ConsoleArgs {
    #[command(flatten)]
    rules: RulesArgs,

    #[arg(long, default_value = "human", value_name = "PLAYER", help = player_help(1, ""))]
    p1: Seat,

    #[arg(long, default_value = "human", value_name = "PLAYER", help = player_help(2, ""))]
    p2: Seat,

    /// Player 1's name, where the layout shows names (games without stores on the board) [default: Player 1, or the computer's name]
    #[arg(long)]
    name1: Option<String>,

    /// Player 2's name, where the layout shows names (games without stores on the board) [default: Player 2, or the computer's name]
    #[arg(long)]
    name2: Option<String>,

    /// The new/save/load menu of the 2021 Kalah specifications (games with stores on the
    /// board, which the console draws as the Kalah transcripts do)
    #[arg(long)]
    menu: bool,

    /// With --menu: S also writes the game to this file as a game record (see
    /// docs/records.md), and L loads the game saved there, by this run or an earlier one
    #[arg(long, value_name = "PATH", requires = "menu")]
    save_file: Option<PathBuf>,

    /// Seed for the computer players' random choices [default: 1, so that a game can be
    /// replayed as it was: the console is for transcripts]
    #[arg(long, default_value_t = 1, hide_default_value = true)]
    seed: u64,
}

/// Plays one console game on standard input and output.
pub fn run(args: &ConsoleArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    if args.menu && !Console::offers_menu(rules) {
        anyhow::bail!(
            "--menu is the menu of the Kalah transcripts, whose board has stores; {} has none",
            rules.variant()
        );
    }
    // Refused before the board is drawn, with the players this variant can seat.
    for (flag, seat) in [("--p1", &args.p1), ("--p2", &args.p2)] {
        seat.check(rules, args.seed)
            .map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
    }
    // An empty name would leave a hole in every line that names the player.
    let name = |given: &Option<String>, side, seat| {
        name_or_default(given.as_deref().unwrap_or_default(), side, seat)
    };
    let session = Session::new(rules)
        .with_seat(Side::South, args.p1.clone())
        .with_seat(Side::North, args.p2.clone())
        .with_names([
            name(&args.name1, Side::South, &args.p1),
            name(&args.name2, Side::North, &args.p2),
        ]);
    // The Kalah transcripts call the players P1 and P2: a name given is not shown.
    if Console::offers_menu(rules) {
        for (flag, name) in [("--name1", &args.name1), ("--name2", &args.name2)] {
            if name.as_deref().is_some_and(|n| !n.trim().is_empty()) {
                eprintln!(
                    "note: {flag} is not shown: the Kalah console calls the players P1 and P2, \
                     as the assignment's transcripts do"
                );
            }
        }
    }
    let mut console = Console::new(session, args.seed)?
        .menu(args.menu)
        .save_file(args.save_file.clone());
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let ending = console.run(stdin.lock(), &mut out)?;
    out.flush()?;
    // The Kalah transcripts print only "Game over" and the board when the game is
    // left; standard error says why, as the Oware layout's own line does.
    if ending == Ending::InputEnded && Console::offers_menu(rules) {
        eprintln!(
            "The input ended before the game did: the game is left unfinished, with no result."
        );
    }
    Ok(())
}
