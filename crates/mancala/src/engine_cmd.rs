//! `mancala engine`: one of the suite's players behind the engine line protocol
//! (docs/engine-protocol.md), on standard input and output, for other programs
//! (tournament managers, GUIs, `mancala match --p1 'ext:mancala engine'`).

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;
use mancala_core::{Game, Rules};
use mancala_engine::{Player, PlayerSpec};
use mancala_match::protocol::{Command, Reply, VERSION};

/// Arguments of `mancala engine`.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The player behind the protocol; alphabeta, mcts, perfect and master think for
    /// the budget of each `go`, the other players ignore it
    #[arg(long, default_value = "master", value_name = "SPEC")]
    player: PlayerSpec,
    /// Seed of the player's randomness
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game of one's own this engine plays: its description file (docs/rules-format.md),
    /// read at the start, so that a `position` naming the game by its key is known
    /// (the shipped games always are); give it once for each such game
    #[arg(long = "rules", value_name = "FILE")]
    rules: Vec<PathBuf>,
}

/// The players whose `ms` option the budget of `go` sets.
const TIMED: [&str; 4] = ["alphabeta", "mcts", "perfect", "master"];

/// The engine's state between lines: the game last given, and the player built for its
/// rules and the last budget (kept while they stay the same, so that its tables carry
/// over from move to move).
struct Engine<'a> {
    args: &'a EngineArgs,
    game: Option<Game>,
    player: Option<(Rules, u64, Box<dyn Player>)>,
}

impl Engine<'_> {
    /// The replies to one command; `None` for `quit`.
    fn answer(&mut self, command: Command) -> Option<Vec<Reply>> {
        let replies = match command {
            Command::Protocol { version } if version == VERSION => vec![
                Reply::Name(format!("mancala {}", self.args.player)),
                Reply::Ready,
            ],
            Command::Protocol { version } => vec![Reply::Error(format!(
                "protocol {version} is not spoken here (only {VERSION})"
            ))],
            Command::NewGame => {
                self.player = None;
                Vec::new()
            }
            command @ Command::Position { .. } => match command.game().expect("a position") {
                Ok(game) => {
                    self.game = Some(game);
                    Vec::new()
                }
                Err(why) => {
                    self.game = None;
                    vec![Reply::Error(why)]
                }
            },
            Command::Go { ms } => vec![self.go(ms.max(1))],
            Command::Quit => return None,
        };
        Some(replies)
    }

    fn go(&mut self, ms: u64) -> Reply {
        let Some(game) = self.game.as_ref().filter(|g| !g.is_over()) else {
            return Reply::Error("no position to move in (send a game not over first)".into());
        };
        let rules = game.rules();
        let reuse = matches!(&self.player, Some((r, b, _)) if *r == rules && *b == ms);
        if !reuse {
            let mut spec = self.args.player.clone();
            if TIMED.contains(&spec.name()) {
                spec = spec.with_option("ms", &ms.to_string());
            }
            match spec.build(rules, self.args.seed) {
                Ok(player) => self.player = Some((rules, ms, player)),
                Err(e) => return Reply::Error(e.to_string()),
            }
        }
        let (_, _, player) = self.player.as_mut().expect("built above");
        Reply::BestMove(player.choose(game).mv)
    }
}

/// Answers protocol lines from `input` on `out` until `quit` or the end of the input.
///
/// # Errors
/// A `--rules` file that cannot be read or is refused (before any line is read), or
/// input and output that fail.
pub fn run(args: &EngineArgs, input: impl BufRead, out: &mut impl Write) -> anyhow::Result<()> {
    for path in &args.rules {
        // Reading a description makes its key known to this process's notation.
        mancala_cli::rules_from_file(path, None, None)?;
    }
    let mut engine = Engine {
        args,
        game: None,
        player: None,
    };
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let replies = match line.parse::<Command>() {
            Ok(command) => match engine.answer(command) {
                Some(replies) => replies,
                None => break,
            },
            Err(e) => vec![Reply::Error(e.to_string())],
        };
        for reply in replies {
            writeln!(out, "{reply}")?;
        }
        out.flush()?;
    }
    Ok(())
}
