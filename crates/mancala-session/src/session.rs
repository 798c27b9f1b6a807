//! The game in progress: its seats and names, a record of every move, undo and redo.

use mancala_core::{
    Game, GameEnd, IllegalMove, Move, MoveList, MoveReport, Outcome, Position, Rules, Side, SowStep,
};
use mancala_engine::PlayerSpec;

use crate::{EndText, HouseError, Seat, Stop, default_name, parse_house};

/// One move as it was played: who, which house, what it did, and the sowing seed by seed.
///
/// ```
/// use mancala_core::{Move, Rules, Side, SowStep};
/// use mancala_session::Session;
/// let mut s = Session::new(Rules::kalah(6, 4));
/// let r = s.play(Move::new(1).unwrap()).unwrap().clone();
/// assert_eq!(r.side, Side::South);
/// assert_eq!(r.ply, 0);
/// assert!(matches!(r.sowing[0], SowStep::Lift { seeds: 4, .. }));
/// assert_eq!(r.after, *s.position());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The ply number of this move, counting from 0.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The house sown.
    pub mv: Move,
    /// Captures and whether the last seed ended in the mover's store.
    pub report: MoveReport,
    /// The steps of the move seed by seed, for animation.
    pub sowing: Vec<SowStep>,
    /// The position before the move.
    pub before: Position,
    /// The position after the move.
    pub after: Position,
}

/// A move that could not be replayed: its ply (from 0), the house, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} (house {house}): {error}")]
pub struct ReplayError {
    /// The ply of the move, counting from 0.
    pub ply: usize,
    /// The house it named.
    pub house: u8,
    /// Why it could not be played.
    pub error: IllegalMove,
}

/// A game in progress with its seats, names and records, and undo/redo.
///
/// Undo and redo work by *turns*: against a computer, [`Session::undo`] goes back to
/// the last position where a person was to move, and [`Session::redo`] replays that
/// person's move and the computer replies that followed it. With people in both seats
/// (or computers in both) a turn is one move.
///
/// ```
/// use mancala_core::{Move, Rules, Side};
/// use mancala_session::{Seat, Session};
/// let mut s = Session::new(Rules::kalah(3, 1))
///     .with_seat(Side::North, Seat::computer("greedy").unwrap());
/// let start = s.game().clone();
/// s.play(Move::new(2).unwrap()).unwrap(); // Ann
/// s.play(Move::new(1).unwrap()).unwrap(); // the computer replies
/// assert_eq!(s.undo(), 2);                // back to Ann's turn
/// assert_eq!(s.game(), &start);
/// assert_eq!(s.redo(), 2);
/// assert_eq!(s.records().len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    seats: [Seat; 2],
    names: [String; 2],
    records: Vec<MoveRecord>,
    /// Moves undone, the next one to redo last.
    undone: Vec<MoveRecord>,
    /// Set when the players or a clock stopped the game before the rules did.
    stopped: Option<Stop>,
}

impl Session {
    /// A new game under `rules`, people in both seats, named "Player 1" and "Player 2".
    #[must_use]
    pub fn new(rules: Rules) -> Session {
        Session {
            game: Game::new(rules),
            seats: [Seat::Human, Seat::Human],
            names: [
                default_name(Side::South, &Seat::Human),
                default_name(Side::North, &Seat::Human),
            ],
            records: Vec::new(),
            undone: Vec::new(),
            stopped: None,
        }
    }

    /// The session after playing `houses` from the start of `rules`, people in both
    /// seats: how a stored or recorded game comes back to life.
    ///
    /// ```
    /// use mancala_core::Rules;
    /// use mancala_session::{ReplayError, Session};
    /// let s = Session::replay(Rules::kalah(6, 4), &[3, 1]).unwrap();
    /// assert_eq!(s.records().len(), 2);
    /// let e = Session::replay(Rules::kalah(6, 4), &[3, 3]).unwrap_err();
    /// assert_eq!(e.ply, 1);
    /// assert_eq!(e.to_string(), "ply 1 (house 3): house 3 is empty");
    /// ```
    ///
    /// # Errors
    /// The first move that is not a house or not legal, with its ply (from 0).
    pub fn replay(rules: Rules, houses: &[u8]) -> Result<Session, ReplayError> {
        Session::replay_from(Position::new(rules), houses)
    }

