//! Positions: the board, whose turn it is, and checked and unchecked play.

use std::fmt;

use crate::sowing::{NoSteps, StepSink};
use crate::variants::RuleSet;
use crate::{EndReason, GameEnd, MAX_HOUSES, Move, MoveList, Outcome, Rules, Side, Variant};

/// What a move did besides sowing, for messages and move ordering.
///
/// ```
/// use mancala_core::{Move, Position, Rules};
/// let (_, report) = Position::new(Rules::kalah(6, 4)).play_with_report(Move::new(3).unwrap()).unwrap();
/// assert!(report.ended_in_store);
/// assert_eq!(report.captured, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveReport {
    /// Seeds captured by the move (in Kalah, the last seed and the opposite house).
    pub captured: u16,
    /// The last seed landed in the mover's own store (Kalah: the mover moves again).
    pub ended_in_store: bool,
}

/// A position: the seeds in every house and store, the player to move, and the rules.
///
/// A `Position` is a small `Copy` value with no heap data. Play a move with
/// [`Position::play`] (checked, returns a typed error) or [`Position::play_unchecked`]
/// (the fast path for search, for moves known to be legal).
///
/// The board is indexed from each player's own point of view: house 1 is where that
/// player's sowing starts, and player 1's house `i` faces player 2's house `H + 1 - i`.
///
/// ```text
///            player 2 (North)
///        6    5    4    3    2    1
///  store                              store
///  of 2  1    2    3    4    5    6   of 1
///            player 1 (South)
/// ```
///
/// ```
/// use mancala_core::{Move, Position, Rules, Side};
/// let start = Position::new(Rules::kalah(6, 4));
/// // Sowing 4 seeds from house 3 ends in the store: player 1 moves again.
/// let next = start.play(Move::new(3).unwrap()).unwrap();
/// assert_eq!(next.houses(Side::South), &[4, 4, 0, 5, 5, 5]);
/// assert_eq!(next.store(Side::South), 1);
/// assert_eq!(next.to_move(), Side::South);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Player 1's houses in `0..h`, player 2's in `h..2h`; the rest stay 0.
    pub(crate) cells: [u16; 2 * MAX_HOUSES],
    /// Seeds banked by each player: the store in Kalah, captures in Oware.
    pub(crate) stores: [u16; 2],
    /// Togyz Kumalak's tuzdyks: for each player, the house of the opponent's row it
    /// owns, as the opponent numbers it (1..=H), or 0 for none. Always `[0, 0]` in the
    /// other variants, so it costs them nothing but two bytes.
    pub(crate) tuzdyks: [u8; 2],
    /// Seeds on each player's row (a function of `cells`, cached by every constructor
    /// and every move: end tests and evaluations read it instead of summing the rows).
    pub(crate) rows: [u16; 2],
    pub(crate) rules: Rules,
    pub(crate) to_move: Side,
    /// Cached result of the variant's end test, kept up to date by every constructor
    /// and every move, so that `legal_moves` and `is_over` cost nothing in search.
    pub(crate) over: bool,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The house number is not on this board.
    #[error("there is no house {house} (houses are 1 to {houses})")]
    OutOfRange {
        /// The house asked for.
        house: u8,
        /// Houses per side.
        houses: u8,
    },
    /// The house holds no seeds.
    #[error("house {house} is empty")]
    EmptyHouse {
        /// The house asked for.
        house: u8,
    },
    /// The opponent has no seeds and this move would not give them any (Oware).
    #[error("house {house} does not give the opponent any seeds, and they have none")]
    MustFeed {
        /// The house asked for.
        house: u8,
    },
}

