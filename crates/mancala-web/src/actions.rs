//! What players do to a game besides moving: resign, abort, offer a draw, ask for a
//! takeback, answer an offer, claim a game whose opponent left; and the clocks'
//! timer, which ends games on time.
//!
//! Each is decided on the game as loaded, and stored only if the game is still at
//! that version (see [`Store::change_state`](crate::Store::change_state)): a move and a resignation racing
//! each other cannot both be stored.

use mancala_core::Side;
use mancala_session::{Session, Stop};

use crate::accounts::both_have_moved;
use crate::clock::{FLAG_EVERY, claim_at, deadline, running, stop_clock};
use crate::error::GameError;
use crate::games::Games;
use crate::row::session_of;
use crate::row::started;
use crate::state::{Offer, OfferKind, PlayState};
use crate::store::{GameRow, Next, RatedEnd, StateChange, StateUpdate};
use crate::tokens::{SeatKey, seat_of};
use crate::view::GameView;

/// The body of `POST /api/games/{id}/offer`.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    /// `draw` or `takeback`.
    pub kind: OfferKind,
}

fn conflict(message: &str) -> GameError {
    GameError::Conflict(message.to_owned())
}

/// A game as one of its players acts on it: the stored row, the seat, and the game's
/// session (a copy: the live one is only changed by what is stored).
struct Seated {
    row: GameRow,
    side: Side,
    session: Session,
}

impl Seated {
    fn check_on(&self) -> Result<(), GameError> {
        if self.session.is_over() {
            return Err(conflict("the game is over"));
        }
        Ok(())
    }

    fn check_started(&self) -> Result<(), GameError> {
        self.check_on()?;
        if !started(&self.row, &self.session) {
            return Err(conflict(
                "the game has not started (nobody has joined): abort it instead",
            ));
        }
        Ok(())
    }

    /// The opponent's offer, if one waits for this seat's answer.
    fn offer_to_me(&self) -> Option<Offer> {
        self.row.play.offer.filter(|o| o.seat != self.side.number())
    }
}

impl Games {
    async fn seated(&self, id: &str, key: SeatKey<'_>) -> Result<Seated, GameError> {
        let row = self.row(id).await?;
        let side = seat_of(&row, key)?;
        let session = self.session(&row).await?;
        Ok(Seated { row, side, session })
    }

    /// Resigns for the holder of `key`: the opponent wins. A rated game cannot be
    /// resigned until each side has moved, only aborted (as on lichess): a rating is
    /// not given away, or farmed, without a game.
    ///
    /// # Errors
    /// 404, 401; [`GameError::Conflict`] when the game is over or has not started, or
    /// is rated and a side has not moved yet.
    pub async fn resign(&self, id: &str, key: SeatKey<'_>) -> Result<GameView, GameError> {
        let s = self.seated(id, key).await?;
        s.check_started()?;
        if s.row.rated && !both_have_moved(&s.session) {
            return Err(conflict(
                "a rated game cannot be resigned before each player has moved: abort it instead",
            ));
        }
        self.stop_game(&s, Stop::Resigned(s.side)).await
    }

    /// Calls the game off, without a result: only until each side has moved once.
    ///
    /// # Errors
    /// 404, 401; [`GameError::Conflict`] when the game is over or both have moved.
    pub async fn abort(&self, id: &str, key: SeatKey<'_>) -> Result<GameView, GameError> {
        let s = self.seated(id, key).await?;
        s.check_on()?;
        if both_have_moved(&s.session) {
            return Err(conflict(
                "both players have moved: too late to abort (resign or offer a draw)",
            ));
        }
        self.stop_game(&s, Stop::Aborted).await
    }