    /// The session after playing `houses` from `start` (say, the first position with
    /// player 2 to move), people in both seats.
    ///
    /// ```
    /// use mancala_core::{Rules, Side};
    /// use mancala_session::Session;
    /// let start = Session::first_position(Rules::kalah(6, 4), Side::North);
    /// let s = Session::replay_from(start, &[3]).unwrap();
    /// assert_eq!(s.records()[0].side, Side::North);
    /// ```
    ///
    /// # Errors
    /// The first move that is not a house or not legal, with its ply (from 0).
    pub fn replay_from(start: Position, houses: &[u8]) -> Result<Session, ReplayError> {
        let rules = start.rules();
        let mut session = Session::from_position(start);
        for (ply, &house) in houses.iter().enumerate() {
            let error = |error| ReplayError { ply, house, error };
            let mv = Move::new(house).ok_or_else(|| {
                error(IllegalMove::OutOfRange {
                    house,
                    houses: u8::try_from(rules.houses()).unwrap_or(u8::MAX),
                })
            })?;
            session.play(mv).map_err(error)?;
        }
        Ok(session)
    }

    /// A new game from `start` (any position, with no history before it), people in
    /// both seats, named "Player 1" and "Player 2".
    ///
    /// ```
    /// use mancala_core::{Position, Side};
    /// use mancala_session::Session;
    /// let start = Position::from_notation("kalah 2x1 0,1/1 1,0/1 2").unwrap();
    /// let s = Session::from_position(start);
    /// assert_eq!(s.to_move(), Some(Side::North));
    /// assert_eq!(s.restarted().position(), &start);
    /// ```
    #[must_use]
    pub fn from_position(start: Position) -> Session {
        Session {
            game: Game::from_position(start),
            ..Session::new(start.rules())
        }
    }

    /// The start of a game under `rules` with `first` to move: the usual start, or
    /// the same board with player 2 moving first.
    ///
    /// ```
    /// use mancala_core::{Position, Rules, Side};
    /// use mancala_session::Session;
    /// let rules = Rules::oware(6, 4);
    /// assert_eq!(Session::first_position(rules, Side::South), Position::new(rules));
    /// assert_eq!(Session::first_position(rules, Side::North).to_move(), Side::North);
    /// ```
    #[must_use]
    pub fn first_position(rules: Rules, first: Side) -> Position {
        let start = Position::new(rules);
        if first == Side::South {
            return start;
        }
        Position::from_parts(
            rules,
            [start.houses(Side::South), start.houses(Side::North)],
            start.stores(),
            first,
        )
        .expect("the start with the other player to move is a position")
    }

    /// The same session with `seat` playing for `side`.
    #[must_use]
    pub fn with_seat(mut self, side: Side, seat: Seat) -> Session {
        self.seats[side.index()] = seat;
        self
    }

    /// The same session with these seats, player 1 first.
    #[must_use]
    pub fn with_seats(mut self, seats: [Seat; 2]) -> Session {
        self.seats = seats;
        self
    }

    /// The same session with these names, player 1 first.
    #[must_use]
    pub fn with_names(mut self, names: [impl Into<String>; 2]) -> Session {
        self.names = names.map(Into::into);
        self
    }

    /// A new game from the same start, with the same seats and names.
    ///
    /// ```
    /// use mancala_core::{Move, Rules};
    /// use mancala_session::Session;
    /// let mut s = Session::new(Rules::kalah(6, 4)).with_names(["A", "B"]);
    /// s.play(Move::new(1).unwrap()).unwrap();
    /// let again = s.restarted();
    /// assert_eq!(again.records().len(), 0);
    /// assert_eq!(again.names(), s.names());
    /// ```
    #[must_use]
    pub fn restarted(&self) -> Session {
        Session {
            game: Game::from_position(*self.game.start()),
            seats: self.seats.clone(),
            names: self.names.clone(),
            records: Vec::new(),
            undone: Vec::new(),
            stopped: None,
        }
    }

