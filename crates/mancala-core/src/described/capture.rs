//! The captures and claims a sowing makes under a description.

use super::Described;
use super::sow::Path;
use crate::description::{Capture, CaptureKind, EmptyFacing, GrandSlam, Row, Taker, Timing};
use crate::sowing::StepSink;
use crate::{MoveReport, Pit, Position, Side, SowStep};

impl Described {
    /// The captures (and claim) the rules of `timing` make where a seed landed in
    /// `cell`, the mover's added to `report`; whether anything was taken.
    pub(super) fn capture_at<S: StepSink>(
        &self,
        pos: &mut Position,
        cell: usize,
        timing: Timing,
        path: &Path,
        report: &mut MoveReport,
        steps: &mut S,
    ) -> bool {
        if self.claim.is_some() && matches!(pos.pit_of_cell(cell), Pit::Store(_)) {
            return false;
        }
        let me = pos.to_move;
        let mut any = false;
        for capture in self.captures.iter().filter(|c| c.timing == timing) {
            let (taker, taken) = match capture.kind {
                CaptureKind::Count => self.count_capture(pos, cell, capture, path, steps),
                CaptureKind::Across => (me, across_capture(pos, cell, capture.empty_facing, steps)),
                CaptureKind::Next => (me, self.next_capture(pos, cell, capture, path, steps)),
            };
            if taken > 0 {
                pos.stores[taker.index()] += taken;
                if taker == me {
                    report.captured += taken;
                }
                any = true;
            }
        }
        if !any && timing == Timing::Last {
            let taken = self.claim_at(pos, cell, steps);
            report.captured += taken;
            any = taken > 0;
        }
        any
    }

    /// A count capture at `cell` (with the run before it): who takes, and how many.
    fn count_capture<S: StepSink>(
        &self,
        pos: &mut Position,
        cell: usize,
        capture: &Capture,
        path: &Path,
        steps: &mut S,
    ) -> (Side, u16) {
        let h = pos.rules.houses();
        let me = pos.to_move;
        let row = cell / h;
        let owner = if row == 0 { Side::South } else { Side::North };
        let taker = match capture.by {
            Taker::Mover => me,
            Taker::Owner => owner,
        };
        let captures = |seeds: u16| {
            seeds > 0 && (capture.counts.contains(&seeds) || (capture.even && seeds % 2 == 0))
        };
        if !row_allowed(capture.row, me, owner) || !captures(pos.cells[cell]) {
            return (taker, 0);
        }
        // The captured houses run back along the row from `cell` to `first`.
        let mut first = cell;
        let mut taken = pos.cells[cell];
        while let Some(before) = path
            .previous_on_row(first)
            .filter(|_| capture.run)
            .filter(|&c| matches!(pos.pit_of_cell(c), Pit::House { .. }))
            .filter(|&c| captures(pos.cells[c]))
        {
            first = before;
            taken += pos.cells[before];
        }
        let row_total: u16 = pos.cells[row * h..row * h + h].iter().sum();
        if capture.grand_slam == GrandSlam::NoCapture
            && owner == me.opponent()
            && taken == row_total
        {
            return (taker, 0);
        }
        let mut c = cell;
        loop {
            let seeds = std::mem::take(&mut pos.cells[c]);
            steps.record(|| SowStep::Capture {
                pit: pos.pit_of_cell(c),
                seeds,
            });
            match path.previous_on_row(c) {
                Some(before) if c != first => c = before,
                _ => break,
            }
        }
        (taker, taken)
    }

    /// A next capture: the last seed in `cell`, the house after it empty, the house
    /// after that one (and, with `facing`, the house facing it) captured; how many.
    fn next_capture<S: StepSink>(
        &self,
        pos: &mut Position,
        cell: usize,
        capture: &Capture,
        path: &Path,
        steps: &mut S,
    ) -> u16 {
        let h = pos.rules.houses();
        let Some(gap) = path.next_house(cell) else {
            return 0;
        };
        let Some(target) = path.next_house(gap) else {
            return 0;
        };
        let owner = if target < h { Side::South } else { Side::North };
        let open = |pos: &Position, c: usize| matches!(pos.pit_of_cell(c), Pit::House { .. });
        if pos.cells[gap] != 0
            || pos.cells[target] == 0
            || !open(pos, target)
            || !row_allowed(capture.row, pos.to_move, owner)
        {
            return 0;
        }
        let facing = owner.opponent().index() * h + (h - 1 - target % h);
        let mut taken = 0;
        for c in [target, facing] {
            if (c == target || capture.facing) && open(pos, c) && pos.cells[c] > 0 {
                let seeds = std::mem::take(&mut pos.cells[c]);
                steps.record(|| SowStep::Capture {
                    pit: pos.pit_of_cell(c),
                    seeds,
                });
                taken += seeds;
            }
        }
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

/// Whether a capture rule for `row` may take from the row of `owner` when `me` moves.
fn row_allowed(row: Row, me: Side, owner: Side) -> bool {
    match row {
        Row::Opponent => owner != me,
        Row::Own => owner == me,
        Row::Either => true,
    }
}

/// An across capture: the last seed in an own house that was empty takes itself and
/// the facing house's seeds (and alone where the facing house is empty, if allowed);
/// how many. The caller banks them.
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
    taken + 1
}
