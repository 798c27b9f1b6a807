//! What the store keeps of accounts: the accounts, their credentials, pages of their
//! games, ratings (the operations are `account_sql.rs`).

use super::StoreError;
use crate::ratings::{Rating, RatingChanges};

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The username in lower case: what makes names unique without regard to case.
    pub key: String,
    /// The username as chosen.
    pub name: String,
    /// The argon2id hash of the password (PHC string format).
    pub password_hash: String,
    /// Whether the account is a bot's (it may hold personal API tokens).
    pub bot: bool,
    /// When the account was made, in milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// What a credential is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CredentialKind {
    /// A browser's session cookie, until it expires or the player logs out.
    Session,
    /// A bot's personal API token, until revoked.
    Api,
}

impl CredentialKind {
    /// The name the store keeps.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CredentialKind::Session => "session",
            CredentialKind::Api => "api",
        }
    }

    /// The kind the store keeps as `name`.
    pub(crate) fn from_name(name: &str) -> Result<CredentialKind, StoreError> {
        match name {
            "session" => Ok(CredentialKind::Session),
            "api" => Ok(CredentialKind::Api),
            other => Err(StoreError::Corrupt(format!("credential kind {other}"))),
        }
    }
}

/// A rated game's changes as the game keeps them (its `rating` column): JSON.
pub(crate) fn changes_json(changes: &RatingChanges) -> Result<String, StoreError> {
    serde_json::to_string(changes).map_err(|e| StoreError::Corrupt(format!("rating changes: {e}")))
}

/// The daily cap of rated games between the same two accounts, as the store applies
/// it when it rates a game: past `per_day` counted games between them in the day
/// before `now_ms`, a game is kept as rated but changes no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairCap {
    /// Now, in milliseconds since the Unix epoch.
    pub now_ms: i64,
    /// The most rated games between two accounts that count in any 24 hours.
    pub per_day: u32,
}

/// How a rated game that ends is rated in the change that ends it: its pool, its
/// result and the pair's daily cap (see [`super::Store::rate`]). The end and the
/// rating are one change, so the first view that says the game is over carries both
/// players' rating changes.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedEnd {
    /// The pool it is rated in.
    pub pool: String,
    /// Its result for player 1.
    pub score: crate::ratings::Score,
    /// The pair's daily cap.
    pub cap: PairCap,
}

/// The length of the cap's day, in milliseconds.
pub(crate) const DAY_MS: i64 = 86_400_000;

/// One of an account's credentials as its owner may see it: never its secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CredentialInfo {
    /// The SHA-256 of the secret (its first bytes make the credential's public id).
    pub token_hash: [u8; 32],
    /// A session or a personal API token.
    pub kind: CredentialKind,
    /// When it was made (`None` for credentials from before this was kept).
    pub created_ms: Option<i64>,
    /// When it last acted (to the minute; `None` if never since this was kept).
    pub last_used_ms: Option<i64>,
    /// When it expires (sessions), if ever.
    pub expires_ms: Option<i64>,
}

/// How often a credential's `last_used` moves at most, in milliseconds: a request
/// reads its credential, and writing each time would make every read a write.
pub(crate) const LAST_USED_GRAIN_MS: i64 = 60_000;

/// A page of an account's games, the latest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// How many of the latest to skip.
    pub offset: usize,
    /// How many to give at most.
    pub limit: usize,
}

/// One row of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// The username as chosen.
    pub name: String,
    /// Whether the account is a bot's.
    pub bot: bool,
    /// The rating in the leaderboard's pool.
    pub rating: Rating,
}
