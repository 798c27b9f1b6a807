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
        let mut report = MoveReport::default();
        let mut laps: u16 = 0;
        loop {
            laps = laps.saturating_add(1);
            match self.sow_lap(pos, from, &mut report, steps) {
                Spot::Store(side) => {
                    report.ended_in_store = side == me;
                    break;
                }
                Spot::Cell(cell) => {
                    if self.capture_at(pos, cell, Timing::Last, &mut report, steps) {
                        break;
                    }
                    match self.relay_from(pos, cell) {
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
                self.next(pos, at, from)
            };
            self.drop_seed(pos, at, steps);
            if let Spot::Cell(cell) = at
                && self.each_seed
            {
                self.capture_at(pos, cell, Timing::EachSeed, report, steps);
            }
        }
        at
    }

    /// The house a relay sowing goes on from after a lap ended in `cell`, if any.
    fn relay_from(&self, pos: &Position, cell: usize) -> Option<usize> {
        match self.sowing.relay {
            Relay::None => None,
            // The last seed made more than one: the house held seeds before it.
            Relay::Last => (pos.cells[cell] > 1).then_some(cell),
            // The mover's store next ends the sowing: a lap that went on past it
            // without a seed there could carry seeds round for ever.
            Relay::Next => self
                .next_house(pos, cell)
                .filter(|&next| pos.cells[next] > 0),
        }
    }

    /// The spot after `at` for the mover's sowing: round the houses in the game's
    /// direction, through the mover's store where seeds are sown into it, past the
    /// origin where laps skip it.
    fn next(&self, pos: &Position, at: Spot, origin: usize) -> Spot {
        let next = self.step(pos, at);
        match next {
            Spot::Cell(cell) if cell == origin && self.sowing.skip_origin => self.step(pos, next),
            other => other,
        }
    }

    /// The spot after `at` round the ring of houses and the mover's store.
    fn step(&self, pos: &Position, at: Spot) -> Spot {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let store = self.sowing.own_store;
        match (self.sowing.direction, at) {
            // Anticlockwise a player's store follows their last house.
            (Direction::Anticlockwise, Spot::Cell(cell)) => {
                if store && cell == me.index() * h + h - 1 {
                    Spot::Store(me)
                } else {
                    Spot::Cell((cell + 1) % (2 * h))
                }
            }
            (Direction::Anticlockwise, Spot::Store(side)) => {
                Spot::Cell((side.index() * h + h) % (2 * h))
            }
            // Clockwise the ring of houses is walked backwards, and a player's store
            // sits at the other end of their row, after their first house: the board
            // seen in a mirror, so that the sowing still passes the own row, then the
            // own store, then the opponent's row.
            (Direction::Clockwise, Spot::Cell(cell)) => {
                if store && cell == me.index() * h {
                    Spot::Store(me)
                } else {
                    Spot::Cell((cell + 2 * h - 1) % (2 * h))
                }
            }
            (Direction::Clockwise, Spot::Store(side)) => {
                Spot::Cell((side.index() * h + 2 * h - 1) % (2 * h))
            }
        }
    }

    /// The house after `cell` on the mover's sowing path, or `None` where the mover's
    /// store comes first.
    pub(super) fn next_house(&self, pos: &Position, cell: usize) -> Option<usize> {
        match self.step(pos, Spot::Cell(cell)) {
            Spot::Cell(next) => Some(next),
            Spot::Store(_) => None,
        }
    }

    /// The house before `cell` on the same row (against the sowing direction), if any.
    pub(super) fn previous_on_row(&self, pos: &Position, cell: usize) -> Option<usize> {
        let h = pos.rules.houses();
        let (row, i) = (cell / h, cell % h);
        match self.sowing.direction {
            Direction::Anticlockwise => (i > 0).then(|| cell - 1),
            Direction::Clockwise => (i + 1 < h).then(|| row * h + i + 1),
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
