//! A person's move: checked against the game's live session, charged to the mover's
//! clock, committed to the store (one of two racing requests gets in), and sent to the
//! game's watchers; when the session says a computer is to move next, its turn is
//! scheduled (`background`). With a store of one writer, a move on a game this instance
//! knows is played without reading the game again (see [`Games::play`]).

use mancala_core::{Move, Side};
use mancala_session::Session;

use crate::live::LiveGame;

use crate::client::ClientKey;
use crate::clock::{charge_move, deadline};
use crate::error::GameError;
use crate::games::Games;
use crate::row::started;
use crate::store::{GameRow, NewMove, Next, RatedEnd, StateUpdate, now_ms};
use crate::tokens::{SeatKey, seat_of};
use crate::view::GameView;

/// A move request (`POST /api/games/{id}/moves`): the house, and the ply the client
/// believes is current (for safe retries and races).
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The house to sow, 1..=H as the mover sees it (any size is read, so that the
    /// answer names the house as sent).
    #[serde(deserialize_with = "crate::body::any_whole_number")]
    pub house: u128,
    /// The game's current ply.
    pub ply: u64,
}

/// The move sowing `house` (the number as sent, whatever its size) on a board of
/// `houses`: the session's one parser of houses.
fn house_move(house: u128, houses: usize) -> Result<Move, GameError> {
    u64::try_from(house)
        .map_or_else(
            |_| {
                Err(mancala_session::HouseError::NoSuchHouse {
                    house: house.to_string(),
                    houses,
                })
            },
            |h| mancala_session::house_number(h, houses),
        )
        .map_err(|e| GameError::Unprocessable(e.to_string()))
}

/// Checks that `seat` may move now at ply `ply` in the game of `row`, whose session is
/// `session`: the ply is current (409), both seats are held (409), it is `seat`'s turn
/// (403), the game goes on (422).
fn check_turn(row: &GameRow, session: &Session, seat: Side, ply: u64) -> Result<(), GameError> {
    let current = session.game().ply();
    if ply != current as u64 {
        return Err(GameError::Conflict(format!(
            "ply {ply} is not the current ply {current}"
        )));
    }
    if !started(row, session) {
        return Err(GameError::Conflict(
            "the game starts when player 2 joins: wait for your friend".into(),
        ));
    }
    if session.to_move().is_some_and(|to_move| to_move != seat) {
        return Err(GameError::NotYourTurn);
    }
    if session.is_over() {
        return Err(GameError::Unprocessable(
            mancala_core::IllegalMove::GameOver.to_string(),
        ));
    }
    Ok(())
}

/// The stored game `row` once `mv` is committed with `update`: the session played it
/// too, so the row need not be read back nor the game replayed.
fn stored_after(mut row: GameRow, mv: Move, update: StateUpdate, session: &Session) -> GameRow {
    row.moves.push(mv.house());
    row.activity_ms = now_ms();
    row.version += 1;
    row.deadline_ms = update.deadline_ms;
    row.play = update.play;
    if session.is_over() {
        row.finished_ms = Some(row.activity_ms);
    }
    row
}

/// What trying a move on a game and its session came to.
enum Attempt {
    /// Played and committed: the game's view after it, and who is owed the turn.
    Played(Box<GameView>, Next),
    /// The mover's clock has fallen: the game is to be ended on time.
    OutOfTime,
    /// Refused (nothing changed).
    Refused(GameError),
}

impl Games {
    /// Plays `house` for the holder of `key` (a seat token, or the account at the seat), if `ply` is the game's current ply.
    /// A computer reply is thought on behalf of `client`, after that client's earlier
    /// computer moves.
    ///
    /// Checks, in order: the game exists (404), the token (401), the request body
    /// (400), the ply (409), both seats taken (409), the turn (403), the rules (422).
    /// The move is committed before this returns.
    ///
    /// With a store this instance alone writes to, a move on a game it knows is tried
    /// first on its own copy of the stored game, without reading it again: the commit
    /// succeeds only if the stored game is still at that copy's version, so a copy
    /// that fell behind (a join, a resignation, a rematch offer) cannot be played on.
    /// Anything short of success there is left to the stored game, which answers as
    /// if the copy had never been tried.
    ///
    /// # Errors
    /// The [`GameError`] for the first check that fails; nothing is changed then.
    pub async fn play(
        &self,
        id: &str,
        key: SeatKey<'_>,
        request: Result<MoveRequest, GameError>,
        client: ClientKey,
    ) -> Result<GameView, GameError> {
        if let Ok(request) = &request {
            if let Some(view) = self.play_on_known(id, key, *request, &client).await? {
                return Ok(view);
            }
        }
        let row = self.row(id).await?;
        let seat = seat_of(&row, key)?;
        let request = request?;
        let mut live = self.sessions().of(&row).await?;
        match self.attempt(&mut live, row, seat, request).await {
            Attempt::Played(view, next) => {
                drop(live);
                Ok(self.after_move(id, *view, next, &client))
            }
            Attempt::OutOfTime => {
                drop(live);
                self.flag(id).await?;
                Err(GameError::Conflict("your time ran out".into()))
            }
            Attempt::Refused(e) => Err(e),
        }
    }

