use super::RuleSet;
use crate::{EndRule, Move, MoveList, MoveReport, Position, Side, Variant};

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

/// Where the last seed of a sowing landed, from the mover's point of view.
enum Landing {
    OwnHouse(usize),
    Store,
    OpponentHouse,
}

impl RuleSet for Kalah {
    const VARIANT: Variant = Variant::Kalah;

    #[inline]
    fn legal_moves(pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        for (i, &n) in pos.houses(pos.to_move).iter().enumerate() {
            list.push_if(Move::from_index(i), n > 0);
        }
        list
    }

    #[inline]
    fn play(pos: &mut Position, mv: Move) -> MoveReport {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let own = me.index() * h;
        let opp = h - own;
        let origin = mv.index();
        let mut left = usize::from(pos.cells[own + origin]);
        pos.cells[own + origin] = 0;

        // One lap is the own houses, the own store and the opponent's houses.
        let lap = 2 * h + 1;
        let mut landing = Landing::OwnHouse(origin);
        if left >= lap {
            let full = (left / lap) as u16;
            for c in &mut pos.cells[..2 * h] {
                *c += full;
            }
            pos.stores[me.index()] += full;
            left %= lap;
        }
        if left > 0 {
            // At most one partial lap remains: own houses after the origin, the store,
            // the opponent's houses, then own houses up to and including the origin.
            let k = left.min(h - 1 - origin);
            for c in &mut pos.cells[own + origin + 1..][..k] {
                *c += 1;
            }
            left -= k;
            landing = Landing::OwnHouse(origin + k);
            if left > 0 {
                pos.stores[me.index()] += 1;
                left -= 1;
                landing = Landing::Store;
            }
            if left > 0 {
                let k = left.min(h);
                for c in &mut pos.cells[opp..][..k] {
                    *c += 1;
                }
                left -= k;
                landing = Landing::OpponentHouse;
            }
            if left > 0 {
                for c in &mut pos.cells[own..][..left] {
                    *c += 1;
                }
                landing = Landing::OwnHouse(left - 1);
            }
        }

        let mut report = MoveReport::default();
        match landing {
            Landing::Store => report.ended_in_store = true,
            Landing::OwnHouse(i) => {
                if pos.cells[own + i] == 1 {
                    let facing = opp + h - 1 - i;
                    let taken = pos.cells[facing];
                    if taken > 0 || pos.rules.options().empty_capture {
                        pos.stores[me.index()] += taken + 1;
                        report.captured = taken + 1;
                        pos.cells[facing] = 0;
                        pos.cells[own + i] = 0;
                    }
                }
                pos.to_move = me.opponent();
            }
            Landing::OpponentHouse => pos.to_move = me.opponent(),
        }
        pos.refresh_over();
        report
    }

    #[inline]
    fn is_over(pos: &Position) -> bool {
        match pos.rules.options().end_rule {
            EndRule::MoverCannotMove => pos.row_sum(pos.to_move) == 0,
            EndRule::EitherSideEmpty => {
                pos.row_sum(Side::South) == 0 || pos.row_sum(Side::North) == 0
            }
        }
    }

    fn final_scores(pos: &Position) -> [u16; 2] {
        pos.stores_plus_rows()
    }
}
