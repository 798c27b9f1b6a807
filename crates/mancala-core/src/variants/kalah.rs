use super::{RuleSet, VariantInfo};
use crate::sowing::StepSink;
use crate::{
    EndReason, EndRule, Move, MoveList, MoveReport, Pit, Position, Side, SowStep, Variant,
};

/// Kalah: anticlockwise sowing into the own store (skipping the opponent's), extra turn
/// when the last seed lands in the own store, capture from an own empty house.
///
/// The origin house is not skipped on long sowings: with `2H + 1` seeds or more it gets
/// a seed on every lap. Options (see [`RuleOptions`](crate::RuleOptions)): whether a
/// capture happens when the opposite house is empty, and when the game ends. A
/// player's final score is their store plus the seeds left in their houses.
///
/// ```
/// use mancala_core::{Move, Position, Rules, Side};
/// // The Auckland `capture` specification: 6, then 4, then 2 captures 5 + 1.
/// let mut p = Position::new(Rules::kalah(6, 4));
/// for h in [6, 4, 2] {
///     p = p.play(Move::new(h).unwrap()).unwrap();
/// }
/// assert_eq!(p.store(Side::South), 7);
/// assert_eq!(p.houses(Side::North), &[0, 5, 5, 0, 5, 5]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Kalah;

impl RuleSet for Kalah {
    #[inline]
    fn is_of(variant: Variant) -> bool {
        variant == Variant::Kalah
    }

    #[inline]
    fn info(_: &Position) -> &'static VariantInfo {
        &crate::info::KALAH
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
        let me = pos.to_move;
        let (mine, theirs) = (me.index(), me.opponent().index());
        let own = mine * h;
        let opp = h - own;
        let i = mv.index();
        let n = pos.cells[own + i];
        pos.cells[own + i] = 0;
        steps.record(|| SowStep::Lift {
            pit: pos.pit_of_cell(own + i),
            seeds: n,
        });
        // The row counts and the store are updated in registers and written back once:
        // a narrow write followed by a wide read of the same bytes stalls the processor.
        let mut rows = pos.rows;
        let mut store = pos.stores[mine];
        rows[mine] -= n;

        // One lap is the own houses, the own store and the opponent's houses; full
        // laps refill the origin too.
        let lap = 2 * h + 1;
        let mut left = usize::from(n);
        if left >= lap {
            let full = (left / lap) as u16;
            if S::RECORDS {
                for _ in 0..full {
                    record_lap(pos, own + i, steps);
                }
            }
            add_to_each(&mut pos.cells[..2 * h], full);
            store += full;
            let per_row = full * h as u16;
            rows[0] += per_row;
            rows[1] += per_row;
            left %= lap;
        }
        // The last seed, counted along the lap from own house 1: own houses `0..h`,
        // the store `h`, the opponent's houses `h + 1..=2h`, then own houses again.
        // With no partial lap it is the origin, the end of the last full lap.
        let mut last = i + left;
        if left > 0 {
            // The partial lap: the houses after the origin round the board, with the
            // store's seed taken out when the sowing passes it.
            let passes_store = left > h - 1 - i;
            store += u16::from(passes_store);
            let sown = if S::RECORDS && passes_store {
                // Recorded in sowing order: up to the store, the store, then on. The
                // same cells as the one pass below.
                let before = h - 1 - i;
                let a = pos.sow_ring(own + i + 1, before, steps);
                steps.record(|| SowStep::Drop(Pit::Store(me)));
                let b = pos.sow_ring(own + h, left - 1 - before, steps);
                [a[0] + b[0], a[1] + b[1]]
            } else {
                pos.sow_ring(own + i + 1, left - usize::from(passes_store), steps)
            };
            rows[0] += sown[0];
            rows[1] += sown[1];
            if last >= lap {
                last -= lap;
            }
        }