    /// The game: start, moves, current position.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Who plays `side`.
    #[must_use]
    pub fn seat(&self, side: Side) -> &Seat {
        &self.seats[side.index()]
    }

    /// Both seats, player 1 first.
    #[must_use]
    pub fn seats(&self) -> &[Seat; 2] {
        &self.seats
    }

    /// `side`'s name.
    #[must_use]
    pub fn name(&self, side: Side) -> &str {
        &self.names[side.index()]
    }

    /// Both names, player 1 first.
    #[must_use]
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// Every move played so far, in order.
    #[must_use]
    pub fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// The player to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        if self.stopped.is_some() {
            return None;
        }
        self.game.to_move()
    }

    /// The legal moves for the player to move.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        self.game.legal_moves()
    }

    /// Whether the game has ended, by the rules or stopped by its players.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.stopped.is_some() || self.game.is_over()
    }

    /// The result once the game has ended; `None` while it goes on and for an aborted
    /// game.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.stopped {
            Some(stop) => stop.outcome(self.position()),
            None => self.game.outcome(),
        }
    }

    /// How the rules ended the game (reason, final sweep, result); `None` while it goes
    /// on or when the players stopped it first ([`Session::stopped`]).
    #[must_use]
    pub fn end(&self) -> Option<GameEnd> {
        if self.stopped.is_some() {
            return None;
        }
        self.game.end()
    }

    /// How the players or a clock stopped the game, if they did.
    #[must_use]
    pub fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    /// Stops the game: a resignation, a flag fall, an agreed draw or an abort.
    ///
    /// ```
    /// use mancala_core::{Move, Rules, Side};
    /// use mancala_session::{Session, Stop};
    /// let mut s = Session::new(Rules::kalah(6, 4)).with_names(["Ann", "Bob"]);
    /// s.play(Move::new(1).unwrap()).unwrap();
    /// s.stop(Stop::Resigned(Side::North)).unwrap();
    /// assert!(s.is_over());
    /// assert_eq!(s.outcome().unwrap().winner, Some(Side::South));
    /// assert_eq!(s.end_text().unwrap().to_string(), "Ann wins: Bob resigned.");
    /// assert!(s.play(Move::new(1).unwrap()).is_err());
    /// ```
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] when the game has already ended.
    pub fn stop(&mut self, stop: Stop) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        self.stopped = Some(stop);
        self.undone.clear();
        Ok(())
    }

    /// The end of the game in words, with the players' names.
    ///
    /// ```
    /// use mancala_core::{Move, Rules};
    /// use mancala_session::Session;
    /// let mut s = Session::new(Rules::oware_simplified(1, 4)).with_names(["Ann", "Bob"]);
    /// for _ in 0..3 {
    ///     s.play(Move::new(1).unwrap()).unwrap();
    /// }
    /// assert_eq!(s.end_text().unwrap().headline, "A draw, 0 to 0");
    /// ```
    #[must_use]
    pub fn end_text(&self) -> Option<EndText> {
        let names = [self.names[0].as_str(), self.names[1].as_str()];
        match self.stopped {
            Some(stop) => Some(EndText::stopped(stop, names)),
            None => self.end().map(|end| EndText::new(&end, names)),
        }
    }

    /// The house the player to move means by `text`: a number, a letter or a label.
    ///
    /// ```
    /// use mancala_core::Rules;
    /// use mancala_session::Session;
    /// let s = Session::new(Rules::kalah(6, 4));
    /// assert_eq!(s.parse_house("b").unwrap().house(), 2);
    /// assert_eq!(
    ///     s.parse_house("7").unwrap_err().to_string(),
    ///     "there is no house 7 (houses are 1 to 6)"
    /// );
    /// ```
    ///
    /// # Errors
    /// Why `text` names none of the mover's houses (after the end of the game, the
    /// last mover's houses are meant).
    pub fn parse_house(&self, text: &str) -> Result<Move, HouseError> {
        parse_house(text, self.position().to_move(), self.rules().houses())
    }

    /// Whether a person is to move.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        self.to_move()
            .is_some_and(|side| self.seat(side).is_human())
    }

    /// The side and spec of the computer player to move, if a computer is to move.
    #[must_use]
    pub fn computer_to_move(&self) -> Option<(Side, &PlayerSpec)> {
        let side = self.to_move()?;
        self.seat(side).spec().map(|spec| (side, spec))
    }

    /// Plays `mv` for the player to move and returns its record.
    ///
    /// A new move forgets the moves undone, unless it is the very move that redo would
    /// replay next.
    ///
    /// # Errors
    /// Why the move is illegal; the session is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<&MoveRecord, IllegalMove> {
        let before = *self.game.position();
        let side = before.to_move();
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let (_, report) = before.play_with_report(mv)?;
        let sowing = before.sowing(mv)?;
        self.game.play(mv)?;
        let record = MoveRecord {
            ply: self.records.len(),
            side,
            mv,
            report,
            sowing,
            before,
            after: *self.game.position(),
        };
        match self.undone.last() {
            Some(next) if next.mv == mv => {
                self.undone.pop();
            }
            _ => self.undone.clear(),
        }
        self.records.push(record);
        Ok(self.records.last().expect("just pushed"))
    }

    /// Takes back one move, whoever made it; `false` if there is none, or when the
    /// players stopped the game (a resignation is not taken back).
    pub fn undo_move(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        let Some(record) = self.records.pop() else {
            return false;
        };
        self.game.undo();
        self.undone.push(record);
        true
    }

    /// Replays one undone move; `false` if there is none.
    pub fn redo_move(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        let Some(record) = self.undone.pop() else {
            return false;
        };
        self.game
            .play(record.mv)
            .expect("an undone move is legal again");
        self.records.push(record);
        true
    }

    /// Whether some seat is played by a person and the other by a computer.
    fn against_computer(&self) -> bool {
        self.seats[0].is_human() != self.seats[1].is_human()
    }

    /// Whether [`Session::undo`] would take anything back.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        if self.stopped.is_some() {
            false
        } else if self.against_computer() {
            self.records.iter().any(|r| self.seat(r.side).is_human())
        } else {
            !self.records.is_empty()
        }
    }

    /// Whether [`Session::redo`] would replay anything.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        self.stopped.is_none() && !self.undone.is_empty()
    }

    /// Takes back one turn and returns the number of moves taken back.
    ///
    /// Against a computer, goes back to just before the person's last move (taking
    /// back the computer's replies after it, and the person's own extra moves are taken
    /// one turn at a time); nothing is taken back if the person has not moved yet.
    /// Otherwise one move.
    pub fn undo(&mut self) -> usize {
        if !self.against_computer() {
            return usize::from(self.undo_move());
        }
        let Some(last_human) = self
            .records
            .iter()
            .rposition(|r| self.seat(r.side).is_human())
        else {
            return 0;
        };
        let n = self.records.len() - last_human;
        for _ in 0..n {
            self.undo_move();
        }
        n
    }

    /// Takes back `side`'s last turn between two people (a takeback granted by the
    /// opponent): the moves from `side`'s last move on, whoever made them, so that
    /// `side` is to move again where they were. Returns the number of moves taken back
    /// (0 when `side` has not moved, or the game was stopped).
    ///
    /// ```
    /// use mancala_core::{Move, Rules, Side};
    /// use mancala_session::Session;
    /// let mut s = Session::new(Rules::kalah(6, 4));
    /// s.play(Move::new(1).unwrap()).unwrap(); // player 1
    /// s.play(Move::new(2).unwrap()).unwrap(); // player 2
    /// assert_eq!(s.take_back_turn_of(Side::South), 2);
    /// assert_eq!(s.to_move(), Some(Side::South));
    /// assert_eq!(s.take_back_turn_of(Side::North), 0);
    /// ```
    pub fn take_back_turn_of(&mut self, side: Side) -> usize {
        if self.stopped.is_some() {
            return 0;
        }
        let Some(last) = self.records.iter().rposition(|r| r.side == side) else {
            return 0;
        };
        let n = self.records.len() - last;
        for _ in 0..n {
            self.undo_move();
        }
        n
    }

    /// Replays one undone turn and returns the number of moves replayed: the person's
    /// move and the computer replies up to the person's next move.
    pub fn redo(&mut self) -> usize {
        if !self.against_computer() {
            return usize::from(self.redo_move());
        }
        let mut n = 0;
        while self.redo_move() {
            n += 1;
            match self.undone.last() {
                Some(next) if self.seat(next.side).is_human() => break,
                _ => {}
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(h: u8) -> Move {
        Move::new(h).unwrap()
    }

    #[test]
    fn a_new_move_keeps_redo_only_when_it_is_the_move_undone() {
        let mut s = Session::new(Rules::kalah(6, 4));
        s.play(mv(1)).unwrap();
        s.play(mv(1)).unwrap();
        assert_eq!(s.undo(), 1);
        assert!(s.can_redo());
        s.play(mv(1)).unwrap();
        assert!(!s.can_redo());
        s.undo();
        s.play(mv(2)).unwrap();
        assert!(!s.can_redo());
    }

    #[test]
    fn undo_against_the_computer_stops_at_the_persons_turn() {
        let bot = Seat::computer("greedy").unwrap();
        // The computer moves first: nothing of the person's to take back.
        let mut s = Session::new(Rules::kalah(6, 4)).with_seat(Side::South, bot);
        s.play(mv(1)).unwrap();
        assert!(!s.can_undo());
        assert_eq!(s.undo(), 0);
        assert_eq!(s.records().len(), 1);
        // The person plays; undo takes back just that move.
        s.play(mv(1)).unwrap(); // North, house 1
        assert!(s.can_undo());
        assert_eq!(s.undo(), 1);
        assert_eq!(s.to_move(), Some(Side::North));
        assert!(s.human_to_move());
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut s = Session::new(Rules::kalah(2, 1));
        let before = s.game().clone();
        assert!(s.play(mv(3)).is_err());
        assert_eq!(s.game(), &before);
        assert!(s.records().is_empty());
    }

    #[test]
    fn a_stopped_game_takes_no_moves_and_no_takebacks() {
        let mut s = Session::new(Rules::oware(6, 4)).with_names(["Ann", "Bob"]);
        s.play(mv(1)).unwrap();
        s.play(mv(1)).unwrap();
        s.undo();
        assert!(s.can_redo());
        s.stop(Stop::OutOfTime(Side::South)).unwrap();
        assert_eq!(s.to_move(), None);
        assert!(!s.can_undo() && !s.can_redo());
        assert_eq!(s.undo(), 0);
        assert_eq!(s.play(mv(2)), Err(IllegalMove::GameOver));
        assert_eq!(s.stop(Stop::DrawAgreed), Err(IllegalMove::GameOver));
        assert_eq!(s.outcome().unwrap().winner, Some(Side::North));
        assert_eq!(
            s.end_text().unwrap().to_string(),
            "Bob wins: Ann ran out of time."
        );
        assert_eq!(s.end(), None, "the rules did not end it");
    }

    #[test]
    fn an_aborted_game_has_no_result() {
        let mut s = Session::new(Rules::kalah(6, 4));
        s.stop(Stop::Aborted).unwrap();
        assert!(s.is_over());
        assert_eq!(s.outcome(), None);
        assert_eq!(
            s.end_text().unwrap().to_string(),
            "No result: the game was aborted."
        );
        assert!(s.restarted().stopped().is_none());
    }

    #[test]
    fn the_computer_to_move_is_named() {
        let s = Session::new(Rules::oware(6, 4))
            .with_seat(Side::South, Seat::computer("random:seed=1").unwrap());
        let (side, spec) = s.computer_to_move().unwrap();
        assert_eq!(side, Side::South);
        assert_eq!(spec.name(), "random");
        assert!(!s.human_to_move());
    }
}
