//! The engine line protocol (docs/engine-protocol.md): what a controller (`mancala
//! match` with an `ext:` player) and an engine (`mancala engine`, or any program) say
//! to each other, one line at a time, on the engine's standard input and output.
//!
//! ```text
//! controller                                   engine
//! protocol 1                            ->
//!                                       <-     id name alphabeta(ms=500)   (optional)
//!                                       <-     ready
//! newgame                               ->
//! position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3 1
//! go ms 500                             ->
//!                                       <-     info depth 14 score +2   (optional)
//!                                       <-     bestmove 4
//! quit                                  ->
//! ```
//!
//! ```
//! use mancala_match::protocol::{Command, Reply};
//! let cmd: Command = "go ms 250".parse().unwrap();
//! assert_eq!(cmd, Command::Go { ms: 250 });
//! assert_eq!(cmd.to_string(), "go ms 250");
//! let reply: Reply = "bestmove 3".parse().unwrap();
//! assert_eq!(reply.to_string(), "bestmove 3");
//! assert!("bestmove three".parse::<Reply>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use mancala_core::{Game, Move, Position};

/// The protocol version this crate speaks.
pub const VERSION: u32 = 1;

/// A line from the controller to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `protocol 1`: the first line; the engine answers `ready` (after optional `id`
    /// lines) when it can play.
    Protocol {
        /// The version the controller speaks.
        version: u32,
    },
    /// `newgame`: the next position starts a new game (an engine may forget what it
    /// learned).
    NewGame,
    /// `position NOTATION [moves H H ...]`: the game to think about: a start position
    /// in the position notation and the moves played from it, house numbers in the
    /// mover's sowing order.
    Position {
        /// Where the game started.
        start: Position,
        /// The moves played since.
        moves: Vec<Move>,
    },
    /// `go ms N`: choose a move for the side to move in the last position, within
    /// about `N` milliseconds; the engine answers `bestmove H`.
    Go {
        /// The time budget in milliseconds.
        ms: u64,
    },
    /// `quit`: the engine exits.
    Quit,
}

/// A line from the engine to the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name TEXT`: the engine's name (optional, before `ready`).
    Name(String),
    /// `ready`: the answer to `protocol`.
    Ready,
    /// `info TEXT`: anything for people (ignored by controllers).
    Info(String),
    /// `bestmove H`: the answer to `go`.
    BestMove(Move),
    /// `error TEXT`: the last command could not be carried out.
    Error(String),
}

/// A line that is not a command or reply of the protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a protocol line: {line:?} ({why})")]
pub struct ProtocolError {
    /// The line.
    pub line: String,
    /// What is wrong with it.
    pub why: String,
}

impl ProtocolError {
    fn new(line: &str, why: impl Into<String>) -> ProtocolError {
        ProtocolError {
            line: line.to_owned(),
            why: why.into(),
        }
    }
}

impl Command {
    /// The `position` command for the current position of `game`: its start and its
    /// moves, so that an engine can apply a game's repetition rule.
    #[must_use]
    pub fn position_of(game: &Game) -> Command {
        Command::Position {
            start: *game.start(),
            moves: game.moves().to_vec(),
        }
    }

