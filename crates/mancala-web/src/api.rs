//! The HTTP interface: the JSON API under `/api`, the live stream, and the browser UI.

use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use tokio_stream::{Stream, StreamExt, wrappers::BroadcastStream};
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};

use crate::games::{GameError, Games, MoveRequest, NewGame};

/// The largest request body accepted; larger ones get 413.
pub const BODY_LIMIT: usize = 4 * 1024;

/// The application: API, live stream, UI, request logging and the body limit.
///
/// ```
/// use mancala_web::{app, Games, Store};
/// let router = app(Games::new(Store::in_memory().unwrap()));
/// # let _ = router;
/// ```
pub fn app(games: Games) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/static/app.js", get(script))
        .route("/static/style.css", get(style))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/live", get(live))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(
            // One line per request at INFO: method, path, status and latency.
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(tracing::Level::INFO))
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .with_state(games)
}

/// An error as the API answers it: a status and `{"error":"..."}`.
#[derive(Debug)]
pub struct ApiError(GameError);

impl From<GameError> for ApiError {
    fn from(e: GameError) -> Self {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut message = self.0.to_string();
        let status = match &self.0 {
            GameError::NotFound => StatusCode::NOT_FOUND,
            GameError::Unauthorized => StatusCode::UNAUTHORIZED,
            GameError::NotYourTurn => StatusCode::FORBIDDEN,
            GameError::BadRequest(_) => StatusCode::BAD_REQUEST,
            GameError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            GameError::Conflict(_) => StatusCode::CONFLICT,
            GameError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::Store(e) => {
                // The detail is for the log, not for the client.
                tracing::error!(error = %e, "storage failed");
                message = "internal server error".into();
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let mut response = (status, Json(serde_json::json!({ "error": message }))).into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

/// The JSON body, or the error to answer with (400, or 413 past the limit).
fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, GameError> {
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            GameError::TooLarge
        } else {
            GameError::BadRequest(r.body_text())
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| GameError::BadRequest(format!("bad JSON body: {e}")))
}

/// The token of an `Authorization: Bearer <token>` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

async fn create(
    State(games): State<Games>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: NewGame = parse_body(body)?;
    let grant = games.create(request).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

async fn show(State(games): State<Games>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(games.view(&id).await?).into_response())
}

async fn join(State(games): State<Games>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(games.join(&id).await?).into_response())
}

async fn play(
    State(games): State<Games>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request = parse_body::<MoveRequest>(body);
    Ok(Json(games.play(&id, bearer(&headers), request).await?).into_response())
}

async fn rematch(
    State(games): State<Games>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let grant = games.rematch(&id, bearer(&headers)).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

/// Server-sent events: the full game view now and after every change.
async fn live(
    State(games): State<Games>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // Subscribe before reading, so no change between the two is missed.
    let updates = BroadcastStream::new(games.subscribe(&id));
    let now = games.view(&id).await?;
    let first = tokio_stream::once(std::sync::Arc::new(now));
    // A watcher that falls behind skips to the next full view.
    let stream = first.chain(updates.filter_map(Result::ok)).map(|view| {
        Ok(Event::default()
            .event("game")
            .json_data(&*view)
            .unwrap_or_default())
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

async fn not_found() -> ApiError {
    ApiError(GameError::NotFound)
}

async fn page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../static/index.html"),
    )
        .into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../static/app.js"),
    )
        .into_response()
}

async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../static/style.css"),
    )
        .into_response()
}

/// Serves the application on `listener` until `shutdown` completes, then finishes the
/// requests in flight.
///
/// # Errors
/// When accepting connections fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    games: Games,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, app(games))
        .with_graceful_shutdown(shutdown)
        .await
}
