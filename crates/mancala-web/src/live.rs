//! The live session of each game played here: one [`Session`] per game in memory,
//! brought up to date with the database before each use.
//!
//! The database is the truth: another instance may have played moves since (or this
//! instance restarted), so before each use the session is compared with the stored
//! moves. A session that is behind plays the moves it missed; one that disagrees
//! (a move it played whose commit lost a race) is rebuilt from the stored moves.
//! Sessions are kept for the games used most recently, up to a fixed number.
//!
//! With each session goes the stored game it was last brought up to date with, for
//! the move path of a store with one writer (`moves`): there, the copy is the game as
//! stored unless this instance changed it since, which the store's version check on
//! the next commit tells.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;
use mancala_core::Move;
use mancala_session::Session;
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

use crate::error::GameError;
use crate::row::{names_of, seats_of, session_of, start_of};
use crate::store::{GameRow, StoreError};

/// How many games' sessions are kept: a session is a few KiB, and a game not among
/// the most recently used is rebuilt from the database when it is next played.
pub(crate) const LIVE_SESSIONS: usize = 4096;

/// A game's live session, and the stored game as this instance last knew it.
pub(crate) struct LiveGame {
    /// The session, up to date with `row` (or ahead of it by a move being committed).
    pub(crate) session: Session,
    /// The stored game the session was last brought up to date with, or stored by this
    /// instance since; `None` until a request has read it.
    pub(crate) row: Option<GameRow>,
}

/// One game's live session, used by one request at a time.
type Shared = Arc<AsyncMutex<LiveGame>>;

/// A game's live session, held by one request.
pub(crate) type LiveGuard = OwnedMutexGuard<LiveGame>;

/// The live sessions, by game id.
pub(crate) struct LiveSessions {
    sessions: Mutex<LruCache<String, Shared>>,
}

impl LiveSessions {
    /// Keeps at most `capacity` games' sessions.
    pub(crate) fn new(capacity: usize) -> LiveSessions {
        LiveSessions {
            sessions: Mutex::new(LruCache::new(
                NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    /// The session of the game stored as `row`, up to date with its moves, held until
    /// the guard is dropped (other requests for the game wait; other games do not).
    ///
    /// # Errors
    /// When the stored game does not replay.
    pub(crate) async fn of(&self, row: &GameRow) -> Result<LiveGuard, GameError> {
        let shared = {
            let mut sessions = self
                .sessions
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match sessions.get(&row.id) {
                Some(shared) => Arc::clone(shared),
                None => {
                    let shared = Arc::new(AsyncMutex::new(LiveGame {
                        session: rebuilt(row)?,
                        row: None,
                    }));
                    sessions.put(row.id.clone(), Arc::clone(&shared));
                    shared
                }
            }
        };
        let mut live = shared.lock_owned().await;
        bring_up_to_date(&mut live.session, row)?;
        live.row = Some(row.clone());
        Ok(live)
    }

    /// Game `id`'s live session with the stored game it was last brought up to date
    /// with, if this instance has one, held until the guard is dropped.
    pub(crate) async fn known(&self, id: &str) -> Option<LiveGuard> {
        let shared = Arc::clone(
            self.sessions
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get(id)?,
        );
        let live = shared.lock_owned().await;
        live.row.is_some().then_some(live)
    }

    /// Lets go of game `id`'s session (it expired).
    pub(crate) fn forget(&self, id: &str) {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop(id);
    }
}

/// The session of `row` replayed from its stored moves, with its seats, names and
/// stop.
fn rebuilt(row: &GameRow) -> Result<Session, GameError> {
    session_of(row)
}

/// Plays the stored moves `session` has not seen, or rebuilds it when its moves are
/// not the start of the stored ones.
fn bring_up_to_date(session: &mut Session, row: &GameRow) -> Result<(), GameError> {
    let seen = session.records().len();
    let agrees = seen <= row.moves.len()
        && session.seats() == &seats_of(row)
        && session.game().start() == &start_of(row)?
        && session.stopped() == row.play.stop()
        && session.names() == &names_of(row)
        && session
            .records()
            .iter()
            .zip(&row.moves)
            .all(|(record, &house)| record.mv.house() == house);
    if !agrees {
        *session = rebuilt(row)?;
        return Ok(());
    }
    for (ply, &house) in row.moves.iter().enumerate().skip(seen) {
        let corrupt = || StoreError::Corrupt(format!("game {} ply {ply}", row.id));
        let mv = Move::new(house).ok_or_else(corrupt)?;
        session.play(mv).map_err(|_| corrupt())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use mancala_core::Side;

    use super::*;

    fn row(moves: &[u8]) -> GameRow {
        GameRow {
            id: "g".into(),
            rules: mancala_core::Rules::from_text("kalah(6,4)").unwrap(),
            opponent: "human".into(),
            moves: moves.to_vec(),
            ..GameRow::default()
        }
    }

    fn houses(session: &Session) -> Vec<u8> {
        session.records().iter().map(|r| r.mv.house()).collect()
    }

    #[tokio::test]
    async fn a_session_plays_the_moves_made_elsewhere() {
        let live = LiveSessions::new(8);
        assert_eq!(houses(&live.of(&row(&[3])).await.unwrap().session), [3]);
        // Another instance played two more moves.
        let game = live.of(&row(&[3, 1, 2])).await.unwrap();
        assert_eq!(houses(&game.session), [3, 1, 2]);
        assert_eq!(game.row.as_ref().unwrap().moves, [3, 1, 2]);
    }

    #[tokio::test]
    async fn a_session_that_disagrees_with_the_store_is_rebuilt() {
        let live = LiveSessions::new(8);
        {
            // This instance played 1 after 3, but its commit lost the race to 2.
            let mut game = live.of(&row(&[3])).await.unwrap();
            game.session.play(Move::new(1).unwrap()).unwrap();
        }
        assert_eq!(
            houses(&live.of(&row(&[3, 2])).await.unwrap().session),
            [3, 2]
        );
        // And one ahead of the store (a move never committed) goes back.
        {
            let mut game = live.of(&row(&[3, 2])).await.unwrap();
            game.session.play(Move::new(1).unwrap()).unwrap();
        }
        assert_eq!(
            houses(&live.of(&row(&[3, 2])).await.unwrap().session),
            [3, 2]
        );
    }

    #[tokio::test]
    async fn the_computer_seat_comes_from_the_stored_opponent() {
        let live = LiveSessions::new(8);
        let mut stored = row(&[]);
        stored.opponent = "greedy".into();
        let session = &live.of(&stored).await.unwrap().session;
        assert_eq!(session.seat(Side::North), &"greedy".parse().unwrap());
        assert!(session.seat(Side::South).is_human());
    }

    #[tokio::test]
    async fn only_a_game_read_here_is_known() {
        let live = LiveSessions::new(8);
        assert!(live.known("g").await.is_none());
        drop(live.of(&row(&[3])).await.unwrap());
        let known = live.known("g").await.unwrap();
        assert_eq!(known.row.as_ref().unwrap().moves, [3]);
        assert_eq!(houses(&known.session), [3]);
        drop(known);
        live.forget("g");
        assert!(live.known("g").await.is_none());
    }

    #[tokio::test]
    async fn a_corrupt_stored_game_is_an_error_not_a_panic() {
        let live = LiveSessions::new(8);
        assert!(live.of(&row(&[3, 3])).await.is_err());
        assert!(live.of(&row(&[9])).await.is_err());
    }
}
