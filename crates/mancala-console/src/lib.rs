//! The line console: Kalah in the exact format of the Auckland assignment
//! specifications, and Oware in the format of the Bern assignment.
//!
//! The console reads one line per turn from any [`BufRead`] and writes to any
//! [`Write`], so tests drive it with byte strings and the binary with standard
//! input and output. Prompts are written without a newline and flushed; input is not
//! echoed.
//!
//! ```
//! use mancala_console::Console;
//! use mancala_core::Rules;
//!
//! let mut out = Vec::new();
//! Console::new(Rules::kalah(6, 4)).run(&b"q\n"[..], &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("Player P1's turn - Specify house number or 'q' to quit: Game over\n"));
//! ```
//!
//! Crate map:
//!
//! ```text
//! board.rs   the two board drawings
//! lib.rs     Console: seats, names, options, and the game loop
//! ```

#![forbid(unsafe_code)]

mod board;

use std::io::{self, BufRead, Write};

use mancala_core::{Game, IllegalMove, Move, Outcome, Rules, Side, Variant};
use mancala_engine::{MAX_PLIES, Player};
use mancala_session::EndText;

pub use board::{kalah_board, oware_board};

/// Who sits in a seat.
pub enum Seat {
    /// A person typing at the console.
    Human,
    /// A computer player.
    Computer(Box<dyn Player>),
}

/// How a console game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game was played to its end.
    Finished(Outcome),
    /// A player typed `q`, or the input ended.
    Quit,
    /// Two computer players reached [`MAX_PLIES`] without a result (a safety net: every
    /// game ends, but a capture-free stretch can pass through very many positions).
    Abandoned,
}

/// The text layout of the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// The Auckland Kalah box.
    Kalah,
    /// The Bern Oware rows.
    Oware,
}

/// A console game: rules, seats, names and options. Build it, then [`Console::run`].
pub struct Console {
    rules: Rules,
    seats: [Seat; 2],
    names: [String; 2],
    menu: bool,
    layout: Layout,
}

/// One line of input, understood.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    House(u64),
    Quit,
    New,
    Save,
    Load,
    Unknown,
}

fn parse_command(line: &str) -> Command {
    let t = line.trim();
    match t {
        "q" | "Q" => Command::Quit,
        "n" | "N" => Command::New,
        "s" | "S" => Command::Save,
        "l" | "L" => Command::Load,
        _ => t.parse().map_or(Command::Unknown, Command::House),
    }
}

impl Console {
    /// Two people playing `rules`, in the layout of the variant (the Kalah box for
    /// Kalah, the Oware rows otherwise), named `Player A` and `Player B`.
    #[must_use]
    pub fn new(rules: Rules) -> Console {
        Console {
            rules,
            seats: [Seat::Human, Seat::Human],
            names: ["Player A".into(), "Player B".into()],
            menu: false,
            layout: match rules.variant() {
                Variant::Kalah => Layout::Kalah,
                Variant::Oware | Variant::OwareSimplified => Layout::Oware,
            },
        }
    }

    /// Puts `seat` on `side`.
    #[must_use]
    pub fn seat(mut self, side: Side, seat: Seat) -> Console {
        self.seats[side.index()] = seat;
        self
    }

    /// Sets the names shown where the layout has room for them (the Oware rows; the
    /// classic Kalah format has none and stays byte-exact).
    #[must_use]
    pub fn names(mut self, names: [String; 2]) -> Console {
        self.names = names;
        self
    }

    /// Turns on the new/save/load menu of the 2021 specifications (Kalah layout).
    #[must_use]
    pub fn menu(mut self, on: bool) -> Console {
        self.menu = on;
        self
    }

    /// Plays one game, reading moves from `input` and writing to `out`, until the game
    /// ends, a player quits, or the input ends (which counts as quitting).
    ///
    /// # Errors
    /// Only errors writing to `out` or reading from `input`; bad input is answered
    /// with a message and the same prompt.
    pub fn run(&mut self, mut input: impl BufRead, mut out: impl Write) -> io::Result<Ending> {
        let mut game = Game::new(self.rules);
        let mut saved: Option<Game> = None;
        let both_computers = self.seats.iter().all(|s| matches!(s, Seat::Computer(_)));
        self.show_board(&game, &mut out)?;
        loop {
            if game.is_over() {
                self.show_end(&game, &mut out)?;
                out.flush()?;
                return Ok(Ending::Finished(game.outcome().expect("game is over")));
            }
            if both_computers && game.ply() >= MAX_PLIES {
                writeln!(out, "Game abandoned: no result after {} plies", game.ply())?;
                return Ok(Ending::Abandoned);
            }
            let side = game.position().to_move();
            if let Seat::Computer(player) = &mut self.seats[side.index()] {
                let choice = player.choose(&game);
                let label = match player.name().as_str() {
                    "robot" => "Robot".to_owned(),
                    name => name.to_owned(),
                };
                self.announce_computer(
                    side,
                    &label,
                    choice.mv,
                    choice.reason.as_deref(),
                    &mut out,
                )?;
                game.play(choice.mv)
                    .expect("computer players choose legal moves");
                self.show_board(&game, &mut out)?;
                continue;
            }

            self.prompt(&game, side, &mut out)?;
            out.flush()?;
            let Some(line) = read_line(&mut input)? else {
                // End of input: finish the prompt's line, then quit.
                writeln!(out)?;
                self.show_quit(&game, &mut out)?;
                return Ok(Ending::Quit);
            };
            match parse_command(&line) {
                Command::Quit => {
                    self.show_quit(&game, &mut out)?;
                    return Ok(Ending::Quit);
                }
                Command::House(n) => self.try_move(&mut game, n, &mut out)?,
                Command::New if self.menu => {
                    game = Game::new(self.rules);
                    saved = None;
                    self.show_board(&game, &mut out)?;
                }
                Command::Save if self.menu => {
                    saved = Some(game.clone());
                    self.show_board(&game, &mut out)?;
                }
                Command::Load if self.menu => {
                    match &saved {
                        Some(s) => game = s.clone(),
                        None => writeln!(out, "No saved game")?,
                    }
                    self.show_board(&game, &mut out)?;
                }
                _ => {
                    let h = self.rules.houses();
                    if self.menu {
                        writeln!(out, "Please choose a house from 1 to {h}, or N, S, L or q.")?;
                    } else {
                        writeln!(
                            out,
                            "Please type a house number from 1 to {h}, or q to quit."
                        )?;
                    }
                }
            }
        }
    }

