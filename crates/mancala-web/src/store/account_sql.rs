//! Accounts, credentials, the account of each seat and ratings, written once for both
//! databases: each operation one statement or one transaction; a change of a game is
//! announced to the other instances, as every other is.

use super::accounts::{
    Account, CredentialInfo, CredentialKind, DAY_MS, LAST_USED_GRAIN_MS, Page, PairCap, Ranked,
    changes_json,
};
use super::sql::{Conn, Row, values};
use super::{Store, StoreError};
use crate::ratings::{PROVISIONAL_DEVIATION, Rating, RatingChanges, Score, rate_game};

/// The columns [`account_of`] reads.
const ACCOUNT_COLUMNS: &str = "key, name, password, bot, created";

fn account_of(r: &mut Row, first: usize) -> Result<Account, StoreError> {
    Ok(Account {
        key: r.get(first)?,
        name: r.get(first + 1)?,
        password_hash: r.get(first + 2)?,
        bot: r.get(first + 3)?,
        created_ms: r.get(first + 4)?,
    })
}

/// The columns [`rating_of`] reads.
const RATING_COLUMNS: &str = "rating, deviation, volatility, games";

fn rating_of(r: &mut Row, first: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: r.get(first)?,
        rd: r.get(first + 1)?,
        volatility: r.get(first + 2)?,
        games: r.get(first + 3)?,
    })
}

fn credential_info(mut r: Row) -> Result<CredentialInfo, StoreError> {
    let kind: String = r.get(1)?;
    Ok(CredentialInfo {
        token_hash: r
            .get(0)
            .map_err(|e| StoreError::Corrupt(format!("a credential's hash: {e}")))?,
        kind: CredentialKind::from_name(&kind)?,
        created_ms: r.get(2)?,
        last_used_ms: r.get(3)?,
        expires_ms: r.get(4)?,
    })
}

/// The rating of `account` in `pool`, or a new player's; the row stays locked until
/// the transaction ends (PostgreSQL), so that two games ending at once are rated one
/// after the other.
async fn rating_in(c: &mut dyn Conn, account: &str, pool: &str) -> Result<Rating, StoreError> {
    let sql = format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE account = $1 AND pool = $2{}",
        c.dialect().for_update()
    );
    match c.query_opt(&sql, &values![account, pool]).await? {
        Some(mut r) => rating_of(&mut r, 0),
        None => Ok(Rating::INITIAL),
    }
}

async fn put_rating(
    c: &mut dyn Conn,
    account: &str,
    pool: &str,
    r: &Rating,
) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO ratings (account, pool, rating, deviation, volatility, games)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating,
           deviation = excluded.deviation, volatility = excluded.volatility,
           games = excluded.games",
        &values![account, pool, r.rating, r.rd, r.volatility, r.games],
    )
    .await?;
    Ok(())
}

/// How many rated games between `one` and `two` counted after `since_ms`. The pair is
/// locked until the transaction ends first, so that two of its games ending at once
/// are counted one after the other.
async fn counted_between(
    c: &mut dyn Conn,
    one: &str,
    two: &str,
    since_ms: i64,
) -> Result<i64, StoreError> {
    if let Some(lock) = c.dialect().named_lock() {
        let pair = if one <= two {
            format!("{one} {two}")
        } else {
            format!("{two} {one}")
        };
        c.execute(lock, &values![pair]).await?;
    }
    let counts = c
        .column(
            "SELECT count(*) FROM games WHERE rated_at > $3
             AND ((account1 = $1 AND account2 = $2) OR (account1 = $2 AND account2 = $1))",
            &values![one, two, since_ms],
        )
        .await?;
    Ok(counts.into_iter().next().unwrap_or(0))
}

