use super::{RuleSet, VariantInfo};
use crate::sowing::StepSink;
use crate::{EndReason, Move, MoveList, MoveReport, Position, SetupError, Side, SowStep, Variant};

/// Togyz Kumalak, the national mancala game of Kazakhstan, under its federation's rules.
///
/// - Two rows of H houses (9 in the standard game, with 9 seeds each); no stores on the
///   board: each player keeps captured seeds beside it.
/// - A move takes every seed of an own house and sows them anticlockwise **starting in
///   that same house**; a house with a single seed moves it to the next house.
/// - If the last seed makes a house on the opponent's row even, its seeds are captured.
/// - If it makes such a house exactly 3, the house becomes the mover's *tuzdyk* and the
///   3 are captured, unless the mover has one already (one a game), the house is the
///   opponent's last (Hth) house, or it has the number of the opponent's tuzdyk. Every
///   seed sown into a tuzdyk afterwards goes to its owner.
/// - More than half of the seeds wins (82 of 162), and 81 each is a draw; a player to
///   move with no seeds ends the game, and each player takes the seeds on their own
///   row.
/// - This project's addition, since without it a game can go round for ever (one house
///   of two seeds a side: 2|2, 1|3, 2|2): a position coming round again since the last
///   capture ends the game, each player taking their own row, as in Oware. See
///   [`Game`](crate::Game).
///
/// ```
/// use mancala_core::{Move, Position, Rules, Side};
/// let p = Position::new(Rules::togyz_kumalak(9, 9));
/// // House 9's nine seeds: one back into house 9, eight onto player 2's houses 1-8.
/// // The last makes player 2's house 8 hold 10, an even count: captured.
/// let p = p.play(Move::new(9).unwrap()).unwrap();
/// assert_eq!(p.houses(Side::South), &[9, 9, 9, 9, 9, 9, 9, 9, 1]);
/// assert_eq!(p.houses(Side::North), &[10, 10, 10, 10, 10, 10, 10, 0, 9]);
/// assert_eq!(p.stores(), [10, 0]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TogyzKumalak;

impl RuleSet for TogyzKumalak {
    #[inline]
    fn is_of(variant: Variant) -> bool {
        variant == Variant::TogyzKumalak
    }

