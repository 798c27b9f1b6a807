//! What makes a description playable: values in range and rules that agree with each
//! other, and a game that cannot go round for ever.

use super::{Capture, CaptureKind, Description, Direction, FORMAT, Relay, Taker, Timing};
use crate::{MAX_HOUSES, MAX_SEEDS};

/// Why a description was refused: where it came from, the field and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}{why}", prefix(.origin), prefix(.field))]
pub struct DescriptionError {
    /// The file or text the description came from (empty when not known).
    pub origin: String,
    /// The field, e.g. `board.seeds` or `capture[0].counts` (empty for the whole).
    pub field: String,
    /// Why it was refused.
    pub why: String,
}

fn prefix(part: &str) -> String {
    if part.is_empty() {
        String::new()
    } else {
        format!("{part}: ")
    }
}

impl DescriptionError {
    pub(crate) fn new(origin: &str, field: &str, why: String) -> DescriptionError {
        DescriptionError {
            origin: origin.to_owned(),
            field: field.to_owned(),
            why,
        }
    }

    /// The same error said of `origin`.
    #[must_use]
    pub(crate) fn from(mut self, origin: &str) -> DescriptionError {
        origin.clone_into(&mut self.origin);
        self
    }
}

fn refuse(field: &str, why: impl Into<String>) -> Result<(), DescriptionError> {
    Err(DescriptionError::new("", field, why.into()))
}

fn in_range(field: &str, value: u32, low: u32, high: u32) -> Result<(), DescriptionError> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        refuse(
            field,
            format!("must be between {low} and {high}, not {value}"),
        )
    }
}

impl Description {
    /// Checks that the description can be played: its format, key and board in range,
    /// its rules consistent with each other, and a game that always ends (a sowing that
    /// can go round for ever needs the repetition rule).
    ///
    /// # Errors
    /// The first field found wrong, and why.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let mut kalah = Description::builtin("kalah").unwrap();
    /// kalah.board.stores = false;
    /// let err = kalah.check().unwrap_err();
    /// assert_eq!(err.field, "sowing.own_store");
    /// ```
    pub fn check(&self) -> Result<(), DescriptionError> {
        if self.format != FORMAT {
            return refuse(
                "format",
                format!("this program reads format {FORMAT}, not {}", self.format),
            );
        }
        self.check_names()?;
        self.check_board()?;
        self.check_rules()?;
        self.check_ending()
    }

    fn check_names(&self) -> Result<(), DescriptionError> {
        let key_ok = !self.key.is_empty()
            && self.key.len() <= 32
            && self.key.starts_with(|c: char| c.is_ascii_lowercase())
            && self
                .key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !key_ok {
            return refuse(
                "key",
                format!(
                    "{:?} is not a key: up to 32 lower-case letters, digits and '-', starting with a letter",
                    self.key
                ),
            );
        }
        if self.name.trim().is_empty() {
            return refuse("name", "a game needs a name");
        }
        Ok(())
    }

    fn check_board(&self) -> Result<(), DescriptionError> {
        let b = &self.board;
        let (most_houses, most_seeds) = (MAX_HOUSES as u32, MAX_SEEDS as u32);
        in_range("board.max_houses", b.max_houses.into(), 1, most_houses)?;
        in_range(
            "board.min_houses",
            b.min_houses.into(),
            1,
            b.max_houses.into(),
        )?;
        in_range(
            "board.houses",
            b.houses.into(),
            b.min_houses.into(),
            b.max_houses.into(),
        )?;
        in_range("board.max_seeds", b.max_seeds.into(), 1, most_seeds)?;
        if b.start.is_empty() {
            return in_range("board.seeds", b.seeds.into(), 1, b.max_seeds.into());
        }
        self.check_start()
    }

    /// A start pattern fixes the board: one count a house, the size not a choice.
    fn check_start(&self) -> Result<(), DescriptionError> {
        let b = &self.board;
        if b.seeds != 0 {
            return refuse(
                "board.seeds",
                "give either seeds (every house alike) or start (a pattern), not both",
            );
        }
        if b.start.len() != usize::from(b.houses) {
            return refuse(
                "board.start",
                format!(
                    "a start pattern has one count a house: {} counts for {} houses",
                    b.start.len(),
                    b.houses
                ),
            );
        }
        if b.min_houses != b.houses || b.max_houses != b.houses {
            return refuse(
                "board.min_houses",
                "a start pattern fixes the board: min_houses and max_houses must equal houses",
            );
        }
        if let Some(&most) = b.start.iter().find(|&&n| n > b.max_seeds) {
            return refuse(
                "board.start",
                format!(
                    "{most} seeds in a house is more than max_seeds ({})",
                    b.max_seeds
                ),
            );
        }
        if b.start.iter().all(|&n| n == 0) {
            return refuse("board.start", "a start pattern needs some seeds");
        }
        Ok(())
    }

