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

    /// Replaces the account's password hash; `false` if there is no such account.
    fn set_password(
        &self,
        key: &str,
        password_hash: &str,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Stores a credential (the SHA-256 of its secret) acting for `account`, made at
    /// `now_ms`, until `expires_ms` if given.
    fn add_credential(
        &self,
        token_hash: [u8; 32],
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
        expires_ms: Option<i64>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The account a credential acts for, and what the credential is, unless it is
    /// unknown or expired at `now_ms`; notes it used at `now_ms` (to the minute).
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

    /// The account's current credentials of `kind` at `now_ms`, the newest first.
    fn credentials_of(
        &self,
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
    ) -> impl Future<Output = Result<Vec<CredentialInfo>, StoreError>> + Send;

    /// Forgets every credential of `kind` of `account` but `keep` (if given); how
    /// many went.
    fn remove_credentials(
        &self,
        account: &str,
        kind: CredentialKind,
        keep: Option<[u8; 32]>,
    ) -> impl Future<Output = Result<u64, StoreError>> + Send;

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
    /// written, and the changes kept with the game (a change of the game). Past the
    /// pair's daily `cap` the game is kept as rated without changing the ratings
    /// ([`RatingChanges::counted`] false). `None` if it was rated already, or is not
    /// a rated game between two accounts.
    fn rate(
        &self,
        id: &str,
        pool: &str,
        score: Score,
        cap: PairCap,
    ) -> impl Future<Output = Result<Option<RatingChanges>, StoreError>> + Send;
}
