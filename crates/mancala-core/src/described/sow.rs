//! A move under a description: the sowing seed by seed and lap by lap, and who moves
//! next. The captures and claims it makes are `capture.rs`'s.

use super::Described;
use crate::description::{Direction, First, NoMove, Relay, Timing};
use crate::sowing::StepSink;
use crate::{Move, MoveReport, Pit, Position, Side, SowStep};

/// Where a seed can go: a house (by its cell, player 1's houses first) or a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spot {
    Cell(usize),
    Store(Side),
}

impl Described {
    /// Plays a legal move in place, telling `steps` every step: the sowing, captures,
    /// claims, who moves next and whether the game is over. Returns what the move did.
    pub fn play<S: StepSink>(&self, pos: &mut Position, mv: Move, steps: &mut S) -> MoveReport {
        let me = pos.to_move;
        let report = self.sow(pos, mv, steps);
        pos.to_move = if self.extra_turn && report.ended_in_store {
            me
        } else {
            me.opponent()
        };
        if self.no_move == NoMove::Pass && self.legal_moves(pos).is_empty() {
            pos.to_move = me;
        }
        pos.over = self.is_over(pos);
        report
    }

    /// The sowing and its captures, lap after lap, leaving the player to move as it
    /// was. A lap that ends in a house tries the capture rules; one that captures ends
    /// the sowing, else a relay sowing goes on (until `max_laps` laps, where bounded).
    pub(super) fn sow<S: StepSink>(
        &self,
        pos: &mut Position,
        mv: Move,
        steps: &mut S,
    ) -> MoveReport {
        let me = pos.to_move;
        let mut from = me.index() * pos.rules.houses() + mv.index();
        let path = self.path(pos, pos.cells[from]);
        let mut report = MoveReport::default();
        let mut laps: u16 = 0;
        loop {
            laps = laps.saturating_add(1);
            match self.sow_lap(pos, from, &path, &mut report, steps) {
                Spot::Store(side) => {
                    report.ended_in_store = side == me;
                    break;
                }
                Spot::Cell(cell) => {
                    if self.capture_at(pos, cell, Timing::Last, &path, &mut report, steps) {
                        break;
                    }
                    match self.relay_from(pos, &path, cell) {
                        Some(next) if laps != self.sowing.max_laps => from = next,
                        _ => break,
                    }
                }
            }
        }
        pos.recount_rows();
        report
    }

    /// One lap: every seed of `from` taken up and sown on; where the last one landed.
    fn sow_lap<S: StepSink>(
        &self,
        pos: &mut Position,
        from: usize,
        path: &Path,
        report: &mut MoveReport,
        steps: &mut S,
    ) -> Spot {
        let n = std::mem::take(&mut pos.cells[from]);
        steps.record(|| SowStep::Lift {
            pit: pos.pit_of_cell(from),
            seeds: n,
        });
        let mut at = Spot::Cell(from);
        for k in 0..n {
            at = if k == 0 && self.sowing.first == First::Origin && n > 1 {
                Spot::Cell(from)
            } else {
                // Where laps skip their origin, a seed never drops into it.
                match path.step(at) {
                    Spot::Cell(cell) if cell == from && self.sowing.skip_origin => {
                        path.step(Spot::Cell(cell))
                    }
                    next => next,
                }
            };
            self.drop_seed(pos, at, steps);
            if let Spot::Cell(cell) = at
                && self.each_seed
            {
                self.capture_at(pos, cell, Timing::EachSeed, path, report, steps);
            }
        }
        at
    }

    /// The house a relay sowing goes on from after a lap ended in `cell`, if any.
    fn relay_from(&self, pos: &Position, path: &Path, cell: usize) -> Option<usize> {
        match self.sowing.relay {
            Relay::None => None,
            // The last seed made more than one: the house held seeds before it.
            Relay::Last => (pos.cells[cell] > 1).then_some(cell),
            // The mover's store next ends the sowing: a lap that went on past it
            // without a seed there could carry seeds round for ever.
            Relay::Next => path.next_house(cell).filter(|&next| pos.cells[next] > 0),
        }
    }

