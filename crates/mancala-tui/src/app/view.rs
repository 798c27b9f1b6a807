//! What the game screen shows besides the session itself: the message line, and the
//! board at each step of a sowing.

use std::time::Instant;

use mancala_core::{GameEnd, Move, Pit, Position, Side, SowStep};
use mancala_session::MoveRecord;

/// What a message line says and how it is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// Plain information.
    Info,
    /// An extra turn or a hint: good news.
    Good,
    /// A capture.
    Capture,
    /// A key that did nothing, an illegal move.
    Warning,
}

/// The message line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// A command to type, shown whole on a line of its own under the text (the one
    /// that loads a saved game): the text is shortened first when rows are few.
    pub command: Option<String>,
    /// How it is shown.
    pub kind: MessageKind,
}

impl Message {
    pub(crate) fn new(kind: MessageKind, text: impl Into<String>) -> Message {
        Message {
            text: text.into(),
            command: None,
            kind,
        }
    }

    /// The same message with `command` on a line of its own.
    pub(crate) fn with_command(mut self, command: impl Into<String>) -> Message {
        self.command = Some(command.into());
        self
    }

    pub(crate) fn info(text: impl Into<String>) -> Message {
        Message::new(MessageKind::Info, text)
    }

    pub(crate) fn warning(text: impl Into<String>) -> Message {
        Message::new(MessageKind::Warning, text)
    }
}

/// The seeds on the board as drawn: the real position, or a moment of a sowing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Seeds in each house, player 1's row first, houses 1..H.
    pub houses: [Vec<u16>; 2],
    /// Seeds in each store (in a game with stores) or taken (the others), player 1
    /// first.
    pub stores: [u16; 2],
    /// Each player's claimed house (in a game whose captures claim houses), player 1's
    /// first: a house of the other row, numbered as that row's owner numbers it.
    pub claimed: [Option<Move>; 2],
    /// Seeds still in the sower's hand.
    pub in_hand: u16,
    /// The house being sown from, during a sowing.
    pub origin: Option<Pit>,
    /// Where the last seed dropped: a house or a store on the sowing path, or a
    /// claimed house (whose owner's store took the seed: see `banked`).
    pub last_drop: Option<Pit>,
    /// The store that took the last seed dropped, when it fell into a claimed house.
    pub banked: Option<Side>,
    /// Houses emptied by a capture.
    pub captured: Vec<Pit>,
    /// Houses whose seeds went to their owner's store when the game ended.
    pub swept: Vec<Pit>,
    /// Under review: the best houses of the position shown.
    pub best: Vec<Pit>,
}

impl BoardView {
    pub(crate) fn of(p: &Position) -> BoardView {
        BoardView {
            houses: Side::BOTH.map(|s| p.houses(s).to_vec()),
            stores: p.stores(),
            claimed: p.claims(),
            in_hand: 0,
            origin: None,
            last_drop: None,
            banked: None,
            captured: Vec::new(),
            swept: Vec::new(),
            best: Vec::new(),
        }
    }

    /// The final board of a game the rules ended at `p`: the seeds each player took
    /// from their own houses at the end are in their store, so the stores show the
    /// final score; seeds that count for nobody stay where they were.
    pub(crate) fn finished(p: &Position, end: &GameEnd) -> BoardView {
        let mut b = BoardView::of(p);
        for side in Side::BOTH {
            let taken = end.sweep[side.index()];
            if taken == 0 {
                continue;
            }
            for (i, seeds) in b.houses[side.index()].iter_mut().enumerate() {
                if *seeds > 0 {
                    *seeds = 0;
                    let house = u8::try_from(i + 1).expect("at most 16 houses");
                    b.swept.push(Pit::House { side, house });
                }
            }
            b.stores[side.index()] += taken;
        }
        b
    }

    /// The owner of the claimed house `pit` is, if it is one.
    #[must_use]
    pub fn claim_owner(&self, pit: Pit) -> Option<Side> {
        let Pit::House { side, house } = pit else {
            return None;
        };
        let owner = side.opponent();
        (self.claimed[owner.index()].map(Move::house) == Some(house)).then_some(owner)
    }

    /// The seeds in `pit`.
    #[must_use]
    pub fn count(&self, pit: Pit) -> u16 {
        match pit {
            Pit::House { side, house } => self.houses[side.index()][usize::from(house) - 1],
            Pit::Store(side) => self.stores[side.index()],
        }
    }

    fn slot(&mut self, pit: Pit) -> &mut u16 {
        match pit {
            Pit::House { side, house } => &mut self.houses[side.index()][usize::from(house) - 1],
            Pit::Store(side) => &mut self.stores[side.index()],
        }
    }

    fn apply(&mut self, step: SowStep, mover: Side) {
        match step {
            SowStep::Lift { pit, seeds } => {
                *self.slot(pit) = 0;
                self.in_hand = seeds;
                self.origin = Some(pit);
            }
            SowStep::Drop(pit) => {
                *self.slot(pit) += 1;
                self.in_hand = self.in_hand.saturating_sub(1);
                // A seed sown into a claimed house is reported as dropped into its
                // owner's store: it is shown falling into that house, and the store lit.
                self.banked = None;
                self.last_drop = Some(pit);
                if let Pit::Store(owner) = pit {
                    if let Some(t) = self.claimed[owner.index()] {
                        let side = owner.opponent();
                        self.last_drop = Some(Pit::House {
                            side,
                            house: t.house(),
                        });
                        self.banked = Some(owner);
                    }
                }
            }
            SowStep::Capture { pit, seeds } => {
                let slot = self.slot(pit);
                *slot = slot.saturating_sub(seeds);
                self.stores[mover.index()] += seeds;
                self.captured.push(pit);
            }
        }
    }
}

/// A sowing being shown seed by seed.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The move being shown.
    pub record: MoveRecord,
    /// Steps shown so far.
    pub shown: usize,
    /// When the next step is shown.
    pub(crate) next_at: Instant,
}

impl Animation {
    /// The board after the steps shown so far.
    #[must_use]
    pub fn board(&self) -> BoardView {
        let mut b = BoardView::of(&self.record.before);
        b.origin = Some(Pit::House {
            side: self.record.side,
            house: self.record.mv.house(),
        });
        for step in &self.record.sowing[..self.shown] {
            b.apply(*step, self.record.side);
        }
        b
    }
}
