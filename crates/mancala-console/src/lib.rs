//! The line console: Kalah in the exact format of the Auckland assignment
//! specifications, and the games without stores on the board (both Oware variants,
//! Togyz Kumalak) in the format of the Bern Oware assignment, where `?` prints the
//! rules of the game being played.
//!
//! The console reads one line per turn from any [`BufRead`] and writes to any
//! [`Write`], so tests drive it with byte strings and the binary with standard
//! input and output. Prompts are written without a newline and flushed; input is not
//! echoed.
//!
//! ```
//! use mancala_console::Console;
//! use mancala_core::{Rules, Side};
//! use mancala_session::{Seat, Session};
//!
//! let session = Session::new(Rules::kalah(6, 4))
//!     .with_seat(Side::North, Seat::computer("robot").unwrap());
//! let mut out = Vec::new();
//! Console::new(session, 1).unwrap().run(&b"q\n"[..], &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("Player P1's turn - Specify house number or 'q' to quit: Game over\n"));
//! ```
//!
//! Crate map:
//!
//! ```text
//! board.rs   the two board drawings
//! lib.rs     Console: a session's game loop, input and messages
//! ```

#![forbid(unsafe_code)]

mod board;

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use mancala_core::{IllegalMove, Move, Outcome, Rules, Side};
use mancala_engine::{Cost, MAX_PLIES, Player, PlayerError, PlayerInfo};
use mancala_session::{HouseError, Record, Session, parse_house_number};

pub use board::{row_board, store_board};

/// How a console game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game was played to its end.
    Finished(Outcome),
    /// A player typed `q`.
    Quit,
    /// The input ended before the game did: the game is left unfinished. The Kalah
    /// layout prints what its transcripts print for `q`; the caller may say more
    /// elsewhere (the binary does, on standard error).
    InputEnded,
    /// Two computer players reached [`MAX_PLIES`] without a result (a safety net: every
    /// game ends, but a capture-free stretch can pass through very many positions).
    Abandoned,
}

/// The text layout of the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// The box of the Auckland Kalah transcripts: stores on the board.
    StoreBox,
    /// The rows of the Bern Oware transcripts: seeds banked beside the board.
    Rows,
}

impl Layout {
    /// The layout of a game of `rules`: the Kalah transcripts draw stores on the board,
    /// so a variant that sows into stores gets the Kalah box; the Oware rows draw the
    /// seeds captured beside the board, as every other variant keeps them.
    fn of(rules: Rules) -> Layout {
        if rules.variant().info().stores {
            Layout::StoreBox
        } else {
            Layout::Rows
        }
    }
}

/// A console game: a [`Session`] (rules, seats, names) with the computer players its
/// seats name, and the console's options. Build it, then [`Console::run`].
pub struct Console {
    /// The game as first set up, for the menu's "new game".
    start: Session,
    players: [Option<Box<dyn Player>>; 2],
    menu: bool,
    /// The menu's save also writes the game here as a record, and its load reads it.
    save_file: Option<PathBuf>,
    layout: Layout,
}

/// One line of input, understood.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    House(Result<Move, HouseError>),
    Quit,
    Help,
    New,
    Save,
    Load,
    Unknown,
}

fn parse_command(line: &str, houses: usize) -> Command {
    let t = line.trim();
    match t {
        "q" | "Q" => Command::Quit,
        "n" | "N" => Command::New,
        "s" | "S" => Command::Save,
        "l" | "L" => Command::Load,
        "?" => Command::Help,
        // Letters name houses elsewhere, but here they are the menu's commands: the
        // console takes house numbers only, as the assignments do.
        _ => match parse_house_number(t, houses) {
            Err(HouseError::NotAHouse(_)) => Command::Unknown,
            house => Command::House(house),
        },
    }
}

impl Console {
    /// A console game of `session`, in the layout of its variant (the Kalah box for
    /// Kalah, the Oware rows otherwise), with the computer players its seats name
    /// built now (`seed` for player 1's, `seed + 1` for player 2's).
    ///
    /// # Errors
    /// When a seat names a computer player the engine cannot build.
    pub fn new(session: Session, seed: u64) -> Result<Console, PlayerError> {
        let rules = session.rules();
        // Names beside the rows: a long one would push the board past 80 columns.
        let names = session.names().clone().map(|n| cut_name(&n));
        let session = session.with_names(names);
        let build = |side: Side, seed: u64| {
            session
                .seat(side)
                .spec()
                .map(|spec| spec.build(rules, seed))
                .transpose()
        };
        let players = [
            build(Side::South, seed)?,
            build(Side::North, seed.wrapping_add(1))?,
        ];
        Ok(Console {
            start: session,
            players,
            menu: false,
            save_file: None,
            layout: Layout::of(rules),
        })
    }