/// Why a position cannot be set up from the given parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A row does not have one count per house.
    #[error("{side} has {found} houses, the rules say {expected}")]
    RowLength {
        /// The row with the wrong length.
        side: Side,
        /// Houses given.
        found: usize,
        /// Houses per side in the rules.
        expected: usize,
    },
    /// The seeds on the board and in the stores do not add up to the rules' total.
    #[error("the position holds {found} seeds, the rules start with {expected}")]
    SeedsNotConserved {
        /// Seeds in the position.
        found: u32,
        /// Seeds the rules start with.
        expected: u16,
    },
    /// In simplified Oware a player with an empty row is skipped, so it cannot be their
    /// turn while the opponent has seeds.
    #[error("{0} has no seeds and would be skipped")]
    MoverSkipped(Side),
    /// A tuzdyk that the rules do not allow (see [`Position::with_tuzdyks`]).
    #[error("{side}'s tuzdyk: {why}")]
    Tuzdyk {
        /// The player whose tuzdyk it is.
        side: Side,
        /// Which rule it breaks.
        why: &'static str,
    },
}

impl Position {
    /// The start position: every house holds the rules' seeds, stores are empty, player 1
    /// moves.
    ///
    /// ```
    /// use mancala_core::{Position, Rules, Side};
    /// let p = Position::new(Rules::oware(6, 4));
    /// assert_eq!(p.houses(Side::North), &[4; 6]);
    /// assert!(!p.is_over());
    /// ```
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        let h = rules.houses();
        let mut cells = [0; 2 * MAX_HOUSES];
        cells[..2 * h].fill(rules.seeds());
        let mut p = Position {
            cells,
            stores: [0; 2],
            tuzdyks: [0; 2],
            rows: [0; 2],
            rules,
            to_move: Side::South,
            over: false,
        };
        p.recount_rows();
        p.over = p.compute_over();
        p
    }

    /// A position from its parts, validated: one count per house in each row and every
    /// seed of the rules accounted for.
    ///
    /// # Errors
    /// A [`SetupError`] saying what is inconsistent.
    ///
    /// ```
    /// use mancala_core::{Position, Rules, Side, SetupError};
    /// let rules = Rules::kalah(3, 1);
    /// let p = Position::from_parts(rules, [&[0, 0, 1], &[1, 0, 0]], [2, 2], Side::North).unwrap();
    /// assert_eq!(p.to_move(), Side::North);
    /// assert!(matches!(
    ///     Position::from_parts(rules, [&[0, 0, 1], &[1, 0, 0]], [0, 0], Side::North),
    ///     Err(SetupError::SeedsNotConserved { found: 2, expected: 6 })
    /// ));
    /// ```
    pub fn from_parts(
        rules: Rules,
        houses: [&[u16]; 2],
        stores: [u16; 2],
        to_move: Side,
    ) -> Result<Position, SetupError> {
        let h = rules.houses();
        let mut cells = [0; 2 * MAX_HOUSES];
        for side in Side::BOTH {
            let row = houses[side.index()];
            if row.len() != h {
                return Err(SetupError::RowLength {
                    side,
                    found: row.len(),
                    expected: h,
                });
            }
            cells[side.index() * h..][..h].copy_from_slice(row);
        }
        let found: u32 = cells.iter().chain(&stores).map(|&c| u32::from(c)).sum();
        if found != u32::from(rules.total_seeds()) {
            return Err(SetupError::SeedsNotConserved {
                found,
                expected: rules.total_seeds(),
            });
        }
        let mut p = Position {
            cells,
            stores,
            tuzdyks: [0; 2],
            rows: [0; 2],
            rules,
            to_move,
            over: false,
        };
        p.recount_rows();
        p.over = p.compute_over();
        p.check_setup()?;
        Ok(p)
    }

    /// The rules of this game.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The variant (shorthand for `rules().variant()`).
    #[inline]
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.rules.variant()
    }

    /// Houses per side.
    #[inline]
    #[must_use]
    pub fn houses_per_side(&self) -> usize {
        self.rules.houses()
    }

    /// `side`'s houses, from its house 1 to house H.
    #[inline]
    #[must_use]
    pub fn houses(&self, side: Side) -> &[u16] {
        let h = self.rules.houses();
        &self.cells[side.index() * h..][..h]
    }

    /// Seeds in `side`'s house `mv`.
    ///
    /// # Panics
    /// If the house is not on this board.
    #[inline]
    #[must_use]
    pub fn seeds(&self, side: Side, mv: Move) -> u16 {
        self.houses(side)[mv.index()]
    }

    /// Seeds banked by `side`: its store in Kalah, its captures in Oware.
    #[inline]
    #[must_use]
    pub fn store(&self, side: Side) -> u16 {
        self.stores[side.index()]
    }

    /// Both stores, player 1 first.
    #[inline]
    #[must_use]
    pub fn stores(&self) -> [u16; 2] {
        self.stores
    }

    /// The house of the opponent's row that `side` owns as its tuzdyk (Togyz Kumalak),
    /// numbered as the opponent numbers it; `None` in the other variants and before
    /// `side` has claimed one.
    ///
    /// ```
    /// use mancala_core::{Move, Position, Side};
    /// let p = Position::from_notation("togyzkumalak 3x3 0,3,3/3 3,x,3/3 1").unwrap();
    /// assert_eq!(p.tuzdyk(Side::South), Move::new(2));
    /// assert_eq!(p.tuzdyk(Side::North), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn tuzdyk(&self, side: Side) -> Option<Move> {
        Move::new(self.tuzdyks[side.index()])
    }

    /// Both tuzdyks, player 1's first (see [`Position::tuzdyk`]).
    #[inline]
    #[must_use]
    pub fn tuzdyks(&self) -> [Option<Move>; 2] {
        Side::BOTH.map(|s| self.tuzdyk(s))
    }

    /// The same position with these tuzdyks, checked by the variant: only Togyz
    /// Kumalak has them, a tuzdyk holds no seeds, is not the opponent's last house, and
    /// the two players' tuzdyks do not have the same number.
    ///
    /// # Errors
    /// [`SetupError::Tuzdyk`] saying which rule a tuzdyk breaks.
    ///
    /// ```
    /// use mancala_core::{Move, Position, Rules, Side};
    /// let p = Position::from_notation("togyzkumalak 3x3 0,3,3/3 3,0,3/3 1").unwrap();
    /// let q = p.with_tuzdyks([Move::new(2), None]).unwrap();
    /// assert_eq!(q.to_notation(), "togyzkumalak 3x3 0,3,3/3 3,x,3/3 1");
    /// assert!(p.with_tuzdyks([Move::new(3), None]).is_err()); // the last house
    /// ```
    pub fn with_tuzdyks(self, tuzdyks: [Option<Move>; 2]) -> Result<Position, SetupError> {
        let mut p = self;
        p.tuzdyks = tuzdyks.map(|t| t.map_or(0, Move::house));
        p.over = p.compute_over();
        p.check_setup()?;
        Ok(p)
    }

    /// The checks of a position set up from parts beyond seeds adding up: tuzdyks only
    /// where the variant has them, then the variant's own.
    fn check_setup(&self) -> Result<(), SetupError> {
        if !self.rules.variant().info().tuzdyks {
            if let Some(side) = Side::BOTH
                .into_iter()
                .find(|s| self.tuzdyks[s.index()] != 0)
            {
                return Err(SetupError::Tuzdyk {
                    side,
                    why: "only Togyz Kumalak has tuzdyks",
                });
            }
        }
        crate::with_rule_set!(self.rules.variant(), R => R::check_setup(self))
    }

    /// Seeds in `side`'s houses.
    #[inline]
    #[must_use]
    pub fn row_sum(&self, side: Side) -> u16 {
        self.rows[side.index()]
    }

    /// Seeds still on the board (in houses, not stores).
    #[inline]
    #[must_use]
    pub fn seeds_in_play(&self) -> u16 {
        self.rows[0] + self.rows[1]
    }

    /// The player whose turn it is; once the game is over, the player who would have
    /// moved next.
    #[inline]
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Whether the game has ended (by the rules of the position alone; Oware's
    /// repetition rule needs the history, see [`Game`](crate::Game)).
    #[inline]
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The legal moves, in house order; empty once the game is over.
    #[inline(always)]
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        if self.over {
            return MoveList::new();
        }
        crate::with_rule_set!(self.rules.variant(), R => R::legal_moves(self))
    }

    /// The legal moves as bits, house `h` as bit `h - 1`: the same moves as
    /// [`Position::legal_moves`], for callers that test or count them in bulk (batches
    /// of games for learning); 0 once the game is over.
    ///
    /// ```
    /// use mancala_core::{Move, Position, Rules};
    /// let p = Position::new(Rules::kalah(6, 4)).play(Move::new(3).unwrap()).unwrap();
    /// assert_eq!(p.legal_bits(), 0b11_1011); // house 3 is empty
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn legal_bits(&self) -> u32 {
        if self.over {
            return 0;
        }
        crate::with_rule_set!(self.rules.variant(), R => R::legal_bits(self))
    }

    /// Whether `mv` can be played, and why not if it cannot.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.over {
            return Err(IllegalMove::GameOver);
        }
        let h = self.rules.houses();
        if mv.index() >= h {
            return Err(IllegalMove::OutOfRange {
                house: mv.house(),
                houses: h as u8,
            });
        }
        if self.seeds(self.to_move, mv) == 0 {
            return Err(IllegalMove::EmptyHouse { house: mv.house() });
        }
        if !self.legal_moves().contains(&mv) {
            return Err(IllegalMove::MustFeed { house: mv.house() });
        }
        Ok(())
    }

    /// The position after `mv`, or why `mv` is illegal.
    ///
    /// # Errors
    /// The reason the move is illegal; `self` is unchanged.
    ///
    /// ```
    /// use mancala_core::{IllegalMove, Move, Position, Rules};
    /// let p = Position::new(Rules::kalah(6, 4));
    /// assert_eq!(
    ///     p.play(Move::new(7).unwrap()),
    ///     Err(IllegalMove::OutOfRange { house: 7, houses: 6 })
    /// );
    /// ```
    pub fn play(self, mv: Move) -> Result<Position, IllegalMove> {
        self.play_with_report(mv).map(|(next, _)| next)
    }

    /// Like [`Position::play`], also saying what the move captured and whether it ended
    /// in the store.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn play_with_report(self, mv: Move) -> Result<(Position, MoveReport), IllegalMove> {
        self.check(mv)?;
        let mut next = self;
        let report = next.play_unchecked(mv);
        Ok((next, report))
    }

    /// Plays `mv` in place without checking it: the fast path for search.
    ///
    /// The caller must pass a move from [`Position::legal_moves`]. An illegal move does
    /// not cause undefined behaviour, but it leaves a meaningless position (or panics on
    /// a house beyond the board); debug builds assert legality.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> MoveReport {
        self.play_into(mv, &mut NoSteps)
    }

    /// What playing `mv` would report ([`MoveReport`]), without playing it where the
    /// variant's arithmetic can say (Kalah always; Oware and Togyz Kumalak when the
    /// sowing does not go round the board; otherwise a copy is played): move ordering
    /// in search. `mv` must be legal, as for [`Position::play_unchecked`].
    ///
    /// ```
    /// use mancala_core::{Position, Rules};
    /// let p = Position::new(Rules::kalah(6, 4));
    /// for mv in p.legal_moves() {
    ///     assert_eq!(p.predict(mv), p.play_with_report(mv).unwrap().1);
    /// }
    /// ```
    #[inline]
    #[must_use]
    pub fn predict(&self, mv: Move) -> MoveReport {
        debug_assert!(self.check(mv).is_ok(), "illegal move {mv} in\n{self}");
        crate::with_rule_set!(self.rules.variant(), R => R::predict(self, mv))
    }

    /// Plays `mv` in place, reporting its steps to `steps`: the one path every move
    /// takes, recorded or not.
    #[inline]
    pub(crate) fn play_into<S: StepSink>(&mut self, mv: Move, steps: &mut S) -> MoveReport {
        debug_assert!(self.check(mv).is_ok(), "illegal move {mv} in\n{self}");
        crate::with_rule_set!(self.rules.variant(), R => R::sow(self, mv, steps))
    }

    /// The final scores and winner once the game is over, `None` before.
    ///
    /// ```
    /// use mancala_core::{Outcome, Position, Rules, Side};
    /// // Simplified Oware on a 1x1 board is over from the start: two seeds remain.
    /// let p = Position::new(Rules::oware_simplified(1, 1));
    /// assert_eq!(p.outcome(), Some(Outcome::from_scores([0, 0])));
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| Outcome::from_scores(self.final_scores()))
    }

    /// How the game ended: the reason, the final sweep and the result; `None` while it
    /// goes on. (A game that ends by repetition needs its history: see
    /// [`Game::end`](crate::Game::end).)
    ///
    /// ```
    /// use mancala_core::{EndReason, Position, Rules, Side};
    /// // Kalah: player 1 moved their last seed; player 2 takes the 3 left in their houses.
    /// let rules = Rules::kalah(2, 2);
    /// let p = Position::from_parts(rules, [&[0, 0], &[2, 1]], [4, 1], Side::South).unwrap();
    /// let end = p.end().unwrap();
    /// assert_eq!(end.reason, EndReason::NoSeeds(Side::South));
    /// assert_eq!(end.sweep, [0, 3]);
    /// assert_eq!(end.outcome.scores, [4, 4]);
    /// ```
    #[must_use]
    pub fn end(&self) -> Option<GameEnd> {
        if !self.over {
            return None;
        }
        let reason = crate::with_rule_set!(self.rules.variant(), R => R::end_reason(self));
        Some(GameEnd::new(self, reason, self.final_scores()))
    }

    /// How the game ends if this position has just come round again since the last
    /// capture, or `None` for a variant without a repetition rule (Kalah). Oware: each
    /// player takes the seeds on their own row; simplified Oware: the seeds on the
    /// board count for nobody.
    ///
    /// ```
    /// use mancala_core::{EndReason, Position, Rules, Side};
    /// let p = Position::from_parts(Rules::oware(2, 4), [&[1, 2], &[0, 4]], [3, 6], Side::South).unwrap();
    /// let end = p.end_by_repetition().unwrap();
    /// assert_eq!((end.reason, end.outcome.scores), (EndReason::Repetition, [6, 10]));
    /// assert!(Position::new(Rules::kalah(6, 4)).end_by_repetition().is_none());
    /// ```
    #[must_use]
    pub fn end_by_repetition(&self) -> Option<GameEnd> {
        let scores = crate::with_rule_set!(self.rules.variant(), R => R::repetition_scores(self))?;
        Some(GameEnd::new(self, EndReason::Repetition, scores))
    }

    /// The winner if it is already certain, whatever is played from here: a player who
    /// has banked more than half of the seeds. A final score is never below its store
    /// (in every variant) and the scores add up to at most the seeds there are, so that
    /// player wins. `None` means not yet certain (or a draw, which is only certain at the
    /// end).
    ///
    /// ```
    /// use mancala_core::{Position, Rules, Side};
    /// let rules = Rules::kalah(2, 2); // eight seeds: five in a store have won
    /// let p = Position::from_parts(rules, [&[1, 0], &[1, 1]], [5, 0], Side::North).unwrap();
    /// assert!(!p.is_over());
    /// assert_eq!(p.decided_winner(), Some(Side::South));
    /// assert_eq!(Position::new(rules).decided_winner(), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn decided_winner(&self) -> Option<Side> {
        let total = self.rules.total_seeds();
        if 2 * self.stores[0] > total {
            Some(Side::South)
        } else if 2 * self.stores[1] > total {
            Some(Side::North)
        } else {
            None
        }
    }

    /// The scores if the game ended now by the variant's rules: in Kalah each player's
    /// store plus the seeds in their houses; in Oware the captures, plus each player's
    /// own row unless a player already holds the majority; in simplified Oware the
    /// captures alone.
    #[must_use]
    pub fn final_scores(&self) -> [u16; 2] {
        crate::with_rule_set!(self.rules.variant(), R => R::final_scores(self))
    }

    /// Stores plus each player's own row: how the seeds are shared when a game ends with
    /// seeds on the board that belong to the player on whose side they lie (as when an
    /// Oware game ends by repetition, see [`Game`](crate::Game)).
    ///
    /// ```
    /// use mancala_core::{Position, Rules, Side};
    /// let p = Position::from_parts(Rules::oware(2, 4), [&[1, 2], &[0, 4]], [3, 6], Side::South).unwrap();
    /// assert_eq!(p.stores_plus_rows(), [6, 10]);
    /// ```
    #[must_use]
    pub fn stores_plus_rows(&self) -> [u16; 2] {
        [
            self.stores[0] + self.row_sum(Side::South),
            self.stores[1] + self.row_sum(Side::North),
        ]
    }

    #[inline]
    fn compute_over(&self) -> bool {
        crate::with_rule_set!(self.rules.variant(), R => R::is_over(self))
    }

    /// Recomputes the cached end flag after a move has changed the board (and the row
    /// counts with it).
    #[inline]
    pub(crate) fn refresh_over(&mut self) {
        debug_assert_eq!(self.rows, self.counted_rows(), "stale row counts\n{self}");
        self.over = self.compute_over();
    }

    /// The seeds on each row, counted from the cells.
    #[inline]
    pub(crate) fn counted_rows(&self) -> [u16; 2] {
        let h = self.rules.houses();
        [
            self.cells[..h].iter().sum(),
            self.cells[h..2 * h].iter().sum(),
        ]
    }

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

    /// Recounts the cached row counts from the cells.
    #[inline]
    pub(crate) fn recount_rows(&mut self) {
        self.rows = self.counted_rows();
    }
}

