//! The routes of challenges (`/api/challenges`) and of an account's event stream
//! (`GET /api/stream/event`, server-sent events), for a logged-in person (the session
//! cookie) or a bot (its personal API token).

use std::collections::VecDeque;
use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use tokio::sync::broadcast;
use tokio_stream::{Stream, StreamExt};

use crate::body::parse_body;
use crate::caller::Caller;
use crate::events::EVENT_POLL;
use crate::games::Games;
use crate::http::{ApiError, Client, Limiter};
use crate::store::AccountEvent;
use crate::streams::StreamSlot;

/// The routes: making challenges behind `create`'s rate limit, answering and listing
/// them behind `read`'s, the event stream behind `live`'s.
pub(crate) fn event_routes(create: &Limiter, read: &Limiter, live: &Limiter) -> Router<Games> {
    use axum::routing::{delete, get, post};
    Router::new()
        .route(
            "/api/challenges",
            post(make_challenge)
                .layer(create.clone())
                .merge(get(list_challenges).layer(read.clone())),
        )
        .route(
            "/api/challenges/{id}",
            delete(cancel_challenge).layer(read.clone()),
        )
        .route(
            "/api/challenges/{id}/accept",
            post(accept_challenge).layer(read.clone()),
        )
        .route(
            "/api/challenges/{id}/decline",
            post(decline_challenge).layer(read.clone()),
        )
        .route("/api/stream/event", get(event_stream).layer(live.clone()))
}

async fn make_challenge(
    State(games): State<Games>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    let body: serde_json::Value = parse_body(&headers, body)?;
    let view = games.challenge(&account, body).await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn list_challenges(State(games): State<Games>, caller: Caller) -> Result<Response, ApiError> {
    let account = caller.account()?;
    Ok(Json(games.challenges(&account).await?).into_response())
}

async fn accept_challenge(
    State(games): State<Games>,
    Path(id): Path<String>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    let seat = games.accept_challenge(&id, &account).await?;
    Ok(Json(seat).into_response())
}

/// `POST /api/challenges/{id}/decline`: `{"reason": "…"}`, or no body.
#[derive(Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Decline {
    reason: Option<String>,
}

async fn decline_challenge(
    State(games): State<Games>,
    Path(id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    let empty = body.as_ref().is_ok_and(Bytes::is_empty);
    let Decline { reason } = if empty {
        Decline::default()
    } else {
        parse_body(&headers, body)?
    };
    games.decline_challenge(&id, &account, reason).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn cancel_challenge(
    State(games): State<Games>,
    Path(id): Path<String>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    games.cancel_challenge(&id, &account).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// An account's event stream while it lasts: the events read and not sent yet, the
/// last one read, and its place among the open streams. It lasts while the session or
/// token that opened it does: logging out, ending the sessions or revoking the token
/// ends it (at once here, within [`EVENT_POLL`] on another instance).
struct Following {
    games: Games,
    account: String,
    /// The secret of the session or token that opened the stream.
    secret: String,
    after: i64,
    pending: VecDeque<AccountEvent>,
    wake: broadcast::Receiver<()>,
    _slot: StreamSlot,
}

impl Following {
    /// The next event, waiting for one as long as it takes; `None` ends the stream.
    async fn next(&mut self) -> Option<AccountEvent> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(event);
            }
            if !self.still_allowed().await {
                return None;
            }
            match self.games.events_after(&self.account, self.after).await {
                Ok(events) if !events.is_empty() => {
                    self.after = events.last().map_or(self.after, |e| e.id);
                    self.pending.extend(events);
                    continue;
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "reading an account's events failed"),
            }
            tokio::select! {
                woken = self.wake.recv() => {
                    if matches!(woken, Err(broadcast::error::RecvError::Closed)) {
                        return None;
                    }
                }
                () = tokio::time::sleep(EVENT_POLL) => {}
            }
        }
    }

    /// Whether the session or token that opened the stream still acts for its account.
    /// A store that cannot answer keeps the stream (it is asked again at the next look).
    async fn still_allowed(&self) -> bool {
        match self.games.account_of(&self.secret).await {
            Ok(found) => found.is_some_and(|(account, _)| account.key == self.account),
            Err(e) => {
                tracing::warn!(error = %e, "checking an event stream's credential failed");
                true
            }
        }
    }
}

fn events(state: Following) -> impl Stream<Item = AccountEvent> + Send {
    futures_util::stream::unfold(state, |mut state| async move {
        let event = state.next().await?;
        Some((event, state))
    })
}

/// `GET /api/stream/event`: the account's events as server-sent events, each an id
/// and one JSON object; after `Last-Event-ID`, those the client missed (kept a day),
/// otherwise those from now on.
async fn event_stream(
    State(games): State<Games>,
    Client(client): Client,
    caller: Caller,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    let secret = crate::caller::credential_secret(&headers).unwrap_or_default();
    let slot = games.open_stream(client)?;
    // Subscribe before reading, so no event between the two is missed.
    let wake = games.wakers().subscribe(&account.key);
    let seen = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok());
    let after = match seen {
        Some(seen) => seen,
        None => games
            .store()
            .last_event(&account.key)
            .await
            .map_err(crate::GameError::from)?,
    };
    let state = Following {
        games,
        account: account.key,
        secret,
        after,
        pending: VecDeque::new(),
        wake,
        _slot: slot,
    };
    let sse = events(state).map(|event| {
        Ok::<_, Infallible>(Event::default().id(event.id.to_string()).data(event.json))
    });
    Ok(Sse::new(sse)
        .keep_alive(KeepAlive::default())
        .into_response())
}