    /// Whether a game of `rules` can have the new/save/load menu ([`Console::menu`]):
    /// the menu is the 2021 Auckland specifications', part of their Kalah transcripts,
    /// which the console prints for variants whose board has stores (the Kalah box).
    ///
    /// ```
    /// use mancala_console::Console;
    /// use mancala_core::Rules;
    /// assert!(Console::offers_menu(Rules::kalah(6, 4)));
    /// assert!(!Console::offers_menu(Rules::togyz_kumalak(9, 9)));
    /// ```
    #[must_use]
    pub fn offers_menu(rules: Rules) -> bool {
        Layout::of(rules) == Layout::StoreBox
    }

    /// Turns on the new/save/load menu of the 2021 specifications (Kalah layout: see
    /// [`Console::offers_menu`]).
    #[must_use]
    pub fn menu(mut self, on: bool) -> Console {
        self.menu = on;
        self
    }

    /// With the menu, `S` also writes the game to `path` as a game record (the
    /// session's record format, which every tool of the suite reads), and `L` loads the
    /// game saved there, in this run or an earlier one. What is printed stays the
    /// specifications' (a failure to read or write the file adds a line saying so).
    #[must_use]
    pub fn save_file(mut self, path: Option<PathBuf>) -> Console {
        self.save_file = path;
        self
    }

    /// Plays one game, reading moves from `input` and writing to `out`, until the game
    /// ends, a player quits, or the input ends (which counts as quitting).
    ///
    /// # Errors
    /// Only errors writing to `out` or reading from `input`; bad input is answered
    /// with a message and the same prompt.
    pub fn run(&mut self, mut input: impl BufRead, mut out: impl Write) -> io::Result<Ending> {
        let mut game = self.start.restarted();
        let mut saved: Option<Session> = None;
        self.show_board(&game, &mut out)?;
        loop {
            if let Some(ending) = self.ending(&game, &mut out)? {
                return Ok(ending);
            }
            let side = game.position().to_move();
            if self.players[side.index()].is_some() {
                self.computer_move(&mut game, side, &mut out)?;
                continue;
            }
            self.prompt(&game, side, &mut out)?;
            out.flush()?;
            let Some(line) = read_line(&mut input)? else {
                // End of input: finish the prompt's line, then quit.
                writeln!(out)?;
                self.show_quit(&game, &mut out)?;
                return Ok(Ending::InputEnded);
            };
            let command = parse_command(&line, game.rules().houses());
            if command == Command::Quit {
                self.show_quit(&game, &mut out)?;
                return Ok(Ending::Quit);
            }
            self.obey(command, &mut game, &mut saved, &mut out)?;
        }
    }

    /// The ending, written out, once the game is over or two computers have played on
    /// too long.
    fn ending(&self, game: &Session, out: &mut impl Write) -> io::Result<Option<Ending>> {
        if let Some(outcome) = game.outcome() {
            self.show_end(game, out)?;
            out.flush()?;
            return Ok(Some(Ending::Finished(outcome)));
        }
        let both_computers = self.players.iter().all(Option::is_some);
        if both_computers && game.records().len() >= MAX_PLIES {
            let plies = game.records().len();
            writeln!(out, "Game abandoned: no result after {plies} plies")?;
            return Ok(Some(Ending::Abandoned));
        }
        Ok(None)
    }

    /// Asks the computer player of `side` for its move, says it and plays it.
    fn computer_move(
        &mut self,
        game: &mut Session,
        side: Side,
        out: &mut impl Write,
    ) -> io::Result<()> {
        // The player as it was asked for (`master`), not its settings in full.
        let asked = game.seat(side).spec().map(|s| s.name().to_owned());
        let label = match asked.as_deref() {
            Some("robot") => "Robot".to_owned(),
            Some(name) => name.to_owned(),
            None => String::new(),
        };
        let player = self.players[side.index()]
            .as_mut()
            .expect("a computer plays this side");
        // A player that thinks says so first, so the console is not silent meanwhile.
        let slow = asked
            .as_deref()
            .and_then(PlayerInfo::find)
            .is_none_or(|info| info.cost != Cost::Instant);
        if slow {
            match self.layout {
                Layout::StoreBox => {
                    writeln!(out, "Player P{} ({label}) is thinking...", side.number())?
                }
                Layout::Rows => writeln!(out, "{} ({label}) is thinking...", game.name(side))?,
            }
            out.flush()?;
        }
        let choice = player.choose(game.game());
        self.announce_computer(game, side, &label, choice.mv, choice.reason.as_deref(), out)?;
        game.play(choice.mv)
            .expect("computer players choose legal moves");
        self.show_move(game, out)
    }

