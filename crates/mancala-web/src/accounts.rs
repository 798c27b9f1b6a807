//! Player accounts: signing up and logging in (passwords kept only as argon2id
//! hashes), the credentials that act for an account (a browser's session cookie, a
//! bot's personal API token), the games an account holds a seat in, profiles and the
//! leaderboard. Accounts are optional: every game can still be played with seat tokens
//! alone.

use std::sync::LazyLock;
use std::time::Duration;

use argon2::password_hash::{PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Argon2, PasswordHash};
use mancala_core::Side;
use mancala_session::Session;
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::error::GameError;
use crate::games::Games;
use crate::passwords::check_password;
use crate::ratings::{Rating, Score, is_pool, pool_of, round};
use crate::store::{Account, CredentialKind, GameRow, Page, PairCap, Ranked, RatedEnd, StoreError};
use crate::tokens::{hash_token, new_token};
use crate::view::{GameView, PlayerView, RulesView};

/// How long a log-in lasts: the session cookie's lifetime.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// The most games of an account a page lists, and the most leaderboard rows.
pub const PAGE_LIMIT: usize = 50;

/// Password hashes computed at once: each takes about 19 MiB and a few tens of
/// milliseconds of a core, and the cores are the games'.
static HASHING: Semaphore = Semaphore::const_new(2);

/// A hash of no password anybody has, verified against when a log-in names an unknown
/// account, so that such a log-in takes as long as a wrong password does.
static DECOY: LazyLock<String> = LazyLock::new(|| {
    hash_password_now("a decoy that no account has").expect("hashing a fixed password works")
});

/// A checked username: 3 to 20 letters, digits, `-` or `_`, not a computer player's
/// name.
///
/// ```
/// use mancala_web::Username;
/// assert_eq!(Username::parse("Ann_2").unwrap().key(), "ann_2");
/// assert!(Username::parse("no").is_err() && Username::parse("a b c").is_err());
/// assert!(Username::parse("Expert").is_err(), "a computer player's name");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username(String);

impl Username {
    /// The username, if it is one a person may take.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`], saying what is wrong.
    pub fn parse(name: &str) -> Result<Username, GameError> {
        let bad = |why: &str| Err(GameError::Unprocessable(format!("username: {why}")));
        let chars = name.chars().count();
        if !(3..=20).contains(&chars) {
            return bad("3 to 20 characters");
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return bad("only letters, digits, - and _");
        }
        if mancala_session::is_reserved_name(name) {
            return bad("the name of a computer player");
        }
        Ok(Username(name.to_owned()))
    }

    /// The name in lower case: what makes names unique without regard to case.
    #[must_use]
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

/// An account as the API shows it to its owner (`GET /api/me`) and to everyone
/// (`GET /api/users/{name}`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AccountView {
    /// The username as chosen.
    pub name: String,
    /// Whether the account is a bot's.
    pub bot: bool,
    /// When the account was made, in seconds since the Unix epoch.
    pub created_at: i64,
    /// The account's rating in each pool it has played rated games in (`kalah`,
    /// `oware`, `kalah-4x3`, …).
    pub ratings: std::collections::BTreeMap<String, RatingView>,
}

/// A rating as the API shows it.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct RatingView {
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation, rounded.
    pub rd: i64,
    /// The volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// Whether the rating is provisional (deviation above 110: shown `1500?`).
    pub provisional: bool,
}

impl From<Rating> for RatingView {
    fn from(r: Rating) -> RatingView {
        RatingView {
            rating: r.rounded(),
            rd: round(r.rd),
            volatility: r.volatility,
            games: r.games,
            provisional: r.provisional(),
        }
    }
}

/// An account as everyone sees it, with its recent games (`GET /api/users/{name}`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct UserView {
    /// The account.
    #[serde(flatten)]
    pub account: AccountView,
    /// Its most recent games, the latest first.
    pub games: Vec<AccountGame>,
}

/// A game in an account's list: enough to show it in a list and open it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AccountGame {
    /// The game's id; its page is `/g/{id}`.
    pub id: String,
    /// The variant's key.
    pub variant: String,
    /// The rules.
    pub rules: RulesView,
    /// The two seats.
    pub players: [PlayerView; 2],
    /// The seat the account holds (1 or 2).
    pub seat: u8,
    /// Plies played.
    pub ply: usize,
    /// Whether both seats are held (moves may be played).
    pub started: bool,
    /// The seat to move (1 or 2); `null` once over.
    pub to_move: Option<u8>,
    /// Whether it is over.
    pub over: bool,
    /// The winner (1 or 2) once over; `null` for a draw or before the end.
    pub winner: Option<u8>,
    /// Whether the game is rated.
    pub rated: bool,
}

impl AccountGame {
    pub(crate) fn of(view: GameView, seat: u8) -> AccountGame {
        AccountGame {
            winner: view.result.as_ref().and_then(|r| r.winner),
            id: view.id,
            variant: view.variant,
            rules: view.rules,
            players: view.players,
            seat,
            ply: view.ply,
            started: view.started,
            to_move: view.to_move,
            over: view.over,
            rated: view.rated,
        }
    }
}