    /// Plays house `n` for a person, or explains why not.
    fn try_move(&self, game: &mut Game, n: u64, out: &mut impl Write) -> io::Result<()> {
        let h = self.rules.houses();
        let Some(mv) = u8::try_from(n)
            .ok()
            .and_then(Move::new)
            .filter(|m| m.index() < h)
        else {
            return writeln!(out, "There is no house {n}: choose a house from 1 to {h}.");
        };
        match game.play(mv) {
            Ok(_) => self.show_board(game, out),
            Err(IllegalMove::EmptyHouse { .. }) if self.layout == Layout::Kalah => {
                writeln!(out, "House is empty. Move again.")?;
                self.show_board(game, out)
            }
            Err(e) => writeln!(out, "{}.", capitalize(&e.to_string())),
        }
    }

    fn show_board(&self, game: &Game, out: &mut impl Write) -> io::Result<()> {
        match self.layout {
            Layout::Kalah => out.write_all(kalah_board(game.position()).as_bytes()),
            Layout::Oware => out.write_all(oware_board(game.position(), &self.names).as_bytes()),
        }
    }

    fn prompt(&self, game: &Game, side: Side, out: &mut impl Write) -> io::Result<()> {
        match (self.layout, self.menu) {
            (Layout::Kalah, false) => write!(
                out,
                "Player P{}'s turn - Specify house number or 'q' to quit: ",
                side.number()
            ),
            (Layout::Kalah, true) => write!(
                out,
                "Player P{}\n    (1-{}) - house number for move\n    N - New game\n    S - Save game\n    L - Load game\n    q - Quit\nChoice:",
                side.number(),
                self.rules.houses()
            ),
            (Layout::Oware, _) => {
                let moves: Vec<String> =
                    game.legal_moves().iter().map(ToString::to_string).collect();
                write!(
                    out,
                    "{}: moves = [{}]\nEnter move => ",
                    self.names[side.index()],
                    moves.join(", ")
                )
            }
        }
    }

    fn announce_computer(
        &self,
        side: Side,
        label: &str,
        mv: Move,
        reason: Option<&str>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        match self.layout {
            Layout::Kalah => {
                write!(
                    out,
                    "Player P{} ({label}) chooses house #{mv}",
                    side.number()
                )?;
                if let Some(r) = reason {
                    write!(out, " because it {r}")?;
                }
                writeln!(out)
            }
            Layout::Oware => writeln!(
                out,
                "{} ({label}) plays house {mv}",
                self.names[side.index()]
            ),
        }
    }

    fn show_quit(&self, game: &Game, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "Game over")?;
        self.show_board(game, out)?;
        out.flush()
    }

    fn show_end(&self, game: &Game, out: &mut impl Write) -> io::Result<()> {
        let o = game.outcome().expect("game is over");
        match self.layout {
            Layout::Kalah => {
                writeln!(out, "Game over")?;
                self.show_board(game, out)?;
                writeln!(out, "\tplayer 1:{}", o.scores[0])?;
                writeln!(out, "\tplayer 2:{}", o.scores[1])?;
                match o.winner {
                    Some(side) => writeln!(out, "Player {} wins!", side.number()),
                    None => writeln!(out, "A tie!"),
                }
            }
            Layout::Oware => {
                writeln!(out, "Game over")?;
                let end = game.end().expect("game is over");
                let names = [self.names[0].as_str(), self.names[1].as_str()];
                writeln!(out, "{}", EndText::new(&end, names))
            }
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Reads one line, tolerating bytes that are not UTF-8; `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf)? {
        0 => Ok(None),
        _ => Ok(Some(String::from_utf8_lossy(&buf).into_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_understood() {
        assert_eq!(parse_command("3\n"), Command::House(3));
        assert_eq!(parse_command(" 12 \r\n"), Command::House(12));
        assert_eq!(parse_command("q"), Command::Quit);
        assert_eq!(parse_command("S"), Command::Save);
        assert_eq!(parse_command("-1"), Command::Unknown);
        assert_eq!(parse_command("three"), Command::Unknown);
        assert_eq!(parse_command(""), Command::Unknown);
    }
}
