//! A move under a description: the sowing seed by seed, its captures and claims, and
//! who moves next.

use super::Described;
use crate::description::{CaptureKind, EmptyFacing, First, GrandSlam, NoMove, Row, Timing};
use crate::sowing::StepSink;
use crate::{Move, MoveReport, Pit, Position, Side, SowStep};

/// Where a seed can go: a house (by its cell, player 1's houses first) or a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
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

    /// The sowing and its captures, leaving the player to move as it was.
    pub(super) fn sow<S: StepSink>(
        &self,
        pos: &mut Position,
        mv: Move,
        steps: &mut S,
    ) -> MoveReport {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let origin = me.index() * h + mv.index();
        let n = std::mem::take(&mut pos.cells[origin]);
        steps.record(|| SowStep::Lift {
            pit: pos.pit_of_cell(origin),
            seeds: n,
        });
        let mut report = MoveReport::default();
        let mut at = Spot::Cell(origin);
        for k in 0..n {
            at = if k == 0 && self.sowing.first == First::Origin && n > 1 {
                Spot::Cell(origin)
            } else {
                self.next(pos, at, origin)
            };
            self.drop_seed(pos, at, steps);
            if let Spot::Cell(cell) = at
                && self.each_seed
            {
                report.captured += self.capture_at(pos, cell, Timing::EachSeed, steps);
            }
        }
        match at {
            Spot::Store(side) => report.ended_in_store = side == me,
            Spot::Cell(cell) => report.captured += self.capture_at(pos, cell, Timing::Last, steps),
        }
        pos.recount_rows();
        report
    }

    /// The spot after `at` for the mover's sowing: round the houses anticlockwise,
    /// through the mover's store where seeds are sown into it, past the origin where
    /// laps skip it.
    fn next(&self, pos: &Position, at: Spot, origin: usize) -> Spot {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let after = |cell: usize| {
            let side = if cell < h { Side::South } else { Side::North };
            if cell % h == h - 1 && side == me && self.sowing.own_store {
                Spot::Store(me)
            } else {
                Spot::Cell((cell + 1) % (2 * h))
            }
        };
        let next = match at {
            Spot::Cell(cell) => after(cell),
            Spot::Store(side) => Spot::Cell((side.index() * h + h) % (2 * h)),
        };
        match next {
            Spot::Cell(cell) if cell == origin && self.sowing.skip_origin => after(cell),
            other => other,
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

    /// The captures (and claim) the rules of `timing` make where a seed landed in
    /// `cell`; the seeds taken.
    fn capture_at<S: StepSink>(
        &self,
        pos: &mut Position,
        cell: usize,
        timing: Timing,
        steps: &mut S,
    ) -> u16 {
        if self.claim.is_some() && matches!(pos.pit_of_cell(cell), Pit::Store(_)) {
            return 0;
        }
        let mut taken = 0;
        for capture in self.captures.iter().filter(|c| c.timing == timing) {
            taken += match capture.kind {
                CaptureKind::Count => self.count_capture(pos, cell, capture, steps),
                CaptureKind::Across => across_capture(pos, cell, capture.empty_facing, steps),
            };
        }
        if taken == 0 && timing == Timing::Last {
            taken = self.claim_at(pos, cell, steps);
        }
        taken
    }

    fn count_capture<S: StepSink>(
        &self,
        pos: &mut Position,
        cell: usize,
        capture: &crate::description::Capture,
        steps: &mut S,
    ) -> u16 {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let row = cell / h;
        let allowed = match capture.row {
            Row::Opponent => row == me.opponent().index(),
            Row::Own => row == me.index(),
            Row::Either => true,
        };
        let captures = |seeds: u16| {
            seeds > 0 && (capture.counts.contains(&seeds) || (capture.even && seeds % 2 == 0))
        };
        if !allowed || !captures(pos.cells[cell]) {
            return 0;
        }
        let mut first = cell;
        let mut taken = pos.cells[cell];
        while capture.run
            && first > row * h
            && matches!(pos.pit_of_cell(first - 1), Pit::House { .. })
            && captures(pos.cells[first - 1])
        {
            first -= 1;
            taken += pos.cells[first];
        }
        let row_total: u16 = pos.cells[row * h..row * h + h].iter().sum();
        if capture.grand_slam == GrandSlam::NoCapture
            && row == me.opponent().index()
            && taken == row_total
        {
            return 0;
        }
        for c in (first..=cell).rev() {
            let seeds = std::mem::take(&mut pos.cells[c]);
            steps.record(|| SowStep::Capture {
                pit: pos.pit_of_cell(c),
                seeds,
            });
        }
        pos.stores[me.index()] += taken;
        taken
    }

    /// The claim of the house the last seed landed in, if the claim rule allows it; the
    /// seeds taken with it.
    fn claim_at<S: StepSink>(&self, pos: &mut Position, cell: usize, steps: &mut S) -> u16 {
        let Some(claim) = &self.claim else { return 0 };
        let h = pos.rules.houses();
        let me = pos.to_move;
        let them = me.opponent();
        if cell / h != them.index() {
            return 0;
        }
        let house = (cell - them.index() * h) as u8 + 1;
        let seeds = pos.cells[cell];
        let allowed = seeds == claim.count
            && pos.tuzdyks[me.index()] == 0
            && !(claim.not_last_house && usize::from(house) == h)
            && !(claim.not_mirror && house == pos.tuzdyks[them.index()]);
        if !allowed {
            return 0;
        }
        steps.record(|| SowStep::Capture {
            pit: pos.pit_of_cell(cell),
            seeds,
        });
        pos.cells[cell] = 0;
        pos.stores[me.index()] += seeds;
        pos.tuzdyks[me.index()] = house;
        seeds
    }
}

/// An across capture: the last seed in an own house that was empty takes itself and
/// the facing house's seeds (and alone where the facing house is empty, if allowed).
fn across_capture<S: StepSink>(
    pos: &mut Position,
    cell: usize,
    empty_facing: EmptyFacing,
    steps: &mut S,
) -> u16 {
    let h = pos.rules.houses();
    let me = pos.to_move;
    if cell / h != me.index() || pos.cells[cell] != 1 {
        return 0;
    }
    let facing = me.opponent().index() * h + (h - 1 - cell % h);
    let taken = pos.cells[facing];
    if taken == 0 && empty_facing == EmptyFacing::NoCapture {
        return 0;
    }
    steps.record(|| SowStep::Capture {
        pit: pos.pit_of_cell(cell),
        seeds: 1,
    });
    if taken > 0 {
        steps.record(|| SowStep::Capture {
            pit: pos.pit_of_cell(facing),
            seeds: taken,
        });
    }
    pos.cells[cell] = 0;
    pos.cells[facing] = 0;
    pos.stores[me.index()] += taken + 1;
    taken + 1
}