    fn check_rules(&self) -> Result<(), DescriptionError> {
        if self.sowing.own_store && !self.board.stores {
            return refuse(
                "sowing.own_store",
                "sowing into the store needs stores on the board (board.stores)",
            );
        }
        if self.turn.extra_turn && !self.sowing.own_store {
            return refuse(
                "turn.extra_turn",
                "an extra turn for ending in the store needs sowing into it (sowing.own_store)",
            );
        }
        self.check_relay()?;
        for (i, capture) in self.capture.iter().enumerate() {
            check_capture(capture, &format!("capture[{i}]"))?;
        }
        if let Some(claim) = &self.claim {
            if claim.count == 0 {
                return refuse("claim.count", "a claim needs a count of at least 1");
            }
            if self.board.stores {
                return refuse(
                    "claim",
                    "claimed houses on a board with stores are not supported yet",
                );
            }
        }
        Ok(())
    }

    /// A relay sowing ends by itself where seeds are sown into the mover's store (each
    /// lap either drops a seed there or moves every seed it sows nearer to it); without,
    /// it can go round the board for ever, so it needs a bound on its laps.
    fn check_relay(&self) -> Result<(), DescriptionError> {
        let s = &self.sowing;
        if s.relay != Relay::None && s.direction == Direction::ByCount {
            return refuse(
                "sowing.relay",
                "a sowing whose direction its count sets is one lap (no relay)",
            );
        }
        if s.relay == Relay::None && s.max_laps != 0 {
            return refuse(
                "sowing.max_laps",
                "a bound on laps needs relay sowing (sowing.relay)",
            );
        }
        if s.relay != Relay::None && !s.own_store && s.max_laps == 0 {
            return refuse(
                "sowing.max_laps",
                "a relay sowing that does not sow into the mover's store can go round the board for ever: it needs a bound (max_laps)",
            );
        }
        Ok(())
    }

    /// A game must end. With sowing into stores in one direction it does (every seed
    /// moves on towards a store); without stores, or where the count turns a sowing
    /// clockwise past the opponent's row before the store, a game can go round for ever,
    /// so it needs the repetition rule (few seeds left is not enough: the captures may
    /// stop first).
    fn check_ending(&self) -> Result<(), DescriptionError> {
        if self.capture.is_empty() && self.claim.is_none() && !self.sowing.own_store {
            return refuse(
                "capture",
                "no seed ever leaves the board (no capture rule, claim or sowing into a store): nobody can win",
            );
        }
        if !self.sowing.own_store && !self.end.repetition {
            return refuse(
                "end.repetition",
                "a game without sowing into stores can go round for ever: it needs the repetition rule",
            );
        }
        if self.sowing.direction == Direction::ByCount && !self.end.repetition {
            return refuse(
                "end.repetition",
                "a game whose sowing direction the count sets can go round for ever: it needs the repetition rule",
            );
        }
        Ok(())
    }
}

/// One capture rule's fields agree with its kind.
fn check_capture(capture: &Capture, name: &str) -> Result<(), DescriptionError> {
    let field = |part: &str| format!("{name}.{part}");
    let counting = capture.kind == CaptureKind::Count;
    if !counting && (!capture.counts.is_empty() || capture.even || capture.run) {
        return refuse(
            &field("kind"),
            "only a count capture takes counts, even or run",
        );
    }
    if !counting && capture.by != Taker::Mover {
        return refuse(
            &field("by"),
            "only a count capture may go to the row's owner",
        );
    }
    if capture.kind != CaptureKind::Next && capture.facing {
        return refuse(
            &field("facing"),
            "only a next capture takes the facing house too",
        );
    }
    match capture.kind {
        CaptureKind::Count if capture.counts.is_empty() && !capture.even => refuse(
            &field("counts"),
            "a count capture needs the counts that capture (or even = true)",
        ),
        CaptureKind::Count if capture.counts.contains(&0) => refuse(
            &field("counts"),
            "an empty house cannot be captured (count 0)",
        ),
        CaptureKind::Across | CaptureKind::Next if capture.timing == Timing::EachSeed => refuse(
            &field("timing"),
            "an across or next capture is made by the last seed",
        ),
        _ => Ok(()),
    }
}
