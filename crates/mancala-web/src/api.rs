//! The HTTP interface: the JSON API under `/api`, the live streams, the browser UI, and
//! the protections around them (rate limits, security headers, CORS, body limit).

use std::any::Any;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use governor::middleware::NoOpMiddleware;
use tower_governor::GovernorError;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::{GovernorLayer, governor::GovernorConfig};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::accounts_api::{account_routes, sign_up};
use crate::actions::OfferRequest;
use crate::analysis::{AnalysisAnswer, AnalysisQuery, RETRY_AFTER_SECS};
use crate::body::parse_body;
use crate::body_deadline::body_deadline;
use crate::caller::{Caller, SeatHolder};
use crate::catalogue::{Fixed, players_json, variants_json};
use crate::client::ClientKeyExtractor;
use crate::error::GameError;
use crate::events_api::event_routes;
use crate::games::Games;
pub use crate::http::ApiError;
use crate::http::{Client, bearer};
use crate::http::{Limiter, method_not_allowed, no_endpoint};
use crate::lifecycle::{JoinRequest, NewGame, RULES_LIMIT};
use crate::limits::Rate;
use crate::listener::serve_connections;
use crate::live_api::{live_events, live_socket};
use crate::moves::MoveRequest;
use crate::ops::Operations;
use crate::pages::{page_not_found, page_routes};
use crate::records::{
    ImportRequest, RECORD_LIMIT, RecordQuery, positions_of, record_of, write_record,
};
use crate::same_origin::same_origin_with_cookie;
use crate::store::Listing;

/// The largest request body accepted; larger ones get 413.
pub const BODY_LIMIT: usize = 4 * 1024;

/// The Content-Security-Policy of every answer: the page loads its own script, style
/// and icon and talks to its own origin, and no other site may frame it.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

/// How long browsers (and proxies) may keep the descriptions of the variants and the
/// players: they never change while the server runs, and an hour bounds how long a
/// page keeps an old server's after an upgrade.
const CATALOGUE_CACHE: &str = "public, max-age=3600";

/// The application: API, live streams, UI, request logging, and the limits of
/// `games` (rate limits per client, live stream caps, the body limit); the probes and
/// request ids, and no metrics (see [`app_with`]).
///
/// ```
/// use mancala_web::{app, Games, Store};
/// let router = app(Games::new(Store::in_memory().unwrap()));
/// # let _ = router;
/// ```
pub fn app(games: Games) -> Router {
    app_with(games, &Operations::default())
}

/// The application with what `ops` offers the operator (metrics counted, and served
/// behind a token: see [`Operations`]).
pub fn app_with(games: Games, ops: &Operations) -> Router {
    let limits = games.limits().clone();
    let keys = ClientKeyExtractor {
        trust_forwarded_for: limits.trust_forwarded_for,
    };
    let rates = limits.rates;
    let limiters = Limiters {
        create: rate_limit(rates.create, keys, "new games"),
        join: rate_limit(rates.join, keys, "joins"),
        moves: rate_limit(rates.moves, keys, "moves"),
        live: rate_limit(rates.live, keys, "live streams opened"),
        read: rate_limit(rates.read, keys, "reads"),
    };
    let read = limiters.read.clone();
    let delay = rates.refusal_delay;
    let body_timeout = limits.connections.body_timeout;
    let router = api_routes(&limiters)
        .layer(axum::middleware::from_fn_with_state(
            games.clone(),
            same_origin_with_cookie,
        ))
        .merge(page_routes(read.clone()))
        .fallback_service(any(page_not_found).layer(read))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                body_deadline(
                    request,
                    next,
                    body_timeout,
                    RECORD_LIMIT.max(BODY_LIMIT + 2 * RULES_LIMIT),
                )
            },
        ))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(axum::middleware::map_response(move |r: Response| {
            hold_back_refusal(r, delay)
        }));
    with_security_headers(ops.around(router, &games)).with_state(games)
}

/// The per-client rate limiters, one per kind of request.
struct Limiters {
    create: Limiter,
    join: Limiter,
    moves: Limiter,
    live: Limiter,
    read: Limiter,
}

