//! One engine for every description: [`Described`] plays any game a
//! [`Description`] describes, seed by seed, on the same [`Position`] the hand-tuned
//! rule sets play.
//!
//! It is the reference the rule sets (`variants/`) are held to: over random games of
//! the four shipped games it gives the same positions, reports, steps and ends as
//! their kernels (`tests/described.rs`), and it plays games that have no kernel. It
//! is itself held to the referee's second, naive reading of the format
//! (`tests/described_referee.rs`) over every file in `games/` and random descriptions.
//!
//! ```
//! use mancala_core::described::Described;
//! use mancala_core::description::Description;
//! use mancala_core::{Move, Position, Rules};
//! let oware = Described::new(&Description::builtin("oware").unwrap());
//! let mut pos = Position::new(Rules::oware(6, 4));
//! assert_eq!(oware.legal_moves(&pos).len(), 6);
//! let report = oware.play(&mut pos, Move::new(3).unwrap(), &mut Vec::new());
//! assert_eq!(report.captured, 0);
//! assert_eq!(pos, Position::new(Rules::oware(6, 4)).play(Move::new(3).unwrap()).unwrap());
//! ```

mod capture;
mod engines;
mod rule_set;
mod sow;

pub use crate::interned::{DescribedGame, MAX_INTERNED};
pub use rule_set::ByDescription;

use crate::description::{Capture, Claim, Description, Empty, Leftover, NoMove, Sowing};
use crate::{EndReason, Move, MoveList, Position, Rules, SetupError, Side};

/// A description made ready to play.
#[derive(Clone, Debug)]
pub struct Described {
    /// The start pattern, or empty where every house starts alike.
    start: Vec<u8>,
    /// The seeds of a game started by the pattern (0 without a pattern).
    start_total: u16,
    sowing: Sowing,
    extra_turn: bool,
    must_feed: bool,
    no_move: NoMove,
    captures: Vec<Capture>,
    /// Whether a capture rule is tried after every seed: else the sowing tries none
    /// until its last seed (the common case, and the fast one).
    each_seed: bool,
    claim: Option<Claim>,
    majority: bool,
    empty: Empty,
    seeds_left: u16,
    leftover: Leftover,
    repetition: bool,
}

impl Described {
    /// The engine for a description (one that [`Description::check`] accepts).
    #[must_use]
    pub fn new(description: &Description) -> Described {
        Described {
            start: description.board.start.clone(),
            start_total: 2 * description
                .board
                .start
                .iter()
                .map(|&n| u16::from(n))
                .sum::<u16>(),
            sowing: description.sowing.clone(),
            extra_turn: description.turn.extra_turn,
            must_feed: description.turn.must_feed,
            no_move: description.turn.no_move,
            captures: description.capture.clone(),
            each_seed: description
                .capture
                .iter()
                .any(|c| c.timing == crate::description::Timing::EachSeed),
            claim: description.claim.clone(),
            majority: description.end.majority,
            empty: description.end.empty,
            seeds_left: description.end.seeds_left,
            leftover: description.end.leftover,
            repetition: description.end.repetition,
        }
    }

    /// The capture rules, in the order they are tried.
    #[must_use]
    pub fn captures(&self) -> &[Capture] {
        &self.captures
    }

    /// Every seed of the game: the rules' houses times seeds, or the start pattern's.
    fn total_seeds(&self, pos: &Position) -> u16 {
        if self.start_total == 0 {
            pos.rules.total_seeds()
        } else {
            self.start_total
        }
    }

    /// Whether the captures decided the game: a player has more than half of the
    /// seeds, or each has exactly half.
    fn decided_by_captures(&self, pos: &Position) -> bool {
        let total = self.total_seeds(pos);
        let [a, b] = pos.stores;
        2 * a > total || 2 * b > total || (2 * a == total && 2 * b == total)
    }

    /// The start of a game on the board of `rules`: every house with the rules' seeds,
    /// or the description's start pattern where it has one and the board is its size.
    ///
    /// ```
    /// use mancala_core::described::Described;
    /// use mancala_core::description::Description;
    /// use mancala_core::{Rules, Side};
    /// let mut d = Description::builtin("oware").unwrap();
    /// (d.board.houses, d.board.min_houses, d.board.max_houses) = (3, 3, 3);
    /// (d.board.seeds, d.board.start) = (0, vec![1, 0, 2]);
    /// let start = Described::new(&d).start_position(Rules::oware(3, 1));
    /// assert_eq!(start.houses(Side::North), &[1, 0, 2]);
    /// ```
    #[must_use]
    pub fn start_position(&self, rules: Rules) -> Position {
        let mut pos = Position::new(rules);
        let h = rules.houses();
        if self.start.len() == h {
            for side in 0..2 {
                for (i, &seeds) in self.start.iter().enumerate() {
                    pos.cells[side * h + i] = seeds.into();
                }
            }
            pos.recount_rows();
        }
        pos.over = self.is_over(&pos);
        pos
    }