    /// Offers a draw or asks for a takeback of the asker's last turn. Against the
    /// computer a takeback is granted at once (on the person's turn) and a draw is
    /// refused.
    ///
    /// # Errors
    /// 404, 401; [`GameError::Conflict`] when the game is over or not started, an
    /// offer of the opponent's waits for an answer, nothing can be taken back, or the
    /// computer is asked for a draw or is thinking.
    pub async fn offer(
        &self,
        id: &str,
        key: SeatKey<'_>,
        request: Result<OfferRequest, GameError>,
    ) -> Result<GameView, GameError> {
        let s = self.seated(id, key).await?;
        let kind = request?.kind;
        s.check_started()?;
        if s.offer_to_me().is_some() {
            return Err(conflict(
                "your opponent's offer waits for your answer: accept or decline it first",
            ));
        }
        let mine = s.session.records().iter().any(|r| r.side == s.side);
        if kind == OfferKind::Takeback && !mine {
            return Err(conflict("you have no move to take back"));
        }
        if !s.session.seat(s.side.opponent()).is_human() {
            return match kind {
                OfferKind::Draw => Err(conflict("the computer plays on: it takes no draws")),
                OfferKind::Takeback => self.take_back_against_computer(s).await,
            };
        }
        let mut play = s.row.play.clone();
        play.offer = Some(Offer {
            kind,
            seat: s.side.number(),
        });
        self.change(&s, play).await
    }

    /// Accepts the opponent's offer: a draw ends the game, a takeback takes back the
    /// asker's last turn.
    ///
    /// # Errors
    /// 404, 401; [`GameError::Conflict`] when no offer of the opponent's waits.
    pub async fn accept(&self, id: &str, key: SeatKey<'_>) -> Result<GameView, GameError> {
        let s = self.seated(id, key).await?;
        s.check_on()?;
        let offer = s
            .offer_to_me()
            .ok_or_else(|| conflict("there is no offer of your opponent's to accept"))?;
        match offer.kind {
            OfferKind::Draw => self.stop_game(&s, Stop::DrawAgreed).await,
            OfferKind::Takeback => {
                let asker = s.side.opponent();
                let mut session = s.session.clone();
                let taken = session.take_back_turn_of(asker);
                let keep = session.records().len();
                self.take_back(&s, &session, taken, keep).await
            }
        }
    }

    /// Declines the opponent's offer, or withdraws one's own.
    ///
    /// # Errors
    /// 404, 401; [`GameError::Conflict`] when no offer waits.
    pub async fn decline(&self, id: &str, key: SeatKey<'_>) -> Result<GameView, GameError> {
        let s = self.seated(id, key).await?;
        s.check_on()?;
        if s.row.play.offer.is_none() {
            return Err(conflict("there is no offer to decline"));
        }
        let mut play = s.row.play.clone();
        play.offer = None;
        self.change(&s, play).await
    }

    /// Claims the game against an opponent who has not moved for [`CLAIM_AFTER`](crate::clock::CLAIM_AFTER) in a
    /// game without a clock.
    ///
    /// # Errors
    /// 404, 401; [`GameError::Conflict`] when the game has a clock, it is the
    /// claimer's turn, or the opponent's time to move is not over yet.
    pub async fn claim(&self, id: &str, key: SeatKey<'_>) -> Result<GameView, GameError> {
        let s = self.seated(id, key).await?;
        s.check_started()?;
        if s.row.play.time_control.is_some() {
            return Err(conflict("a game with a clock ends on time by itself"));
        }
        if s.session.to_move() != Some(s.side.opponent()) {
            return Err(conflict("only the player waiting for the other may claim"));
        }
        match claim_at(&s.row, &s.session) {
            Some(at) if at <= self.now_ms() => {}
            Some(at) => {
                return Err(GameError::Conflict(format!(
                    "your opponent has until {} (seconds since the Unix epoch) to move",
                    at.div_euclid(1000)
                )));
            }
            None => return Err(conflict("the computer does not leave")),
        }
        self.stop_game(&s, Stop::Abandoned(s.side.opponent())).await
    }