/// [`Store::rate`], inside the caller's transaction; `bump` counts it as a change of
/// the game's own (a new version), which a rating made in the change that ends the
/// game is not.
pub(super) async fn rate(
    c: &mut dyn Conn,
    id: &str,
    pool: &str,
    score: Score,
    cap: PairCap,
    bump: bool,
) -> Result<Option<RatingChanges>, StoreError> {
    let sql = format!(
        "SELECT account1, account2, rated, rating FROM games WHERE id = $1{}",
        c.dialect().for_update()
    );
    let Some(mut row) = c.query_opt(&sql, &values![id]).await? else {
        return Ok(None);
    };
    let seats: (Option<String>, Option<String>, bool, Option<String>) =
        (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
    let (Some(one), Some(two), true, None) = seats else {
        return Ok(None);
    };
    // Always in the same order, so that two transactions cannot lock them crosswise.
    let (first, second) = if one <= two {
        (&one, &two)
    } else {
        (&two, &one)
    };
    let mut before = [
        rating_in(c, first, pool).await?,
        rating_in(c, second, pool).await?,
    ];
    if first != &one {
        before.swap(0, 1);
    }
    let counted = counted_between(c, &one, &two, cap.now_ms - DAY_MS).await?;
    let changes = if counted < i64::from(cap.per_day) {
        let after = rate_game(before, score);
        put_rating(c, &one, pool, &after[0]).await?;
        put_rating(c, &two, pool, &after[1]).await?;
        RatingChanges::new(pool, before, after)
    } else {
        RatingChanges::uncounted(pool, before)
    };
    let json = changes_json(&changes)?;
    let rated_at = changes.counted.then_some(cap.now_ms);
    c.execute(
        "UPDATE games SET rating = $2, rated_at = $3,
                          version = version + CASE WHEN $4 THEN 1 ELSE 0 END
         WHERE id = $1 AND rating IS NULL",
        &values![id, json, rated_at, bump],
    )
    .await?;
    Ok(Some(changes))
}

impl Store {
    /// Stores a new account; `false` when its key is taken.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn create_account(&self, account: &Account) -> Result<bool, StoreError> {
        let a = account.clone();
        self.run(move |c| {
            Box::pin(async move {
                let n = c
                    .execute(
                        "INSERT INTO accounts (key, name, password, bot, created)
                         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING",
                        &values![a.key, a.name, a.password_hash, a.bot, a.created_ms],
                    )
                    .await?;
                Ok(n == 1)
            })
        })
        .await
    }

    /// The account with this key, if any.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn account(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let key = key.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE key = $1");
                match c.query_opt(&sql, &values![key]).await? {
                    Some(mut r) => Ok(Some(account_of(&mut r, 0)?)),
                    None => Ok(None),
                }
            })
        })
        .await
    }

    /// Marks the account a bot's; `false` if there is no such account.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn make_bot(&self, key: &str) -> Result<bool, StoreError> {
        let key = key.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql = "UPDATE accounts SET bot = TRUE WHERE key = $1";
                Ok(c.execute(sql, &values![key]).await? == 1)
            })
        })
        .await
    }

    /// Replaces the account's password hash; `false` if there is no such account.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn set_password(&self, key: &str, password_hash: &str) -> Result<bool, StoreError> {
        let params = values![key, password_hash];
        self.run(move |c| {
            Box::pin(async move {
                let sql = "UPDATE accounts SET password = $2 WHERE key = $1";
                Ok(c.execute(sql, &params).await? == 1)
            })
        })
        .await
    }

    /// Stores a credential (the SHA-256 of its secret) acting for `account`, made at
    /// `now_ms`, until `expires_ms` if given.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn add_credential(
        &self,
        token_hash: [u8; 32],
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
        expires_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let params = values![token_hash, account, kind.as_str(), expires_ms, now_ms];
        self.run(move |c| {
            Box::pin(async move {
                c.execute(
                    "INSERT INTO credentials (token, account, kind, expires, created, last_used)
                     VALUES ($1, $2, $3, $4, $5, $5)",
                    &params,
                )
                .await?;
                Ok(())
            })
        })
        .await
    }

    /// The account a credential acts for, and what the credential is, unless it is
    /// unknown or expired at `now_ms`; notes it used at `now_ms` (to the minute).
    ///
    /// # Errors
    /// When the database fails or holds a row it cannot read.
    pub async fn credential(
        &self,
        token_hash: [u8; 32],
        now_ms: i64,
    ) -> Result<Option<(Account, CredentialKind)>, StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                let found = c
                    .query_opt(
                        "SELECT a.key, a.name, a.password, a.bot, a.created, c.kind
                         FROM credentials c JOIN accounts a ON a.key = c.account
                         WHERE c.token = $1 AND (c.expires IS NULL OR c.expires > $2)",
                        &values![token_hash, now_ms],
                    )
                    .await?;
                let Some(mut row) = found else {
                    return Ok(None);
                };
                c.execute(
                    "UPDATE credentials SET last_used = $2
                     WHERE token = $1 AND (last_used IS NULL OR last_used < $3)",
                    &values![token_hash, now_ms, now_ms - LAST_USED_GRAIN_MS],
                )
                .await?;
                let kind = CredentialKind::from_name(&row.get::<String>(5)?)?;
                Ok(Some((account_of(&mut row, 0)?, kind)))
            })
        })
        .await
    }

    /// Forgets a credential (logging out, revoking a token).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn remove_credential(&self, token_hash: [u8; 32]) -> Result<(), StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                let sql = "DELETE FROM credentials WHERE token = $1";
                c.execute(sql, &values![token_hash]).await?;
                Ok(())
            })
        })
        .await
    }

    /// The account's current credentials of `kind` at `now_ms`, the newest first.
    ///
    /// # Errors
    /// When the database fails or holds a row it cannot read.
    pub async fn credentials_of(
        &self,
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
    ) -> Result<Vec<CredentialInfo>, StoreError> {
        let params = values![account, kind.as_str(), now_ms];
        self.run(move |c| {
            Box::pin(async move {
                c.query(
                    "SELECT token, kind, created, last_used, expires FROM credentials
                     WHERE account = $1 AND kind = $2 AND (expires IS NULL OR expires > $3)
                     ORDER BY created DESC NULLS LAST, token",
                    &params,
                )
                .await?
                .into_iter()
                .map(credential_info)
                .collect()
            })
        })
        .await
    }

    /// Forgets every credential of `kind` of `account` but `keep` (if given); how
    /// many went.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn remove_credentials(
        &self,
        account: &str,
        kind: CredentialKind,
        keep: Option<[u8; 32]>,
    ) -> Result<u64, StoreError> {
        let keep = keep.map(|k| k.to_vec()).unwrap_or_default();
        let params = values![account, kind.as_str(), super::sql::Value::Bytes(keep)];
        self.run(move |c| {
            Box::pin(async move {
                c.execute(
                    "DELETE FROM credentials WHERE account = $1 AND kind = $2 AND token <> $3",
                    &params,
                )
                .await
            })
        })
        .await
    }

    /// Gives seat `seat` (1 or 2) of game `id` to `account` if no account holds it;
    /// `false` otherwise. A change of the game (its version moves on).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn seat_account(
        &self,
        id: &str,
        seat: u8,
        account: &str,
    ) -> Result<bool, StoreError> {
        let (id, account) = (id.to_owned(), account.to_owned());
        self.run(move |c| {
            Box::pin(async move {
                let sql = match seat {
                    1 => {
                        "UPDATE games SET account1 = $2, version = version + 1
                         WHERE id = $1 AND account1 IS NULL"
                    }
                    _ => {
                        "UPDATE games SET account2 = $2, version = version + 1
                         WHERE id = $1 AND account2 IS NULL"
                    }
                };
                let n = c.execute(sql, &values![&id, account]).await?;
                if n == 1 {
                    c.announce(&id).await;
                }
                Ok(n == 1)
            })
        })
        .await
    }

    /// The ids of the games where `account` holds a seat, the latest activity first.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn games_of(&self, account: &str, page: Page) -> Result<Vec<String>, StoreError> {
        let params = values![account, page.limit, page.offset];
        self.run(move |c| {
            Box::pin(async move {
                c.column(
                    "SELECT id FROM games WHERE account1 = $1 OR account2 = $1
                     ORDER BY activity DESC, id LIMIT $2 OFFSET $3",
                    &params,
                )
                .await
            })
        })
        .await
    }

    /// The account's rating in each pool it has played rated games in.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn ratings(&self, account: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let account = account.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "SELECT pool, {RATING_COLUMNS} FROM ratings WHERE account = $1 ORDER BY pool"
                );
                c.query(&sql, &values![account])
                    .await?
                    .into_iter()
                    .map(|mut r| Ok((r.get(0)?, rating_of(&mut r, 1)?)))
                    .collect()
            })
        })
        .await
    }

    /// The established (not provisional) ratings of `pool`, best first.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<Ranked>, StoreError> {
        let params = values![pool, PROVISIONAL_DEVIATION, limit];
        self.run(move |c| {
            Box::pin(async move {
                c.query(
                    "SELECT a.name, a.bot, r.rating, r.deviation, r.volatility, r.games
                     FROM ratings r JOIN accounts a ON a.key = r.account
                     WHERE r.pool = $1 AND r.deviation <= $2
                     ORDER BY r.rating DESC, a.key LIMIT $3",
                    &params,
                )
                .await?
                .into_iter()
                .map(|mut r| {
                    Ok(Ranked {
                        name: r.get(0)?,
                        bot: r.get(1)?,
                        rating: rating_of(&mut r, 2)?,
                    })
                })
                .collect()
            })
        })
        .await
    }

    /// Rates the finished rated game `id` in `pool` as `score` (for player 1), once:
    /// in one transaction, both players' ratings before it are read, both after it
    /// written, and the changes kept with the game (a change of the game). Past the
    /// pair's daily `cap` the game is kept as rated without changing the ratings
    /// ([`RatingChanges::counted`] false). `None` if it was rated already, or is not
    /// a rated game between two accounts.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn rate(
        &self,
        id: &str,
        pool: &str,
        score: Score,
        cap: PairCap,
    ) -> Result<Option<RatingChanges>, StoreError> {
        let (id, pool) = (id.to_owned(), pool.to_owned());
        self.run(move |c| {
            Box::pin(async move {
                c.begin().await?;
                let changes = rate(c, &id, &pool, score, cap, true).await?;
                c.commit().await?;
                if changes.is_some() {
                    c.announce(&id).await;
                }
                Ok(changes)
            })
        })
        .await
    }
}
