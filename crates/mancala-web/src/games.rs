//! The game service: what every request about a game goes through. Handlers call it;
//! it calls the store ([`Store`]), which several server instances may share.
//!
//! [`Games`] is defined here with what the rest of the service shares: its state,
//! reading a stored game and its view, and handing views to the live streams. What it
//! does is in modules of their own, each a further `impl Games`: creating, joining and
//! rematches (`lifecycle`), a person's move (`moves`), the computer's turns and the
//! periodic work (`background`), resigning, offers and the clocks (`actions`), records
//! (`records`) and the lobby (`lobby`). They build on this module, never it on them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use mancala_session::Session;
use tokio::sync::broadcast;

use crate::analysis_jobs::AnalysisJobs;
use crate::client::ClientKey;
use crate::clock::{Clock, SystemClock};
use crate::error::GameError;
use crate::limits::Limits;
use crate::live::{LIVE_SESSIONS, LiveSessions};
use crate::store::{GameRow, Store, now_ms};
use crate::streams::{AccountWakers, SentView, StreamSlot, Streams};
use crate::thinkers::{ThinkStats, Thinkers};
use crate::view::GameView;

/// How long an instance holds a computer turn unless it renews the hold (it renews
/// every third of this while thinking): after a crash, another instance takes the turn
/// over within this time.
pub const DEFAULT_COMPUTER_LEASE: Duration = Duration::from_secs(10);

/// The game service, cheap to clone (shared state behind an `Arc`).
#[derive(Clone)]
pub struct Games {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    limits: Limits,
    /// The live streams of this instance.
    streams: Streams,
    /// Computer players: thinker slots, memory budget, one move at a time per client.
    thinkers: Thinkers,
    /// Games whose computer turn runs on this instance now, each with whether it was
    /// scheduled again meanwhile (and so must look again before it ends).
    thinking: Mutex<HashMap<String, bool>>,
    /// How long a computer turn is held unless renewed.
    lease: Duration,
    /// The live session of each game played here lately.
    sessions: LiveSessions,
    /// The time for the players' clocks and claims.
    clock: Arc<dyn Clock>,
    /// The analysis jobs running here.
    analyses: AnalysisJobs,
    /// The account event streams open here, woken by new events.
    wakers: AccountWakers,
}

impl Games {
    /// The service over `store`, with the default [`Limits`].
    #[must_use]
    pub fn new(store: Store) -> Games {
        Games::with_limits(store, Limits::default())
    }

    /// The service over `store` within `limits`.
    #[must_use]
    pub fn with_limits(store: Store, limits: Limits) -> Games {
        Games::with_computer_lease(store, limits, DEFAULT_COMPUTER_LEASE)
    }

    /// The service over `store` within `limits`, holding computer turns for `lease` at
    /// a time.
    #[must_use]
    pub fn with_computer_lease(store: Store, limits: Limits, lease: Duration) -> Games {
        Games {
            inner: Arc::new(Inner {
                store,
                thinkers: Thinkers::new(limits.think),
                limits,
                streams: Streams::default(),
                thinking: Mutex::new(HashMap::new()),
                lease,
                sessions: LiveSessions::new(LIVE_SESSIONS),
                clock: Arc::new(SystemClock),
                analyses: AnalysisJobs::default(),
                wakers: AccountWakers::default(),
            }),
        }
    }

    /// The same service reading the time for clocks and claims from `clock` (a test's
    /// [`crate::ManualClock`]).
    ///
    /// # Panics
    /// When the service has been cloned already: set the clock first.
    #[must_use]
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Games {
        Arc::get_mut(&mut self.inner)
            .expect("the clock is set before the service is shared")
            .clock = clock;
        self
    }

    /// The store the service runs on.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The limits the service enforces.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// What the computer players use now, and the most they used at once.
    #[must_use]
    pub fn think_stats(&self) -> ThinkStats {
        self.inner.thinkers.stats()
    }

    pub(crate) fn thinkers(&self) -> &Thinkers {
        &self.inner.thinkers
    }

