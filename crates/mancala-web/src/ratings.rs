//! Ratings: Glicko-2 (the `skillratings` crate), one rating per pool (a variant on a
//! board size), each rated game its own rating period for both players.
//!
//! Each game is rated from both players' ratings *before* it, as lichess does, so the
//! order in which two players' updates are written does not matter. The system
//! constant τ is 0.5; a new player starts at 1500 with deviation 350 and volatility
//! 0.06; a rating whose deviation is above [`PROVISIONAL_DEVIATION`] is provisional
//! (shown `1500?`) and kept off the leaderboard.

use mancala_core::{Rules, Variant};
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// `x` rounded to a whole number: ratings and deviations are a few thousand at most,
/// so the conversion is exact.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn round(x: f64) -> i64 {
    x.round() as i64
}

/// A rating whose deviation is above this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The Glicko-2 system constant τ, which bounds how fast the volatility moves.
const TAU: f64 = 0.5;

/// One player's rating in one pool.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (Glicko scale: 1500 is a new player).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is.
    pub rd: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: u32,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::INITIAL
    }
}

impl Rating {
    /// A new player's rating: 1500, deviation 350, volatility 0.06, no games.
    pub const INITIAL: Rating = Rating {
        rating: 1500.0,
        rd: 350.0,
        volatility: 0.06,
        games: 0,
    };

    /// Whether the rating is provisional (its deviation above 110).
    ///
    /// ```
    /// use mancala_web::Rating;
    /// assert!(Rating::INITIAL.provisional());
    /// ```
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_DEVIATION
    }

    /// The rating as people read it: rounded, with `?` when provisional (`1500?`).
    ///
    /// ```
    /// use mancala_web::Rating;
    /// assert_eq!(Rating::INITIAL.shown(), "1500?");
    /// ```
    #[must_use]
    pub fn shown(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        format!("{:.0}{mark}", self.rating)
    }

    /// The rating rounded to a whole number, as it is shown.
    ///
    /// ```
    /// use mancala_web::Rating;
    /// assert_eq!(Rating { rating: 1661.6, ..Rating::INITIAL }.rounded(), 1662);
    /// ```
    #[must_use]
    pub fn rounded(&self) -> i64 {
        round(self.rating)
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.volatility,
        }
    }

    fn with(self, g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            rd: g.deviation,
            volatility: g.volatility,
            games: self.games.saturating_add(1),
        }
    }
}

/// How a game ended for player 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Player 1 won.
    Win,
    /// A draw.
    Draw,
    /// Player 2 won.
    Loss,
}

/// The ratings of both players after a game between them, each computed from both
/// ratings before it.
///
/// ```
/// use mancala_web::{Rating, Score, rate_game};
/// let [one, two] = rate_game([Rating::INITIAL, Rating::INITIAL], Score::Win);
/// assert!(one.rating > 1500.0 && two.rating < 1500.0);
/// assert_eq!((one.games, two.games), (1, 1));
/// ```
#[must_use]
pub fn rate_game(before: [Rating; 2], score: Score) -> [Rating; 2] {
    let outcome = match score {
        Score::Win => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::Loss => Outcomes::LOSS,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (one, two) = glicko2(&before[0].glicko(), &before[1].glicko(), &outcome, &config);
    [before[0].with(one), before[1].with(two)]
}

/// One player's rating before and after a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

impl RatingChange {
    /// How much the rating moved, rounded as shown (`+12`, `-7`, `0`).
    #[must_use]
    pub fn difference(&self) -> i64 {
        self.after.rounded() - self.before.rounded()
    }
}

/// What a rated game did to its players' ratings, as the game keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChanges {
    /// The pool the game was rated in.
    pub pool: String,
    /// Each seat's change, player 1 first.
    pub seats: [RatingChange; 2],
    /// Whether the game counted: `false` past the daily number of rated games
    /// between the same two accounts (the ratings stayed as they were).
    #[serde(default = "counted_by_default", skip_serializing_if = "is_counted")]
    pub counted: bool,
}

/// Games rated before the daily cap counted.
fn counted_by_default() -> bool {
    true
}

/// A counted game's changes are kept as before the daily cap (no `counted` field).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` signature
fn is_counted(counted: &bool) -> bool {
    *counted
}

