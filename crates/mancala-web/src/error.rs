//! Why a request failed, in the service's terms: each case maps to one HTTP status
//! at the edge (`http.rs`), which adds the cases of its own (no such endpoint, a
//! method a path does not take).

use crate::store::StoreError;

/// Why a request failed; each maps to one HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// 404: no game with this id (or it has expired).
    #[error("no such game")]
    NotFound,
    /// 404: no such thing of the caller's (a token, an account), saying which.
    #[error("{0}")]
    Missing(String),
    /// 401: no token, or not a token of this game.
    #[error("a valid token for this game is required")]
    Unauthorized,
    /// 401: the request needs an account (a log-in, a personal API token) it did not
    /// bring, or a log-in failed, saying which.
    #[error("{0}")]
    NotLoggedIn(String),
    /// 403: it is not this seat's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// 403: the request needs a secret it did not bring (the invite to join).
    #[error("{0}")]
    Forbidden(String),
    /// 400: the request body is not the expected JSON.
    #[error("{0}")]
    BadRequest(String),
    /// 413 or 415: the request's body could not be read as a body of the API (too
    /// large, or not sent as JSON). The service receives a request with its body's
    /// fate, so that it answers in the order the API documents (an unknown game or a
    /// bad token before a bad body).
    #[error(transparent)]
    Body(#[from] BodyError),
    /// 409: the request conflicts with the game's state.
    #[error("{0}")]
    Conflict(String),
    /// 422: the move or settings break the rules or the server's bounds.
    #[error("{0}")]
    Unprocessable(String),
    /// 429: this client asks too much; try again after `retry_after` seconds.
    #[error("{message}")]
    TooMany {
        /// What limit was reached.
        message: String,
        /// Seconds to wait.
        retry_after: u64,
    },
    /// 503: the server as a whole is at a limit; try again after `retry_after` seconds.
    #[error("{message}")]
    Busy {
        /// What limit was reached.
        message: String,
        /// Seconds to wait.
        retry_after: u64,
    },
    /// 500: storage failed (the detail is logged, never sent).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// 500: something else failed (the detail is logged, never sent).
    #[error("{0}")]
    Internal(String),
}

/// A request body the API cannot read as a body at all (its JSON is the handler's to
/// judge: [`GameError::BadRequest`]).
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// 413: the body is larger than the request's limit.
    #[error("request body too large")]
    TooLarge,
    /// 415: the body is not sent as JSON (`Content-Type: application/json`).
    #[error("{0}")]
    NotJson(String),
}
