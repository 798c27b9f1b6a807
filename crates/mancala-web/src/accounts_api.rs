//! The account routes of the API (sign up, log in and out, the player's own account
//! and games, bot tokens, profiles, the leaderboard; `me_api` adds the owner's hold on
//! password, sessions and tokens) and the session cookie. The log-in throttle is
//! `login_throttle`'s, the refusal of cross-site requests `same_origin`'s.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use crate::accounts::{PAGE_LIMIT, SESSION_LIFETIME, UserView};
use crate::body::parse_body;
use crate::caller::{Caller, SESSION_COOKIE, not_logged_in};
use crate::error::GameError;
use crate::games::Games;
use crate::http::{ApiError, Client, bearer};
use crate::login_throttle::LoginThrottle;
use crate::me_api::{me_routes, tokens};
use crate::same_origin::served_over_tls;
use crate::store::{CredentialKind, Page};

/// The account routes but sign-up (see docs/api.md, "Accounts"), which `api` puts
/// behind the new-games rate limit.
pub(crate) fn account_routes() -> Router<Games> {
    Router::new()
        .route("/api/session", post(log_in).delete(log_out))
        .route("/api/me", get(me))
        .route("/api/me/games", get(my_games))
        .route("/api/me/games/claim", post(claim_games))
        .route("/api/me/tokens", get(tokens).post(new_token))
        .merge(me_routes())
        .route("/api/users/{name}", get(user))
        .route("/api/leaderboard", get(leaderboard))
        .layer(Extension(throttle()))
}

/// The log-in throttle, forgetting quiet names and clients every minute while it is
/// in use.
fn throttle() -> Arc<LoginThrottle> {
    let throttle = Arc::new(LoginThrottle::new());
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        let weak = Arc::downgrade(&throttle);
        runtime.spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                let Some(throttle) = weak.upgrade() else {
                    return;
                };
                throttle.forget_idle();
            }
        });
    }
    throttle
}

/// The session cookie for `secret`: HttpOnly, SameSite=Lax, for the whole site, for
/// the session's lifetime; Secure when the site is served over TLS.
fn session_cookie(secret: String, secure: bool) -> Cookie<'static> {
    let lifetime = i64::try_from(SESSION_LIFETIME.as_secs()).unwrap_or(i64::MAX);
    Cookie::build((SESSION_COOKIE, secret))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(lifetime))
        .build()
}

/// `POST /api/accounts` and `POST /api/session` take a username and a password.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

pub(crate) async fn sign_up(
    State(games): State<Games>,
    jar: CookieJar,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Credentials { username, password } = parse_body(&headers, body)?;
    let (view, secret) = games.sign_up(&username, &password).await?;
    let jar = jar.add(session_cookie(secret, served_over_tls(&games, &headers)));
    Ok((StatusCode::CREATED, jar, Json(view)).into_response())
}

async fn log_in(
    State(games): State<Games>,
    Extension(throttle): Extension<Arc<LoginThrottle>>,
    Client(client): Client,
    jar: CookieJar,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Credentials { username, password } = parse_body(&headers, body)?;
    if let Err(retry_after) = throttle.attempt(&username, &client) {
        return Err(ApiError::Game(GameError::TooMany {
            message: "too many log-in attempts: wait, then try again".into(),
            retry_after,
        }));
    }
    let (view, secret) = games.log_in(&username, &password).await?;
    throttle.logged_in(&username, &client);
    let jar = jar.add(session_cookie(secret, served_over_tls(&games, &headers)));
    Ok((jar, Json(view)).into_response())
}

/// Ends the cookie's session; a bot's personal API token given as bearer instead is
/// revoked.
async fn log_out(
    State(games): State<Games>,
    jar: CookieJar,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(cookie) = jar.get(SESSION_COOKIE) {
        games.log_out(cookie.value()).await?;
    } else if let Some(token) = bearer(&headers) {
        games.log_out(token).await?;
    }
    let gone = Cookie::build((SESSION_COOKIE, "")).path("/").build();
    Ok((StatusCode::NO_CONTENT, jar.remove(gone)).into_response())
}

async fn me(State(games): State<Games>, caller: Caller) -> Result<Response, ApiError> {
    let account = caller.account()?;
    Ok(Json(games.account_view(&account).await?).into_response())
}

/// `?offset=0&limit=20` for the lists of games.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PageQuery {
    offset: Option<usize>,
    limit: Option<usize>,
}

async fn my_games(
    State(games): State<Games>,
    caller: Caller,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    let Query(q) = query.map_err(|r| GameError::BadRequest(r.body_text()))?;
    let page = Page {
        offset: q.offset.unwrap_or(0),
        limit: q.limit.unwrap_or(20).min(PAGE_LIMIT),
    };
    Ok(Json(games.games_of(&account.key, page).await?).into_response())
}

/// `POST /api/me/games/claim`: `{"seats":[{"game":"…","token":"…"}]}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    seats: Vec<ClaimedSeat>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimedSeat {
    game: String,
    token: String,
}

/// The most seats one claim may name (a browser's list of games is bounded too).
const CLAIM_LIMIT: usize = 100;

async fn claim_games(
    State(games): State<Games>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let account = caller.account()?;
    let Claim { seats } = parse_body(&headers, body)?;
    if seats.len() > CLAIM_LIMIT {
        return Err(ApiError::Game(GameError::Unprocessable(format!(
            "seats: at most {CLAIM_LIMIT} at once"
        ))));
    }
    let seats: Vec<(String, String)> = seats.into_iter().map(|s| (s.game, s.token)).collect();
    let claimed = games.claim_seats(&account.key, &seats).await?;
    Ok(Json(serde_json::json!({ "claimed": claimed })).into_response())
}

/// `POST /api/me/tokens`: marks the account a bot's and answers a new personal API
/// token, once. Only with the session cookie: a token cannot make more tokens.
async fn new_token(State(games): State<Games>, caller: Caller) -> Result<Response, ApiError> {
    let (account, kind) = caller.0.ok_or(ApiError::Game(not_logged_in()))?;
    if kind != CredentialKind::Session {
        return Err(ApiError::Game(GameError::NotLoggedIn(
            "a personal API token is made while logged in with the password (the session \
             cookie), not with another token"
                .into(),
        )));
    }
    let token = games.new_api_token(&account).await?;
    let body = serde_json::json!({ "token": token, "bot": true });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// How many recent games a profile shows.
const PROFILE_GAMES: usize = 10;

async fn user(State(games): State<Games>, Path(name): Path<String>) -> Result<Response, ApiError> {
    let (account, view) = games.user(&name).await?;
    let recent = Page {
        offset: 0,
        limit: PROFILE_GAMES,
    };
    let games = games.games_of(&account.key, recent).await?.games;
    Ok(Json(UserView {
        account: view,
        games,
    })
    .into_response())
}

/// `?variant=kalah` (a pool: `kalah`, `oware`, `kalah-4x3`, …).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderboardQuery {
    variant: Option<String>,
}

async fn leaderboard(
    State(games): State<Games>,
    query: Result<Query<LeaderboardQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|r| GameError::BadRequest(r.body_text()))?;
    let Some(variant) = q.variant else {
        return Err(ApiError::Game(GameError::BadRequest(
            "variant: the leaderboard is of one pool; ask for it with ?variant= \
             (kalah, oware, kalah-4x3, …)"
                .into(),
        )));
    };
    let players = games.leaderboard(&variant).await?;
    Ok(Json(serde_json::json!({ "variant": variant, "players": players })).into_response())
}
