//! The end of a game in words: the result, why the game ended, and where the seeds
//! left on the board went. Every front end shows these same sentences.

use std::fmt;

use mancala_core::{EndReason, GameEnd, Outcome, Position, Side};

/// The end of a game worded for players: a headline with the result and the reason
/// with the final sweep.
///
/// ```
/// use mancala_core::{Game, Move, Rules};
/// use mancala_session::EndText;
///
/// let mut game = Game::new(Rules::oware(3, 2));
/// for h in [2, 2, 3, 3, 3, 2, 2, 3, 3] {
///     game.play(Move::new(h).unwrap()).unwrap();
/// }
/// let text = EndText::new(&game.end().unwrap(), ["Ann", "Bob"]);
/// assert_eq!(text.headline, "A draw, 6 to 6");
/// assert_eq!(
///     text.reason,
///     "Bob cannot give Ann any seeds, so Bob takes the 1 seed left in their houses"
/// );
/// assert_eq!(text.to_string(), format!("{}: {}.", text.headline, text.reason));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndText {
    /// "Ann wins 25 to 23", or "A draw, 24 to 24".
    pub headline: String,
    /// Why the game ended and what happened to the seeds left on the board.
    pub reason: String,
}

impl EndText {
    /// The words for `end`, with the players' names (player 1 first).
    #[must_use]
    pub fn new(end: &GameEnd, names: [&str; 2]) -> EndText {
        let name = |s: Side| names[s.index()];
        let [a, b] = end.outcome.scores;
        let headline = match end.outcome.winner {
            Some(w) => format!("{} wins {} to {}", name(w), a.max(b), a.min(b)),
            None => format!("A draw, {a} to {b}"),
        };
        let cause = match end.reason {
            EndReason::NoSeeds(s) => format!("{} has no seeds to move", name(s)),
            EndReason::SideEmpty(s) => format!("{}'s houses are empty", name(s)),
            EndReason::Majority(s) => {
                format!("{} has captured more than half of the seeds", name(s))
            }
            EndReason::HalfEach => "each player has captured half of the seeds".to_owned(),
            EndReason::CannotFeed(s) => {
                format!("{} cannot give {} any seeds", name(s), name(s.opponent()))
            }
            EndReason::Repetition => {
                "the position came round again since the last capture".to_owned()
            }
            EndReason::FewSeedsLeft => "two seeds or fewer are left".to_owned(),
        };
        EndText {
            headline,
            reason: format!("{cause}{}", sweep_clause(end, names)),
        }
    }
}

/// A game stopped by its players or a clock rather than by the rules.
///
/// ```
/// use mancala_core::Side;
/// use mancala_session::Stop;
/// assert_eq!(Stop::Resigned(Side::North).winner(), Some(Side::South));
/// assert_eq!(Stop::Aborted.name(), "aborted");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// This player resigned.
    Resigned(Side),
    /// This player's clock ran out.
    OutOfTime(Side),
    /// This player left a game without a clock, and the opponent claimed the win
    /// after waiting long enough.
    Abandoned(Side),
    /// The players agreed to a draw.
    DrawAgreed,
    /// The game was called off before it got going: no result.
    Aborted,
}

impl Stop {
    /// A short stable name for files and APIs: `resigned`, `out-of-time`,
    /// `abandoned`, `draw-agreed` or `aborted`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stop::Resigned(_) => "resigned",
            Stop::OutOfTime(_) => "out-of-time",
            Stop::Abandoned(_) => "abandoned",
            Stop::DrawAgreed => "draw-agreed",
            Stop::Aborted => "aborted",
        }
    }

    /// The stop named `name` (as [`Stop::name`] writes it) by `player` where the stop
    /// names one: how a stored stop is read back.
    ///
    /// ```
    /// use mancala_core::Side;
    /// use mancala_session::Stop;
    /// let stop = Stop::Resigned(Side::North);
    /// assert_eq!(Stop::from_name(stop.name(), stop.player()), Some(stop));
    /// assert_eq!(Stop::from_name("resigned", None), None);
    /// assert_eq!(Stop::from_name("aborted", None), Some(Stop::Aborted));
    /// ```
    #[must_use]
    pub fn from_name(name: &str, player: Option<Side>) -> Option<Stop> {
        match (name, player) {
            ("resigned", Some(s)) => Some(Stop::Resigned(s)),
            ("out-of-time", Some(s)) => Some(Stop::OutOfTime(s)),
            ("abandoned", Some(s)) => Some(Stop::Abandoned(s)),
            ("draw-agreed", None) => Some(Stop::DrawAgreed),
            ("aborted", None) => Some(Stop::Aborted),
            _ => None,
        }
    }

    /// The player who stopped the game, where one did (resigned or ran out of time).
    #[must_use]
    pub const fn player(self) -> Option<Side> {
        match self {
            Stop::Resigned(s) | Stop::OutOfTime(s) | Stop::Abandoned(s) => Some(s),
            Stop::DrawAgreed | Stop::Aborted => None,
        }
    }

    /// The winner: the other player after a resignation or a flag fall.
    #[must_use]
    pub fn winner(self) -> Option<Side> {
        self.player().map(Side::opponent)
    }

    /// The result when the game stops at `position`: the winner as above and the seeds
    /// banked so far; `None` for an aborted game, which has no result.
    #[must_use]
    pub fn outcome(self, position: &Position) -> Option<Outcome> {
        (self != Stop::Aborted).then(|| Outcome {
            winner: self.winner(),
            scores: position.stores(),
        })
    }
}

