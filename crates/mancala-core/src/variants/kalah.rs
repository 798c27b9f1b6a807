use super::RuleSet;
use crate::{EndReason, EndRule, Move, MoveList, MoveReport, Position, Side, Variant};

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
    const VARIANT: Variant = Variant::Kalah;

    #[inline]
    fn legal_moves(pos: &Position) -> MoveList {
        super::nonempty_houses(pos)
    }

    #[inline]
    fn play(pos: &mut Position, mv: Move) -> MoveReport {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let (mine, theirs) = (me.index(), me.opponent().index());
        let own = mine * h;
        let opp = h - own;
        let i = mv.index();
        let n = pos.cells[own + i];
        pos.cells[own + i] = 0;
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
            let sown = pos.sow_ring(own + i + 1, left - usize::from(passes_store));
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

/// Adds `n` to each cell: the full laps of a long sowing, rare enough to be kept out
/// of the common path of [`Kalah::play`].
#[cold]
#[inline(never)]
fn add_to_each(cells: &mut [u16], n: u16) {
    for c in cells {
        *c += n;
    }
}