    /// Plays the move on this instance's copy of game `id`, if the store has no other
    /// writer and the copy allows it; `None` when the stored game must decide.
    ///
    /// # Errors
    /// When the store fails.
    async fn play_on_known(
        &self,
        id: &str,
        key: SeatKey<'_>,
        request: MoveRequest,
        client: &ClientKey,
    ) -> Result<Option<GameView>, GameError> {
        if !self.store().sole_writer() {
            return Ok(None);
        }
        let Some(mut live) = self.sessions().known(id).await else {
            return Ok(None);
        };
        let Some(row) = live.row.clone().filter(|row| self.unexpired(row)) else {
            return Ok(None);
        };
        let Ok(seat) = seat_of(&row, key) else {
            return Ok(None);
        };
        match self.attempt(&mut live, row, seat, request).await {
            Attempt::Played(view, next) => {
                drop(live);
                Ok(Some(self.after_move(id, *view, next, client)))
            }
            Attempt::Refused(GameError::Store(e)) => Err(GameError::Store(e)),
            Attempt::OutOfTime | Attempt::Refused(_) => Ok(None),
        }
    }

    /// Plays `request` for `seat` on `live`, the game's session, whose stored game is
    /// `row`, and commits it; on success `live` holds the game as stored after it.
    async fn attempt(
        &self,
        live: &mut LiveGame,
        row: GameRow,
        seat: Side,
        MoveRequest { house, ply }: MoveRequest,
    ) -> Attempt {
        let session = &mut live.session;
        if let Err(e) = check_turn(&row, session, seat, ply) {
            return Attempt::Refused(e);
        }
        let mv = match house_move(house, session.rules().houses()) {
            Ok(mv) => mv,
            Err(e) => return Attempt::Refused(e),
        };
        let mut play = row.play.clone();
        if charge_move(&mut play, session, self.now_ms()).is_err() {
            return Attempt::OutOfTime;
        }
        if let Err(e) = session.play(mv) {
            return Attempt::Refused(GameError::Unprocessable(e.to_string()));
        }
        let next = self.next_after(session);
        let rated = self.rated_end(&row, session);
        let update = StateUpdate {
            seen_version: row.version,
            deadline_ms: deadline(&play, session),
            play,
        };
        let commit = self.commit(&row.id, ply as usize, mv, next, &update, rated.as_ref());
        if let Err(e) = commit.await {
            // Not stored, so not played: the session goes back to the stored game.
            session.undo_move();
            return Attempt::Refused(e);
        }
        let mut row = stored_after(row, mv, update, session);
        if rated.is_some() {
            // The ratings were stored with the end: the view shows them.
            match self.store().load(&row.id).await {
                Ok(Some(stored)) => row = stored,
                Ok(None) => {}
                Err(e) => tracing::warn!(game = %row.id, error = %e, "reading a rated end"),
            }
        }
        let view = self.view_of_session(&row, session);
        live.row = Some(row);
        Attempt::Played(Box::new(view), next)
    }

    /// What follows a committed move: its view goes to the game's watchers, and the
    /// computer's turn is scheduled, or forgotten once the game is over.
    fn after_move(&self, id: &str, view: GameView, next: Next, client: &ClientKey) -> GameView {
        self.publish(id, &view);
        match next {
            Next::Computer { .. } => self.schedule_computer(id, client.to_string()),
            Next::Nobody => {
                self.forget_thinking(id);
                if view.players.iter().any(|p| p.account.is_some()) {
                    // The accounts seated hear of the end on their event streams.
                    let games = self.clone();
                    let view = view.clone();
                    tokio::spawn(async move { games.game_finished(&view).await });
                }
            }
            Next::Person => {}
        }
        view
    }

    /// Who is owed the turn in `after`, a game's session after a move, as the session
    /// says: nobody once it is over, this instance (holding the turn) when a computer
    /// is to move, a person otherwise.
    pub(crate) fn next_after(&self, after: &Session) -> Next {
        if after.is_over() {
            Next::Nobody
        } else if after.computer_to_move().is_some() {
            Next::Computer {
                lease: self.lease(),
            }
        } else {
            Next::Person
        }
    }

    /// Stores a person's move for ply `ply`, with the game's state after it (and the
    /// ratings, when it ends a rated game: `rated`); a lost race is a conflict.
    async fn commit(
        &self,
        id: &str,
        ply: usize,
        mv: Move,
        next: Next,
        update: &StateUpdate,
        rated: Option<&RatedEnd>,
    ) -> Result<(), GameError> {
        let new = NewMove {
            game: id.to_owned(),
            ply,
            house: mv.house(),
            next,
            state: Some(update.clone()),
        };
        let stored = match rated {
            Some(rated) => self.store().append_move_rated(&new, rated).await?,
            None => self.store().append_move(&new).await?,
        };
        if stored {
            Ok(())
        } else {
            Err(GameError::Conflict(format!(
                "ply {ply} was played by another request, or the game changed meanwhile"
            )))
        }
    }
}
