//! The rule sets: what each variant answers about a position.
//!
//! [`Position`] dispatches to these through a `match` on its [`Variant`]; adding a
//! variant means one new module here implementing [`RuleSet`], one new `Variant` case,
//! and its tests. Front ends never change, because they read the board shape from the
//! position.

mod kalah;
mod oware;
mod simplified;

pub use kalah::Kalah;
pub use oware::Oware;
pub use simplified::OwareSimplified;

use crate::{EndReason, Move, MoveList, MoveReport, Position, Variant};

/// What a variant must answer. Implemented by [`Kalah`], [`Oware`] and
/// [`OwareSimplified`]; positions call them for their own variant.
///
/// Functions receive positions of their own variant only; `play` receives only legal
/// moves of positions that are not over.
///
/// ```
/// use mancala_core::variants::{Kalah, RuleSet};
/// use mancala_core::{Position, Rules, Variant};
/// assert_eq!(Kalah::VARIANT, Variant::Kalah);
/// let start = Position::new(Rules::kalah(4, 3));
/// assert_eq!(Kalah::legal_moves(&start).len(), 4);
/// ```
pub trait RuleSet {
    /// The variant these rules implement.
    const VARIANT: Variant;

    /// The legal moves of a position that is not over, in house order.
    fn legal_moves(pos: &Position) -> MoveList;

    /// Plays a legal move in place: sowing, captures, the next player to move and the
    /// end of the game. Returns what the move did.
    fn play(pos: &mut Position, mv: Move) -> MoveReport;

    /// Whether the game is over in this position, computed from scratch.
    fn is_over(pos: &Position) -> bool;

    /// The final scores of a finished game, player 1 first.
    fn final_scores(pos: &Position) -> [u16; 2];

    /// Why a finished game ended (by the position alone: repetition is the
    /// [`Game`](crate::Game)'s to see).
    fn end_reason(pos: &Position) -> EndReason;

    /// The final scores when the game ends because `pos` came round again since the
    /// last capture, or `None` for a variant without a repetition rule.
    fn repetition_scores(pos: &Position) -> Option<[u16; 2]>;
}

/// Every non-empty house of the player to move, in house order: the legal moves of
/// Kalah and simplified Oware, and of Oware while the opponent has seeds.
#[inline]
pub(crate) fn nonempty_houses(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    for (i, &n) in pos.houses(pos.to_move).iter().enumerate() {
        list.push_if(Move::from_index(i), n > 0);
    }
    list
}
