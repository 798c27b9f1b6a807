//! Accounts, their credentials and ratings: one interface, [`AccountStore`], which
//! both backends implement beside [`super::GameStore`] (`sqlite_accounts.rs`,
//! `postgres_accounts.rs`).

use std::future::Future;

use super::StoreError;
use crate::ratings::{Rating, RatingChanges, Score};

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

/// Accounts, credentials, the account of each seat, and ratings.
pub trait AccountStore: Send + Sync {
    /// Stores a new account; `false` when its key is taken.
    fn create_account(
        &self,
        account: &Account,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The account with this key, if any.
    fn account(
        &self,
        key: &str,
    ) -> impl Future<Output = Result<Option<Account>, StoreError>> + Send;

    /// Marks the account a bot's; `false` if there is no such account.
    fn make_bot(&self, key: &str) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Stores a credential (the SHA-256 of its secret) acting for `account`, until
    /// `expires_ms` if given.
    fn add_credential(
        &self,
        token_hash: [u8; 32],
        account: &str,
        kind: CredentialKind,
        expires_ms: Option<i64>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The account a credential acts for, and what the credential is, unless it is
    /// unknown or expired at `now_ms`.
    fn credential(
        &self,
        token_hash: [u8; 32],
        now_ms: i64,
    ) -> impl Future<Output = Result<Option<(Account, CredentialKind)>, StoreError>> + Send;

    /// Forgets a credential (logging out, revoking a token).
    fn remove_credential(
        &self,
        token_hash: [u8; 32],
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Gives seat `seat` (1 or 2) of game `id` to `account` if no account holds it;
    /// `false` otherwise. A change of the game (its version moves on).
    fn seat_account(
        &self,
        id: &str,
        seat: u8,
        account: &str,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// The ids of the games where `account` holds a seat, the latest activity first.
    fn games_of(
        &self,
        account: &str,
        page: Page,
    ) -> impl Future<Output = Result<Vec<String>, StoreError>> + Send;

    /// The account's rating in each pool it has played rated games in.
    fn ratings(
        &self,
        account: &str,
    ) -> impl Future<Output = Result<Vec<(String, Rating)>, StoreError>> + Send;

    /// The established (not provisional) ratings of `pool`, best first.
    fn leaderboard(
        &self,
        pool: &str,
        limit: usize,
    ) -> impl Future<Output = Result<Vec<Ranked>, StoreError>> + Send;

    /// Rates the finished rated game `id` in `pool` as `score` (for player 1), once:
    /// in one transaction, both players' ratings before it are read, both after it
    /// written, and the changes kept with the game (a change of the game). `None` if
    /// it was rated already, or is not a rated game between two accounts.
    fn rate(
        &self,
        id: &str,
        pool: &str,
        score: Score,
    ) -> impl Future<Output = Result<Option<RatingChanges>, StoreError>> + Send;
}
