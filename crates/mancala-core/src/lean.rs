//! A game as a batch of games keeps it: no move list, the legal moves as bits.

use crate::game::MoveRun;
use crate::{IllegalMove, Move, Outcome, Position};

/// A game from a start position without its move list: the position, Oware's
/// repetition rule, and the legal moves as bits (house `h` is bit `h - 1`), kept up to
/// date by every move. What the Python package's `VectorGame` keeps for each of its
/// thousands of games: a step asks every game whether a move is legal and for its
/// legal moves, which bits answer with a shift, and never reads a move list.
///
/// It plays by the same rules as [`Game`](crate::Game), ends where it ends (by
/// repetition too) with the same outcome; `tests/properties.rs` checks that on random
/// games of every variant and rule option.
///
/// ```
/// use mancala_core::{LeanGame, Move, Position, Rules};
/// let mut game = LeanGame::new(Position::new(Rules::kalah(6, 4)));
/// assert_eq!(game.legal_bits(), 0b11_1111);
/// assert_eq!(game.play(Move::new(3).unwrap()), Ok(None)); // the game goes on
/// assert_eq!(game.legal_bits(), 0b11_1011);
/// assert!(game.play(Move::new(3).unwrap()).is_err()); // house 3 is empty
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeanGame {
    position: Position,
    /// The moves since the last capture, for variants with the repetition rule (left
    /// empty, and never asked, for the others).
    run: MoveRun,
    repetition_rule: bool,
    /// The legal moves as bits; 0 once the game is over.
    legal: u32,
}

impl LeanGame {
    /// A game starting at `start`, with no history before it.
    #[must_use]
    pub fn new(start: Position) -> LeanGame {
        let repetition_rule = start.variant().has_repetition_rule();
        LeanGame {
            position: start,
            run: if repetition_rule {
                let mut run = MoveRun::dormant(&start);
                run.reset(&start);
                run
            } else {
                MoveRun::dormant(&start)
            },
            repetition_rule,
            legal: start.legal_bits(),
        }
    }

    /// Starts again from `start` (of the same rules), keeping the tracker's allocation.
    pub fn restart(&mut self, start: &Position) {
        self.position = *start;
        if self.repetition_rule {
            self.run.reset(start);
        }
        self.legal = start.legal_bits();
    }

    /// The current position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The legal moves as bits, house `h` as bit `h - 1`; 0 once the game is over (by
    /// the position or by repetition).
    #[inline]
    #[must_use]
    pub fn legal_bits(&self) -> u32 {
        self.legal
    }

    /// Whether the game has ended.
    #[inline]
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.legal == 0
    }

    /// The position this game's repetition run starts from (its start, or the position
    /// after its last capture) and the moves played since: [`LeanGame::new`] of that
    /// position with the moves played again plays on exactly as this game, its
    /// repetition run included (no position before a capture can come round again),
    /// and with the repetition rule is equal to it. What a batch saves to rebuild a
    /// game; for a variant without the repetition rule, the current position and no
    /// moves.
    ///
    /// ```
    /// use mancala_core::{LeanGame, Move, Position, Rules};
    /// let mut game = LeanGame::new(Position::new(Rules::oware(6, 4)));
    /// game.play(Move::new(1).unwrap()).unwrap();
    /// let (start, moves) = game.since_capture();
    /// let mut again = LeanGame::new(start);
    /// for &mv in moves {
    ///     again.play(mv).unwrap();
    /// }
    /// assert_eq!(again, game);
    /// ```
    #[must_use]
    pub fn since_capture(&self) -> (Position, &[Move]) {
        if self.repetition_rule {
            (*self.run.start(), self.run.moves())
        } else {
            (self.position, &[])
        }
    }

    /// Whether `mv` is a legal move now.
    #[inline]
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal >> mv.index() & 1 == 1
    }

    /// Plays `mv`; the outcome if it ends the game (by the rules of the position, or
    /// because a position came round again since the last capture).
    ///
    /// # Errors
    /// Why `mv` is illegal (the position's reason); nothing is played.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Result<Option<Outcome>, IllegalMove> {
        if !self.is_legal(mv) {
            // A game over by repetition refuses every move as over, as `Game` does,
            // though its position would take some.
            return Err(match self.position.check(mv) {
                Err(e) if !self.is_over() => e,
                _ => IllegalMove::GameOver,
            });
        }
        if self.repetition_rule {
            let before = self.position;
            self.position.play_unchecked(mv);
            if self.run.record(&before, mv, &self.position) {
                self.legal = 0;
                return Ok(self.position.end_by_repetition().map(|e| e.outcome));
            }
        } else {
            self.position.play_unchecked(mv);
        }
        self.legal = self.position.legal_bits();
        Ok(self.position.outcome())
    }
}
