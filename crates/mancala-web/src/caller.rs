//! Who acts in a request: the account of its session cookie or personal API token
//! ([`Caller`]), and who acts at a game's seat ([`SeatHolder`]): a seat token, or the
//! account holding the seat.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use axum_extra::extract::cookie::CookieJar;

use crate::error::GameError;
use crate::games::Games;
use crate::http::{ApiError, bearer};
use crate::store::{Account, CredentialKind};
use crate::tokens::SeatKey;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "mancala_session";

/// The account acting in a request: the session cookie's, or a bot's personal API
/// token's (`Authorization: Bearer`). A bearer token that is not an account's (a seat
/// token of another game, a revoked token) leaves the request anonymous, as it was
/// before accounts: the routes that need an account say 401, and creating or joining
/// a game takes an anonymous seat (a rated game then asks for an account).
pub(crate) struct Caller(pub(crate) Option<(Account, CredentialKind)>);

impl FromRequestParts<Games> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, games: &Games) -> Result<Self, ApiError> {
        match credential_secret(&parts.headers) {
            Some(secret) => Ok(Caller(games.account_of(&secret).await?)),
            None => Ok(Caller(None)),
        }
    }
}

/// The secret a request acts with: its session cookie's, else its bearer token.
pub(crate) fn credential_secret(headers: &HeaderMap) -> Option<String> {
    let jar = CookieJar::from_headers(headers);
    match jar.get(SESSION_COOKIE) {
        Some(cookie) => Some(cookie.value().to_owned()),
        None => bearer(headers).map(str::to_owned),
    }
}

impl Caller {
    /// The account, if one acts.
    pub(crate) fn account_if_any(&self) -> Option<&Account> {
        self.0.as_ref().map(|(account, _)| account)
    }

    /// The account, or 401.
    pub(crate) fn account(self) -> Result<Account, ApiError> {
        self.0
            .map(|(account, _)| account)
            .ok_or(ApiError::Game(not_logged_in()))
    }
}

/// The refusal of a request that needs an account and brought none (or a session
/// that has ended, or a revoked token).
pub(crate) fn not_logged_in() -> GameError {
    GameError::NotLoggedIn(
        "this needs an account: log in (the session cookie) or send a personal API token \
         (Authorization: Bearer)"
            .into(),
    )
}

/// Who acts at a seat in a request: the holder of its bearer token (a seat token, or
/// an account's personal API token, which plays every seat its account holds), or
/// else, with a session cookie, the account, which plays the seat it holds from any
/// device (the browser that played it keeps the seat token; another device has only the
/// cookie).
pub(crate) struct SeatHolder {
    bearer: Option<String>,
    account: Option<String>,
}

impl FromRequestParts<Games> for SeatHolder {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, games: &Games) -> Result<Self, ApiError> {
        if let Some(token) = bearer(&parts.headers) {
            // A bot's personal token acts for its account; any other bearer is taken
            // as a seat token (the two are never the same secret).
            let account = games.account_of(token).await?.map(|(a, _)| a.key);
            return Ok(SeatHolder {
                bearer: account.is_none().then(|| token.to_owned()),
                account,
            });
        }
        let jar = CookieJar::from_headers(&parts.headers);
        let account = match jar.get(SESSION_COOKIE) {
            Some(cookie) => games.account_of(cookie.value()).await?.map(|(a, _)| a.key),
            None => None,
        };
        Ok(SeatHolder {
            bearer: None,
            account,
        })
    }
}

impl SeatHolder {
    /// The key the game service checks against the seats.
    pub(crate) fn key(&self) -> SeatKey<'_> {
        match (&self.bearer, &self.account) {
            (None, Some(account)) => SeatKey::Account(account),
            (token, _) => SeatKey::Token(token.as_deref()),
        }
    }
}