/// The JSON API under `/api`, each route behind its kind's limiter, open to other
/// origins (CORS) so that bots and other sites' pages may call it.
fn api_routes(l: &Limiters) -> Router<Games> {
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::any())
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .expose_headers([header::RETRY_AFTER])
        .max_age(Duration::from_secs(3600));
    let record_body = DefaultBodyLimit::max(RECORD_LIMIT);
    Router::new()
        .route(
            "/api/games",
            // A new game may carry a game's description (`rules`).
            post(create_game)
                .layer::<_, Infallible>(DefaultBodyLimit::max(BODY_LIMIT + 2 * RULES_LIMIT))
                .layer(l.create.clone()),
        )
        .route(
            "/api/games/import",
            post(import_game)
                .layer::<_, Infallible>(record_body)
                .layer(l.create.clone()),
        )
        .route(
            "/api/games/{id}/record",
            get(download_record).layer(l.read.clone()),
        )
        .route(
            "/api/games/{id}/positions",
            get(positions).layer(l.read.clone()),
        )
        .route(
            "/api/games/{id}/analysis",
            get(analysis).layer(l.read.clone()),
        )
        .route("/api/variants", get(variants).layer(l.read.clone()))
        .route("/api/players", get(players).layer(l.read.clone()))
        .route("/api/lobby", get(lobby).layer(l.read.clone()))
        .route("/api/watch", get(watch).layer(l.read.clone()))
        .route("/api/games/{id}", get(show).layer(l.read.clone()))
        .route(
            "/api/games/{id}/join",
            post(join_game).layer(l.join.clone()),
        )
        .route("/api/games/{id}/moves", post(play).layer(l.moves.clone()))
        .route(
            "/api/games/{id}/resign",
            post(resign).layer(l.moves.clone()),
        )
        .route("/api/games/{id}/abort", post(abort).layer(l.moves.clone()))
        .route("/api/games/{id}/offer", post(offer).layer(l.moves.clone()))
        .route(
            "/api/games/{id}/accept",
            post(accept).layer(l.moves.clone()),
        )
        .route(
            "/api/games/{id}/decline",
            post(decline).layer(l.moves.clone()),
        )
        .route("/api/games/{id}/claim", post(claim).layer(l.moves.clone()))
        .route(
            "/api/games/{id}/rematch",
            post(rematch).layer(l.create.clone()),
        )
        .route(
            "/api/games/{id}/live",
            get(live_events).layer(l.live.clone()),
        )
        .route("/api/games/{id}/ws", get(live_socket).layer(l.live.clone()))
        .merge(account_routes().route_layer(l.read.clone()))
        .merge(event_routes(&l.create, &l.read, &l.live))
        .route("/api/accounts", post(sign_up).layer(l.create.clone()))
        .route("/api", any(no_endpoint).layer(l.read.clone()))
        .route("/api/{*rest}", any(no_endpoint).layer(l.read.clone()))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(cors)
}

/// Every answer's security headers, unless a handler set its own.
fn with_security_headers(mut router: Router<Games>) -> Router<Games> {
    let headers = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    for (name, value) in headers {
        router = router.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ));
    }
    router
}

/// A per-client rate limit on a kind of request (`what`): past it, 429 with
/// `Retry-After` and the JSON error.
fn rate_limit(rate: Rate, keys: ClientKeyExtractor, what: &'static str) -> Limiter {
    let config: Arc<GovernorConfig<ClientKeyExtractor, NoOpMiddleware>> = Arc::new(
        GovernorConfigBuilder::default()
            .period(rate.period())
            .burst_size(rate.count)
            .key_extractor(keys)
            .finish()
            .expect("a rate has a count and a period above zero"),
    );
    forget_idle_clients(&config);
    GovernorLayer::new(config).error_handler(move |e| {
        let error = match e {
            GovernorError::TooManyRequests { wait_time, .. } => GameError::TooMany {
                message: format!("too many {what}: at most {rate} from one client"),
                // The limiter rounds the wait down to whole seconds.
                retry_after: wait_time + 1,
            },
            other => GameError::Internal(format!("rate limiter: {other}")),
        };
        ApiError::Game(error).into_response()
    })
}

/// Lets a rate limiter forget the clients whose buckets are full again, every minute
/// while the limiter is in use, so that its memory follows the clients of the last
/// minutes rather than every client ever seen.
fn forget_idle_clients(config: &Arc<GovernorConfig<ClientKeyExtractor, NoOpMiddleware>>) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let limiter = Arc::downgrade(config.limiter());
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            let Some(limiter) = limiter.upgrade() else {
                return;
            };
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    });
}

/// Holds a 429 answer back for `delay` (see [`crate::RateLimits::refusal_delay`]).
async fn hold_back_refusal(response: Response, delay: Duration) -> Response {
    if response.status() == StatusCode::TOO_MANY_REQUESTS && !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    response
}

/// A panic in a handler: logged, and answered with the generic 500.
fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    ApiError::Game(GameError::Internal(format!("handler panicked: {detail}"))).into_response()
}

async fn create_game(
    State(games): State<Games>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: NewGame = parse_body(&headers, body)?;
    let grant = games.create_as(request, caller.account_if_any()).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

/// Every variant, as core describes it (see [`crate::catalogue`]).
async fn variants(headers: HeaderMap) -> Response {
    fixed_json(variants_json(), &headers)
}

/// The computer players menus offer, as the engine describes them.
async fn players(headers: HeaderMap) -> Response {
    fixed_json(players_json(), &headers)
}

/// A JSON answer that never changes while the server runs: cacheable, with an `ETag`
/// (a request naming it in `If-None-Match` gets 304).
fn fixed_json(fixed: &'static Fixed, headers: &HeaderMap) -> Response {
    let seen = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|t| t.trim() == fixed.etag || t.trim() == "*")
        });
    let cache = [
        (header::CACHE_CONTROL, CATALOGUE_CACHE),
        (header::ETAG, fixed.etag.as_str()),
    ];
    if seen {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [(header::CONTENT_TYPE, "application/json")],
        fixed.body.as_str(),
    )
        .into_response()
}