impl fmt::Display for Position {
    /// Draws the board: player 2's row on top (house H at the left), player 1's row
    /// below, stores (or captures) at the ends.
    ///
    /// ```
    /// use mancala_core::{Position, Rules};
    /// let text = Position::new(Rules::kalah(3, 2)).to_string();
    /// let expected = "
    ///         2   2   2
    ///    0                0
    ///         2   2   2
    /// player 1 to move
    /// ";
    /// assert_eq!(text, &expected[1..]);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A tuzdyk (always empty) shows as `x`, as in the notation.
        let row = |side: Side, reversed: bool| -> String {
            let tuzdyk = self.tuzdyk(side.opponent()).map(Move::index);
            let cells = (self.houses(side).iter().enumerate()).map(|(i, n)| {
                if tuzdyk == Some(i) {
                    format!("{:>4}", "x")
                } else {
                    format!("{n:>4}")
                }
            });
            if reversed {
                cells.rev().collect()
            } else {
                cells.collect()
            }
        };
        let width = 4 * self.rules.houses();
        writeln!(f, "     {}", row(Side::North, true))?;
        writeln!(
            f,
            "{:>4} {:width$}{:>4}",
            self.stores[1], "", self.stores[0]
        )?;
        writeln!(f, "     {}", row(Side::South, false))?;
        match self.outcome() {
            Some(o) => writeln!(f, "game over: {} to {}", o.scores[0], o.scores[1]),
            None => writeln!(f, "{} to move", self.to_move),
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("rules", &self.rules)
            .field("south", &self.houses(Side::South))
            .field("north", &self.houses(Side::North))
            .field("stores", &self.stores)
            .field("tuzdyks", &self.tuzdyks)
            .field("to_move", &self.to_move)
            .field("over", &self.over)
            .finish()
    }
}
