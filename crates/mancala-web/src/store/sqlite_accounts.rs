//! [`AccountStore`] on SQLite: each operation one statement or one transaction on the
//! store's connection.

use rusqlite::{Connection, OptionalExtension, params};

use super::accounts::{
    Account, AccountStore, CredentialInfo, CredentialKind, DAY_MS, LAST_USED_GRAIN_MS, Page,
    PairCap, Ranked, changes_json,
};
use super::{SqliteStore, StoreError};
use crate::ratings::{PROVISIONAL_DEVIATION, Rating, RatingChanges, Score, rate_game};

const ACCOUNT_COLUMNS: &str = "key, name, password, bot, created";

fn account_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        key: r.get(0)?,
        name: r.get(1)?,
        password_hash: r.get(2)?,
        bot: r.get(3)?,
        created_ms: r.get(4)?,
    })
}

fn rating_of(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Rating> {
    Ok(Rating {
        rating: r.get(first)?,
        rd: r.get(first + 1)?,
        volatility: r.get(first + 2)?,
        games: r.get(first + 3)?,
    })
}

fn usize_param(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The rating of `account` in `pool`, or a new player's.
fn rating_in(conn: &Connection, account: &str, pool: &str) -> Result<Rating, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE account = ?1 AND pool = ?2",
        )?
        .query_row([account, pool], |r| rating_of(r, 0))
        .optional()?
        .unwrap_or(Rating::INITIAL))
}

fn put_rating(conn: &Connection, account: &str, pool: &str, r: &Rating) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO ratings (account, pool, rating, deviation, volatility, games)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating,
           deviation = excluded.deviation, volatility = excluded.volatility,
           games = excluded.games",
    )?
    .execute(params![
        account,
        pool,
        r.rating,
        r.rd,
        r.volatility,
        r.games
    ])?;
    Ok(())
}

/// How many rated games between `one` and `two` counted after `since_ms`.
fn counted_between(
    conn: &Connection,
    one: &str,
    two: &str,
    since_ms: i64,
) -> Result<i64, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FROM games WHERE rated_at > ?3
             AND ((account1 = ?1 AND account2 = ?2) OR (account1 = ?2 AND account2 = ?1))",
        )?
        .query_row(params![one, two, since_ms], |r| r.get(0))?)
}

fn credential_info(r: &rusqlite::Row<'_>) -> Result<CredentialInfo, StoreError> {
    let token: Vec<u8> = r.get(0)?;
    let kind: String = r.get(1)?;
    Ok(CredentialInfo {
        token_hash: token
            .try_into()
            .map_err(|_| StoreError::Corrupt("a credential's hash".into()))?,
        kind: CredentialKind::from_name(&kind)?,
        created_ms: r.get(2)?,
        last_used_ms: r.get(3)?,
        expires_ms: r.get(4)?,
    })
}

