//! What the service does besides answering requests: the computer's turns (thought
//! on a thinker, committed while this instance holds the turn), taking over turns
//! nobody holds, passing changes made through other instances to the live streams
//! here, and deleting expired games.
//!
//! Several instances may share one database: a computer turn is leased to one
//! instance at a time (and taken over by another if it dies), and the periodic work
//! fires on one instance per period (the store's `claim_tick`).

use std::collections::hash_map::Entry;
use std::time::Duration;

use mancala_core::{Game, Move};
use mancala_engine::PlayerSpec;
use mancala_session::Session;

use crate::clock::{charge_move, deadline};
use crate::error::GameError;
use crate::games::Games;
use crate::store::{Change, ComputerCommit, GameRow, NewMove, Next, StateUpdate, now_ms};

/// How often each instance looks for computer turns nobody holds.
const SWEEP_EVERY: Duration = Duration::from_millis(500);

/// How often an instance that can share its database checks that the games it streams
/// live have not changed without its hearing of it (an announcement lost with the
/// instance that made the change).
const CHECK_WATCHED_EVERY: Duration = Duration::from_secs(2);

/// The background work of [`Games::start_background`]; dropping this stops it.
pub struct Background(Vec<tokio::task::JoinHandle<()>>);

impl Drop for Background {
    fn drop(&mut self) {
        for task in &self.0 {
            task.abort();
        }
    }
}

/// The thinking queue of a computer turn taken over from the store (after a restart,
/// or from an instance that died): its own, as no client is waiting on it here.
pub(crate) fn resumed(id: &str) -> String {
    format!("resumed game {id}")
}

impl Games {
    /// Starts the work every instance does in the background: taking over computer
    /// turns that nobody holds (after a restart, or when the instance thinking died),
    /// deleting expired games (on one instance per period), and passing changes made
    /// through other instances to live streams here. It stops when the returned
    /// [`Background`] is dropped.
    #[must_use = "the background work stops when this is dropped"]
    pub fn start_background(&self) -> Background {
        let mut tasks = vec![
            tokio::spawn(self.clone().sweep()),
            tokio::spawn(self.clone().expire_periodically()),
            tokio::spawn(self.clone().flag_periodically()),
        ];
        if let Some(changes) = self.store().changes() {
            tasks.push(tokio::spawn(self.clone().follow(changes)));
        }
        Background(tasks)
    }