    /// Ends the games whose running clock has fallen; returns how many.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn flag_overdue(&self) -> Result<usize, GameError> {
        let ids = self.store().overdue(self.now_ms(), 100).await?;
        let mut flagged = 0;
        for id in ids {
            match self.flag(&id).await {
                Ok(true) => flagged += 1,
                Ok(false) | Err(GameError::NotFound | GameError::Conflict(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(flagged)
    }

    /// Ends game `id` on time if its running clock has fallen; whether it did.
    pub(crate) async fn flag(&self, id: &str) -> Result<bool, GameError> {
        let row = self.row(id).await?;
        let session = self.session(&row).await?;
        let Some(side) = running(&row.play, &session) else {
            return Ok(false);
        };
        if deadline(&row.play, &session).is_none_or(|d| d > self.now_ms()) {
            return Ok(false);
        }
        let s = Seated { row, side, session };
        self.stop_game(&s, Stop::OutOfTime(side)).await?;
        tracing::info!(game = %id, seat = side.number(), "out of time");
        Ok(true)
    }

    /// Runs [`Games::flag_overdue`] when a clock has fallen, on one instance of those
    /// sharing the database at a time.
    pub(crate) async fn flag_periodically(self) {
        let mut tick = tokio::time::interval(FLAG_EVERY / 2);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let due = match self.store().overdue(self.now_ms(), 1).await {
                Ok(ids) => !ids.is_empty(),
                Err(e) => {
                    tracing::error!(error = %e, "looking for fallen flags failed");
                    false
                }
            };
            if !due {
                continue;
            }
            match self.store().claim_tick("clocks", FLAG_EVERY / 2).await {
                Ok(true) => {
                    if let Err(e) = self.flag_overdue().await {
                        tracing::error!(error = %e, "ending games on time failed");
                    }
                }
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "the clocks' timer failed"),
            }
        }
    }

    async fn take_back_against_computer(&self, s: Seated) -> Result<GameView, GameError> {
        if !s.session.human_to_move() {
            return Err(conflict(
                "the computer is thinking: ask again when it is your turn",
            ));
        }
        let mut session = s.session.clone();
        let taken = session.undo();
        let keep = session.records().len();
        self.take_back(&s, &session, taken, keep).await
    }

    /// Stores a takeback of `taken` moves, leaving `keep` (as in `after`).
    async fn take_back(
        &self,
        s: &Seated,
        after: &Session,
        taken: usize,
        keep: usize,
    ) -> Result<GameView, GameError> {
        if taken == 0 {
            return Err(conflict("there is nothing to take back"));
        }
        let mut play = s.row.play.clone();
        play.offer = None;
        play.turn_started_ms = self.now_ms();
        let deadline_ms = deadline(&play, after);
        self.store_change(s, play, deadline_ms, Some(keep), Next::Person)
            .await
    }

    /// Stops the game: a resignation, an abort, an agreed draw, a flag fall, a claim.
    /// The clock that ran stops with the time left now.
    async fn stop_game(&self, s: &Seated, stop: Stop) -> Result<GameView, GameError> {
        let mut play = s.row.play.clone();
        stop_clock(&mut play, &s.session, self.now_ms());
        play.set_stop(stop);
        // A rated game is rated in the change that ends it.
        let rated = if s.row.rated {
            let ended = GameRow {
                play: play.clone(),
                ..s.row.clone()
            };
            self.rated_end(&ended, &session_of(&ended)?)
        } else {
            None
        };
        let view = self
            .store_change_rated(s, play, None, None, Next::Nobody, rated.as_ref())
            .await?;
        self.forget_thinking(&s.row.id);
        self.game_finished(&view).await;
        Ok(view)
    }

    /// Stores a new offer state (the clocks go on as they were).
    async fn change(&self, s: &Seated, play: PlayState) -> Result<GameView, GameError> {
        let deadline_ms = s.row.deadline_ms;
        self.store_change(s, play, deadline_ms, None, Next::Person)
            .await
    }

    async fn store_change(
        &self,
        s: &Seated,
        play: PlayState,
        deadline_ms: Option<i64>,
        keep_plies: Option<usize>,
        next: Next,
    ) -> Result<GameView, GameError> {
        self.store_change_rated(s, play, deadline_ms, keep_plies, next, None)
            .await
    }

    /// [`Games::store_change`], rating the game it ends when `rated` says how.
    async fn store_change_rated(
        &self,
        s: &Seated,
        play: PlayState,
        deadline_ms: Option<i64>,
        keep_plies: Option<usize>,
        next: Next,
        rated: Option<&RatedEnd>,
    ) -> Result<GameView, GameError> {
        let change = StateChange {
            game: s.row.id.clone(),
            update: StateUpdate {
                seen_version: s.row.version,
                play,
                deadline_ms,
            },
            keep_plies,
            next,
        };
        let stored = match rated {
            Some(rated) => self.store().change_state_rated(&change, rated).await?,
            None => self.store().change_state(&change).await?,
        };
        if !stored {
            return Err(conflict(
                "the game changed meanwhile (a move or an answer): look and try again",
            ));
        }
        self.republish(&s.row.id).await
    }
}
