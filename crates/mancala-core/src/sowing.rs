//! A move seed by seed, for animation: where each seed lands and what is captured.
//!
//! The steps are not worked out by a second model of the rules: each variant's move
//! code reports them as it plays ([`StepSink`]), so what the front ends animate is what
//! the rules did. Search plays through the same code with [`NoSteps`], whose methods
//! are empty and compile away.

use crate::{IllegalMove, MAX_HOUSES, Move, MoveReport, Position, Side};

/// A place on the board that holds seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Pit {
    /// `side`'s house number `house` (1-based, in that side's sowing order).
    House {
        /// Whose house.
        side: Side,
        /// The house number, 1..=H.
        house: u8,
    },
    /// `side`'s store (Kalah), or its pile of captured seeds (the other variants).
    Store(Side),
}

/// One step of a move, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SowStep {
    /// The mover lifts every seed from a house.
    Lift {
        /// The house emptied.
        pit: Pit,
        /// Seeds lifted.
        seeds: u16,
    },
    /// One seed dropped into a pit. A seed sown into a Togyz Kumalak tuzdyk drops
    /// into its owner's store.
    Drop(Pit),
    /// Seeds taken from a house into the mover's store or captures.
    Capture {
        /// The house emptied.
        pit: Pit,
        /// Seeds taken.
        seeds: u16,
    },
}

/// Where a variant's move code reports what it does, step by step.
///
/// Implemented by [`NoSteps`] (search: nothing is recorded, and the calls compile
/// away) and by `Vec<SowStep>` (front ends: every step, in order). Variants call
/// [`StepSink::RECORDS`]-guarded code only where recording needs the work done in a
/// different order (sowing round a Kalah store in two pieces instead of one), never to
/// decide anything.
pub trait StepSink {
    /// Whether the sink keeps steps; `false` lets the move code skip the bookkeeping.
    const RECORDS: bool;
    /// A step, in the order the move makes it; `step` is called only by a sink that
    /// records, so working out the step costs search nothing.
    fn record(&mut self, step: impl FnOnce() -> SowStep);
}

/// The sink of search and random playouts: records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSteps;

impl StepSink for NoSteps {
    const RECORDS: bool = false;
    #[inline(always)]
    fn record(&mut self, _: impl FnOnce() -> SowStep) {}
}

impl StepSink for Vec<SowStep> {
    const RECORDS: bool = true;
    fn record(&mut self, step: impl FnOnce() -> SowStep) {
        self.push(step());
    }
}

impl Position {
    /// The steps of `mv`, seed by seed, for front ends that animate sowing.
    ///
    /// Applying the steps to this position's board gives exactly the board of
    /// [`Position::play`]: they come from the same code.
    ///
    /// # Errors
    /// Why `mv` is illegal.
    ///
    /// ```
    /// use mancala_core::{Move, Pit, Position, Rules, Side, SowStep};
    /// let p = Position::new(Rules::kalah(6, 4));
    /// let steps = p.sowing(Move::new(3).unwrap()).unwrap();
    /// let house = |h| Pit::House { side: Side::South, house: h };
    /// assert_eq!(steps, [
    ///     SowStep::Lift { pit: house(3), seeds: 4 },
    ///     SowStep::Drop(house(4)),
    ///     SowStep::Drop(house(5)),
    ///     SowStep::Drop(house(6)),
    ///     SowStep::Drop(Pit::Store(Side::South)),
    /// ]);
    /// ```
    pub fn sowing(&self, mv: Move) -> Result<Vec<SowStep>, IllegalMove> {
        self.play_with_steps(mv).map(|(_, _, steps)| steps)
    }

    /// Plays `mv`, returning the position after it, what it did and its steps.
    ///
    /// # Errors
    /// Why `mv` is illegal.
    ///
    /// ```
    /// use mancala_core::{Move, Position, Rules};
    /// let p = Position::new(Rules::oware(6, 4));
    /// let (next, report, steps) = p.play_with_steps(Move::new(1).unwrap()).unwrap();
    /// assert_eq!(next, p.play(Move::new(1).unwrap()).unwrap());
    /// assert_eq!((report.captured, steps.len()), (0, 5));
    /// ```
    pub fn play_with_steps(
        &self,
        mv: Move,
    ) -> Result<(Position, MoveReport, Vec<SowStep>), IllegalMove> {
        self.check(mv)?;
        let mut next = *self;
        let mut steps = Vec::with_capacity(usize::from(self.seeds(self.to_move, mv)) + 4);
        let report = next.play_into(mv, &mut steps);
        Ok((next, report, steps))
    }

    /// The pit of a cell index (player 1's houses in `0..h`, player 2's in `h..2h`).
    /// A tuzdyk's cell is its owner's store: a seed sown there goes to the store.
    #[inline]
    pub(crate) fn pit_of_cell(&self, cell: usize) -> Pit {
        let h = self.rules.houses();
        let side = if cell < h { Side::South } else { Side::North };
        let house = (cell - side.index() * h) as u8 + 1;
        let owner = side.opponent();
        if self.tuzdyks[owner.index()] == house {
            Pit::Store(owner)
        } else {
            Pit::House { side, house }
        }
    }
}

impl Position {
    /// Adds one seed to each of the `len` houses from cell `start` on, round the ring
    /// of both rows (player 1's houses, then player 2's, then player 1's again), and
    /// returns how many landed on each row, player 1's first, for the caller to add to
    /// the row counts; `start` may be the ring's length (meaning cell 0) and `len` at
    /// most the ring's length. One branch-free pass over all cells, instead of loops of
    /// a few iterations whose lengths the processor cannot predict.
    #[inline]
    #[must_use = "the row counts need the seeds sown on each row"]
    pub(crate) fn sow_ring<S: StepSink>(
        &mut self,
        start: usize,
        len: usize,
        steps: &mut S,
    ) -> [u16; 2] {
        let h = self.rules.houses();
        let ring = 2 * h;
        debug_assert!(start <= ring && len <= ring);
        let start = if start >= ring { start - ring } else { start };
        self.record_ring(start, len, steps);
        let end = start + len;
        // The cells `start..b` and `0..c`, with no overlap since `len <= ring`.
        let (b, c) = (end.min(ring), end.saturating_sub(ring));
        let south = b.min(h).saturating_sub(start) + c.min(h);
        let (a, b, c) = (start as u16, b as u16, c as u16);
        // Boards of up to 8 houses use the first 16 cells only: half the work.
        let used = if ring <= MAX_HOUSES {
            &mut self.cells[..MAX_HOUSES]
        } else {
            &mut self.cells[..]
        };
        for (k, cell) in used.iter_mut().enumerate() {
            let k = k as u16;
            *cell += u16::from(k >= a) & u16::from(k < b) | u16::from(k < c);
        }
        [south as u16, (len - south) as u16]
    }

    /// Records the drops of [`Position::sow_ring`] without sowing: one per cell from
    /// `start` on, round the ring. Nothing for a sink that does not record.
    #[inline]
    pub(crate) fn record_ring<S: StepSink>(&self, start: usize, len: usize, steps: &mut S) {
        if S::RECORDS {
            let ring = 2 * self.rules.houses();
            for k in start..start + len {
                let cell = k % ring;
                steps.record(|| crate::SowStep::Drop(self.pit_of_cell(cell)));
            }
        }
    }
}