impl EndText {
    /// The words for a game stopped by `stop`, with the players' names.
    ///
    /// ```
    /// use mancala_core::Side;
    /// use mancala_session::{EndText, Stop};
    /// let t = EndText::stopped(Stop::Resigned(Side::North), ["Ann", "Bob"]);
    /// assert_eq!(t.to_string(), "Ann wins: Bob resigned.");
    /// let t = EndText::stopped(Stop::DrawAgreed, ["Ann", "Bob"]);
    /// assert_eq!(t.to_string(), "A draw: Ann and Bob agreed to a draw.");
    /// let t = EndText::stopped(Stop::Abandoned(Side::South), ["Ann", "Bob"]);
    /// assert_eq!(t.to_string(), "Bob wins: Ann left the game.");
    /// ```
    #[must_use]
    pub fn stopped(stop: Stop, names: [&str; 2]) -> EndText {
        let name = |s: Side| names[s.index()];
        let headline = match stop {
            Stop::Resigned(s) | Stop::OutOfTime(s) | Stop::Abandoned(s) => {
                format!("{} wins", name(s.opponent()))
            }
            Stop::DrawAgreed => "A draw".to_owned(),
            Stop::Aborted => "No result".to_owned(),
        };
        let reason = match stop {
            Stop::Resigned(s) => format!("{} resigned", name(s)),
            Stop::OutOfTime(s) => format!("{} ran out of time", name(s)),
            Stop::Abandoned(s) => format!("{} left the game", name(s)),
            Stop::DrawAgreed => format!("{} and {} agreed to a draw", names[0], names[1]),
            Stop::Aborted => "the game was aborted".to_owned(),
        };
        EndText { headline, reason }
    }
}

impl EndText {
    /// The reason as a sentence of its own: "The position came round again ...".
    ///
    /// ```
    /// use mancala_session::EndText;
    /// let t = EndText { headline: "A draw, 0 to 0".into(), reason: "two seeds or fewer are left".into() };
    /// assert_eq!(t.reason_sentence(), "Two seeds or fewer are left.");
    /// ```
    #[must_use]
    pub fn reason_sentence(&self) -> String {
        let mut c = self.reason.chars();
        let first = c.next().map(|f| f.to_uppercase().collect::<String>());
        format!("{}{}.", first.unwrap_or_default(), c.as_str())
    }
}

impl fmt::Display for EndText {
    /// The whole sentence: "Ann wins 25 to 23: Bob has no seeds to move, so ...".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}.", self.headline, self.reason)
    }
}

/// ", so Ann takes the 4 seeds left in their houses" (and the other player's share),
/// or "; the 5 seeds left on the board count for nobody", or nothing.
fn sweep_clause(end: &GameEnd, names: [&str; 2]) -> String {
    let takes: Vec<String> = Side::BOTH
        .into_iter()
        .filter(|s| end.sweep[s.index()] > 0)
        .map(|s| format!("{} takes {}", names[s.index()], seeds(end.sweep[s.index()])))
        .collect();
    if !takes.is_empty() {
        format!(", so {} left in their houses", takes.join(" and "))
    } else if end.unclaimed > 0 {
        format!(
            "; {} left on the board count{} for nobody",
            seeds(end.unclaimed),
            if end.unclaimed == 1 { "s" } else { "" }
        )
    } else {
        String::new()
    }
}

