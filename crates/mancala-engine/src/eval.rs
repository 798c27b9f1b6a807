//! Static evaluation: how good a position looks for the player to move.

use mancala_core::{Position, Variant};

use crate::Score;

/// Weights of the evaluation terms, in [`Score`] units per seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per seed of store (or captures) difference.
    pub store: i32,
    /// Per seed of difference in the seeds on each player's own row.
    pub row: i32,
}

impl Weights {
    /// The weights used for `variant`.
    ///
    /// - Kalah: a player's final score is their store plus their own row, but seeds on
    ///   the row can still be captured or sown across, so a row seed counts a quarter of
    ///   a store seed.
    /// - Oware: captures decide; seeds on the own row count a little (they are the
    ///   player's at a repetition or when the opponent cannot be fed, and give moves).
    /// - Simplified Oware: captures alone score.
    #[must_use]
    pub const fn for_variant(variant: Variant) -> Weights {
        match variant {
            Variant::Kalah => Weights { store: 4, row: 1 },
            Variant::Oware => Weights { store: 4, row: 1 },
            Variant::OwareSimplified => Weights { store: 4, row: 0 },
        }
    }
}

/// The static value of `pos` for the player to move: the exact result if the game is
/// over, otherwise the weighted store and row differences of [`Weights::for_variant`].
///
/// ```
/// use mancala_core::{Move, Position, Rules};
/// use mancala_engine::{evaluate, Score};
/// let start = Position::new(Rules::kalah(6, 4));
/// assert_eq!(evaluate(&start), Score::DRAW);
/// // After house 3 player 1 moves again: one seed up in the store (4 units), one seed
/// // down on the row (-1 unit).
/// let p = start.play(Move::new(3).unwrap()).unwrap();
/// assert_eq!(evaluate(&p), Score::heuristic(3));
/// ```
#[inline]
#[must_use]
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, Weights::for_variant(pos.variant()))
}

/// [`evaluate`] with other weights (for tuning).
#[inline]
#[must_use]
pub fn evaluate_with(pos: &Position, w: Weights) -> Score {
    let me = pos.to_move();
    if pos.is_over() {
        return Score::final_for(pos, me);
    }
    let opp = me.opponent();
    let store = i32::from(pos.store(me)) - i32::from(pos.store(opp));
    let row = if w.row == 0 {
        0
    } else {
        i32::from(pos.row_sum(me)) - i32::from(pos.row_sum(opp))
    };
    Score::heuristic(w.store * store + w.row * row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_weights_change_the_evaluation() {
        use mancala_core::{Position, Rules};
        let p = Position::new(Rules::oware(6, 4));
        assert_eq!(
            evaluate_with(&p, Weights { store: 4, row: 3 }),
            evaluate(&p)
        );
    }
}