    #[inline]
    fn info(_: &Position) -> &'static VariantInfo {
        &crate::info::TOGYZ_KUMALAK
    }

    #[inline]
    fn legal_moves(pos: &Position) -> MoveList {
        super::nonempty_houses(pos)
    }

    #[inline]
    fn legal_bits(pos: &Position) -> u32 {
        super::nonempty_bits(pos)
    }

    #[inline]
    fn sow<S: StepSink>(pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport {
        let h = pos.rules.houses();
        let ring = 2 * h;
        let me = pos.to_move;
        let origin = me.index() * h + mv.index();
        let n = pos.cells[origin];
        pos.cells[origin] = 0;
        pos.rows[me.index()] -= n;
        steps.record(|| SowStep::Lift {
            pit: pos.pit_of_cell(origin),
            seeds: n,
        });
        // The first seed goes back into the origin; a lone seed moves on.
        let start = if n == 1 { origin + 1 } else { origin };
        let n = usize::from(n);
        let (full, rem) = (n / ring, n % ring);
        if full > 0 {
            for _ in 0..full {
                pos.record_ring(start, ring, steps);
            }
            for c in &mut pos.cells[..ring] {
                *c += full as u16;
            }
            pos.rows[0] += (full * h) as u16;
            pos.rows[1] += (full * h) as u16;
        }
        let sown = pos.sow_ring(start, rem, steps);
        pos.rows[0] += sown[0];
        pos.rows[1] += sown[1];
        // Seeds sown into a tuzdyk belong to its owner (recorded as drops into the
        // owner's store already: see `Position::pit_of_cell`).
        for owner in Side::BOTH {
            if let Some(cell) = tuzdyk_cell(pos, owner) {
                let seeds = std::mem::take(&mut pos.cells[cell]);
                pos.stores[owner.index()] += seeds;
                pos.rows[owner.opponent().index()] -= seeds;
            }
        }
        let last = (start + n - 1) % ring;
        let report = capture(pos, last, steps);
        pos.to_move = me.opponent();
        pos.refresh_over();
        report
    }

    /// By arithmetic when the sowing does not go round the board (fewer seeds than
    /// houses on it): every house from the first sown gets one seed, so the last one
    /// makes its house hold one more than now. Otherwise played on a copy.
    #[inline]
    fn predict(pos: &Position, mv: Move) -> MoveReport {
        let h = pos.rules.houses();
        let ring = 2 * h;
        let me = pos.to_move;
        let origin = me.index() * h + mv.index();
        let n = usize::from(pos.cells[origin]);
        if n >= ring {
            let mut copy = *pos;
            return TogyzKumalak::play(&mut copy, mv);
        }
        // The first seed goes back into the origin (a lone seed moves on), so the last
        // lands n - 1 houses on, never in the emptied origin.
        let last = (origin + n.max(2) - 1) % ring;
        let them = me.opponent();
        let mut report = MoveReport::default();
        // On the own row nothing is captured. (The mover's tuzdyk holds no seeds: the
        // last seed would make it 1, which captures nothing, and goes to the mover.)
        if last / h != them.index() {
            return report;
        }
        let seeds = pos.cells[last] + 1;
        let house = (last - them.index() * h) as u8 + 1;
        let claims = seeds == 3
            && pos.tuzdyks[me.index()] == 0
            && usize::from(house) != h
            && house != pos.tuzdyks[them.index()];
        if seeds % 2 == 0 || claims {
            report.captured = seeds;
        }
        report
    }

    #[inline]
    fn captures_at(_: &Position, seeds: u16) -> bool {
        seeds > 0 && seeds % 2 == 0
    }

    #[inline]
    fn is_over(pos: &Position) -> bool {
        super::decided_by_captures(pos) || pos.rows[pos.to_move.index()] == 0
    }

    fn final_scores(pos: &Position) -> [u16; 2] {
        if super::decided_by_captures(pos) {
            pos.stores
        } else {
            pos.stores_plus_rows()
        }
    }

    fn end_reason(pos: &Position) -> EndReason {
        super::end_reason_by_captures(pos).unwrap_or(EndReason::NoSeeds(pos.to_move))
    }

    /// Each player takes their own row, as at the end by no seeds.
    fn repetition_scores(pos: &Position) -> Option<[u16; 2]> {
        Some(pos.stores_plus_rows())
    }

    fn check_setup(pos: &Position) -> Result<(), SetupError> {
        let h = pos.rules.houses() as u8;
        for owner in Side::BOTH {
            let t = pos.tuzdyks[owner.index()];
            let why = if t == 0 {
                continue;
            } else if t > h {
                "there is no such house"
            } else if t == h {
                "it cannot be the opponent's last house"
            } else if t == pos.tuzdyks[owner.opponent().index()] {
                "the two tuzdyks cannot have the same number"
            } else if pos.houses(owner.opponent())[usize::from(t - 1)] != 0 {
                "a tuzdyk holds no seeds"
            } else {
                continue;
            };
            return Err(SetupError::Claim {
                side: owner,
                word: pos.rules.variant().info().claim_word,
                why,
            });
        }
        Ok(())
    }
}

/// The cell of `owner`'s tuzdyk, if it has one.
#[inline]
fn tuzdyk_cell(pos: &Position, owner: Side) -> Option<usize> {
    let t = usize::from(pos.tuzdyks[owner.index()]);
    (t > 0).then(|| owner.opponent().index() * pos.rules.houses() + t - 1)
}

/// The capture of a move whose last seed landed in `last`: an even house on the
/// opponent's row, or a house of 3 claimed as the mover's tuzdyk.
#[inline]
fn capture<S: StepSink>(pos: &mut Position, last: usize, steps: &mut S) -> MoveReport {
    let h = pos.rules.houses();
    let me = pos.to_move;
    let them = me.opponent();
    let mut report = MoveReport::default();
    if last / h != them.index() {
        return report;
    }
    let house = (last - them.index() * h) as u8 + 1;
    let seeds = pos.cells[last];
    let claims = seeds == 3
        && pos.tuzdyks[me.index()] == 0
        && usize::from(house) != h
        && house != pos.tuzdyks[them.index()];
    if (seeds > 0 && seeds % 2 == 0) || claims {
        steps.record(|| SowStep::Capture {
            pit: pos.pit_of_cell(last),
            seeds,
        });
        pos.cells[last] = 0;
        pos.stores[me.index()] += seeds;
        pos.rows[them.index()] -= seeds;
        report.captured = seeds;
        if claims {
            pos.tuzdyks[me.index()] = house;
        }
    }
    report
}