/// A page of an account's games (`GET /api/me/games`, and a profile's recent games).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AccountGames {
    /// The games, the most recently active first.
    pub games: Vec<AccountGame>,
    /// The `offset` of the next page, if there may be one.
    pub next: Option<usize>,
}

/// A leaderboard row.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LeaderView {
    /// The username.
    pub name: String,
    /// Whether the account is a bot's.
    pub bot: bool,
    /// The rating.
    #[serde(flatten)]
    pub rating: RatingView,
}

/// The answer for a name no account has.
pub(crate) fn no_such_user() -> GameError {
    GameError::Missing("no such user".into())
}

/// `argon2id` of `password` with a fresh salt, on this thread.
pub(crate) fn hash_password_now(password: &str) -> Result<String, GameError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| GameError::Internal(format!("hashing a password: {e}")))
}

/// Runs `work` (hashing) on the blocking pool, at most [`HASHING`] at once.
pub(crate) async fn hashing<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, GameError> {
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|e| GameError::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| GameError::Internal(format!("password hashing: {e}")))
}

/// Whether `password` is the one `hash` was made from.
pub(crate) fn password_matches(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A fresh credential's secret, stored (hashed) for `account`.
async fn grant(games: &Games, account: &str, kind: CredentialKind) -> Result<String, StoreError> {
    let (secret, hash) = new_token();
    let now = games.now_ms();
    let expires = match kind {
        CredentialKind::Session => {
            let lifetime = i64::try_from(SESSION_LIFETIME.as_millis()).unwrap_or(i64::MAX);
            Some(now.saturating_add(lifetime))
        }
        CredentialKind::Api => None,
    };
    games
        .store()
        .add_credential(hash, account, kind, now, expires)
        .await?;
    Ok(secret)
}

/// Whether each side of the game has moved: until then a game can be aborted and
/// cannot be resigned, and it is never rated.
pub(crate) fn both_have_moved(session: &Session) -> bool {
    Side::BOTH
        .into_iter()
        .all(|side| session.records().iter().any(|r| r.side == side))
}

impl Games {
    /// Makes an account and logs it in: its view and the session's secret.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for a bad username or password,
    /// [`GameError::Conflict`] when the name is taken (whatever its case).
    pub async fn sign_up(
        &self,
        username: &str,
        password: &str,
    ) -> Result<(AccountView, String), GameError> {
        let name = Username::parse(username)?;
        check_password(password, &name.0)?;
        let password = password.to_owned();
        let password_hash = hashing(move || hash_password_now(&password)).await??;
        let account = Account {
            key: name.key(),
            name: name.0,
            password_hash,
            bot: false,
            created_ms: self.now_ms(),
        };
        if !self.store().create_account(&account).await? {
            return Err(GameError::Conflict("that username is taken".into()));
        }
        let secret = grant(self, &account.key, CredentialKind::Session).await?;
        Ok((self.account_view(&account).await?, secret))
    }

    /// Logs in: the account's view and a new session's secret.
    ///
    /// # Errors
    /// [`GameError::NotLoggedIn`] for an unknown name or a wrong password (the same
    /// answer, after the same work, for both).
    pub async fn log_in(
        &self,
        username: &str,
        password: &str,
    ) -> Result<(AccountView, String), GameError> {
        let found = self.store().account(&username.to_ascii_lowercase()).await?;
        let hash = found
            .as_ref()
            .map_or_else(|| DECOY.clone(), |a| a.password_hash.clone());
        let password = password.to_owned();
        let matches = hashing(move || password_matches(&hash, &password)).await?;
        let Some(account) = found.filter(|_| matches) else {
            return Err(GameError::NotLoggedIn(
                "wrong username or password: check both (the password's case counts)".into(),
            ));
        };
        let secret = grant(self, &account.key, CredentialKind::Session).await?;
        Ok((self.account_view(&account).await?, secret))
    }

    /// Ends the session (or revokes the token) whose secret is `secret`.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn log_out(&self, secret: &str) -> Result<(), GameError> {
        let acting = self.account_of(secret).await?;
        self.store().remove_credential(hash_token(secret)).await?;
        // Its event streams here end at once (elsewhere at their next look).
        if let Some((account, _)) = acting {
            self.wakers().wake(&account.key);
        }
        Ok(())
    }

    /// The account a session cookie's or an API token's secret acts for, if it is
    /// current.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn account_of(
        &self,
        secret: &str,
    ) -> Result<Option<(Account, CredentialKind)>, GameError> {
        Ok(self
            .store()
            .credential(hash_token(secret), self.now_ms())
            .await?)
    }

    /// The account as the API shows it, with its ratings.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn account_view(&self, account: &Account) -> Result<AccountView, GameError> {
        let ratings = self.store().ratings(&account.key).await?;
        Ok(AccountView {
            name: account.name.clone(),
            bot: account.bot,
            created_at: account.created_ms.div_euclid(1000),
            ratings: ratings
                .into_iter()
                .map(|(pool, r)| (pool, RatingView::from(r)))
                .collect(),
        })
    }

    /// The account named `name` (whatever its case), as everyone may see it.
    ///
    /// # Errors
    /// [`GameError::Missing`] ("no such user") for no such account.
    pub async fn user(&self, name: &str) -> Result<(Account, AccountView), GameError> {
        let account = self
            .store()
            .account(&name.to_ascii_lowercase())
            .await?
            .ok_or_else(no_such_user)?;
        let view = self.account_view(&account).await?;
        Ok((account, view))
    }

    /// A page of the games where `account` holds a seat, the most recently active
    /// first (games that expired meanwhile left out).
    ///
    /// # Errors
    /// When the store fails or a stored game does not replay.
    pub async fn games_of(&self, account: &str, page: Page) -> Result<AccountGames, GameError> {
        let page = Page {
            limit: page.limit.clamp(1, PAGE_LIMIT),
            ..page
        };
        let ids = self.store().games_of(account, page).await?;
        let next = (ids.len() == page.limit).then_some(page.offset + page.limit);
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            let row = match self.row(&id).await {
                Ok(row) => row,
                Err(GameError::NotFound) => continue,
                Err(e) => return Err(e),
            };
            let seat = if row.accounts[0].as_deref() == Some(account) {
                1
            } else {
                2
            };
            games.push(AccountGame::of(self.view_of(&row)?, seat));
        }
        Ok(AccountGames { games, next })
    }

    /// Gives `account` the seats of games played without it, for the holders of their
    /// seat tokens (a player's games in one browser, when they sign up or log in):
    /// each `(game id, seat token)`; returns the ids of the games it now holds a seat
    /// in. A token of no seat, or a seat another account holds, is passed over.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn claim_seats(
        &self,
        account: &str,
        seats: &[(String, String)],
    ) -> Result<Vec<String>, GameError> {
        let mut claimed = Vec::new();
        for (id, token) in seats {
            let row = match self.row(id).await {
                Ok(row) => row,
                Err(GameError::NotFound) => continue,
                Err(e) => return Err(e),
            };
            let Ok(side) = crate::tokens::seat_of(&row, Some(token.as_str()).into()) else {
                continue;
            };
            let seat = side.number();
            let other = row.accounts[usize::from(2 - seat)].as_deref();
            if other == Some(account) {
                // Both seats of one game are not one account's (a game against
                // oneself in two tabs keeps its second seat anonymous).
                continue;
            }
            if row.accounts[side.index()].as_deref() == Some(account)
                || self.store().seat_account(id, seat, account).await?
            {
                claimed.push(id.clone());
                self.publish_id(id).await;
            }
        }
        Ok(claimed)
    }

    /// Marks the account a bot's and gives it a new personal API token (shown once).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn new_api_token(&self, account: &Account) -> Result<String, GameError> {
        self.store().make_bot(&account.key).await?;
        Ok(grant(self, &account.key, CredentialKind::Api).await?)
    }

    /// How the game stored as `row`, whose session is now `session` (after the change
    /// that ends it), is rated: `None` unless it is a rated game not rated yet that
    /// has ended with a result after each side has moved.
    pub(crate) fn rated_end(&self, row: &GameRow, session: &Session) -> Option<RatedEnd> {
        if !row.rated || row.rating.is_some() || row.accounts.iter().any(Option::is_none) {
            return None;
        }
        // Not over, or aborted: no result, no rating. A game ended before each side
        // has moved (on time, by a claim) is not rated: a rating is not won without
        // playing.
        let outcome = session.outcome()?;
        if !both_have_moved(session) {
            return None;
        }
        let score = match outcome.winner {
            Some(Side::South) => Score::Win,
            Some(Side::North) => Score::Loss,
            None => Score::Draw,
        };
        Some(RatedEnd {
            pool: pool_of(&session.rules()),
            score,
            cap: PairCap {
                now_ms: self.now_ms(),
                per_day: self.limits().accounts.rated_per_pair_per_day,
            },
        })
    }

    /// The established players of `pool`, best first, at most [`PAGE_LIMIT`].
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for a pool no game can be rated in.
    pub async fn leaderboard(&self, pool: &str) -> Result<Vec<LeaderView>, GameError> {
        if !is_pool(pool) {
            return Err(GameError::Unprocessable(format!(
                "variant: no rated games are played as {pool:?}"
            )));
        }
        let rows = self.store().leaderboard(pool, PAGE_LIMIT).await?;
        Ok(rows
            .into_iter()
            .map(|Ranked { name, bot, rating }| LeaderView {
                name,
                bot,
                rating: rating.into(),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        for good in ["abc", "Ann-Marie_2", "x".repeat(20).as_str()] {
            assert!(Username::parse(good).is_ok(), "{good}");
        }
        for bad in [
            "ab",
            &"x".repeat(21),
            "ann marie",
            "ännchen",
            "a@b",
            "master",
            "Human",
        ] {
            assert!(Username::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_password_hash_verifies_only_its_password() {
        let hash = hash_password_now("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert!(password_matches(&hash, "correct horse"));
        assert!(!password_matches(&hash, "correct horsf"));
        assert!(!password_matches("not a hash", "correct horse"));
    }
}
