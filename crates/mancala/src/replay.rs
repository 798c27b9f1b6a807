//! `mancala replay`: play a list of moves and print every position as JSON.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use mancala_core::{Game, StateView};
use mancala_session::parse_house_number;

use mancala_cli::{RulesArgs, StartArgs};

/// Arguments of `mancala replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    start: StartArgs,

    /// Moves, each a house number (1..=houses) as seen by the player to move (after
    /// the moves of --record)
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    moves: Vec<String>,
}

/// Prints the start position and the position after each move (the recorded moves
/// of `--record`, then the moves given), one JSON object per line. An illegal move
/// stops the replay with a message on stderr and status 2.
pub fn run(args: &ReplayArgs, out: &mut impl Write) -> anyhow::Result<ExitCode> {
    let recorded = args.start.game(&args.rules)?;
    let rules = recorded.rules();
    let mut game = Game::from_position(*recorded.start());
    print_state(&game, out)?;
    for &mv in recorded.moves() {
        game.play(mv).expect("a record holds legal moves");
        print_state(&game, out)?;
    }
    for (i, text) in args.moves.iter().enumerate() {
        let ply = recorded.ply() + i + 1;
        let result = parse_house_number(text, rules.houses())
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map(drop).map_err(|e| e.to_string()));
        if let Err(reason) = result {
            out.flush()?;
            eprintln!("error: ply {ply} (move {text:?}): {reason}");
            return Ok(ExitCode::from(2));
        }
        print_state(&game, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_state(game: &Game, out: &mut impl Write) -> anyhow::Result<()> {
    serde_json::to_writer(&mut *out, &StateView::of(game))?;
    writeln!(out)?;
    Ok(())
}