    /// The game a `position` command describes.
    ///
    /// # Errors
    /// When a move is illegal, naming it; `None` for other commands.
    pub fn game(&self) -> Option<Result<Game, String>> {
        let Command::Position { start, moves } = self else {
            return None;
        };
        let mut game = Game::from_position(*start);
        for (i, &mv) in moves.iter().enumerate() {
            if let Err(e) = game.play(mv) {
                return Some(Err(format!("move {} ({mv}) is illegal: {e}", i + 1)));
            }
        }
        Some(Ok(game))
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Protocol { version } => write!(f, "protocol {version}"),
            Command::NewGame => f.write_str("newgame"),
            Command::Position { start, moves } => {
                write!(f, "position {}", start.to_notation())?;
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for mv in moves {
                        write!(f, " {mv}")?;
                    }
                }
                Ok(())
            }
            Command::Go { ms } => write!(f, "go ms {ms}"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

/// Parses `rest` as a number, or says which field is wrong.
fn number<T: FromStr>(line: &str, field: &str, rest: Option<&str>) -> Result<T, ProtocolError> {
    rest.and_then(|r| r.trim().parse().ok())
        .ok_or_else(|| ProtocolError::new(line, format!("expected a number after {field:?}")))
}

impl FromStr for Command {
    type Err = ProtocolError;
    fn from_str(line: &str) -> Result<Command, ProtocolError> {
        let trimmed = line.trim();
        let (word, rest) = match trimmed.split_once(' ') {
            Some((w, r)) => (w, Some(r.trim())),
            None => (trimmed, None),
        };
        match word {
            "protocol" => Ok(Command::Protocol {
                version: number(line, "protocol", rest)?,
            }),
            "newgame" => Ok(Command::NewGame),
            "quit" => Ok(Command::Quit),
            "go" => match rest.and_then(|r| r.strip_prefix("ms")) {
                Some(ms) => Ok(Command::Go {
                    ms: number(line, "go ms", Some(ms))?,
                }),
                None => Err(ProtocolError::new(line, "expected \"go ms N\"")),
            },
            "position" => parse_position(line, rest.unwrap_or("")),
            _ => Err(ProtocolError::new(line, "unknown command")),
        }
    }
}

/// The arguments of `position`: the five fields of the notation, then optionally
/// `moves` and house numbers.
fn parse_position(line: &str, rest: &str) -> Result<Command, ProtocolError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.len() < 5 {
        return Err(ProtocolError::new(
            line,
            "expected a position in the notation (five fields)",
        ));
    }
    let start = Position::from_notation(&words[..5].join(" "))
        .map_err(|e| ProtocolError::new(line, e.to_string()))?;
    let moves = match words.get(5) {
        None => Vec::new(),
        Some(&"moves") => words[6..]
            .iter()
            .map(|w| w.parse::<Move>())
            .collect::<Result<_, _>>()
            .map_err(|e| ProtocolError::new(line, e.to_string()))?,
        Some(other) => {
            return Err(ProtocolError::new(
                line,
                format!("expected \"moves\" after the position, found {other:?}"),
            ));
        }
    };
    Ok(Command::Position { start, moves })
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Name(name) => write!(f, "id name {name}"),
            Reply::Ready => f.write_str("ready"),
            Reply::Info(text) => write!(f, "info {text}"),
            Reply::BestMove(mv) => write!(f, "bestmove {mv}"),
            Reply::Error(text) => write!(f, "error {text}"),
        }
    }
}

impl FromStr for Reply {
    type Err = ProtocolError;
    fn from_str(line: &str) -> Result<Reply, ProtocolError> {
        let trimmed = line.trim();
        let (word, rest) = match trimmed.split_once(' ') {
            Some((w, r)) => (w, r.trim()),
            None => (trimmed, ""),
        };
        match word {
            "ready" => Ok(Reply::Ready),
            "info" => Ok(Reply::Info(rest.to_owned())),
            "error" => Ok(Reply::Error(rest.to_owned())),
            "id" => match rest.strip_prefix("name") {
                Some(name) => Ok(Reply::Name(name.trim().to_owned())),
                None => Err(ProtocolError::new(line, "expected \"id name TEXT\"")),
            },
            "bestmove" => rest
                .parse()
                .map(Reply::BestMove)
                .map_err(|_| ProtocolError::new(line, "expected a house number after bestmove")),
            _ => Err(ProtocolError::new(line, "unknown reply")),
        }
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::Rules;

    use super::*;

    #[test]
    fn a_position_with_moves_round_trips_and_replays() {
        let mut game = Game::new(Rules::oware(6, 4));
        for h in [3, 2, 6] {
            game.play(Move::new(h).unwrap()).unwrap();
        }
        let cmd = Command::position_of(&game);
        let line = cmd.to_string();
        assert_eq!(
            line,
            "position oware 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3 2 6"
        );
        let parsed: Command = line.parse().unwrap();
        assert_eq!(parsed, cmd);
        assert_eq!(parsed.game().unwrap().unwrap().position(), game.position());
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, why) in [
            ("go", "go ms N"),
            ("go ms soon", "number"),
            ("position kalah 6x4", "five fields"),
            (
                "position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 then 3",
                "\"moves\"",
            ),
            (
                "position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 0",
                "house",
            ),
            ("jump", "unknown command"),
        ] {
            let err = line.parse::<Command>().unwrap_err();
            assert!(err.why.contains(why), "{line}: {err}");
        }
        assert!("bestmove".parse::<Reply>().is_err());
        assert!("hello".parse::<Reply>().is_err());
    }

    #[test]
    fn an_illegal_move_in_a_position_is_named() {
        // House 3 is empty after it is sown, and player 1 moves again.
        let cmd: Command = "position kalah 6x4 4,4,4,4,4,4/0 4,4,4,4,4,4/0 1 moves 3 3"
            .parse()
            .unwrap();
        let err = cmd.game().unwrap().unwrap_err();
        assert!(err.contains("move 2 (3)"), "{err}");
    }

    #[test]
    fn replies_round_trip() {
        for reply in [
            Reply::Name("alphabeta(ms=100)".into()),
            Reply::Ready,
            Reply::Info("depth 9".into()),
            Reply::BestMove(Move::new(6).unwrap()),
            Reply::Error("no position".into()),
        ] {
            assert_eq!(reply.to_string().parse::<Reply>().unwrap(), reply);
        }
    }
}
