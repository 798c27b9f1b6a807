use super::{RuleSet, VariantInfo};
use crate::sowing::StepSink;
use crate::{EndReason, Move, MoveList, MoveReport, Position, SowStep, Variant};

/// Oware under the Abapa tournament rules.
///
/// - Sowing is anticlockwise over both rows (no stores); a sowing of `2H` seeds or more
///   skips the origin house.
/// - If the last seed makes a house on the opponent's row hold 2 or 3, those seeds are
///   captured, and so are the houses before it on the opponent's row while they hold 2
///   or 3. A move that would capture every seed on the opponent's row is legal but
///   captures nothing (grand slam).
/// - If the opponent's row is empty, only moves that give it seeds are legal; if there is
///   none, the game ends and each player takes the seeds on their own row.
/// - The game ends when a player has captured more than half of all seeds, or both have
///   captured exactly half; the seeds left on the board then belong to nobody. A
///   player with exactly half has not won: play goes on, and if it then ends with no
///   move (or by repetition) each player takes their own row as usual, which can make
///   it a draw.
/// - The repetition rule (a position repeating since the last capture ends the game and
///   each player takes their own row) needs the history: see [`Game`](crate::Game).
///
/// ```
/// use mancala_core::{Move, Position, Rules, Side};
/// let p = Position::new(Rules::oware(6, 4));
/// let p = p.play(Move::new(6).unwrap()).unwrap();
/// assert_eq!(p.houses(Side::North), &[5, 5, 5, 5, 4, 4]);
/// assert_eq!(p.to_move(), Side::North);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Oware;

impl RuleSet for Oware {
    #[inline]
    fn is_of(variant: Variant) -> bool {
        variant == Variant::Oware
    }

