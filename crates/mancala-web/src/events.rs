//! An account's events: what its event stream (`GET /api/stream/event`) sends.
//! Challenges made, withdrawn and declined, and the account's games starting and
//! finishing are stored as events (each with an id, increasing, so that a stream that
//! reconnects with `Last-Event-ID` gets what it missed) and announced; the account's
//! streams here are woken at once, those on other instances by the announcement (or,
//! should it be lost, by their periodic look).

use std::time::Duration;

use serde_json::{Value, json};

use crate::accounts::AccountGame;
use crate::games::Games;
use crate::store::AccountEvent;
use crate::view::GameView;

/// How long an account's events are kept for streams that reconnect.
pub const EVENT_KEEP: Duration = Duration::from_secs(24 * 3600);

/// How often an open stream looks for events even if nothing woke it (an
/// announcement from another instance can be lost).
pub(crate) const EVENT_POLL: Duration = Duration::from_secs(20);

/// The most events one read of the store sends.
pub(crate) const EVENT_BATCH: usize = 100;

impl Games {
    /// Adds `event` to `account`'s stream and wakes its streams here. A failure is
    /// logged: what the event tells of is stored already.
    pub(crate) async fn emit(&self, account: &str, event: Value) {
        let keep = i64::try_from(EVENT_KEEP.as_millis()).unwrap_or(i64::MAX);
        match self
            .store()
            .add_event(account, &event.to_string(), self.now_ms(), keep)
            .await
        {
            Ok(_) => self.wakers().wake(account),
            Err(e) => tracing::warn!(account, error = %e, "could not store an account event"),
        }
    }

    /// Tells each account seated in the game of `view` that it started (`gameStart`).
    pub(crate) async fn game_started(&self, view: &GameView) {
        self.game_event("gameStart", view).await;
    }

    /// Tells each account seated in the game of `view` that it finished
    /// (`gameFinish`, with the result and, for a rated game, the rating changes).
    pub(crate) async fn game_finished(&self, view: &GameView) {
        self.game_event("gameFinish", view).await;
    }

    async fn game_event(&self, kind: &str, view: &GameView) {
        for player in &view.players {
            let Some(account) = &player.account else {
                continue;
            };
            let game = AccountGame::of(view.clone(), player.seat);
            self.emit(account, json!({ "type": kind, "game": game }))
                .await;
        }
    }

    /// Up to [`EVENT_BATCH`] of `account`'s events after event `after`.
    pub(crate) async fn events_after(
        &self,
        account: &str,
        after: i64,
    ) -> Result<Vec<AccountEvent>, crate::GameError> {
        Ok(self
            .store()
            .events_after(account, after, EVENT_BATCH)
            .await?)
    }
}
