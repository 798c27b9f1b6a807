//! The live streams of a game (`/api/games/{id}/live` as server-sent events,
//! `/api/games/{id}/ws` as a WebSocket): every view of the game as it changes, until
//! it is over and no rematch comes.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast;
use tokio_stream::{Stream, StreamExt};

use crate::error::GameError;
use crate::games::Games;
use crate::http::{ApiError, Client};
use crate::streams::{SentView, StreamSlot};
use crate::view::GameView;

/// The game `id` now, and for a finished game how much longer its streams wait for
/// a rematch (zero once the wait is over: see [`crate::StreamLimits::rematch_wait`]).
async fn followed(games: &Games, id: &str) -> Result<(GameView, Duration), GameError> {
    let row = games.row(id).await?;
    let view = games.view_of(&row)?;
    let wait = games.limits().streams.rematch_wait;
    // The store stamps the end with the wall clock. A game stored without its end
    // counts from its last change.
    let ended = row.finished_ms.unwrap_or(row.activity_ms);
    let waited = u64::try_from(crate::store::now_ms().saturating_sub(ended)).unwrap_or(0);
    Ok((view, wait.saturating_sub(Duration::from_millis(waited))))
}

/// A followed game's stream while it lasts: what it has sent, and when it stops
/// waiting for a rematch once the game is over. Holds its place among the open streams.
struct Following {
    updates: broadcast::Receiver<Arc<SentView>>,
    version: u64,
    /// When the stream of the finished game ends if no rematch comes.
    until: Option<tokio::time::Instant>,
    /// How long a game that ends while followed then waits for a rematch.
    wait: Duration,
    _slot: StreamSlot,
}

impl Following {
    /// Whether the stream goes on after sending `view`: until the game is over, and
    /// then until a view names its rematch or the wait for one is over.
    fn goes_on_after(&mut self, view: &GameView) -> bool {
        self.version = view.version;
        if !view.over {
            return true;
        }
        if view.rematch.is_some() {
            return false;
        }
        let wait = self.wait;
        let until = *self
            .until
            .get_or_insert_with(|| tokio::time::Instant::now() + wait);
        until > tokio::time::Instant::now()
    }

    /// The next view to send, or `None` when the stream ends: the game expired, or
    /// the finished game's wait for a rematch is over.
    async fn next(&mut self) -> Option<Arc<SentView>> {
        loop {
            let received = match self.until {
                Some(until) => tokio::time::timeout_at(until, self.updates.recv())
                    .await
                    .ok()?,
                None => self.updates.recv().await,
            };
            match received {
                // A view older than one sent (a change published while the first
                // view was read) is left out.
                Ok(view) if view.version < self.version => {}
                Ok(view) => return Some(view),
                // A watcher that falls behind skips to the next full view.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

/// The views of a followed game: `first`, then each change, ending after the view
/// naming the finished game's rematch, when the finished game has waited for one
/// (`wait_left` from `first` on; `rematch_wait` for a game that ends while followed),
/// or when the game expires. Holds `slot` while it lasts.
fn follow(
    (first, wait_left): (GameView, Duration),
    rematch_wait: Duration,
    updates: broadcast::Receiver<Arc<SentView>>,
    slot: StreamSlot,
) -> impl Stream<Item = Arc<SentView>> + Send {
    let first = Arc::new(SentView::of(first));
    let mut state = Following {
        updates,
        version: first.version,
        until: first.over.then(|| tokio::time::Instant::now() + wait_left),
        wait: rematch_wait,
        _slot: slot,
    };
    let first_goes_on = state.goes_on_after(&first);
    let rest = futures_util::stream::unfold(first_goes_on.then_some(state), |state| async move {
        let mut state = state?;
        let view = state.next().await?;
        let goes_on = state.goes_on_after(&view);
        Some((view, goes_on.then_some(state)))
    });
    tokio_stream::once(first).chain(rest)
}

/// Server-sent events: the full game view now and after every change; the stream ends
/// after the game's last view (see [`follow`]). An `EventSource` reconnecting after
/// that (it sends the id of the last event it saw) gets 204, which tells it to stop.
pub(crate) async fn live_events(
    State(games): State<Games>,
    Path(id): Path<String>,
    Client(client): Client,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let slot = games.open_stream(client)?;
    // Subscribe before reading, so no change between the two is missed.
    let updates = games.subscribe(&id);
    let (now, wait_left) = followed(&games, &id).await?;
    let seen = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    // Seen to its end: the finished game with its rematch, or the last view before the
    // wait for one was over. (Within the wait, a reconnection waits on.)
    let nothing_to_come = now.rematch.is_some() || wait_left.is_zero();
    if now.over && seen == Some(now.version) && nothing_to_come {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    let wait = games.limits().streams.rematch_wait;
    let events = follow((now, wait_left), wait, updates, slot).map(|view| {
        Ok::<_, Infallible>(
            Event::default()
                .event("game")
                .id(view.version.to_string())
                .data(view.json().as_str()),
        )
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// The same views over a WebSocket, one text message each; the server closes the
/// socket after the game's last view (see [`follow`]). Browsers limit how many event streams a site may
/// keep open (six over HTTP/1.1, shared by all its tabs), not WebSockets, so the page
/// follows its game this way.
pub(crate) async fn live_socket(
    State(games): State<Games>,
    Path(id): Path<String>,
    Client(client): Client,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|r| {
        GameError::BadRequest(format!("this endpoint speaks WebSocket: {}", r.body_text()))
    })?;
    let slot = games.open_stream(client)?;
    let updates = games.subscribe(&id);
    let wait = games.limits().streams.rematch_wait;
    let views = follow(followed(&games, &id).await?, wait, updates, slot);
    Ok(upgrade.on_upgrade(move |socket| send_views(socket, views)))
}

async fn send_views(mut socket: WebSocket, views: impl Stream<Item = Arc<SentView>> + Send) {
    let mut views = std::pin::pin!(views);
    // Pings keep proxies from closing a quiet socket, and find dead peers.
    let mut ping = tokio::time::interval(Duration::from_secs(30));
    ping.tick().await;
    loop {
        tokio::select! {
            view = views.next() => {
                let Some(view) = view else { break };
                if socket.send(Message::Text(view.json().clone())).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                // The client has nothing to say; whatever it sends is ignored.
                Some(Ok(_)) => {}
            },
            _ = ping.tick() => {
                if socket.send(Message::Ping(Bytes::new())).await.is_err() {
                    return;
                }
            }
        }
    }
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: axum::extract::ws::close_code::NORMAL,
            reason: "the game is over".into(),
        })))
        .await;
}
