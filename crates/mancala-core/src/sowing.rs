//! A move seed by seed, for animation: where each seed lands and what is captured.

use crate::{IllegalMove, Move, Position, Side, Variant};

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
    /// `side`'s store (Kalah), or its pile of captured seeds (Oware).
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
    /// One seed dropped into a pit.
    Drop(Pit),
    /// Seeds taken from a house into the mover's store or captures.
    Capture {
        /// The house emptied.
        pit: Pit,
        /// Seeds taken.
        seeds: u16,
    },
}

impl Position {
    /// The steps of `mv`, seed by seed, for front ends that animate sowing.
    ///
    /// Applying the steps to this position's board gives exactly the board of
    /// [`Position::play`].
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
        let after = self.play(mv)?;
        let me = self.to_move();
        let variant = self.variant();
        let origin = Pit::House {
            side: me,
            house: mv.house(),
        };
        let ring = self.ring(origin);
        let seeds = self.seeds(me, mv);
        let mut board = Board::of(self);
        let mut steps = vec![SowStep::Lift { pit: origin, seeds }];
        board.take(origin);
        let mut last = origin;
        for pit in ring.iter().cycle().take(usize::from(seeds)).copied() {
            steps.push(SowStep::Drop(pit));
            board.add(pit, 1);
            last = pit;
            // Simplified Oware captures on the way: an opponent's house turned into 2.
            if variant == Variant::OwareSimplified
                && matches!(pit, Pit::House { side, .. } if side != me)
                && board.get(pit) == 2
            {
                steps.push(SowStep::Capture { pit, seeds: 2 });
                board.take(pit);
                board.add(Pit::Store(me), 2);
            }
        }

        self.end_captures(last, &board, &after, &mut steps);
        Ok(steps)
    }

    /// The pits a sowing from `origin` drops seeds in, in order, starting just after
    /// it: the mover's store in Kalah, never the origin itself in Oware.
    fn ring(&self, origin: Pit) -> Vec<Pit> {
        let me = self.to_move();
        let h = self.houses_per_side();
        let variant = self.variant();
        let mut ring: Vec<Pit> = Vec::with_capacity(2 * h + 2);
        for side in [me, me.opponent()] {
            ring.extend((1..=h as u8).map(|house| Pit::House { side, house }));
            if variant == Variant::Kalah && side == me {
                ring.push(Pit::Store(me));
            }
        }
        let start = ring
            .iter()
            .position(|&p| p == origin)
            .expect("origin is on the ring");
        ring.rotate_left(start + 1);
        if variant == Variant::Oware {
            ring.retain(|&p| p != origin);
        }
        ring
    }

    /// The captures at the end of a sowing that ended in `last`, leaving `board`:
    /// whatever the rules took from the board to reach `after`.
    fn end_captures(&self, last: Pit, board: &Board, after: &Position, steps: &mut Vec<SowStep>) {
        let me = self.to_move();
        let h = self.houses_per_side();
        let taken =
            |board: &Board, pit: Pit| board.get(pit).saturating_sub(after_count(after, pit));
        match self.variant() {
            Variant::Kalah => {
                if let Pit::House { side, house } = last {
                    if side == me && taken(board, last) > 0 {
                        let facing = Pit::House {
                            side: me.opponent(),
                            house: h as u8 + 1 - house,
                        };
                        let own = board.get(last);
                        steps.push(SowStep::Capture {
                            pit: last,
                            seeds: own,
                        });
                        let opposite = board.get(facing);
                        if opposite > 0 {
                            steps.push(SowStep::Capture {
                                pit: facing,
                                seeds: opposite,
                            });
                        }
                    }
                }
            }
            Variant::Oware => {
                // The chain runs backwards from the last house along the opponent's row.
                if let Pit::House { side, house } = last {
                    if side != me {
                        for n in (1..=house).rev() {
                            let pit = Pit::House { side, house: n };
                            let t = taken(board, pit);
                            if t == 0 {
                                break;
                            }
                            steps.push(SowStep::Capture { pit, seeds: t });
                        }
                    }
                }
            }
            Variant::OwareSimplified => {}
        }
    }
}

fn after_count(p: &Position, pit: Pit) -> u16 {
    match pit {
        Pit::House { side, house } => p.houses(side)[usize::from(house) - 1],
        Pit::Store(side) => p.store(side),
    }
}

/// A scratch copy of the counts, addressed by [`Pit`].
struct Board {
    houses: [Vec<u16>; 2],
    stores: [u16; 2],
}

impl Board {
    fn of(p: &Position) -> Board {
        Board {
            houses: Side::BOTH.map(|s| p.houses(s).to_vec()),
            stores: p.stores(),
        }
    }

    fn slot(&mut self, pit: Pit) -> &mut u16 {
        match pit {
            Pit::House { side, house } => &mut self.houses[side.index()][usize::from(house) - 1],
            Pit::Store(side) => &mut self.stores[side.index()],
        }
    }

    fn get(&self, pit: Pit) -> u16 {
        match pit {
            Pit::House { side, house } => self.houses[side.index()][usize::from(house) - 1],
            Pit::Store(side) => self.stores[side.index()],
        }
    }

    fn add(&mut self, pit: Pit, n: u16) {
        *self.slot(pit) += n;
    }

    fn take(&mut self, pit: Pit) {
        *self.slot(pit) = 0;
    }
}