    /// Carries out a person's command other than quitting.
    fn obey(
        &self,
        command: Command,
        game: &mut Session,
        saved: &mut Option<Session>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        match command {
            Command::House(house) => self.try_move(game, house, out),
            Command::Help if self.layout == Layout::Rows => show_rules(game.rules(), out),
            Command::New if self.menu => {
                *game = self.start.restarted();
                *saved = None;
                self.show_board(game, out)
            }
            Command::Save if self.menu => {
                *saved = Some(game.clone());
                if let Err(e) = self.write_save(game) {
                    writeln!(out, "{e}")?;
                }
                self.show_board(game, out)
            }
            Command::Load if self.menu => {
                match self.read_save() {
                    Ok(Some(s)) => *saved = Some(s),
                    Ok(None) => {}
                    Err(e) => writeln!(out, "{e}")?,
                }
                match saved {
                    Some(s) => *game = s.clone(),
                    None => writeln!(out, "No saved game")?,
                }
                self.show_board(game, out)
            }
            _ => {
                let h = game.rules().houses();
                if self.menu {
                    writeln!(out, "Please choose a house from 1 to {h}, or N, S, L or q.")
                } else if self.layout == Layout::Rows {
                    writeln!(
                        out,
                        "Please type a house number from 1 to {h}, ? for the rules, or q to quit."
                    )
                } else {
                    writeln!(
                        out,
                        "Please type a house number from 1 to {h}, or q to quit."
                    )
                }
            }
        }
    }

    /// Writes `game` to the save file, if there is one.
    fn write_save(&self, game: &Session) -> Result<(), String> {
        let Some(path) = &self.save_file else {
            return Ok(());
        };
        let text = Record::from_session(game).to_string();
        std::fs::write(path, text).map_err(|e| format!("Could not save to {}: {e}", path.display()))
    }

    /// The game in the save file, with this console's seats and names; `None` without
    /// a save file or before anything was saved to it.
    fn read_save(&self) -> Result<Option<Session>, String> {
        let Some(path) = &self.save_file else {
            return Ok(None);
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("Could not load {}: {e}", path.display())),
        };
        let why = |e: &dyn std::fmt::Display| format!("Could not load {}: {e}", path.display());
        let record: Record = text.parse().map_err(|e| why(&e))?;
        if record.rules() != self.start.rules() {
            return Err(why(&"it holds a game of other rules"));
        }
        Ok(Some(
            record
                .to_session()
                .with_seats(self.start.seats().clone())
                .with_names(self.start.names().clone()),
        ))
    }

    /// Plays a house for a person, or explains why not.
    fn try_move(
        &self,
        game: &mut Session,
        house: Result<Move, HouseError>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mv = match house {
            Ok(mv) => mv,
            Err(e) => return writeln!(out, "{}.", capitalize(&e.to_string())),
        };
        match game.play(mv) {
            Ok(_) => self.show_move(game, out),
            Err(IllegalMove::EmptyHouse { .. }) if self.layout == Layout::StoreBox => {
                writeln!(out, "House is empty. Move again.")?;
                self.show_board(game, out)
            }
            Err(e) => writeln!(out, "{}.", capitalize(&e.to_string())),
        }
    }

    /// The board after a move; the Oware layout first says what the move did (the
    /// Kalah layout is the specifications' and has no such lines).
    fn show_move(&self, game: &Session, out: &mut impl Write) -> io::Result<()> {
        if self.layout == Layout::Rows {
            let record = game.records().last().expect("a move was just played");
            let names = game.names().each_ref().map(String::as_str);
            for line in record.describe(names) {
                writeln!(out, "{line}")?;
            }
        }
        self.show_board(game, out)
    }

    fn show_board(&self, game: &Session, out: &mut impl Write) -> io::Result<()> {
        match self.layout {
            Layout::StoreBox => out.write_all(store_board(game.position()).as_bytes()),
            Layout::Rows => out.write_all(row_board(game.position(), game.names()).as_bytes()),
        }
    }

    fn prompt(&self, game: &Session, side: Side, out: &mut impl Write) -> io::Result<()> {
        match (self.layout, self.menu) {
            (Layout::StoreBox, false) => write!(
                out,
                "Player P{}'s turn - Specify house number or 'q' to quit: ",
                side.number()
            ),
            (Layout::StoreBox, true) => write!(
                out,
                "Player P{}\n    (1-{}) - house number for move\n    N - New game\n    S - Save game\n    L - Load game\n    q - Quit\nChoice:",
                side.number(),
                game.rules().houses()
            ),
            (Layout::Rows, _) => {
                let moves: Vec<String> =
                    game.legal_moves().iter().map(ToString::to_string).collect();
                write!(
                    out,
                    "{}: moves = [{}]\nEnter move => ",
                    game.name(side),
                    moves.join(", ")
                )
            }
        }
    }

    fn announce_computer(
        &self,
        game: &Session,
        side: Side,
        label: &str,
        mv: Move,
        reason: Option<&str>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        match self.layout {
            Layout::StoreBox => {
                let mut line = format!("Player P{} ({label}) chooses house #{mv}", side.number());
                if let Some(r) = reason {
                    line.push_str(&format!(" because it {r}"));
                }
                // Wrapped at 80 columns (the robot's lines, the transcripts', fit one).
                for (i, part) in wrap(&line, LINE_WIDTH).iter().enumerate() {
                    let indent = if i == 0 { "" } else { "    " };
                    writeln!(out, "{indent}{part}")?;
                }
                Ok(())
            }
            Layout::Rows => writeln!(out, "{} ({label}) plays house {mv}", game.name(side)),
        }
    }

    /// A game left before its end. The Kalah layout says only "Game over", as the
    /// specifications' transcripts do; the Oware layout, whose wording is ours, says
    /// the game was left unfinished and without a result.
    fn show_quit(&self, game: &Session, out: &mut impl Write) -> io::Result<()> {
        match (self.layout, game.to_move()) {
            (Layout::Rows, Some(side)) => writeln!(
                out,
                "Game over: {} left the game unfinished, with no result",
                game.name(side)
            )?,
            _ => writeln!(out, "Game over")?,
        }
        self.show_board(game, out)?;
        out.flush()
    }

    fn show_end(&self, game: &Session, out: &mut impl Write) -> io::Result<()> {
        let o = game.outcome().expect("game is over");
        match self.layout {
            Layout::StoreBox => {
                writeln!(out, "Game over")?;
                self.show_board(game, out)?;
                writeln!(out, "\tplayer 1:{}", o.scores[0])?;
                writeln!(out, "\tplayer 2:{}", o.scores[1])?;
                match o.winner {
                    Some(side) => writeln!(out, "Player {} wins!", side.number()),
                    None => writeln!(out, "A tie!"),
                }
            }
            Layout::Rows => {
                writeln!(out, "Game over")?;
                let text = game.end_text().expect("game is over");
                writeln!(out, "{text}")
            }
        }
    }
}

