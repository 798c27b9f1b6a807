//! The HTTP interface: the JSON API under `/api`, the live stream, and the browser UI.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use tokio::sync::broadcast::error::RecvError;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};
use tower_governor::GovernorError;
use tower_governor::governor::GovernorConfigBuilder;
use tower_http::cors::{Any, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};

use crate::client::{Client, ClientKey};
use crate::games::{GameError, Games, MoveRequest, NewGame};
use crate::view::GameView;

/// The largest request body accepted; larger ones get 413.
pub const BODY_LIMIT: usize = 4 * 1024;

/// The page's Content-Security-Policy: everything from this server only, no inline
/// script or style, and no framing (clickjacking).
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The application: API, live stream, UI, request logging and the body limit.
///
/// ```
/// use mancala_web::{app, Games, Store};
/// let router = app(Games::new(Store::in_memory().unwrap()));
/// # let _ = router;
/// ```
pub fn app(games: Games) -> Router {
    let limits = *games.limits();
    let pages = Router::new()
        .route("/", get(home))
        .route("/g/{id}", get(game_page))
        .route("/static/app.js", get(script))
        .route("/static/style.css", get(style))
        .route("/favicon.ico", get(favicon))
        .route("/favicon.svg", get(favicon))
        .fallback(page_not_found);
    let rate = |per_min: u32| {
        let key = ClientKey {
            trust_forwarded: limits.trust_forwarded,
        };
        let period = Duration::from_nanos(60_000_000_000 / u64::from(per_min.max(1)));
        let config = GovernorConfigBuilder::default()
            .period(period)
            .burst_size(limits.rates.burst.max(1))
            .key_extractor(key)
            .finish()
            .expect("a positive period and burst");
        tower_governor::GovernorLayer::new(Arc::new(config)).error_handler(too_many)
    };
    let api = Router::new()
        .route(
            "/games",
            post(create).route_layer(rate(limits.rates.create_per_min)),
        )
        .route("/games/{id}", get(show))
        .route(
            "/games/{id}/join",
            post(join).route_layer(rate(limits.rates.join_per_min)),
        )
        .route(
            "/games/{id}/rematch",
            post(rematch).route_layer(rate(limits.rates.join_per_min)),
        )
        .route(
            "/games/{id}/moves",
            post(play).route_layer(rate(limits.rates.moves_per_min)),
        )
        .route(
            "/games/{id}/live",
            get(live).route_layer(rate(limits.rates.streams_per_min)),
        )
        .fallback(api_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(api_cors())
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ));
    pages
        .nest("/api", api)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(always(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(always(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(always(header::X_FRAME_OPTIONS, "DENY"))
        .layer(always(header::REFERRER_POLICY, "no-referrer"))
        .layer(always(header::CACHE_CONTROL, "no-cache"))
        .layer(
            // One line per request at INFO: method, path, status and latency.
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(tracing::Level::INFO))
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .with_state(games)
}

/// Any site may call the API (a bot in another page), with its token in a header:
/// cookies and other credentials are never accepted from another origin.
fn api_cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .max_age(Duration::from_secs(3600))
}

/// A header every answer carries unless its handler set it.
fn always(name: header::HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// A 429 from the rate limiter, in the API's JSON shape with `Retry-After`.
fn too_many(error: GovernorError) -> Response<Body> {
    match error {
        GovernorError::TooManyRequests { wait_time, headers } => {
            let mut response = ApiError(GameError::TooMany {
                message: format!("too many requests: try again in {wait_time} s"),
                retry_after: wait_time,
            })
            .into_response();
            if let Some(headers) = headers {
                response.headers_mut().extend(headers);
            }
            response
        }
        other => {
            tracing::error!(error = %other, "rate limiter failed");
            ApiError(GameError::Internal).into_response()
        }
    }
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
        let status = match &self.0 {
            GameError::NotFound => StatusCode::NOT_FOUND,
            GameError::Unauthorized => StatusCode::UNAUTHORIZED,
            GameError::NotYourTurn => StatusCode::FORBIDDEN,
            GameError::BadRequest(_) => StatusCode::BAD_REQUEST,
            GameError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            GameError::Conflict(_) => StatusCode::CONFLICT,
            GameError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            GameError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
            GameError::NoEndpoint => StatusCode::NOT_FOUND,
            GameError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            GameError::Store(_) | GameError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        // The detail of a server failure goes to the log, never to the client.
        let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(error = %self.0, "request failed");
            "internal server error".to_owned()
        } else {
            self.0.to_string()
        };
        let mut response = (status, Json(serde_json::json!({ "error": message }))).into_response();
        if let GameError::TooMany { retry_after, .. } = &self.0 {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
        }
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
    let bad = |e: &dyn std::fmt::Display| GameError::BadRequest(format!("bad JSON body: {e}"));
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| bad(&e))?;
    // serde reads a struct from an array too (`[1,0]` as a move); the API documents
    // objects only.
    if !value.is_object() {
        return Err(bad(&"expected a JSON object"));
    }
    serde_json::from_value(value).map_err(|e| bad(&e))
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

/// Server-sent events: the full game view now and after every change, ending after
/// the view of a finished game. Each client may hold a bounded number open.
async fn live(
    State(games): State<Games>,
    Path(id): Path<String>,
    Client(client): Client,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let slot = games.open_stream(client)?;
    // Subscribe before reading, so no change between the two is missed.
    let mut updates = games.subscribe(&id);
    let now = Arc::new(games.view(&id).await?);
    let (tx, rx) = tokio::sync::mpsc::channel::<Arc<GameView>>(4);
    tokio::spawn(async move {
        // The slot is freed when the stream ends, however it ends.
        let _slot = slot;
        let mut view = now;
        loop {
            let over = view.over;
            if tx.send(view).await.is_err() || over {
                return;
            }
            view = loop {
                tokio::select! {
                    next = updates.recv() => match next {
                        Ok(v) => break v,
                        // A watcher that falls behind skips to the next full view.
                        Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return,
                    },
                    () = tx.closed() => return,
                }
            };
        }
    });
    let stream = ReceiverStream::new(rx).map(|view| {
        Ok(Event::default()
            .event("game")
            .json_data(&*view)
            .unwrap_or_default())
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// An `/api` path that names nothing.
async fn api_not_found() -> ApiError {
    ApiError(GameError::NoEndpoint)
}

async fn method_not_allowed() -> ApiError {
    ApiError(GameError::MethodNotAllowed)
}

const HTML: &str = "text/html; charset=utf-8";

async fn home() -> Response {
    (
        [(header::CONTENT_TYPE, HTML)],
        include_str!("../static/index.html"),
    )
        .into_response()
}

/// The game page, or a 404 page for a game that does not exist (or no longer does).
async fn game_page(State(games): State<Games>, Path(id): Path<String>) -> Response {
    match games.view(&id).await {
        Ok(_) => home().await,
        Err(GameError::NotFound) => page_not_found().await,
        Err(e) => ApiError(e).into_response(),
    }
}

async fn page_not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, HTML)],
        include_str!("../static/404.html"),
    )
        .into_response()
}

async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        include_str!("../static/favicon.svg"),
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
    let service = app(games).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(shutdown)
        .await
}