fn seeds(n: u16) -> String {
    if n == 1 {
        "the 1 seed".to_owned()
    } else {
        format!("the {n} seeds")
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::{Game, Move, Position, Rules};

    use super::*;

    fn text(p: &Position) -> String {
        EndText::new(&p.end().unwrap(), ["Ann", "Bob"]).to_string()
    }

    #[test]
    fn kalah_names_who_could_not_move_and_who_takes_the_rest() {
        let rules = Rules::kalah(3, 1);
        let p = Position::from_parts(rules, [&[0, 0, 0], &[1, 1, 0]], [1, 3], Side::South).unwrap();
        assert_eq!(
            text(&p),
            "Bob wins 5 to 1: Ann has no seeds to move, so Bob takes the 2 seeds left in \
             their houses."
        );
    }

    #[test]
    fn oware_majority_leaves_the_rest_to_nobody() {
        let rules = Rules::oware(3, 4);
        let p =
            Position::from_parts(rules, [&[1, 1, 0], &[2, 1, 0]], [13, 6], Side::North).unwrap();
        assert_eq!(
            text(&p),
            "Ann wins 13 to 6: Ann has captured more than half of the seeds; the 5 seeds \
             left on the board count for nobody."
        );
    }

    #[test]
    fn a_repetition_where_both_take_their_rows() {
        let rules = Rules::oware(2, 4);
        let start = Position::from_parts(rules, [&[1, 0], &[1, 0]], [7, 7], Side::South).unwrap();
        let mut game = Game::from_position(start);
        for h in [1, 1, 2, 2] {
            game.play(Move::new(h).unwrap()).unwrap();
        }
        let text = EndText::new(&game.end().unwrap(), ["Ann", "Bob"]);
        assert_eq!(
            text.to_string(),
            "A draw, 8 to 8: the position came round again since the last capture, so Ann \
             takes the 1 seed and Bob takes the 1 seed left in their houses."
        );
    }

    #[test]
    fn simplified_repetition_counts_the_board_for_nobody() {
        let mut game = Game::new(Rules::oware_simplified(1, 4));
        for _ in 0..3 {
            game.play(Move::new(1).unwrap()).unwrap();
        }
        let text = EndText::new(&game.end().unwrap(), ["Ann", "Bob"]);
        assert_eq!(
            text.to_string(),
            "A draw, 0 to 0: the position came round again since the last capture; the 8 \
             seeds left on the board count for nobody."
        );
    }

    #[test]
    fn togyz_kumalak_endings_read_right() {
        // More than half captured: the rest counts for nobody.
        let rules = Rules::togyz_kumalak(3, 4);
        let p =
            Position::from_parts(rules, [&[1, 1, 0], &[2, 1, 1]], [13, 5], Side::North).unwrap();
        assert_eq!(
            text(&p),
            "Ann wins 13 to 5: Ann has captured more than half of the seeds; the 6 seeds \
             left on the board count for nobody."
        );
        // The player to move has no seeds: the other takes their row.
        let rules = Rules::togyz_kumalak(3, 2);
        let p = Position::from_parts(rules, [&[0, 0, 0], &[1, 2, 0]], [5, 4], Side::South).unwrap();
        assert_eq!(
            text(&p),
            "Bob wins 7 to 5: Ann has no seeds to move, so Bob takes the 3 seeds left in \
             their houses."
        );
        // One house of two seeds a side comes round after two moves (2|2, 1|3, 2|2).
        let mut game = Game::new(Rules::togyz_kumalak(1, 2));
        for _ in 0..2 {
            game.play(Move::new(1).unwrap()).unwrap();
        }
        let text = EndText::new(&game.end().unwrap(), ["Ann", "Bob"]);
        assert_eq!(
            text.to_string(),
            "A draw, 2 to 2: the position came round again since the last capture, so Ann \
             takes the 2 seeds and Bob takes the 2 seeds left in their houses."
        );
    }

    #[test]
    fn simplified_last_seed_counts_for_nobody() {
        let rules = Rules::oware_simplified(1, 1);
        let p = Position::new(rules);
        assert_eq!(
            text(&p),
            "A draw, 0 to 0: two seeds or fewer are left; the 2 seeds left on the board \
             count for nobody."
        );
    }
}