    /// The mover's sowing path in `pos` for a sowing of `seeds` seeds.
    pub(super) fn path(&self, pos: &Position, seeds: u16) -> Path {
        let h = pos.rules.houses();
        let me = pos.to_move.index();
        let them = pos.to_move.opponent().index();
        let clockwise = match self.sowing.direction {
            Direction::Anticlockwise => false,
            Direction::Clockwise => true,
            Direction::ByCount => seeds % 2 == 1,
        };
        // Where the mover's store is on the ring: `store_after` the house it follows,
        // `resume` the house after it. Anticlockwise it follows the mover's last house.
        // A game sown clockwise has it at the other end of the row, after the first
        // house (the board seen in a mirror: own row, own store, opponent's row). Where
        // the count sets the direction the stores stay at the players' right, so a
        // clockwise sowing reaches the own store after the opponent's row (Cross-Kalah).
        let (store_after, resume) = match (self.sowing.direction, clockwise) {
            (_, false) => (me * h + h - 1, them * h),
            (Direction::Clockwise, true) => (me * h, them * h + h - 1),
            (_, true) => (them * h, me * h + h - 1),
        };
        Path {
            houses: h,
            clockwise,
            store_after: if self.sowing.own_store {
                store_after
            } else {
                usize::MAX
            },
            resume,
            me: pos.to_move,
        }
    }

    /// One seed into `at`: a claimed house's seed goes to its owner's store.
    fn drop_seed<S: StepSink>(&self, pos: &mut Position, at: Spot, steps: &mut S) {
        match at {
            Spot::Store(side) => {
                pos.stores[side.index()] += 1;
                steps.record(|| SowStep::Drop(Pit::Store(side)));
            }
            // Without claimed houses every house keeps its seeds: the common case,
            // without working out the pit unless the steps are recorded.
            Spot::Cell(cell) if self.claim.is_none() => {
                pos.cells[cell] += 1;
                steps.record(|| SowStep::Drop(pos.pit_of_cell(cell)));
            }
            Spot::Cell(cell) => {
                let pit = pos.pit_of_cell(cell);
                match pit {
                    Pit::Store(owner) => pos.stores[owner.index()] += 1,
                    Pit::House { .. } => pos.cells[cell] += 1,
                }
                steps.record(|| SowStep::Drop(pit));
            }
        }
    }
}

/// The ring a sowing goes round: both rows of houses in the move's direction, with
/// the mover's store after one house where seeds are sown into it.
pub(super) struct Path {
    houses: usize,
    clockwise: bool,
    /// The house the mover's store follows (`usize::MAX`: no store on the path).
    store_after: usize,
    /// The house the store is followed by.
    resume: usize,
    me: Side,
}

impl Path {
    /// The spot after `at`. (No `%`: a division costs more than the rest of a step.)
    #[inline]
    pub(super) fn step(&self, at: Spot) -> Spot {
        let ring = 2 * self.houses;
        match at {
            Spot::Cell(cell) if cell == self.store_after => Spot::Store(self.me),
            Spot::Cell(cell) if self.clockwise => {
                Spot::Cell(if cell == 0 { ring - 1 } else { cell - 1 })
            }
            Spot::Cell(cell) => Spot::Cell(if cell + 1 == ring { 0 } else { cell + 1 }),
            Spot::Store(_) => Spot::Cell(self.resume),
        }
    }

    /// The house after `cell` on the path, or `None` where the mover's store comes
    /// first.
    #[inline]
    pub(super) fn next_house(&self, cell: usize) -> Option<usize> {
        match self.step(Spot::Cell(cell)) {
            Spot::Cell(next) => Some(next),
            Spot::Store(_) => None,
        }
    }

    /// The house before `cell` on the same row (against the sowing), if any.
    #[inline]
    pub(super) fn previous_on_row(&self, cell: usize) -> Option<usize> {
        let i = cell % self.houses;
        if self.clockwise {
            (i + 1 < self.houses).then(|| cell + 1)
        } else {
            (i > 0).then(|| cell - 1)
        }
    }
}
