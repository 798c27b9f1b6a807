//! [`AccountStore`] on PostgreSQL: each operation one statement or one transaction;
//! a change of a game is announced to the other instances, as every other is.

use deadpool_postgres::GenericClient;

use super::accounts::{
    Account, AccountStore, CredentialInfo, CredentialKind, DAY_MS, LAST_USED_GRAIN_MS, Page,
    PairCap, Ranked, changes_json,
};
use super::{PostgresStore, StoreError};
use crate::ratings::{PROVISIONAL_DEVIATION, Rating, RatingChanges, Score, rate_game};

const ACCOUNT_COLUMNS: &str = "key, name, password, bot, created";

fn account_of(r: &tokio_postgres::Row) -> Result<Account, StoreError> {
    Ok(Account {
        key: r.try_get(0)?,
        name: r.try_get(1)?,
        password_hash: r.try_get(2)?,
        bot: r.try_get(3)?,
        created_ms: r.try_get(4)?,
    })
}

fn rating_of(r: &tokio_postgres::Row, first: usize) -> Result<Rating, StoreError> {
    let games: i32 = r.try_get(first + 3)?;
    Ok(Rating {
        rating: r.try_get(first)?,
        rd: r.try_get(first + 1)?,
        volatility: r.try_get(first + 2)?,
        games: u32::try_from(games).map_err(|_| StoreError::Corrupt("rated games".into()))?,
    })
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The rating of `account` in `pool`, or a new player's; the row stays locked until
/// the transaction ends, so that two games ending at once are rated one after the
/// other.
async fn rating_in(
    tx: &impl GenericClient,
    account: &str,
    pool: &str,
) -> Result<Rating, StoreError> {
    let row = tx
        .query_opt(
            "SELECT rating, deviation, volatility, games FROM ratings
             WHERE account = $1 AND pool = $2 FOR UPDATE",
            &[&account, &pool],
        )
        .await?;
    row.map_or(Ok(Rating::INITIAL), |r| rating_of(&r, 0))
}

async fn put_rating(
    tx: &impl GenericClient,
    account: &str,
    pool: &str,
    r: &Rating,
) -> Result<(), StoreError> {
    let games = i32::try_from(r.games).unwrap_or(i32::MAX);
    tx.execute(
        "INSERT INTO ratings (account, pool, rating, deviation, volatility, games)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account, pool) DO UPDATE SET rating = excluded.rating,
           deviation = excluded.deviation, volatility = excluded.volatility,
           games = excluded.games",
        &[&account, &pool, &r.rating, &r.rd, &r.volatility, &games],
    )
    .await?;
    Ok(())
}

/// How many rated games between `one` and `two` counted after `since_ms`. The pair is
/// locked until the transaction ends first, so that two of its games ending at once
/// are counted one after the other.
async fn counted_between(
    tx: &impl GenericClient,
    one: &str,
    two: &str,
    since_ms: i64,
) -> Result<i64, StoreError> {
    let pair = if one <= two {
        format!("{one} {two}")
    } else {
        format!("{two} {one}")
    };
    tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&pair])
        .await?;
    let row = tx
        .query_one(
            "SELECT count(*) FROM games WHERE rated_at > $3
             AND ((account1 = $1 AND account2 = $2) OR (account1 = $2 AND account2 = $1))",
            &[&one, &two, &since_ms],
        )
        .await?;
    Ok(row.try_get(0)?)
}

fn credential_info(r: &tokio_postgres::Row) -> Result<CredentialInfo, StoreError> {
    let token: Vec<u8> = r.try_get(0)?;
    let kind: String = r.try_get(1)?;
    Ok(CredentialInfo {
        token_hash: token
            .try_into()
            .map_err(|_| StoreError::Corrupt("a credential's hash".into()))?,
        kind: CredentialKind::from_name(&kind)?,
        created_ms: r.try_get(2)?,
        last_used_ms: r.try_get(3)?,
        expires_ms: r.try_get(4)?,
    })
}

/// [`AccountStore::rate`], inside the caller's transaction.
async fn rate(
    tx: &impl GenericClient,
    id: &str,
    pool: &str,
    score: Score,
    cap: PairCap,
) -> Result<Option<RatingChanges>, StoreError> {
    let Some(row) = tx
        .query_opt(
            "SELECT account1, account2, rated, rating FROM games WHERE id = $1 FOR UPDATE",
            &[&id],
        )
        .await?
    else {
        return Ok(None);
    };
    let seats: (Option<String>, Option<String>, bool, Option<String>) = (
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
    );
    let (Some(one), Some(two), true, None) = seats else {
        return Ok(None);
    };
    // Always in the same order, so that two transactions cannot lock them crosswise.
    let (first, second) = if one <= two {
        (&one, &two)
    } else {
        (&two, &one)
    };
    let mut locked = [
        rating_in(tx, first, pool).await?,
        rating_in(tx, second, pool).await?,
    ];
    if first != &one {
        locked.swap(0, 1);
    }
    let before = locked;
    let counted = counted_between(tx, &one, &two, cap.now_ms - DAY_MS).await?;
    let changes = if counted < i64::from(cap.per_day) {
        let after = rate_game(before, score);
        put_rating(tx, &one, pool, &after[0]).await?;
        put_rating(tx, &two, pool, &after[1]).await?;
        RatingChanges::new(pool, before, after)
    } else {
        RatingChanges::uncounted(pool, before)
    };
    let json = changes_json(&changes)?;
    let rated_at = changes.counted.then_some(cap.now_ms);
    tx.execute(
        "UPDATE games SET rating = $2, rated_at = $3, version = version + 1 WHERE id = $1",
        &[&id, &json, &rated_at],
    )
    .await?;
    Ok(Some(changes))
}