async fn show(State(games): State<Games>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(games.view(&id).await?).into_response())
}

/// The game as a record file, to save (`Content-Disposition: attachment`).
async fn download_record(
    State(games): State<Games>,
    Path(id): Path<String>,
    query: Result<Query<RecordQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let row = games.row(&id).await?;
    let Query(query) = query.map_err(|r| GameError::BadRequest(r.body_text()))?;
    let text = write_record(&record_of(&row)?, query.format.as_deref())?;
    // Ids are hex, so the name needs no quoting beyond the quotes.
    let disposition = format!("attachment; filename=\"mancala-{id}.txt\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

async fn positions(
    State(games): State<Games>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let row = games.row(&id).await?;
    Ok(Json(positions_of(&row)?).into_response())
}

/// A finished game's analysis: 200 with the document once stored, 202 with the job's
/// progress (and `Retry-After`) while it is computed. With `?start=false` no job is
/// started: 204 when there is neither a document nor a job.
async fn analysis(
    State(games): State<Games>,
    Client(client): Client,
    Path(id): Path<String>,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|r| GameError::BadRequest(r.body_text()))?;
    Ok(
        match games
            .analysis(&id, query.start.unwrap_or(true), client)
            .await?
        {
            AnalysisAnswer::Ready(document) => {
                ([(header::CONTENT_TYPE, "application/json")], document).into_response()
            }
            AnalysisAnswer::Pending(progress) => (
                StatusCode::ACCEPTED,
                [(header::RETRY_AFTER, RETRY_AFTER_SECS.to_string())],
                Json(progress),
            )
                .into_response(),
            AnalysisAnswer::NotStarted => StatusCode::NO_CONTENT.into_response(),
        },
    )
}

async fn import_game(
    State(games): State<Games>,
    Client(client): Client,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: ImportRequest = parse_body(&headers, body)?;
    let grant = games.import(request, client).await?;
    Ok((StatusCode::CREATED, Json(grant)).into_response())
}

async fn lobby(State(games): State<Games>) -> Result<Response, ApiError> {
    Ok(Json(games.listed(Listing::Open).await?).into_response())
}

async fn watch(State(games): State<Games>) -> Result<Response, ApiError> {
    Ok(Json(games.listed(Listing::Playing).await?).into_response())
}

async fn join_game(
    State(games): State<Games>,
    Path(id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    // No body at all: no invite (403), as from clients older than invites.
    let request = match &body {
        Ok(b) if b.iter().all(u8::is_ascii_whitespace) => Ok(JoinRequest::default()),
        _ => parse_body::<JoinRequest>(&headers, body),
    };
    Ok(Json(games.join_as(&id, request, caller.account_if_any()).await?).into_response())
}

async fn play(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
    Client(client): Client,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request = parse_body::<MoveRequest>(&headers, body);
    Ok(Json(games.play(&id, seat.key(), request, client).await?).into_response())
}

async fn resign(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
) -> Result<Response, ApiError> {
    Ok(Json(games.resign(&id, seat.key()).await?).into_response())
}

async fn abort(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
) -> Result<Response, ApiError> {
    Ok(Json(games.abort(&id, seat.key()).await?).into_response())
}

async fn offer(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request = parse_body::<OfferRequest>(&headers, body);
    Ok(Json(games.offer(&id, seat.key(), request).await?).into_response())
}

async fn accept(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
) -> Result<Response, ApiError> {
    Ok(Json(games.accept(&id, seat.key()).await?).into_response())
}

async fn decline(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
) -> Result<Response, ApiError> {
    Ok(Json(games.decline(&id, seat.key()).await?).into_response())
}

async fn claim(
    State(games): State<Games>,
    Path(id): Path<String>,
    seat: SeatHolder,
) -> Result<Response, ApiError> {
    Ok(Json(games.claim(&id, seat.key()).await?).into_response())
}

async fn rematch(
    State(games): State<Games>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (grant, fresh) = games.rematch(&id, bearer(&headers)).await?;
    let status = if fresh {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(grant)).into_response())
}

/// Serves the application on `listener` until `shutdown` completes, then finishes the
/// requests in flight. Each request knows its peer's address (for per-client limits).
/// Connections are bounded as [`crate::ConnectionLimits`] says (read timeouts, and
/// connections per client unless `trust_forwarded_for`, where the proxy holds them).
/// The background work (computer turns taken over, expiry, changes from other
/// instances) is [`Games::start_background`]'s, which `mancala serve` runs beside this.
///
/// # Errors
/// When accepting connections fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    games: Games,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, games, &Operations::default(), shutdown).await
}

/// [`serve`], with what `ops` offers the operator (see [`app_with`]).
///
/// # Errors
/// When accepting connections fails.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    games: Games,
    ops: &Operations,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut limits = games.limits().connections;
    if games.limits().trust_forwarded_for {
        // Behind a proxy every connection is the proxy's: the cap per client is the
        // proxy's to keep.
        limits.per_client = usize::MAX;
    }
    serve_connections(listener, app_with(games, ops), limits, shutdown).await
}
