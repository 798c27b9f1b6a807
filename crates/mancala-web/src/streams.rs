//! Live streams on this instance: who watches which game, what they were sent last,
//! and how many streams are open (in all and per client, within the server's caps);
//! and the accounts' event streams open here, to wake when an account has an event.
//!
//! This knows nothing of the store or the service: the service ([`crate::Games`])
//! reads games and hands their views here, so that watching stays below everything
//! that changes a game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::broadcast;

use crate::client::ClientKey;
use crate::error::GameError;
use crate::limits::StreamLimits;
use crate::store::Progress;
use crate::view::GameView;

/// How many views a slow watcher may fall behind before it misses some (it is sent
/// whole views, so the next one catches it up).
const BACKLOG: usize = 16;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every critical section here leaves the data consistent, so a poisoned lock is
    // still usable.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The live streams of this instance.
#[derive(Default)]
pub(crate) struct Streams {
    /// The watchers of each game being watched here.
    live: Mutex<HashMap<String, Watchers>>,
    /// Open live streams, in all and per client; shared with each [`StreamSlot`],
    /// which gives its place back when dropped.
    open: Arc<Mutex<StreamCount>>,
}

/// A view as the live streams send it: written as JSON once for all of a game's
/// watchers, however many (with ten thousand viewers of one game, writing it once per
/// stream was most of the time a move took to reach them; docs/speed.md).
#[derive(Debug)]
pub struct SentView {
    view: GameView,
    json: Utf8Bytes,
}

impl SentView {
    /// `view` and its JSON.
    #[must_use]
    pub fn of(view: GameView) -> SentView {
        let json = serde_json::to_string(&view).unwrap_or_default().into();
        SentView { view, json }
    }

    /// The view's JSON, shared by every stream that sends it.
    #[must_use]
    pub fn json(&self) -> &Utf8Bytes {
        &self.json
    }
}

impl std::ops::Deref for SentView {
    type Target = GameView;

    fn deref(&self) -> &GameView {
        &self.view
    }
}

/// One game's watchers here, and how far the last view sent to them had come.
struct Watchers {
    tx: broadcast::Sender<Arc<SentView>>,
    sent: Option<Progress>,
}

#[derive(Default)]
struct StreamCount {
    total: usize,
    per_client: HashMap<ClientKey, usize>,
}

/// A place among the open live streams, given back when dropped.
pub struct StreamSlot {
    open: Arc<Mutex<StreamCount>>,
    client: ClientKey,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut s = lock(&self.open);
        s.total = s.total.saturating_sub(1);
        if let Some(n) = s.per_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                s.per_client.remove(&self.client);
            }
        }
    }
}

/// How far the game in `view` has come. A view that is not ahead of the last one sent
/// to a game's watchers is old news, e.g. a reload that lost a race with a later move.
fn progress(view: &GameView) -> Progress {
    Progress {
        expired: false,
        version: view.version,
        plies: view.ply,
        seat_2_taken: view.players[1].joined,
        rematch: view.rematch.is_some(),
    }
}

impl Streams {
    /// Live streams open now.
    pub(crate) fn open_count(&self) -> usize {
        lock(&self.open).total
    }

    /// A place among the open live streams for `client`, within `limits`, held until
    /// the slot is dropped.
    ///
    /// # Errors
    /// [`GameError::TooMany`] when the client has as many open as it may,
    /// [`GameError::Busy`] when the server has.
    pub(crate) fn open(
        &self,
        client: ClientKey,
        limits: StreamLimits,
    ) -> Result<StreamSlot, GameError> {
        let mut s = lock(&self.open);
        let mine = s.per_client.get(&client).copied().unwrap_or(0);
        if mine >= limits.per_client {
            return Err(GameError::TooMany {
                message: format!(
                    "too many live streams: at most {} open at once from one client; close \
                     some (a finished game's stream ends by itself)",
                    limits.per_client
                ),
                retry_after: 10,
            });
        }
        if s.total >= limits.total {
            return Err(GameError::Busy {
                message: format!(
                    "the server follows as many live games as it can ({}); try again soon",
                    limits.total
                ),
                retry_after: 10,
            });
        }
        s.total += 1;
        *s.per_client.entry(client).or_insert(0) += 1;
        drop(s);
        Ok(StreamSlot {
            open: Arc::clone(&self.open),
            client,
        })
    }

    /// Subscribes to game `id`'s views. Games nobody watches any more are let go of
    /// here, so the map holds only watched games.
    pub(crate) fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<SentView>> {
        let mut live = lock(&self.live);
        live.retain(|_, w| w.tx.receiver_count() > 0);
        live.entry(id.to_owned())
            .or_insert_with(|| Watchers {
                tx: broadcast::channel(BACKLOG).0,
                sent: None,
            })
            .tx
            .subscribe()
    }

    /// Sends `view` to game `id`'s watchers, if any, unless they have seen it or a
    /// later one.
    pub(crate) fn publish(&self, id: &str, view: &GameView) {
        let mut live = lock(&self.live);
        let Some(watchers) = live.get_mut(id) else {
            return;
        };
        let now = progress(view);
        if watchers.sent.is_some_and(|sent| sent >= now) {
            return;
        }
        watchers.sent = Some(now);
        let _ = watchers.tx.send(Arc::new(SentView::of(view.clone())));
    }

    /// Ends the streams of game `id` (it expired): dropping the sender closes every
    /// subscriber's stream.
    pub(crate) fn end(&self, id: &str) {
        lock(&self.live).remove(id);
    }

    /// Whether game `id` has had watchers here since they were last let go of.
    pub(crate) fn follows(&self, id: &str) -> bool {
        lock(&self.live).contains_key(id)
    }

    /// The games watched on this instance now.
    pub(crate) fn watched(&self) -> Vec<String> {
        lock(&self.live)
            .iter()
            .filter(|(_, w)| w.tx.receiver_count() > 0)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Of the games `stored` (each with how far it has come in the store), those whose
    /// watchers here have not been sent that far.
    pub(crate) fn behind(&self, stored: Vec<(String, Progress)>) -> Vec<String> {
        let live = lock(&self.live);
        stored
            .into_iter()
            .filter(|(id, now)| {
                live.get(id)
                    .is_some_and(|w| w.sent.is_none_or(|sent| sent < *now))
            })
            .map(|(id, _)| id)
            .collect()
    }
}

/// The account event streams open on this instance, each woken when its account has
/// a new event.
#[derive(Default)]
pub(crate) struct AccountWakers {
    open: Mutex<HashMap<String, broadcast::Sender<()>>>,
}

impl AccountWakers {
    /// A wake-up call for each new event of `account`. Accounts nobody follows any
    /// more are let go of here.
    pub(crate) fn subscribe(&self, account: &str) -> broadcast::Receiver<()> {
        let mut open = lock(&self.open);
        open.retain(|_, tx| tx.receiver_count() > 0);
        open.entry(account.to_owned())
            .or_insert_with(|| broadcast::channel(4).0)
            .subscribe()
    }

    /// Wakes `account`'s streams here.
    pub(crate) fn wake(&self, account: &str) {
        if let Some(tx) = lock(&self.open).get(account) {
            let _ = tx.send(());
        }
    }

    /// Wakes every stream here (after announcements may have been lost).
    pub(crate) fn wake_all(&self) {
        for tx in lock(&self.open).values() {
            let _ = tx.send(());
        }
    }
}