    #[inline]
    fn info(_: &Position) -> &'static VariantInfo {
        &crate::info::OWARE
    }

    #[inline]
    fn legal_moves(pos: &Position) -> MoveList {
        let me = pos.to_move;
        if pos.row_sum(me.opponent()) > 0 {
            return super::nonempty_houses(pos);
        }
        // Must feed: seeds from house i reach the opponent's row from the (h - i)-th
        // seed on.
        let h = pos.rules.houses();
        let mut list = MoveList::new();
        for (i, &n) in pos.houses(me).iter().enumerate() {
            list.push_if(Move::from_index(i), usize::from(n) >= h - i);
        }
        list
    }

    #[inline]
    fn legal_bits(pos: &Position) -> u32 {
        if pos.row_sum(pos.to_move.opponent()) > 0 {
            super::nonempty_bits(pos)
        } else {
            Self::legal_moves(pos)
                .iter()
                .fold(0, |bits, mv| bits | 1 << mv.index())
        }
    }

    #[inline]
    fn sow<S: StepSink>(pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport {
        let h = pos.rules.houses();
        let ring = 2 * h;
        let me = pos.to_move;
        let opp = (h - me.index() * h)..(2 * h - me.index() * h);
        let origin = me.index() * h + mv.index();
        let n = usize::from(pos.cells[origin]);
        pos.cells[origin] = 0;
        pos.rows[me.index()] -= n as u16;
        steps.record(|| SowStep::Lift {
            pit: pos.pit_of_cell(origin),
            seeds: n as u16,
        });

        // Laps skip the origin: every other house gets `full`, then `rem` more seeds go
        // to the houses after the origin (never reaching it again).
        let lap = ring - 1;
        let (full, rem) = (n / lap, n % lap);
        if full > 0 {
            if S::RECORDS {
                for _ in 0..full {
                    pos.record_ring(origin + 1, lap, steps);
                }
            }
            let full = full as u16;
            for (i, c) in pos.cells[..ring].iter_mut().enumerate() {
                if i != origin {
                    *c += full;
                }
            }
            pos.rows[me.index()] += full * (h as u16 - 1);
            pos.rows[me.opponent().index()] += full * h as u16;
        }
        let sown = pos.sow_ring(origin + 1, rem, steps);
        pos.rows[0] += sown[0];
        pos.rows[1] += sown[1];
        // With no partial lap the last seed is in the house just before the origin.
        let sown_seeds = if rem == 0 { lap } else { rem };
        let last = (origin + sown_seeds) % ring;

        let mut report = MoveReport::default();
        if opp.contains(&last) && (2..=3).contains(&pos.cells[last]) {
            let mut first = last;
            let mut taken = pos.cells[last];
            while first > opp.start && (2..=3).contains(&pos.cells[first - 1]) {
                first -= 1;
                taken += pos.cells[first];
            }
            let opponent_row = pos.rows[me.opponent().index()];
            if taken < opponent_row {
                if S::RECORDS {
                    for cell in (first..=last).rev() {
                        let pit = pos.pit_of_cell(cell);
                        steps.record(|| SowStep::Capture {
                            pit,
                            seeds: pos.cells[cell],
                        });
                    }
                }
                pos.cells[first..=last].fill(0);
                pos.stores[me.index()] += taken;
                pos.rows[me.opponent().index()] -= taken;
                report.captured = taken;
            }
        }
        pos.to_move = me.opponent();
        pos.refresh_over();
        report
    }

    /// By arithmetic when the sowing does not go round the board (fewer seeds than the
    /// other houses); otherwise played on a copy.
    #[inline]
    fn predict(pos: &Position, mv: Move) -> MoveReport {
        predict_without_lap(pos, mv).unwrap_or_else(|| {
            let mut copy = *pos;
            Oware::play(&mut copy, mv)
        })
    }

    #[inline]
    fn captures_at(_: &Position, seeds: u16) -> bool {
        (2..=3).contains(&seeds)
    }

    #[inline]
    fn is_over(pos: &Position) -> bool {
        super::decided_by_captures(pos) || {
            // No legal move: the mover has no seeds, or cannot feed an empty opponent.
            let me = pos.to_move;
            let h = pos.rules.houses();
            if pos.row_sum(me.opponent()) == 0 {
                !pos.houses(me)
                    .iter()
                    .enumerate()
                    .any(|(i, &n)| usize::from(n) >= h - i)
            } else {
                pos.row_sum(me) == 0
            }
        }
    }

    fn final_scores(pos: &Position) -> [u16; 2] {
        if super::decided_by_captures(pos) {
            pos.stores
        } else {
            pos.stores_plus_rows()
        }
    }

    fn end_reason(pos: &Position) -> EndReason {
        let me = pos.to_move;
        if let Some(reason) = super::end_reason_by_captures(pos) {
            reason
        } else if pos.row_sum(me) == 0 {
            EndReason::NoSeeds(me)
        } else {
            EndReason::CannotFeed(me)
        }
    }

    fn repetition_scores(pos: &Position) -> Option<[u16; 2]> {
        Some(pos.stores_plus_rows())
    }
}

/// [`Oware::predict`] without a lap: the sowing covers the cells after the origin round
/// the ring of both rows, one seed each; `None` for a sowing that laps.
#[inline]
fn predict_without_lap(pos: &Position, mv: Move) -> Option<MoveReport> {
    let h = pos.rules.houses();
    let me = pos.to_move;
    let i = mv.index();
    let n = usize::from(pos.houses(me)[i]);
    if n >= 2 * h - 1 {
        return None;
    }
    let mut report = MoveReport::default();
    // Seeds for the own houses after the origin, then the opponent's row.
    let to_own = h - 1 - i;
    if n <= to_own {
        return Some(report);
    }
    let reach = (n - to_own).min(h); // opponent's houses 0..reach got a seed
    if n - to_own > h {
        // The last seed is back on the own row.
        return Some(report);
    }
    let theirs = pos.houses(me.opponent());
    let mut taken = 0;
    for &c in theirs[..reach].iter().rev() {
        let after = c + 1;
        if !(2..=3).contains(&after) {
            break;
        }
        taken += after;
    }
    // A grand slam (every seed of the opponent's row) captures nothing.
    if taken > 0 && taken < pos.row_sum(me.opponent()) + reach as u16 {
        report.captured = taken;
    }
    Some(report)
}
