//! The rule set of every described game: [`ByDescription`] answers
//! [`RuleSet`]'s questions by asking the engine of the position's own description, so
//! that everything written over rule sets (positions, search kernels, playouts) plays a
//! described game as it plays a hand-written one.

use super::Described;
use crate::description::{CaptureKind, Row};
use crate::sowing::StepSink;
use crate::variants::RuleSet;
use crate::{EndReason, Move, MoveList, MoveReport, Position, SetupError, Variant};

/// The [`RuleSet`] of [`Variant::Described`] positions.
///
/// ```
/// use mancala_core::described::{ByDescription, DescribedGame};
/// use mancala_core::description::Description;
/// use mancala_core::variants::RuleSet;
/// use mancala_core::{Position, Rules, Variant};
/// let mut d = Description::builtin("oware").unwrap();
/// d.key = "oware-no-feeding".into();
/// d.turn.must_feed = false;
/// let game = Variant::Described(DescribedGame::intern(d).unwrap());
/// let start = Position::new(Rules::standard(game));
/// assert!(ByDescription::is_of(game));
/// assert!(ByDescription::captures_at(&start, 3) && !ByDescription::captures_at(&start, 4));
/// assert_eq!(ByDescription::legal_moves(&start).len(), 6);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ByDescription;

/// The engine of a described position's game.
#[inline]
fn engine(pos: &Position) -> &'static Described {
    match pos.rules.variant() {
        Variant::Described(game) => game.engine(),
        other => unreachable!("ByDescription asked about a {other} position"),
    }
}

impl RuleSet for ByDescription {
    #[inline]
    fn is_of(variant: Variant) -> bool {
        matches!(variant, Variant::Described(_))
    }

    #[inline]
    fn legal_moves(pos: &Position) -> MoveList {
        engine(pos).legal_moves(pos)
    }

    #[inline]
    fn sow<S: StepSink>(pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport {
        engine(pos).play(pos, mv, steps)
    }

    fn captures_at(pos: &Position, seeds: u16) -> bool {
        engine(pos).captures().iter().any(|c| {
            c.kind == CaptureKind::Count
                && c.row != Row::Own
                && ((c.even && seeds % 2 == 0) || c.counts.contains(&seeds))
        })
    }

    fn is_over(pos: &Position) -> bool {
        engine(pos).is_over(pos)
    }

    fn final_scores(pos: &Position) -> [u16; 2] {
        engine(pos).final_scores(pos)
    }

    fn end_reason(pos: &Position) -> EndReason {
        engine(pos).end_reason(pos)
    }

    fn repetition_scores(pos: &Position) -> Option<[u16; 2]> {
        engine(pos).repetition_scores(pos)
    }

    fn check_setup(pos: &Position) -> Result<(), SetupError> {
        engine(pos).check_setup(pos)
    }
}
