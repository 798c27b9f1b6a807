//! Playing positions: setting one up (checked against its rules), its legal moves,
//! checked and unchecked play, and how and when the game ends. Each question goes to the
//! position's rule set; the position itself (`position.rs`) knows no rules.

use crate::MAX_HOUSES;
use crate::end::{EndReason, GameEnd};
use crate::moves::{Move, MoveList};
use crate::outcome::Outcome;
use crate::position::{IllegalMove, MoveReport, Position, SetupError};
use crate::rules::Rules;
use crate::side::Side;
use crate::sowing::{NoSteps, StepSink};
use crate::variants::RuleSet;

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

    /// The same position with these tuzdyks, checked by the variant: only Togyz
    /// Kumalak has them, a tuzdyk holds no seeds, is not the opponent's last house, and
    /// the two players' tuzdyks do not have the same number.
    ///
    /// # Errors
    /// [`SetupError::Claim`] saying which rule a tuzdyk breaks.
    ///
    /// ```
    /// use mancala_core::{Move, Position, Rules, Side};
    /// let p = Position::from_notation("togyzkumalak 3x3 0,3,3/3 3,0,3/3 1").unwrap();
    /// let q = p.with_claims([Move::new(2), None]).unwrap();
    /// assert_eq!(q.to_notation(), "togyzkumalak 3x3 0,3,3/3 3,x,3/3 1");
    /// assert!(p.with_claims([Move::new(3), None]).is_err()); // the last house
    /// ```
    pub fn with_claims(self, tuzdyks: [Option<Move>; 2]) -> Result<Position, SetupError> {
        let mut p = self;
        p.tuzdyks = tuzdyks.map(|t| t.map_or(0, Move::house));
        p.over = p.compute_over();
        p.check_setup()?;
        Ok(p)
    }

    /// The checks of a position set up from parts beyond seeds adding up: tuzdyks only
    /// where the variant has them, then the variant's own.
    fn check_setup(&self) -> Result<(), SetupError> {
        if !self.rules.variant().info().claims {
            if let Some(side) = Side::BOTH
                .into_iter()
                .find(|s| self.tuzdyks[s.index()] != 0)
            {
                return Err(SetupError::Claim {
                    side,
                    word: "",
                    why: "this game has no claimed houses",
                });
            }
        }
        crate::with_rule_set!(self.rules.variant(), R => R::check_setup(self))
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
}
