use super::{RuleSet, VariantInfo};
use crate::sowing::StepSink;
use crate::{EndReason, Move, MoveList, MoveReport, Position, SetupError, SowStep, Variant};

/// The simplified Oware of the Bern course assignment.
///
/// - Sowing runs over one cycle, player 1's houses 1..H then player 2's houses 1..H;
///   the origin house is refilled on laps.
/// - Every seed that turns a house on the opponent's row from 1 into 2 captures both
///   seeds at once, so one move can capture several houses (and refill a captured house
///   later in the same sowing). There is no capture on the mover's own row.
/// - A player whose row is empty is skipped: the other player moves again.
/// - The game is over when at most two seeds remain on the board; they belong to
///   nobody. (The assignment says "exactly two"; totals are even and a move can capture
///   the last four seeds at once, so "at most" is what ends every game.)
/// - This project's addition, since the course gives no rule for a game that cycles
///   (one house of four seeds each repeats from the first move): when a position
///   (board and player to move) comes round again since the last capture, the game
///   ends there. The seeds on the board count for nobody, as at the normal end, so the
///   captures decide: a draw when they are level, as in every such cycle from the
///   start. See [`Game`](crate::Game).
///
/// ```
/// use mancala_core::{Move, Position, Rules, Side};
/// // testOneTwo: size 1 with 2 seeds each.
/// let p = Position::new(Rules::oware_simplified(1, 2));
/// let p = p.play(Move::new(1).unwrap()).unwrap();
/// assert_eq!((p.houses(Side::South), p.houses(Side::North)), (&[1][..], &[3][..]));
/// let p = p.play(Move::new(1).unwrap()).unwrap();
/// assert_eq!(p.stores(), [0, 2]);
/// assert!(p.is_over());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OwareSimplified;

impl RuleSet for OwareSimplified {
    #[inline]
    fn is_of(variant: Variant) -> bool {
        variant == Variant::OwareSimplified
    }

    #[inline]
    fn info(_: &Position) -> &'static VariantInfo {
        &crate::info::OWARE_SIMPLIFIED
    }

    #[inline]
    fn legal_moves(pos: &Position) -> MoveList {
        super::nonempty_houses(pos)
    }

    #[inline]
    fn legal_bits(pos: &Position) -> u32 {
        super::nonempty_bits(pos)
    }

    fn sow<S: StepSink>(pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport {
        let h = pos.rules.houses();
        let ring = 2 * h;
        let me = pos.to_move;
        let opp = (h - me.index() * h)..(2 * h - me.index() * h);
        let mut at = me.index() * h + mv.index();
        let n = pos.cells[at];
        pos.cells[at] = 0;
        pos.rows[me.index()] -= n;
        steps.record(|| SowStep::Lift {
            pit: pos.pit_of_cell(at),
            seeds: n,
        });
        let mut report = MoveReport::default();
        let mut south_drops = 0;
        for _ in 0..n {
            at = if at + 1 == ring { 0 } else { at + 1 };
            pos.cells[at] += 1;
            south_drops += u16::from(at < h);
            steps.record(|| SowStep::Drop(pos.pit_of_cell(at)));
            if pos.cells[at] == 2 && opp.contains(&at) {
                steps.record(|| SowStep::Capture {
                    pit: pos.pit_of_cell(at),
                    seeds: 2,
                });
                pos.cells[at] = 0;
                pos.stores[me.index()] += 2;
                report.captured += 2;
            }
        }
        // Captures take seeds from the opponent's row only.
        pos.rows[0] += south_drops;
        pos.rows[1] += n - south_drops;
        pos.rows[me.opponent().index()] -= report.captured;
        if pos.row_sum(me.opponent()) > 0 {
            pos.to_move = me.opponent();
        }
        pos.refresh_over();
        report
    }

    #[inline]
    fn captures_at(_: &Position, seeds: u16) -> bool {
        seeds == 2
    }

    fn is_over(pos: &Position) -> bool {
        pos.seeds_in_play() <= 2
    }

    fn final_scores(pos: &Position) -> [u16; 2] {
        pos.stores
    }

    fn end_reason(_: &Position) -> EndReason {
        EndReason::FewSeedsLeft
    }

    fn repetition_scores(pos: &Position) -> Option<[u16; 2]> {
        Some(pos.stores)
    }

    /// A player with an empty row is skipped, so it cannot be their turn while the
    /// opponent has seeds.
    fn check_setup(pos: &Position) -> Result<(), SetupError> {
        if !pos.is_over() && pos.row_sum(pos.to_move) == 0 {
            return Err(SetupError::MoverSkipped(pos.to_move));
        }
        Ok(())
    }
}