        // The extra turn and the capture are computed without branches: in search and
        // random playouts they are unpredictable, and a mispredicted branch costs more
        // than doing the arithmetic of both outcomes.
        let ended_in_store = last == h;
        let lands_own = last < h;
        // Where a capture would take from (house 0 and its facing house stand in when
        // the last seed is not on the own row: nothing is taken then).
        let landing = if lands_own { last } else { 0 };
        let (mine_at, facing) = (own + landing, opp + h - 1 - landing);
        let taken = pos.cells[facing];
        let captures = lands_own
            & (pos.cells[mine_at] == 1)
            & ((taken > 0) | pos.rules.options().empty_capture);
        let captured = u16::from(captures) * (taken + 1);
        if S::RECORDS && captures {
            steps.record(|| SowStep::Capture {
                pit: pos.pit_of_cell(mine_at),
                seeds: 1,
            });
            if taken > 0 {
                steps.record(|| SowStep::Capture {
                    pit: pos.pit_of_cell(facing),
                    seeds: taken,
                });
            }
        }
        store += captured;
        pos.cells[facing] -= u16::from(captures) * taken;
        pos.cells[mine_at] -= u16::from(captures);
        rows[mine] -= u16::from(captures);
        rows[theirs] -= u16::from(captures) * taken;
        pos.to_move = if ended_in_store { me } else { me.opponent() };
        let report = MoveReport {
            captured,
            ended_in_store,
        };
        pos.rows = rows;
        pos.stores[mine] = store;
        debug_assert_eq!(pos.rows, pos.counted_rows(), "stale row counts\n{pos}");
        pos.over = Kalah::is_over(pos);
        report
    }

    /// By arithmetic alone: counted along one lap from the mover's house 1 (own houses
    /// `0..h`, the store `h`, the opponent's houses `h + 1..=2h`), the seed dropped
    /// `k`-th from house `i` lands at `(i + k) mod (2h + 1)`.
    #[inline]
    fn predict(pos: &Position, mv: Move) -> MoveReport {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let own = pos.houses(me);
        let i = mv.index();
        let n = usize::from(own[i]);
        let lap = 2 * h + 1;
        let last = lap_position(i + n, lap);
        // Without branches, as in `sow`: which moves capture or earn another turn is
        // unpredictable. House 0 stands in for the landing house when the last seed is
        // not on the own row (no capture then).
        let ended_in_store = last == h;
        let lands_own = last < h;
        let landing = if lands_own { last } else { 0 };
        // The landing house held nothing (the origin was emptied) and got only the last
        // seed: at most one lap.
        let before = if landing == i { 0 } else { own[landing] };
        // The facing house's place on the lap is 2h - landing, reached by the
        // (2h - landing - i)-th seed.
        let reached = u16::from(n >= 2 * h - landing - i);
        let taken = pos.houses(me.opponent())[h - 1 - landing] + reached;
        let captures = lands_own
            & (before == 0)
            & (n <= lap)
            & ((taken > 0) | pos.rules.options().empty_capture);
        MoveReport {
            captured: u16::from(captures) * (taken + 1),
            ended_in_store,
        }
    }

    #[inline]
    fn is_over(pos: &Position) -> bool {
        match pos.rules.options().end_rule {
            EndRule::MoverCannotMove => pos.rows[pos.to_move.index()] == 0,
            EndRule::EitherSideEmpty => {
                pos.row_sum(Side::South) == 0 || pos.row_sum(Side::North) == 0
            }
        }
    }

    fn final_scores(pos: &Position) -> [u16; 2] {
        pos.stores_plus_rows()
    }

    fn end_reason(pos: &Position) -> EndReason {
        let me = pos.to_move;
        match pos.rules.options().end_rule {
            EndRule::MoverCannotMove => EndReason::NoSeeds(me),
            EndRule::EitherSideEmpty if pos.row_sum(me) == 0 => EndReason::SideEmpty(me),
            EndRule::EitherSideEmpty => EndReason::SideEmpty(me.opponent()),
        }
    }

    /// No position of Kalah can come round again: every move puts a seed in a store
    /// or moves seeds towards the mover's store.
    fn repetition_scores(_: &Position) -> Option<[u16; 2]> {
        None
    }
}

/// `k mod lap`, without the division when `k` is below two laps (almost every move:
/// a hardware division costs more than the rest of [`Kalah::predict`]).
#[inline]
fn lap_position(k: usize, lap: usize) -> usize {
    if k < lap {
        k
    } else if k < 2 * lap {
        k - lap
    } else {
        k % lap
    }
}

/// The drops of one full lap from the house at cell `origin`, in sowing order: the
/// houses after it, the store, the opponent's row, the own houses up to the origin.
/// Recording only; the board gets the laps from [`add_to_each`].
fn record_lap<S: StepSink>(pos: &Position, origin: usize, steps: &mut S) {
    let h = pos.rules.houses();
    let own = pos.to_move.index() * h;
    let before = own + h - 1 - origin;
    pos.record_ring(origin + 1, before, steps);
    steps.record(|| SowStep::Drop(Pit::Store(pos.to_move)));
    pos.record_ring(own + h, 2 * h - before, steps);
}

/// Adds `n` to each cell: the full laps of a long sowing, rare enough to be kept out
/// of the common path of [`Kalah::play`].
#[cold]
#[inline(never)]
fn add_to_each(cells: &mut [u16], n: u16) {
    for c in cells {
        *c += n;
    }
}
