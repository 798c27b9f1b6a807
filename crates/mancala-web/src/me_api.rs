//! The routes of an owner's hold on their account (see docs/api.md, "Accounts"):
//! `POST /api/me/password`, `GET`/`DELETE /api/me/sessions`, `GET /api/me/tokens`
//! and `DELETE /api/me/tokens/{id}`. Each needs the session cookie: a bot's personal
//! API token cannot change the password or manage credentials.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use axum_extra::extract::cookie::{Cookie, CookieJar};

use crate::body::parse_body;
use crate::caller::{Caller, SESSION_COOKIE};
use crate::error::GameError;
use crate::games::Games;
use crate::http::{ApiError, Client};
use crate::login_throttle::LoginThrottle;
use crate::store::{Account, CredentialKind};
use crate::tokens::hash_token;

/// The routes (the log-in throttle is the caller's layer: a password change checks
/// the current password, and is throttled as a log-in is).
pub(crate) fn me_routes() -> Router<Games> {
    Router::new()
        .route("/api/me/password", post(change_password))
        .route("/api/me/sessions", get(sessions).delete(end_sessions))
        .route("/api/me/tokens/{id}", delete(revoke_token))
}

/// The account of a request made with the session cookie, and that session's hash;
/// 401 otherwise.
fn with_session(caller: Caller, jar: &CookieJar) -> Result<(Account, [u8; 32]), ApiError> {
    match (caller.0, jar.get(SESSION_COOKIE)) {
        (Some((account, CredentialKind::Session)), Some(cookie)) => {
            Ok((account, hash_token(cookie.value())))
        }
        _ => Err(ApiError::Game(GameError::NotLoggedIn(
            "this is done while logged in with the password (the session cookie)".into(),
        ))),
    }
}

/// `POST /api/me/password`: `{"current": "…", "new": "…"}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    current: String,
    new: String,
}

async fn change_password(
    State(games): State<Games>,
    Extension(throttle): Extension<Arc<LoginThrottle>>,
    Client(client): Client,
    caller: Caller,
    jar: CookieJar,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (account, session) = with_session(caller, &jar)?;
    let PasswordChange { current, new } = parse_body(&headers, body)?;
    if let Err(retry_after) = throttle.attempt(&account.name, &client) {
        return Err(ApiError::Game(GameError::TooMany {
            message: "too many password attempts: wait, then try again".into(),
            retry_after,
        }));
    }
    let ended = games
        .change_password(&account, &current, &new, Some(session))
        .await?;
    let message = format!(
        "Password changed. {ended} other session{} logged out; personal API tokens still work \
         (revoke them on the account page if one may have leaked).",
        if ended == 1 { " was" } else { "s were" }
    );
    Ok(Json(serde_json::json!({ "ended_sessions": ended, "message": message })).into_response())
}

/// `GET /api/me/sessions`: the account's sessions, the asking one marked `current`.
async fn sessions(
    State(games): State<Games>,
    caller: Caller,
    jar: CookieJar,
) -> Result<Response, ApiError> {
    let (account, session) = with_session(caller, &jar)?;
    let list = games
        .credentials(&account, CredentialKind::Session, Some(session))
        .await?;
    Ok(Json(serde_json::json!({ "sessions": list })).into_response())
}

/// `DELETE /api/me/sessions`: logs out everywhere, here too.
async fn end_sessions(
    State(games): State<Games>,
    caller: Caller,
    jar: CookieJar,
) -> Result<Response, ApiError> {
    let (account, _) = with_session(caller, &jar)?;
    let ended = games.end_sessions(&account).await?;
    let gone = Cookie::build((SESSION_COOKIE, "")).path("/").build();
    Ok((
        jar.remove(gone),
        Json(serde_json::json!({ "ended_sessions": ended })),
    )
        .into_response())
}

/// `GET /api/me/tokens`: the account's personal API tokens (never their secrets).
pub(crate) async fn tokens(
    State(games): State<Games>,
    caller: Caller,
    jar: CookieJar,
) -> Result<Response, ApiError> {
    let (account, _) = with_session(caller, &jar)?;
    let list = games
        .credentials(&account, CredentialKind::Api, None)
        .await?;
    Ok(Json(serde_json::json!({ "tokens": list })).into_response())
}

/// `DELETE /api/me/tokens/{id}`: revokes one personal API token.
async fn revoke_token(
    State(games): State<Games>,
    caller: Caller,
    jar: CookieJar,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (account, _) = with_session(caller, &jar)?;
    games.revoke_token(&account, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
