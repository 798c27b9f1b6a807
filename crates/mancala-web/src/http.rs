//! What every handler shares: errors answered as the API answers them, the bearer
//! token of a request, and who the requesting client is.

use std::convert::Infallible;

use axum::Json;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::client::ClientKey;
use crate::error::{BodyError, GameError};
use crate::games::Games;

/// An error as the API answers it: a status and `{"error":"..."}`. The service's
/// errors, and the cases only the router knows.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// What the service said.
    #[error(transparent)]
    Game(#[from] GameError),
    /// 404: no such path under `/api`.
    #[error("no such endpoint")]
    NoEndpoint,
    /// 405: the path exists, the method does not.
    #[error("method not allowed here")]
    MethodNotAllowed,
}

/// The `Retry-After` of a request the database could not take: a restart or a
/// failover takes seconds.
const STORE_RETRY_SECONDS: u64 = 2;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let game = match self {
            ApiError::Game(e) => e,
            ApiError::NoEndpoint => return edge_answer(StatusCode::NOT_FOUND, &self),
            ApiError::MethodNotAllowed => {
                return edge_answer(StatusCode::METHOD_NOT_ALLOWED, &self);
            }
        };
        game_answer(game)
    }
}

/// The answer of one of the router's own cases.
fn edge_answer(status: StatusCode, error: &ApiError) -> Response {
    (
        status,
        Json(serde_json::json!({ "error": error.to_string() })),
    )
        .into_response()
}

/// The answer to a service's error: its status, its message (or none, for a fault,
/// which is logged), `WWW-Authenticate` and `Retry-After` where they belong.
fn game_answer(error: GameError) -> Response {
    {
        let (status, retry_after) = match &error {
            GameError::NotFound | GameError::Missing(_) => (StatusCode::NOT_FOUND, None),
            GameError::Unauthorized | GameError::NotLoggedIn(_) => (StatusCode::UNAUTHORIZED, None),
            GameError::NotYourTurn | GameError::Forbidden(_) => (StatusCode::FORBIDDEN, None),
            GameError::BadRequest(_) => (StatusCode::BAD_REQUEST, None),
            GameError::Body(BodyError::TooLarge) => (StatusCode::PAYLOAD_TOO_LARGE, None),
            GameError::Body(BodyError::NotJson(_)) => (StatusCode::UNSUPPORTED_MEDIA_TYPE, None),
            GameError::Conflict(_) => (StatusCode::CONFLICT, None),
            GameError::Unprocessable(_) => (StatusCode::UNPROCESSABLE_ENTITY, None),
            GameError::TooMany { retry_after, .. } => {
                (StatusCode::TOO_MANY_REQUESTS, Some(*retry_after))
            }
            GameError::Busy { retry_after, .. } => {
                (StatusCode::SERVICE_UNAVAILABLE, Some(*retry_after))
            }
            GameError::Store(e) if e.is_unavailable() => {
                (StatusCode::SERVICE_UNAVAILABLE, Some(STORE_RETRY_SECONDS))
            }
            GameError::Store(_) | GameError::Internal(_) => {
                (StatusCode::INTERNAL_SERVER_ERROR, None)
            }
        };
        let message = if let GameError::Store(e) = &error
            && status == StatusCode::SERVICE_UNAVAILABLE
        {
            // Nothing of the request was stored: the client asks again in a moment.
            tracing::warn!(error = %e, "the database is unavailable");
            "the database is unavailable for a moment: nothing was changed; try again".to_owned()
        } else if status == StatusCode::INTERNAL_SERVER_ERROR {
            // The detail is for the log, not for whoever asked.
            tracing::error!(error = %error, "internal error");
            "internal server error".to_owned()
        } else {
            error.to_string()
        };
        let mut response = (status, Json(serde_json::json!({ "error": message }))).into_response();
        let headers = response.headers_mut();
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(seconds) = retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The token of an `Authorization: Bearer <token>` header.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The requesting client, as a handler argument.
pub(crate) struct Client(pub(crate) ClientKey);

impl FromRequestParts<Games> for Client {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, games: &Games) -> Result<Self, Self::Rejection> {
        Ok(Client(ClientKey::of_request(
            &parts.headers,
            &parts.extensions,
            games.limits().trust_forwarded_for,
        )))
    }
}

/// A rate limit on a group of routes (per client, see `api.rs`).
pub(crate) type Limiter = tower_governor::GovernorLayer<
    crate::client::ClientKeyExtractor,
    governor::middleware::NoOpMiddleware,
    axum::body::Body,
>;

/// Any path under `/api` with nothing there.
pub(crate) async fn no_endpoint() -> ApiError {
    ApiError::NoEndpoint
}

/// A path that exists, asked with a method it does not take.
pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}
