//! What a stored game means: the rules, start, names, seats and session read from its
//! row. Below the service (`games`), the
//! game view (`view`), the live sessions (`live`) and the clocks (`clock`), which all
//! read rows, so that none of them needs another to do it.

use mancala_core::{Position, Side};
use mancala_session::{Seat, Session};

use crate::error::GameError;
use crate::store::{GameRow, StoreError};

/// The start of a stored game: its rules, with the first mover it was created with.
pub(crate) fn start_of(row: &GameRow) -> Result<Position, GameError> {
    Ok(Session::first_position(row.rules, row.play.first_side()))
}

/// Each seat's name: the name the player gave, or the default (`Player 2`, the
/// computer's level: `Medium bot`).
pub(crate) fn names_of(row: &GameRow) -> [String; 2] {
    let seats = seats_of(row);
    Side::BOTH.map(
        |side| match (&row.play.names[side.index()], &seats[side.index()]) {
            (Some(name), Seat::Human) => name.clone(),
            (_, seat) => mancala_session::default_name(side, seat),
        },
    )
}

/// The session of a stored game: replayed from its start, with its seats, names and
/// stop.
pub(crate) fn session_of(row: &GameRow) -> Result<Session, GameError> {
    let mut session = Session::replay_from(start_of(row)?, &row.moves)
        .map_err(|e| StoreError::Corrupt(format!("game {}: {e}", row.id)))?
        .with_seats(seats_of(row))
        .with_names(names_of(row));
    if let Some(stop) = row.play.stop() {
        // A stop is stored only while the game is on, so it applies.
        let _ = session.stop(stop);
    }
    Ok(session)
}

/// Whether both seats are held, so that moves may be played. Seat 1 is its
/// creator's from the start; seat 2 is held by a computer at once, by a person once
/// they join (the store lists games by the same test). `session` is the game's: its
/// seats say who is a computer.
pub(crate) fn started(row: &GameRow, session: &Session) -> bool {
    let second = Side::North;
    !session.seat(second).is_human() || row.token_hashes[second.index()].is_some()
}

/// Who sits in each seat as stored: the creator, a person, in seat 1, and the stored
/// opponent (`human` or a player spec) in seat 2. This is the one place the web reads
/// seats from a row; everything else asks the game's session ([`Session::seat`],
/// [`Session::computer_to_move`]).
pub(crate) fn seats_of(row: &GameRow) -> [Seat; 2] {
    // The opponent was checked when the game was created; a row that no longer parses
    // is treated as a person, so nothing is ever played for it.
    [Seat::Human, row.opponent.parse().unwrap_or(Seat::Human)]
}