    /// The games whose computer turn runs here now, each with whether it was scheduled
    /// again meanwhile.
    pub(crate) fn thinking(&self) -> MutexGuard<'_, HashMap<String, bool>> {
        // Every critical section leaves the map consistent, so a poisoned lock is
        // still usable.
        self.inner
            .thinking
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How long a computer turn is held unless renewed.
    pub(crate) fn lease(&self) -> Duration {
        self.inner.lease
    }

    pub(crate) fn analysis_jobs(&self) -> &AnalysisJobs {
        &self.inner.analyses
    }

    pub(crate) fn sessions(&self) -> &LiveSessions {
        &self.inner.sessions
    }

    /// The account event streams open here.
    pub(crate) fn wakers(&self) -> &AccountWakers {
        &self.inner.wakers
    }

    pub(crate) fn streams(&self) -> &Streams {
        &self.inner.streams
    }

    /// A copy of the live session of the stored game `row`.
    pub(crate) async fn session(&self, row: &GameRow) -> Result<Session, GameError> {
        Ok(self.inner.sessions.of(row).await?.session.clone())
    }

    /// Stops thinking about game `id`'s computer moves (it is over).
    pub(crate) fn forget_thinking(&self, id: &str) {
        self.inner.thinkers.forget(id);
    }

    /// The stored game, unless it does not exist or has expired.
    pub(crate) async fn row(&self, id: &str) -> Result<GameRow, GameError> {
        match self.store().load(id).await? {
            Some(row) if self.unexpired(&row) => Ok(row),
            _ => Err(GameError::NotFound),
        }
    }

    /// Whether the game stored as `row` has not expired.
    pub(crate) fn unexpired(&self, row: &GameRow) -> bool {
        self.inner.limits.expiry.deadline_ms(row) > now_ms()
    }

    pub(crate) fn view_of(&self, row: &GameRow) -> Result<GameView, GameError> {
        GameView::of(row, &self.inner.limits.expiry, self.now_ms())
    }

    /// The view of the stored game `row` whose live session is `session`.
    pub(crate) fn view_of_session(&self, row: &GameRow, session: &Session) -> GameView {
        GameView::of_session(row, session, &self.inner.limits.expiry, self.now_ms())
    }

    /// The time by the service's clock, in milliseconds since the Unix epoch.
    pub(crate) fn now_ms(&self) -> i64 {
        self.inner.clock.now_ms()
    }

    /// The current view of a game, for anyone.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown or expired id.
    pub async fn view(&self, id: &str) -> Result<GameView, GameError> {
        let row = self.row(id).await?;
        self.view_of(&row)
    }

    /// Whether game `id` exists (and has not expired).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn exists(&self, id: &str) -> Result<bool, GameError> {
        match self.row(id).await {
            Ok(_) => Ok(true),
            Err(GameError::NotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Live streams open now.
    #[must_use]
    pub fn open_streams(&self) -> usize {
        self.inner.streams.open_count()
    }

    /// A place among the open live streams for `client`, held until the slot is
    /// dropped.
    ///
    /// # Errors
    /// [`GameError::TooMany`] when the client has as many open as it may,
    /// [`GameError::Busy`] when the server has.
    pub fn open_stream(&self, client: ClientKey) -> Result<StreamSlot, GameError> {
        self.inner.streams.open(client, self.inner.limits.streams)
    }

    /// Subscribes to game `id`'s updates (full views after every change). The channel
    /// closes when the game expires.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<SentView>> {
        self.inner.streams.subscribe(id)
    }

    /// Sends `view` to game `id`'s watchers, unless they have seen it or a later one.
    pub(crate) fn publish(&self, id: &str, view: &GameView) {
        self.inner.streams.publish(id, view);
    }

    /// Reads game `id` again after a change, and sends it to its watchers.
    pub(crate) async fn republish(&self, id: &str) -> Result<GameView, GameError> {
        let view = self.view(id).await?;
        self.publish(id, &view);
        Ok(view)
    }

    /// Sends the current view of game `id` to its watchers, and returns it; ends their
    /// streams if the game has expired.
    pub(crate) async fn publish_id(&self, id: &str) -> Option<GameView> {
        match self.view(id).await {
            Ok(view) => {
                self.publish(id, &view);
                Some(view)
            }
            Err(GameError::NotFound) => {
                self.inner.streams.end(id);
                None
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "could not read a game to publish");
                None
            }
        }
    }
}