impl AccountStore for PostgresStore {
    async fn create_account(&self, a: &Account) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "INSERT INTO accounts (key, name, password, bot, created)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING",
                &[&a.key, &a.name, &a.password_hash, &a.bot, &a.created_ms],
            )
            .await?;
        Ok(n == 1)
    }

    async fn account(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE key = $1"
            ))
            .await?;
        client
            .query_opt(&stmt, &[&key])
            .await?
            .map(|r| account_of(&r))
            .transpose()
    }

    async fn make_bot(&self, key: &str) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute("UPDATE accounts SET bot = true WHERE key = $1", &[&key])
            .await?;
        Ok(n == 1)
    }

    async fn set_password(&self, key: &str, password_hash: &str) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE accounts SET password = $2 WHERE key = $1",
                &[&key, &password_hash],
            )
            .await?;
        Ok(n == 1)
    }

    async fn add_credential(
        &self,
        token_hash: [u8; 32],
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
        expires_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO credentials (token, account, kind, expires, created, last_used)
                 VALUES ($1, $2, $3, $4, $5, $5)",
                &[
                    &token_hash.as_slice(),
                    &account,
                    &kind.as_str(),
                    &expires_ms,
                    &now_ms,
                ],
            )
            .await?;
        Ok(())
    }

    async fn credentials_of(
        &self,
        account: &str,
        kind: CredentialKind,
        now_ms: i64,
    ) -> Result<Vec<CredentialInfo>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT token, kind, created, last_used, expires FROM credentials
                 WHERE account = $1 AND kind = $2 AND (expires IS NULL OR expires > $3)
                 ORDER BY created DESC NULLS LAST, token",
                &[&account, &kind.as_str(), &now_ms],
            )
            .await?;
        rows.iter().map(credential_info).collect()
    }

    async fn remove_credentials(
        &self,
        account: &str,
        kind: CredentialKind,
        keep: Option<[u8; 32]>,
    ) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let keep = keep.map(|k| k.to_vec()).unwrap_or_default();
        Ok(client
            .execute(
                "DELETE FROM credentials WHERE account = $1 AND kind = $2 AND token <> $3",
                &[&account, &kind.as_str(), &keep],
            )
            .await?)
    }

    async fn credential(
        &self,
        token_hash: [u8; 32],
        now_ms: i64,
    ) -> Result<Option<(Account, CredentialKind)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT a.key, a.name, a.password, a.bot, a.created, c.kind
                 FROM credentials c JOIN accounts a ON a.key = c.account
                 WHERE c.token = $1 AND (c.expires IS NULL OR c.expires > $2)",
            )
            .await?;
        let Some(row) = client
            .query_opt(&stmt, &[&token_hash.as_slice(), &now_ms])
            .await?
        else {
            return Ok(None);
        };
        let kind: String = row.try_get(5)?;
        client
            .execute(
                "UPDATE credentials SET last_used = $2
                 WHERE token = $1 AND (last_used IS NULL OR last_used < $3)",
                &[
                    &token_hash.as_slice(),
                    &now_ms,
                    &(now_ms - LAST_USED_GRAIN_MS),
                ],
            )
            .await?;
        Ok(Some((account_of(&row)?, CredentialKind::from_name(&kind)?)))
    }

    async fn remove_credential(&self, token_hash: [u8; 32]) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "DELETE FROM credentials WHERE token = $1",
                &[&token_hash.as_slice()],
            )
            .await?;
        Ok(())
    }

    async fn seat_account(&self, id: &str, seat: u8, account: &str) -> Result<bool, StoreError> {
        let client = self.client().await?;
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
        let n = client.execute(sql, &[&id, &account]).await?;
        if n == 1 {
            self.announce(&client, id).await;
        }
        Ok(n == 1)
    }

    async fn games_of(&self, account: &str, page: Page) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT id FROM games WHERE account1 = $1 OR account2 = $1
                 ORDER BY activity DESC, id LIMIT $2 OFFSET $3",
                &[&account, &count(page.limit), &count(page.offset)],
            )
            .await?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }

    async fn ratings(&self, account: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT pool, rating, deviation, volatility, games FROM ratings
                 WHERE account = $1 ORDER BY pool",
                &[&account],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, rating_of(r, 1)?)))
            .collect()
    }

    async fn leaderboard(&self, pool: &str, limit: usize) -> Result<Vec<Ranked>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT a.name, a.bot, r.rating, r.deviation, r.volatility, r.games
                 FROM ratings r JOIN accounts a ON a.key = r.account
                 WHERE r.pool = $1 AND r.deviation <= $2
                 ORDER BY r.rating DESC, a.key LIMIT $3",
                &[&pool, &PROVISIONAL_DEVIATION, &count(limit)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Ranked {
                    name: r.try_get(0)?,
                    bot: r.try_get(1)?,
                    rating: rating_of(r, 2)?,
                })
            })
            .collect()
    }

    async fn rate(
        &self,
        id: &str,
        pool: &str,
        score: Score,
        cap: PairCap,
    ) -> Result<Option<RatingChanges>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let changes = rate(&tx, id, pool, score, cap).await?;
        tx.commit().await?;
        if changes.is_some() {
            self.announce(&client, id).await;
        }
        Ok(changes)
    }
}
