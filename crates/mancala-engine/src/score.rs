//! Search scores: heuristic values and exact results of finished games.

use std::fmt;

use mancala_core::{Position, Side};

/// A search value from the point of view of one player (in search: the player to move).
///
/// Heuristic values are in units of an eighth of a seed ([`Score::SEED`] units per seed) and
/// stay strictly between the exact results. A finished game has an exact score: a win
/// by `n` seeds is [`Score::WIN`]` + n`, a loss by `n` is its negation, and a draw is 0.
/// So every proven win ranks above every heuristic value, and bigger wins above smaller
/// ones. The raw value ([`Score::raw`]) is what the benchmark prints.
///
/// ```
/// use mancala_engine::Score;
/// let win = Score::from_margin(3);
/// assert_eq!(win.to_string(), "win by 3");
/// assert_eq!(win.margin(), Some(3));
/// assert!(win > Score::heuristic(1000));
/// assert_eq!((-win).to_string(), "loss by 3");
/// assert_eq!(Score::heuristic(12).to_string(), "+1.50");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    /// Heuristic units per seed: fine enough for the evaluation's weights fitted to
    /// self-play (`mancala bench tune`), which weigh a house at a fraction of a seed.
    pub const SEED: i32 = 8;
    /// The base of exact wins: a win by `n` seeds scores `WIN + n`.
    pub const WIN: i32 = 30_000;
    /// Above every score (for search windows).
    pub const INFINITY: Score = Score(32_700);
    /// An exact draw (also the value of a balanced heuristic position).
    pub const DRAW: Score = Score(0);
    /// The largest heuristic magnitude; evaluations are clamped to it.
    pub const MAX_HEURISTIC: i32 = Self::WIN - 1;

    /// A heuristic value, clamped strictly inside the range of exact results.
    #[must_use]
    pub const fn heuristic(units: i32) -> Score {
        let v = if units > Self::MAX_HEURISTIC {
            Self::MAX_HEURISTIC
        } else if units < -Self::MAX_HEURISTIC {
            -Self::MAX_HEURISTIC
        } else {
            units
        };
        Score(v)
    }

    /// The exact score of a finished game won (positive), lost (negative) or drawn (0)
    /// by `margin` seeds.
    #[must_use]
    pub const fn from_margin(margin: i32) -> Score {
        if margin > 0 {
            Score(Self::WIN + margin)
        } else if margin < 0 {
            Score(-Self::WIN + margin)
        } else {
            Score(0)
        }
    }

    /// The exact score for `side` of a finished position (by its final scores).
    #[must_use]
    pub fn final_for(pos: &Position, side: Side) -> Score {
        let [a, b] = pos.final_scores();
        let margin = i32::from(a) - i32::from(b);
        Score::from_margin(if side == Side::South { margin } else { -margin })
    }

    /// The score as a plain integer (see the type's docs for the units).
    #[must_use]
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// The score with this raw value (the inverse of [`Score::raw`]).
    #[must_use]
    pub const fn from_raw(raw: i32) -> Score {
        Score(raw)
    }

    /// Whether this is a proven win or loss.
    #[must_use]
    pub const fn is_decisive(self) -> bool {
        self.0 >= Self::WIN || self.0 <= -Self::WIN
    }

    /// The winning (positive) or losing (negative) margin of a proven result.
    #[must_use]
    pub const fn margin(self) -> Option<i32> {
        if self.0 >= Self::WIN {
            Some(self.0 - Self::WIN)
        } else if self.0 <= -Self::WIN {
            Some(self.0 + Self::WIN)
        } else {
            None
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.margin() {
            Some(m) if m > 0 => write!(f, "win by {m}"),
            Some(m) => write!(f, "loss by {}", -m),
            None => write!(f, "{:+.2}", f64::from(self.0) / f64::from(Self::SEED)),
        }
    }
}
