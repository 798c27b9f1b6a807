//! Saving a game (`w`) and loading one (`mancala tui --load FILE`), in the session's
//! game record format, so that the file is one every tool of the suite reads
//! (`mancala record check`, `replay --record`, `solve --record`, the web).

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use mancala_session::Record;
use ratatui::crossterm::event::KeyCode;

use super::game::{GameState, NAME_SHOWN, plural};
use super::view::{Message, MessageKind};
use super::{App, Screen};
use crate::fit;
use crate::setup::Setup;

impl App {
    /// The same app saving games (`w`) into `dir` instead of the current directory.
    #[must_use]
    pub fn with_save_dir(mut self, dir: impl Into<PathBuf>) -> App {
        self.save_dir = dir.into();
        self
    }

    /// The game of `record` on screen, at its end, with its players (computer players
    /// built from their kinds, `seed` for their randomness): it goes on from there,
    /// or, when it is over, shows its result, and undo steps back through it.
    #[must_use]
    pub fn load(record: &Record, seed: u64, now: Instant) -> App {
        let setup = Setup::of_record(record, seed).named();
        let mut app = App::new(setup.clone(), false, now);
        let session = record.to_session();
        let n = session.records().len();
        let hello = match session.to_move() {
            Some(side) => format!(
                "Loaded {n} move{}: {} to move.",
                plural(n),
                fit::shorten(&setup.names[side.index()], NAME_SHOWN)
            ),
            None => format!("Loaded a finished game of {n} move{}.", plural(n)),
        };
        app.begin(setup, session, Some(hello), now);
        app
    }

    /// `w`: saves the game on screen and says where. When the directory cannot be
    /// written, asks for another ([`App::save_to_key`] takes the typing).
    pub(crate) fn save_game(&mut self) {
        let dir = self.save_dir.clone();
        self.save_in(dir);
    }

    /// Saves the game in `dir`; there from now on when it worked, else asks for
    /// another directory, saying why.
    fn save_in(&mut self, dir: PathBuf) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        match g.save(&dir, SystemTime::now()) {
            Ok(path) => {
                // Saved in the current directory, the file's name is all it takes.
                let shown = match path.strip_prefix(".") {
                    Ok(name) => name.display().to_string(),
                    Err(_) => path.display().to_string(),
                };
                g.message = Message::new(
                    MessageKind::Good,
                    format!("Saved to {shown}; to go on from here later:"),
                )
                .with_command(format!("mancala tui --load {}", quoted(&shown)));
                g.log.push(g.message.clone());
                g.saved_plies = Some(g.session.records().len());
                g.save_to = None;
                self.save_dir = dir;
            }
            Err(e) => {
                let why = format!("Could not save the game in {}: {e}.", dir.display());
                g.save_to = Some(SaveTo {
                    why,
                    typed: String::new(),
                });
                g.show_save_to();
            }
        }
    }

    /// A key while the player types the directory to save in: Enter saves there, Esc
    /// gives up, Backspace and Ctrl-U edit it.
    pub(crate) fn save_to_key(&mut self, code: KeyCode) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let Some(ask) = &mut g.save_to else {
            return;
        };
        match code {
            KeyCode::Enter if !ask.typed.trim().is_empty() => {
                let dir = PathBuf::from(ask.typed.trim());
                return self.save_in(dir);
            }
            KeyCode::Esc => {
                g.save_to = None;
                g.message = Message::info("Not saved.");
                return;
            }
            KeyCode::Backspace => _ = ask.typed.pop(),
            KeyCode::Char(c) if !c.is_control() => ask.typed.push(c),
            _ => {}
        }
        g.show_save_to();
    }
}

/// The question a failed save asks: why it failed, and the directory typed so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveTo {
    /// Why the last save failed.
    pub why: String,
    /// The directory typed.
    pub typed: String,
}

impl GameState {
    /// Puts the question of a failed save on the message line: why, and the
    /// directory being typed on a line of its own.
    pub(crate) fn show_save_to(&mut self) {
        let Some(ask) = &self.save_to else {
            return;
        };
        // The keys go with the directory typed, which is shown whole on narrow
        // terminals too (the text before it is cut first).
        self.message =
            Message::warning(format!("{} Save it in another directory?", ask.why)).with_command(
                format!("Save in: {}▏  (Enter saves, Esc cancels)", ask.typed),
            );
    }

    /// Whether moves were played since the game was last saved (or it never was).
    #[must_use]
    pub fn unsaved(&self) -> bool {
        let plies = self.session.records().len();
        plies > 0 && self.saved_plies != Some(plies)
    }

    /// Writes the game as a record to a new file in `dir`, named after the time `at`
    /// (`mancala-2026-11-25-101500.txt`, with `-2`, `-3`, ... when that exists: a save
    /// never overwrites a file); returns its path.
    pub(crate) fn save(&self, dir: &Path, at: SystemTime) -> io::Result<PathBuf> {
        let secs = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let (y, mo, d, h, mi, s) = civil(secs);
        let record = Record::from_session(&self.session).with_date(format!("{y}.{mo:02}.{d:02}"));
        let stem = format!("mancala-{y}-{mo:02}-{d:02}-{h:02}{mi:02}{s:02}");
        for n in 1..=100 {
            let name = if n == 1 {
                format!("{stem}.txt")
            } else {
                format!("{stem}-{n}.txt")
            };
            let path = dir.join(name);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(record.to_string().as_bytes())?;
                    return Ok(path);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("a hundred saves this second already"))
    }
}

/// `path` as a shell reads it: in single quotes when it holds a space or a quote.
fn quoted(path: &str) -> String {
    if path.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
        format!("'{}'", path.replace('\'', r"'\''"))
    } else {
        path.to_owned()
    }
}

/// The UTC date and time of `secs` since 1970: year, month, day, hour, minute,
/// second (the civil-from-days algorithm of H. Hinnant, proleptic Gregorian).
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    (year, month, day, h as u32, m as u32, s as u32)
}

#[cfg(test)]
mod tests {
    use super::civil;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(civil(1_795_000_000), (2026, 11, 18, 11, 6, 40));
    }
}