/// The console's help (`?`, in the Oware layout): the game's name and rules as its
/// description words them, its tip, what an `x` on the board is where houses are
/// claimed (by the game's word for them), and what to type.
fn show_rules(rules: Rules, out: &mut impl Write) -> io::Result<()> {
    let info = rules.variant().info();
    for line in wrap(&format!("{}: {}", info.name, info.rules), HELP_WIDTH) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "Tip: {}.", info.tip)?;
    if info.claims {
        let legend = format!(
            "On the board an x marks a {}, and the line under the scores says whose it is.",
            mancala_session::claim_word(info.claim_word)
        );
        for line in wrap(&legend, HELP_WIDTH) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(
        out,
        "Type a house number (1 to {}) to sow it, or q to quit.",
        rules.houses()
    )
}

/// The width the help is wrapped to.
const HELP_WIDTH: usize = 78;

/// The width a computer's move line is wrapped to, its later lines indented by 4.
const LINE_WIDTH: usize = 76;

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The most columns a name takes in the console, as in the terminal game (a wide
/// character counts two): longer names are cut, so that the Oware rows, the scores and
/// the move lines stay within 80 columns.
pub const NAME_MAX: usize = 16;

/// `name` cut to [`NAME_MAX`] columns, between characters.
fn cut_name(name: &str) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut used = 0;
    name.chars()
        .take_while(|c| {
            used += c.width().unwrap_or(0);
            used <= NAME_MAX
        })
        .collect::<String>()
        .trim_end()
        .to_owned()
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
        let house = |h| Command::House(Ok(Move::new(h).unwrap()));
        assert_eq!(parse_command("3\n", 6), house(3));
        assert_eq!(parse_command(" 12 \r\n", 12), house(12));
        assert!(matches!(parse_command("13", 12), Command::House(Err(_))));
        assert_eq!(parse_command("q", 6), Command::Quit);
        assert_eq!(parse_command("S", 6), Command::Save);
        assert_eq!(parse_command("-1", 6), Command::Unknown);
        assert_eq!(parse_command("three", 6), Command::Unknown);
        assert_eq!(parse_command("", 6), Command::Unknown);
        assert_eq!(parse_command("c", 6), Command::Unknown);
        assert_eq!(parse_command(" ?\n", 6), Command::Help);
    }

    #[test]
    fn names_are_cut_to_sixteen_columns() {
        assert_eq!(cut_name(&"x".repeat(65)), "x".repeat(16));
        assert_eq!(cut_name("山田太郎山田太郎山田"), "山田太郎山田太郎");
        assert_eq!(cut_name("Ann"), "Ann");
    }

    #[test]
    fn help_is_wrapped_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
    }
}