/// [`AccountStore::rate`], inside the caller's transaction.
fn rate(
    conn: &Connection,
    id: &str,
    pool: &str,
    score: Score,
    cap: PairCap,
) -> Result<Option<RatingChanges>, StoreError> {
    type Seats = (Option<String>, Option<String>, bool, Option<String>);
    let found: Option<Seats> = conn
        .prepare_cached("SELECT account1, account2, rated, rating FROM games WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .optional()?;
    let Some((Some(one), Some(two), true, None)) = found else {
        return Ok(None);
    };
    let before = [rating_in(conn, &one, pool)?, rating_in(conn, &two, pool)?];
    let counted = counted_between(conn, &one, &two, cap.now_ms - DAY_MS)?;
    let changes = if counted < i64::from(cap.per_day) {
        let after = rate_game(before, score);
        put_rating(conn, &one, pool, &after[0])?;
        put_rating(conn, &two, pool, &after[1])?;
        RatingChanges::new(pool, before, after)
    } else {
        RatingChanges::uncounted(pool, before)
    };
    let json = changes_json(&changes)?;
    let rated_at = changes.counted.then_some(cap.now_ms);
    conn.prepare_cached(
        "UPDATE games SET rating = ?2, rated_at = ?3, version = version + 1
         WHERE id = ?1 AND rating IS NULL",
    )?
    .execute(params![id, json, rated_at])?;
    Ok(Some(changes))
}

impl AccountStore for SqliteStore {
    async fn create_account(&self, a: &Account) -> Result<bool, StoreError> {
        let a = a.clone();
        self.blocking(move |conn, _| {
            let n = conn
                .prepare_cached(
                    "INSERT INTO accounts (key, name, password, bot, created)
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (key) DO NOTHING",
                )?
                .execute(params![a.key, a.name, a.password_hash, a.bot, a.created_ms])?;
            Ok(n == 1)
        })
        .await
    }

    async fn account(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let key = key.to_owned();
        self.blocking(move |conn, _| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE key = ?1"
                ))?
                .query_row([key], account_of)
                .optional()?)
        })
        .await
    }

    async fn make_bot(&self, key: &str) -> Result<bool, StoreError> {
        let key = key.to_owned();
        self.blocking(move |conn, _| {
            let n = conn
                .prepare_cached("UPDATE accounts SET bot = 1 WHERE key = ?1")?
                .execute([key])?;
            Ok(n == 1)
        })
        .await
    }

    async fn set_password(&self, key: &str, password_hash: &str) -> Result<bool, StoreError> {
        let (key, hash) = (key.to_owned(), password_hash.to_owned());
        self.blocking(move |conn, _| {
            let n = conn
                .prepare_cached("UPDATE accounts SET password = ?2 WHERE key = ?1")?
                .execute([key, hash])?;
            Ok(n == 1)
        })
        .await
    }

    async fn add_credential(
        &self,
        token_hash: [u8; 32],
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
        expires_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let account = account.to_owned();
        self.blocking(move |conn, _| {
            conn.prepare_cached(
                "INSERT INTO credentials (token, account, kind, expires, created, last_used)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
            )?
            .execute(params![
                token_hash.to_vec(),
                account,
                kind.as_str(),
                expires_ms,
                now_ms
            ])?;
            Ok(())
        })
        .await
    }

    async fn credentials_of(
        &self,
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
    ) -> Result<Vec<CredentialInfo>, StoreError> {
        let account = account.to_owned();
        self.blocking(move |conn, _| {
            let mut stmt = conn.prepare_cached(
                "SELECT token, kind, created, last_used, expires FROM credentials
                 WHERE account = ?1 AND kind = ?2 AND (expires IS NULL OR expires > ?3)
                 ORDER BY created DESC, token",
            )?;
            let mut rows = stmt.query(params![account, kind.as_str(), now_ms])?;
            let mut found = Vec::new();
            while let Some(r) = rows.next()? {
                found.push(credential_info(r)?);
            }
            Ok(found)
        })
        .await
    }

    async fn remove_credentials(
        &self,
        account: &str,
        kind: CredentialKind,
        keep: Option<[u8; 32]>,
    ) -> Result<u64, StoreError> {
        let account = account.to_owned();
        let keep = keep.map(|k| k.to_vec()).unwrap_or_default();
        self.blocking(move |conn, _| {
            let n = conn
                .prepare_cached(
                    "DELETE FROM credentials WHERE account = ?1 AND kind = ?2 AND token <> ?3",
                )?
                .execute(params![account, kind.as_str(), keep])?;
            Ok(u64::try_from(n).unwrap_or(u64::MAX))
        })
        .await
    }

    async fn credential(
        &self,
        token_hash: [u8; 32],
        now_ms: i64,
    ) -> Result<Option<(Account, CredentialKind)>, StoreError> {
        self.blocking(move |conn, _| {
            let found = conn
                .prepare_cached(
                    "SELECT a.key, a.name, a.password, a.bot, a.created, c.kind
                     FROM credentials c JOIN accounts a ON a.key = c.account
                     WHERE c.token = ?1 AND (c.expires IS NULL OR c.expires > ?2)",
                )?
                .query_row(params![token_hash.to_vec(), now_ms], |r| {
                    Ok((account_of(r)?, r.get::<_, String>(5)?))
                })
                .optional()?;
            if found.is_some() {
                conn.prepare_cached(
                    "UPDATE credentials SET last_used = ?2
                     WHERE token = ?1 AND (last_used IS NULL OR last_used < ?3)",
                )?
                .execute(params![
                    token_hash.to_vec(),
                    now_ms,
                    now_ms - LAST_USED_GRAIN_MS
                ])?;
            }
            found
                .map(|(account, kind)| Ok((account, CredentialKind::from_name(&kind)?)))
                .transpose()
        })
        .await
    }

    async fn remove_credential(&self, token_hash: [u8; 32]) -> Result<(), StoreError> {
        self.blocking(move |conn, _| {
            conn.prepare_cached("DELETE FROM credentials WHERE token = ?1")?
                .execute([token_hash.to_vec()])?;
            Ok(())
        })
        .await
    }

    async fn seat_account(&self, id: &str, seat: u8, account: &str) -> Result<bool, StoreError> {
        let (id, account) = (id.to_owned(), account.to_owned());
        self.blocking(move |conn, _| {
            let sql = match seat {
                1 => {
                    "UPDATE games SET account1 = ?2, version = version + 1
                      WHERE id = ?1 AND account1 IS NULL"
                }
                _ => {
                    "UPDATE games SET account2 = ?2, version = version + 1
                      WHERE id = ?1 AND account2 IS NULL"
                }
            };
            Ok(conn.prepare_cached(sql)?.execute([id, account])? == 1)
        })
        .await
    }

    async fn games_of(&self, account: &str, page: Page) -> Result<Vec<String>, StoreError> {
        let account = account.to_owned();
        self.blocking(move |conn, _| {
            Ok(conn
                .prepare_cached(
                    "SELECT id FROM games WHERE account1 = ?1 OR account2 = ?1
                     ORDER BY activity DESC, id LIMIT ?2 OFFSET ?3",
                )?
                .query_map(
                    params![account, usize_param(page.limit), usize_param(page.offset)],
                    |r| r.get(0),
                )?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn ratings(&self, account: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let account = account.to_owned();
        self.blocking(move |conn, _| {
            Ok(conn
                .prepare_cached(
                    "SELECT pool, rating, deviation, volatility, games FROM ratings
                     WHERE account = ?1 ORDER BY pool",
                )?
                .query_map([account], |r| Ok((r.get(0)?, rating_of(r, 1)?)))?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<Ranked>, StoreError> {
        let pool = pool.to_owned();
        self.blocking(move |conn, _| {
            Ok(conn
                .prepare_cached(
                    "SELECT a.name, a.bot, r.rating, r.deviation, r.volatility, r.games
                     FROM ratings r JOIN accounts a ON a.key = r.account
                     WHERE r.pool = ?1 AND r.deviation <= ?2
                     ORDER BY r.rating DESC, a.key LIMIT ?3",
                )?
                .query_map(
                    params![pool, PROVISIONAL_DEVIATION, usize_param(limit)],
                    |r| {
                        Ok(Ranked {
                            name: r.get(0)?,
                            bot: r.get(1)?,
                            rating: rating_of(r, 2)?,
                        })
                    },
                )?
                .collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn rate(
        &self,
        id: &str,
        pool: &str,
        score: Score,
        cap: PairCap,
    ) -> Result<Option<RatingChanges>, StoreError> {
        let (id, pool) = (id.to_owned(), pool.to_owned());
        self.blocking(move |conn, _| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let changes = rate(&tx, &id, &pool, score, cap)?;
            tx.commit()?;
            Ok(changes)
        })
        .await
    }
}