    /// Lets go of the computer turns this instance holds, so that another instance
    /// takes them over at once (on shutdown).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn release_computer_turns(&self) -> Result<(), GameError> {
        Ok(self.store().release_computer_turns().await?)
    }

    /// Passes changes made through other instances to the live streams here, and
    /// checks now and then that none went unheard.
    async fn follow(self, mut changes: tokio::sync::mpsc::UnboundedReceiver<Change>) {
        let mut check = tokio::time::interval(CHECK_WATCHED_EVERY);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let ids = tokio::select! {
                change = changes.recv() => match change {
                    // An account's new event (see `events`): its streams here look.
                    Some(Change::Game(id)) if id.starts_with('@') => {
                        self.wakers().wake(&id[1..]);
                        continue;
                    }
                    Some(Change::Game(id)) => vec![id],
                    Some(Change::Resync) => {
                        self.wakers().wake_all();
                        self.streams().watched()
                    }
                    None => return,
                },
                _ = check.tick() => self.behind().await,
            };
            for id in ids {
                if self.streams().follows(&id) {
                    let me = self.clone();
                    tokio::spawn(async move { me.publish_id(&id).await });
                }
            }
        }
    }

    /// The watched games whose watchers have not been sent their latest state (an
    /// expired game's included: its streams are to end).
    async fn behind(&self) -> Vec<String> {
        let watched = self.streams().watched();
        if watched.is_empty() {
            return watched;
        }
        match self.store().progress(&watched).await {
            Ok(stored) => self.streams().behind(stored),
            Err(e) => {
                tracing::warn!(error = %e, "checking the watched games failed");
                Vec::new()
            }
        }
    }

    /// Takes over the computer turns nobody holds, as many as there are thinkers free.
    async fn sweep(self) {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            // Take no more turns than there are thinkers free to play them.
            for _ in 0..self.thinkers().free() {
                match self.store().claim_computer_turn(self.lease()).await {
                    Ok(Some(id)) => self.schedule_computer(&id, resumed(&id)),
                    Ok(None) => break,
                    Err(e) => {
                        tracing::error!(error = %e, "looking for computer turns failed");
                        break;
                    }
                }
            }
        }
    }

    /// Plays the computer's turn in game `id`, which this instance holds: it thinks
    /// (within the server's bounds, after `client`'s earlier computer moves) and plays
    /// its moves (several in a row after Kalah extra turns), renewing its hold
    /// meanwhile. If the turn already runs here, it looks again before it ends (the
    /// person may have moved just as it finished).
    pub(crate) fn schedule_computer(&self, id: &str, client: String) {
        match self.thinking().entry(id.to_owned()) {
            Entry::Occupied(mut running) => {
                *running.get_mut() = true;
                return;
            }
            Entry::Vacant(free) => {
                free.insert(false);
            }
        }
        let me = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            loop {
                let result = tokio::select! {
                    r = me.computer_turns(&id, &client) => r,
                    r = me.keep_turn(&id) => r,
                };
                if let Err(e) = result {
                    tracing::error!(game = %id, error = %e, "computer turn failed");
                }
                let mut thinking = me.thinking();
                if thinking.get(&id) == Some(&true) {
                    thinking.insert(id.clone(), false);
                } else {
                    thinking.remove(&id);
                    return;
                }
            }
        });
    }

    /// Renews this instance's hold on game `id`'s computer turn until it is lost.
    async fn keep_turn(&self, id: &str) -> Result<(), GameError> {
        loop {
            tokio::time::sleep(self.lease() / 3).await;
            if !self.store().renew_computer_turn(id, self.lease()).await? {
                tracing::warn!(game = %id, "computer turn taken over by another instance");
                return Ok(());
            }
        }
    }

    /// Plays game `id`'s computer moves while its session says a computer is to move,
    /// then lets go of the turn.
    async fn computer_turns(&self, id: &str, client: &str) -> Result<(), GameError> {
        loop {
            let row = match self.row(id).await {
                Ok(row) => row,
                Err(GameError::NotFound) => {
                    // Expired meanwhile: nothing is owed.
                    self.store().finish_computer_turn(id).await?;
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
            // The game as it is now, not held while the computer thinks: the person's
            // requests meanwhile are answered at once.
            let session = self.session(&row).await?;
            let Some((_, spec)) = session.computer_to_move() else {
                self.store().finish_computer_turn(id).await?;
                return Ok(());
            };
            let mv = match self.think(&row.id, spec, session.game(), client).await {
                Ok(mv) => mv,
                Err(e) => {
                    // A player that cannot be built or fails never will do better on
                    // this position: stop asking.
                    self.store().finish_computer_turn(id).await?;
                    return Err(e);
                }
            };
            if !self.commit_computer_move(&row, &session, mv).await? {
                return Ok(());
            }
        }
    }

    /// Stores the computer's move `mv` in the game of `row`, whose session is
    /// `session`, and sends it to the game's watchers; whether to look again (a
    /// computer is owed the next turn too, or someone else changed the game first).
    async fn commit_computer_move(
        &self,
        row: &GameRow,
        session: &Session,
        mv: Move,
    ) -> Result<bool, GameError> {
        let mut play = row.play.clone();
        // The computer's clock never runs: this only starts the person's turn.
        let _ = charge_move(&mut play, session, self.now_ms());
        let mut after = session.clone();
        after
            .play(mv)
            .map_err(|e| GameError::Internal(format!("the computer's move: {e}")))?;
        let next = self.next_after(&after);
        let new = NewMove {
            game: row.id.clone(),
            ply: session.game().ply(),
            house: mv.house(),
            next,
            state: Some(StateUpdate {
                seen_version: row.version,
                deadline_ms: deadline(&play, &after),
                play,
            }),
        };
        match self.store().append_computer_move(&new).await? {
            ComputerCommit::Stored => {
                tracing::info!(game = %row.id, ply = new.ply, house = new.house, "computer moved");
                let view = self.publish_id(&row.id).await;
                if matches!(next, Next::Nobody) {
                    self.forget_thinking(&row.id);
                    if let Some(view) = view {
                        self.game_finished(&view).await;
                    }
                }
                Ok(matches!(next, Next::Computer { .. }))
            }
            // Someone else played this ply, or the game changed: look again.
            ComputerCommit::PlyTaken => Ok(true),
            ComputerCommit::LeaseLost => Ok(false),
        }
    }

    /// The choice of the computer player `spec` in game `id` at `game`, thought within
    /// the server's bounds by one of the thinkers, after `client`'s earlier computer
    /// moves.
    async fn think(
        &self,
        id: &str,
        spec: &PlayerSpec,
        game: &Game,
        client: &str,
    ) -> Result<Move, GameError> {
        // A game stored under laxer bounds thinks within today's.
        let plan = self.thinkers().limits().plan(spec, game.rules());
        // Reproducible per game and ply, different between games.
        let seed = game.ply() as u64
            ^ id.bytes()
                .fold(0u64, |h, b| h.rotate_left(5) ^ u64::from(b));
        tracing::info!(game = %id, ply = game.ply(), "computer thinking");
        self.thinkers()
            .think(client, id, plan, game.clone(), seed)
            .await
            .map_err(GameError::Internal)
    }

    /// Deletes the games past their expiry now, and ends their live streams here
    /// (other instances hear of it through the store); returns how many. The
    /// challenges that expired unanswered go too, each told to both its accounts
    /// (`challengeExpired`).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn expire(&self) -> Result<usize, GameError> {
        self.expire_challenges().await?;
        let ids = self.store().expire(&self.limits().expiry, now_ms()).await?;
        for id in &ids {
            self.streams().end(id);
            self.thinkers().forget(id);
            self.sessions().forget(id);
        }
        Ok(ids.len())
    }

    /// How often expired games are deleted: a fifth of the shortest expiry, between
    /// 80 ms and 48 s. Each instance looks four times as often whether the `expiry`
    /// timer is due, so that one of them deletes the expired games within a quarter of
    /// the shortest expiry (at most a minute) of their time.
    fn expiry_period(&self) -> Duration {
        let e = self.limits().expiry;
        (e.unstarted.min(e.idle).min(e.finished) / 5)
            .clamp(Duration::from_millis(80), Duration::from_secs(48))
    }

    /// Runs [`Games::expire`] once per [`Games::expiry_period`], on one instance of
    /// those sharing the database.
    async fn expire_periodically(self) {
        let period = self.expiry_period();
        let mut tick = tokio::time::interval(period / 4);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match self.store().claim_tick("expiry", period).await {
                Ok(true) => match self.expire().await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(games = n, "expired games deleted"),
                    Err(e) => tracing::error!(error = %e, "expiring games failed"),
                },
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "the expiry timer failed"),
            }
        }
    }
}