    /// The legal moves of the player to move, in house order (whether or not the game
    /// is over by the end rules: [`Described::is_over`] says that).
    #[must_use]
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let me = pos.to_move;
        let feeding = self.must_feed && pos.row_sum(me.opponent()) == 0;
        let mut list = MoveList::new();
        for (i, &seeds) in pos.houses(me).iter().enumerate() {
            let mv = Move::from_index(i);
            let legal = seeds > 0 && (!feeding || self.feeds(pos, mv));
            list.push_if(mv, legal);
        }
        list
    }

    /// Whether playing `mv` leaves the opponent some seeds.
    fn feeds(&self, pos: &Position, mv: Move) -> bool {
        let mut copy = *pos;
        self.sow(&mut copy, mv, &mut crate::sowing::NoSteps);
        copy.row_sum(pos.to_move.opponent()) > 0
    }

    /// Whether the game is over in `pos` by the end rules (repetition aside, which
    /// needs the history).
    #[must_use]
    pub fn is_over(&self, pos: &Position) -> bool {
        (self.majority && self.decided_by_captures(pos))
            || (self.seeds_left > 0 && pos.seeds_in_play() <= self.seeds_left)
            || match self.empty {
                // Without feeding to do, a player can move while they have seeds.
                Empty::MoverCannotMove
                    if !self.must_feed || pos.row_sum(pos.to_move.opponent()) > 0 =>
                {
                    pos.row_sum(pos.to_move) == 0
                }
                Empty::MoverCannotMove => self.legal_moves(pos).is_empty(),
                Empty::EitherSide => pos.row_sum(Side::South) == 0 || pos.row_sum(Side::North) == 0,
            }
    }

    /// The final scores of a finished game, player 1 first.
    #[must_use]
    pub fn final_scores(&self, pos: &Position) -> [u16; 2] {
        match self.leftover {
            Leftover::OwnRow => pos.stores_plus_rows(),
            Leftover::OwnRowUnlessDecided if self.decided_by_captures(pos) => pos.stores,
            Leftover::OwnRowUnlessDecided => pos.stores_plus_rows(),
            Leftover::Nobody => pos.stores,
        }
    }

    /// Why a finished game ended.
    #[must_use]
    pub fn end_reason(&self, pos: &Position) -> EndReason {
        let me = pos.to_move;
        if self.majority && self.decided_by_captures(pos) {
            let total = self.total_seeds(pos);
            return match Side::BOTH.into_iter().find(|s| 2 * pos.store(*s) > total) {
                Some(side) => EndReason::Majority(side),
                None => EndReason::HalfEach,
            };
        }
        if self.seeds_left > 0 && pos.seeds_in_play() <= self.seeds_left {
            return EndReason::FewSeedsLeft;
        }
        match self.empty {
            Empty::EitherSide if pos.row_sum(me) == 0 => EndReason::SideEmpty(me),
            Empty::EitherSide => EndReason::SideEmpty(me.opponent()),
            _ if pos.row_sum(me) == 0 => EndReason::NoSeeds(me),
            _ => EndReason::CannotFeed(me),
        }
    }

    /// The final scores when a position comes round again since the last capture, or
    /// `None` for a game without the repetition rule: the seeds on the board go as
    /// `leftover` says, as at any end (so `own-row-unless-decided` gives them to nobody
    /// where the captures decided the game in a game without the majority rule).
    #[must_use]
    pub fn repetition_scores(&self, pos: &Position) -> Option<[u16; 2]> {
        self.repetition.then(|| self.final_scores(pos))
    }

    /// What the game forbids in a position set up from parts: claimed houses where it
    /// has none or where its claim rule forbids them, and a player to move with no
    /// seeds where such a player is skipped.
    ///
    /// # Errors
    /// What is wrong.
    pub fn check_setup(&self, pos: &Position) -> Result<(), SetupError> {
        let h = pos.rules.houses() as u8;
        for owner in Side::BOTH {
            let t = pos.tuzdyks[owner.index()];
            if t == 0 {
                continue;
            }
            let why = match &self.claim {
                None => "this game has no claimed houses",
                Some(_) if t > h => "there is no such house",
                Some(c) if c.not_last_house && t == h => "it cannot be the opponent's last house",
                Some(c) if c.not_mirror && t == pos.tuzdyks[owner.opponent().index()] => {
                    "the two tuzdyks cannot have the same number"
                }
                Some(_) if pos.houses(owner.opponent())[usize::from(t - 1)] != 0 => {
                    "a tuzdyk holds no seeds"
                }
                Some(_) => continue,
            };
            return Err(SetupError::Claim {
                side: owner,
                word: pos.rules.variant().info().claim_word,
                why,
            });
        }
        if self.no_move == NoMove::Pass && !self.is_over(pos) && pos.row_sum(pos.to_move) == 0 {
            return Err(SetupError::MoverSkipped(pos.to_move));
        }
        Ok(())
    }
}
