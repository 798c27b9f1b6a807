//! Challenges between accounts and each account's events, written once for both
//! databases. A new event is announced to the other instances as a change of
//! `@<account>`, so that the account's event streams there look for it.

use super::sql::{Row, values};
use super::{Store, StoreError};

/// An open challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredChallenge {
    /// Its id.
    pub id: String,
    /// The challenging account's key.
    pub challenger: String,
    /// Its username as chosen.
    pub challenger_name: String,
    /// The challenged account's key.
    pub challenged: String,
    /// Its username as chosen.
    pub challenged_name: String,
    /// The new game asked for: a new-game request's JSON, without an opponent.
    pub request: String,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When it expires unanswered.
    pub expires_ms: i64,
}

/// Which side of a challenge an account is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeRole {
    /// The account that made it.
    Challenger,
    /// The account it is to.
    Challenged,
}

impl ChallengeRole {
    fn column(self) -> &'static str {
        match self {
            ChallengeRole::Challenger => "challenger",
            ChallengeRole::Challenged => "challenged",
        }
    }
}

/// One of an account's events: its id in the account's stream, and its JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountEvent {
    /// Increasing: a later event has a higher id.
    pub id: i64,
    /// The event, a JSON object.
    pub json: String,
}

/// The columns [`challenge_of`] reads.
const CHALLENGE_COLUMNS: &str = "id, challenger, challenger_name, challenged, challenged_name, \
                                 request, created, expires";

fn challenge_of(mut r: Row) -> Result<StoredChallenge, StoreError> {
    Ok(StoredChallenge {
        id: r.get(0)?,
        challenger: r.get(1)?,
        challenger_name: r.get(2)?,
        challenged: r.get(3)?,
        challenged_name: r.get(4)?,
        request: r.get(5)?,
        created_ms: r.get(6)?,
        expires_ms: r.get(7)?,
    })
}

impl Store {
    /// Stores an open challenge, unless its challenger has `max_open` open already
    /// (`false`); the challenger's expired challenges are deleted first.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn add_challenge(
        &self,
        ch: &StoredChallenge,
        max_open: usize,
    ) -> Result<bool, StoreError> {
        let ch = ch.clone();
        self.run(move |c| {
            Box::pin(async move {
                c.begin().await?;
                c.execute(
                    "DELETE FROM challenges WHERE challenger = $1 AND expires <= $2",
                    &values![&ch.challenger, ch.created_ms],
                )
                .await?;
                let open = c
                    .column::<i64>(
                        "SELECT count(*) FROM challenges WHERE challenger = $1",
                        &values![&ch.challenger],
                    )
                    .await?;
                if open.first().copied().unwrap_or(0) >= i64::try_from(max_open).unwrap_or(0) {
                    return Ok(false);
                }
                c.execute(
                    &format!(
                        "INSERT INTO challenges ({CHALLENGE_COLUMNS})
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                    ),
                    &values![
                        &ch.id,
                        &ch.challenger,
                        &ch.challenger_name,
                        &ch.challenged,
                        &ch.challenged_name,
                        &ch.request,
                        ch.created_ms,
                        ch.expires_ms
                    ],
                )
                .await?;
                c.commit().await?;
                Ok(true)
            })
        })
        .await
    }

    /// Deletes the challenges unanswered at their expiry (before `now_ms`); those deleted.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn expire_challenges(&self, now_ms: i64) -> Result<Vec<StoredChallenge>, StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                let rows = c
                    .query(
                        &format!(
                            "DELETE FROM challenges WHERE expires <= $1
                             RETURNING {CHALLENGE_COLUMNS}"
                        ),
                        &values![now_ms],
                    )
                    .await?;
                rows.into_iter().map(challenge_of).collect()
            })
        })
        .await
    }

    /// The open challenges `account` made or was sent, unexpired at `now_ms`, the
    /// newest first.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn challenges_of(
        &self,
        account: &str,
        now_ms: i64,
    ) -> Result<Vec<StoredChallenge>, StoreError> {
        let account = account.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let rows = c
                    .query(
                        &format!(
                            "SELECT {CHALLENGE_COLUMNS} FROM challenges
                             WHERE (challenger = $1 OR challenged = $1) AND expires > $2
                             ORDER BY created DESC, id"
                        ),
                        &values![account, now_ms],
                    )
                    .await?;
                rows.into_iter().map(challenge_of).collect()
            })
        })
        .await
    }

    /// Takes (deletes) challenge `id` for `account` on the side `role`, if it is
    /// open at `now_ms`: the one request that answers or withdraws it gets it.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn take_challenge(
        &self,
        id: &str,
        account: &str,
        role: ChallengeRole,
        now_ms: i64,
    ) -> Result<Option<StoredChallenge>, StoreError> {
        let (id, account) = (id.to_owned(), account.to_owned());
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "DELETE FROM challenges WHERE id = $1 AND {} = $2 AND expires > $3
                     RETURNING {CHALLENGE_COLUMNS}",
                    role.column()
                );
                let row = c.query_opt(&sql, &values![id, account, now_ms]).await?;
                row.map(challenge_of).transpose()
            })
        })
        .await
    }

    /// Adds an event to `account`'s stream and announces it; its id. Events older
    /// than `keep_ms` before `now_ms` are let go of.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn add_event(
        &self,
        account: &str,
        json: &str,
        now_ms: i64,
        keep_ms: i64,
    ) -> Result<i64, StoreError> {
        let (account, json) = (account.to_owned(), json.to_owned());
        self.run(move |c| {
            Box::pin(async move {
                c.execute(
                    "DELETE FROM account_events WHERE account = $1 AND created < $2",
                    &values![&account, now_ms.saturating_sub(keep_ms)],
                )
                .await?;
                let ids = c
                    .column::<i64>(
                        "INSERT INTO account_events (account, created, event)
                         VALUES ($1, $2, $3) RETURNING id",
                        &values![&account, now_ms, json],
                    )
                    .await?;
                c.announce(&format!("@{account}")).await;
                ids.into_iter()
                    .next()
                    .ok_or_else(|| StoreError::Corrupt("an event without an id".into()))
            })
        })
        .await
    }

    /// `account`'s events after event `after`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn events_after(
        &self,
        account: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError> {
        let account = account.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let rows = c
                    .query(
                        "SELECT id, event FROM account_events WHERE account = $1 AND id > $2
                         ORDER BY id LIMIT $3",
                        &values![account, after, limit],
                    )
                    .await?;
                rows.into_iter()
                    .map(|mut r| {
                        Ok(AccountEvent {
                            id: r.get(0)?,
                            json: r.get(1)?,
                        })
                    })
                    .collect()
            })
        })
        .await
    }

    /// The id of `account`'s latest event (0 for none): a new stream sends the
    /// events after it.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn last_event(&self, account: &str) -> Result<i64, StoreError> {
        let account = account.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let ids = c
                    .column::<Option<i64>>(
                        "SELECT max(id) FROM account_events WHERE account = $1",
                        &values![account],
                    )
                    .await?;
                Ok(ids.into_iter().next().flatten().unwrap_or(0))
            })
        })
        .await
    }
}
