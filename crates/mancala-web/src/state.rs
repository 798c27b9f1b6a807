//! What a game keeps beside its moves: the players' names, who moves first, how the
//! players stopped the game, an open offer (a draw or a takeback), the time control
//! and the clocks. The store keeps it as one JSON text (the `play` column, migration
//! V4), so it grows without schema changes; what the store must search by (the next
//! flag fall) has a column of its own.

use mancala_core::Side;
use mancala_session::Stop;
use serde::{Deserialize, Serialize};

/// The longest name a player may give, in characters.
pub const NAME_MAX_CHARS: usize = 32;

/// A game's state beside its moves, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayState {
    /// The names the players gave, player 1 first (`None`: the default name).
    pub names: [Option<String>; 2],
    /// The seat that moved first: 1 (`None`, the default) or 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<u8>,
    /// How the players (or a clock) stopped the game, if they did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<StoppedBy>,
    /// An offer waiting for the other player's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer: Option<Offer>,
    /// The time control, if the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Each seat's time left when the current turn started, in milliseconds.
    pub clocks_ms: [i64; 2],
    /// When the current turn started (the last move, a takeback, or the creation), in
    /// milliseconds since the Unix epoch by the service's clock.
    pub turn_started_ms: i64,
}

/// A stored stop: its name (as [`Stop::name`]) and the seat it names, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoppedBy {
    /// `resigned`, `out-of-time`, `abandoned`, `draw-agreed` or `aborted`.
    pub reason: String,
    /// The seat that resigned, ran out of time or left.
    pub seat: Option<u8>,
}

/// What an offer asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    /// To end the game as a draw.
    Draw,
    /// To take back the asker's last turn.
    Takeback,
}

impl OfferKind {
    /// `draw` or `takeback`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// An offer made by one seat to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// What it asks for.
    pub kind: OfferKind,
    /// The seat that made it.
    pub seat: u8,
}

impl PlayState {
    /// How the game was stopped, if it was (a stored stop that does not read back is
    /// treated as none).
    #[must_use]
    pub fn stop(&self) -> Option<Stop> {
        let s = self.stop.as_ref()?;
        Stop::from_name(&s.reason, s.seat.and_then(side_of))
    }

    /// Records `stop`.
    pub fn set_stop(&mut self, stop: Stop) {
        self.stop = Some(StoppedBy {
            reason: stop.name().to_owned(),
            seat: stop.player().map(Side::number),
        });
        self.offer = None;
    }

    /// The side that moved first.
    #[must_use]
    pub fn first_side(&self) -> Side {
        if self.first == Some(2) {
            Side::North
        } else {
            Side::South
        }
    }

    /// The state as the `play` column holds it.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a play state serializes")
    }

    /// The state read from the `play` column.
    ///
    /// # Errors
    /// When the text is not a play state.
    pub fn from_json(text: &str) -> Result<PlayState, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// The side of seat 1 or 2.
#[must_use]
pub fn side_of(seat: u8) -> Option<Side> {
    match seat {
        1 => Some(Side::South),
        2 => Some(Side::North),
        _ => None,
    }
}

/// Why a name is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty once trimmed.
    #[error("a name must not be empty")]
    Empty,
    /// Longer than [`NAME_MAX_CHARS`].
    #[error("a name is at most {NAME_MAX_CHARS} characters")]
    TooLong,
    /// Holds a control or format character (a line break, a bidi override, ...).
    #[error("a name holds printable characters only")]
    NotPrintable,
    /// A computer player's name (`Medium bot`): a person taking it would look like
    /// the computer.
    #[error("{0:?} is the name of a computer player: choose another name")]
    Reserved(String),
}

/// A player's name as given, checked: trimmed, 1 to [`NAME_MAX_CHARS`] characters,
/// no control or invisible formatting characters, not a computer player's name
/// ([`mancala_session::is_computer_name`]). Markup is just text: every page
/// shows names escaped.
///
/// # Errors
/// Why the name is refused.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.chars().count() > NAME_MAX_CHARS {
        return Err(NameError::TooLong);
    }
    // Control characters, and the invisible ones that reorder or hide text.
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
    };
    if name.chars().any(hidden) {
        return Err(NameError::NotPrintable);
    }
    if mancala_session::is_computer_name(name) {
        return Err(NameError::Reserved(name.to_owned()));
    }
    Ok(name.to_owned())
}

/// A game's time control: minutes plus an increment per move, or a limit per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TimeControl {
    /// `initial_s` seconds each for the game, and `increment_s` more per move.
    Increment {
        /// Seconds each player starts with.
        initial_s: u64,
        /// Seconds added after each of a player's timed moves.
        increment_s: u64,
    },
    /// `per_move_s` seconds for each move (correspondence games).
    PerMove {
        /// Seconds for each move.
        per_move_s: u64,
    },
}

impl TimeControl {
    /// Each player's time at the start, in milliseconds.
    #[must_use]
    pub fn initial_ms(self) -> i64 {
        let s = match self {
            TimeControl::Increment { initial_s, .. } => initial_s,
            TimeControl::PerMove { per_move_s } => per_move_s,
        };
        secs_ms(s)
    }

    /// A player's time after a timed move made with `left_ms` to spare.
    #[must_use]
    pub fn after_move(self, left_ms: i64) -> i64 {
        match self {
            TimeControl::Increment { increment_s, .. } => left_ms + secs_ms(increment_s),
            TimeControl::PerMove { per_move_s } => secs_ms(per_move_s),
        }
    }
}

fn secs_ms(s: u64) -> i64 {
    i64::try_from(s.saturating_mul(1000)).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("  Ann "), Ok("Ann".into()));
        assert_eq!(
            check_name("<img src=x onerror=alert(1)>"),
            Ok("<img src=x onerror=alert(1)>".into())
        );
        assert_eq!(check_name(" "), Err(NameError::Empty));
        assert_eq!(check_name(&"x".repeat(33)), Err(NameError::TooLong));
        assert_eq!(check_name(&"é".repeat(32)), Ok("é".repeat(32)));
        assert_eq!(check_name("a\nb"), Err(NameError::NotPrintable));
        assert_eq!(check_name("a\u{202E}b"), Err(NameError::NotPrintable));
        assert_eq!(
            check_name(" medium bot"),
            Err(NameError::Reserved("medium bot".into()))
        );
    }

    #[test]
    fn a_state_round_trips_and_old_rows_read_as_default() {
        let mut s = PlayState {
            names: [Some("Ann".into()), None],
            first: Some(2),
            ..PlayState::default()
        };
        s.set_stop(Stop::Resigned(Side::North));
        assert_eq!(PlayState::from_json(&s.to_json()).unwrap(), s);
        assert_eq!(s.stop(), Some(Stop::Resigned(Side::North)));
        assert_eq!(PlayState::from_json("{}").unwrap(), PlayState::default());
        assert_eq!(s.first_side(), Side::North);
    }
}
