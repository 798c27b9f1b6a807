//! The rule sets, and what each variant is: its description for everything outside
//! the rules core to ask.
//!
//! A variant is one module here: a type implementing [`RuleSet`] (how moves are played
//! and games end, reporting every sowing step from the code that plays it) with its
//! [`VariantInfo`] (key, display name, rules text, board defaults, options, what the
//! board has). Adding one means that module, one [`Variant`] case, one line in
//! [`with_rule_set!`](crate::with_rule_set) and its tests; front ends list variants
//! from [`Variant::ALL`] and read everything else from [`Variant::info`].

mod kalah;
mod oware;
mod simplified;
mod togyz;

pub use kalah::Kalah;
pub use oware::Oware;
pub use simplified::OwareSimplified;
pub use togyz::TogyzKumalak;

pub use crate::info::{Leftover, RuleOptionInfo, VariantInfo};

use crate::sowing::{NoSteps, StepSink};
use crate::{EndReason, Move, MoveList, MoveReport, Position, SetupError, Variant};

/// What a variant must answer. Implemented by [`Kalah`], [`Oware`],
/// [`OwareSimplified`] and [`TogyzKumalak`]; positions call them for their own variant.
///
/// Functions receive positions of their own variant only; `sow` and `play` receive
/// only legal moves of positions that are not over.
///
/// ```
/// use mancala_core::variants::{Kalah, RuleSet};
/// use mancala_core::{Position, Rules, Variant};
/// assert!(Kalah::is_of(Variant::Kalah));
/// let start = Position::new(Rules::kalah(4, 3));
/// assert_eq!(Kalah::info(&start).name, "Kalah");
/// assert_eq!(Kalah::legal_moves(&start).len(), 4);
/// ```
pub trait RuleSet {
    /// Whether these rules play `variant`'s positions.
    fn is_of(variant: Variant) -> bool;

    /// What the game of `pos` is, for front ends, records and players (a hand-written
    /// rule set answers with a constant).
    #[inline]
    fn info(pos: &Position) -> &'static VariantInfo {
        pos.rules.variant().info()
    }

    /// The legal moves of a position that is not over, in house order.
    fn legal_moves(pos: &Position) -> MoveList;

    /// The legal moves of a position that is not over as bits: house `h` is bit
    /// `h - 1`. By default from [`RuleSet::legal_moves`]; a variant whose legal moves
    /// are the non-empty houses answers with one pass over the row, which batched
    /// games (the Python package's `VectorGame`) ask of every game at every step.
    #[inline]
    fn legal_bits(pos: &Position) -> u32 {
        Self::legal_moves(pos)
            .iter()
            .fold(0, |bits, mv| bits | 1 << mv.index())
    }

    /// Plays a legal move in place: sowing, captures, the next player to move and the
    /// end of the game, telling `steps` every step as it makes it. Returns what the
    /// move did.
    fn sow<S: StepSink>(pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport;

    /// Plays a legal move in place without recording its steps: the path of search.
    #[inline]
    fn play(pos: &mut Position, mv: Move) -> MoveReport {
        Self::sow(pos, mv, &mut NoSteps)
    }

    /// What playing a legal move would report, without playing it where the variant
    /// can say by arithmetic on the board: search asks this of every move it orders, so
    /// a variant may answer faster than a sowing. By default the move is played on a
    /// copy. Must agree with [`RuleSet::play`].
    #[inline]
    fn predict(pos: &Position, mv: Move) -> MoveReport {
        let mut copy = *pos;
        Self::play(&mut copy, mv)
    }

    /// Whether a seed sown onto the opponent's row captures the house it lands in by
    /// making it hold `seeds`, by the count alone (Oware: 2 or 3; Togyz Kumalak: an
    /// even number; simplified Oware: 2). What else a capture asks (which seed, a grand
    /// slam, a tuzdyk's claim) is left aside: evaluations count the opponent's houses
    /// one seed from a capture. `false` (the default) where captures are made
    /// otherwise (Kalah: from an own empty house).
    ///
    /// ```
    /// use mancala_core::variants::{Kalah, Oware, RuleSet, TogyzKumalak};
    /// use mancala_core::{Position, Rules};
    /// let (oware, togyz) = (Position::new(Rules::oware(6, 4)), Position::new(Rules::togyz_kumalak(9, 9)));
    /// assert!(Oware::captures_at(&oware, 3) && !Oware::captures_at(&oware, 4));
    /// assert!(TogyzKumalak::captures_at(&togyz, 4) && !TogyzKumalak::captures_at(&togyz, 3));
    /// assert!(!Kalah::captures_at(&Position::new(Rules::kalah(6, 4)), 2));
    /// ```
    #[inline]
    fn captures_at(pos: &Position, seeds: u16) -> bool {
        let _ = (pos, seeds);
        false
    }

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

    /// What the variant forbids in a position set up from parts, beyond seeds adding
    /// up (checked for every variant).
    ///
    /// # Errors
    /// What is wrong.
    fn check_setup(pos: &Position) -> Result<(), SetupError> {
        let _ = pos;
        Ok(())
    }
}

/// Every non-empty house of the player to move, in house order: the legal moves of
/// Kalah, simplified Oware and Togyz Kumalak, and of Oware while the opponent has
/// seeds.
#[inline]
pub(crate) fn nonempty_houses(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    for (i, &n) in pos.houses(pos.to_move).iter().enumerate() {
        list.push_if(Move::from_index(i), n > 0);
    }
    list
}

/// [`nonempty_houses`] as bits (house `h` is bit `h - 1`), without branches.
#[inline]
pub(crate) fn nonempty_bits(pos: &Position) -> u32 {
    pos.houses(pos.to_move)
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &n)| bits | u32::from(n > 0) << i)
}

/// Whether the captures alone decide the game: a player has more than half of the
/// seeds, or each has exactly half. Then the seeds left on the board count for
/// nobody; a single player with exactly half has not won yet (Oware, Togyz Kumalak).
#[inline]
pub(crate) fn decided_by_captures(pos: &Position) -> bool {
    let total = pos.rules.total_seeds();
    let [a, b] = pos.stores;
    2 * a > total || 2 * b > total || (2 * a == total && 2 * b == total)
}

/// The end reason when the captures decided the game, `None` otherwise.
pub(crate) fn end_reason_by_captures(pos: &Position) -> Option<EndReason> {
    let total = pos.rules.total_seeds();
    if let Some(side) = crate::Side::BOTH
        .into_iter()
        .find(|s| 2 * pos.store(*s) > total)
    {
        Some(EndReason::Majority(side))
    } else if decided_by_captures(pos) {
        Some(EndReason::HalfEach)
    } else {
        None
    }
}