impl RatingChanges {
    /// The changes of a game in `pool` from the ratings `before` it to those `after`.
    #[must_use]
    pub fn new(pool: &str, before: [Rating; 2], after: [Rating; 2]) -> RatingChanges {
        RatingChanges {
            pool: pool.to_owned(),
            seats: [0, 1].map(|i| RatingChange {
                before: before[i],
                after: after[i],
            }),
            counted: true,
        }
    }

    /// The changes of a game in `pool` past the daily cap: none.
    #[must_use]
    pub fn uncounted(pool: &str, before: [Rating; 2]) -> RatingChanges {
        RatingChanges {
            counted: false,
            ..RatingChanges::new(pool, before, before)
        }
    }
}

/// The pool of games on `rules`: the variant's key on its standard board (`kalah`),
/// and the key with the board otherwise (`kalah-4x3`: four houses of three seeds).
///
/// ```
/// use mancala_core::{Rules, Variant};
/// use mancala_web::pool_of;
/// assert_eq!(pool_of(&Rules::standard(Variant::Oware)), "oware");
/// assert_eq!(pool_of(&Rules::new(Variant::Kalah, 4, 3).unwrap()), "kalah-4x3");
/// ```
#[must_use]
pub fn pool_of(rules: &Rules) -> String {
    let info = rules.variant().info();
    let standard = (
        usize::from(info.default_houses),
        u16::from(info.default_seeds),
    );
    if (rules.houses(), rules.seeds()) == standard {
        info.key.to_owned()
    } else {
        format!("{}-{}x{}", info.key, rules.houses(), rules.seeds())
    }
}

/// Whether `pool` names a pool some game could be rated in.
pub(crate) fn is_pool(pool: &str) -> bool {
    let (key, board) = match pool.split_once('-') {
        Some((key, board)) => (key, Some(board)),
        None => (pool, None),
    };
    let Ok(variant) = key.parse::<Variant>() else {
        return false;
    };
    match board {
        None => true,
        Some(board) => board
            .split_once('x')
            .and_then(|(h, s)| Some((h.parse::<u8>().ok()?, s.parse::<u8>().ok()?)))
            .is_some_and(|(h, s)| Rules::new(variant, h, s).is_ok()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example ("Example of the Glicko-2 system", 2013): a player
    /// rated 1500 (deviation 200, volatility 0.06) beats a 1400 (30) and loses to a
    /// 1550 (100) and a 1700 (300) in one rating period, τ = 0.5: 1464.06, 151.52,
    /// 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(&player, &results, &config);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    /// Rating a game is that example's computation with one opponent: the same
    /// numbers come out of `rate_game` as out of a period of one game.
    #[test]
    fn a_game_is_a_rating_period_of_its_own() {
        let a = Rating {
            rating: 1500.0,
            rd: 200.0,
            volatility: 0.06,
            games: 3,
        };
        let b = Rating {
            rating: 1400.0,
            rd: 30.0,
            volatility: 0.06,
            games: 9,
        };
        let [a2, b2] = rate_game([a, b], Score::Win);
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let period = glicko2_rating_period(&a.glicko(), &[(b.glicko(), Outcomes::WIN)], &config);
        assert!((a2.rating - period.rating).abs() < 1e-9);
        assert!((a2.rd - period.deviation).abs() < 1e-9);
        assert!(b2.rating < b.rating);
        assert_eq!((a2.games, b2.games), (4, 10));
        let [d1, d2] = rate_game([a, b], Score::Draw);
        assert!(
            d1.rating < a.rating && d2.rating > b.rating,
            "the favourite drew"
        );
    }

    #[test]
    fn provisional_until_the_deviation_is_110_or_less() {
        let mut r = Rating::INITIAL;
        assert_eq!(r.shown(), "1500?");
        r.rd = 110.0;
        assert!(!r.provisional());
        assert_eq!(r.shown(), "1500");
    }

    #[test]
    fn pools_are_variant_keys_with_the_board_when_not_standard() {
        assert!(is_pool("kalah") && is_pool("oware") && is_pool("kalah-4x3"));
        assert!(!is_pool("chess") && !is_pool("kalah-99x3") && !is_pool("kalah-x"));
    }
}
