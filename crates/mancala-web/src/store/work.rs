//! Owed work and lists, written once for both databases: computer turns and timers
//! (held by exactly one instance), clocks that fell, how far games have come, the
//! public listings, and analyses.

use std::collections::HashMap;
use std::time::Duration;

use super::sql::values;
use super::{Listing, Progress, Store, StoreError, StoredAnalysis};

impl Store {
    /// Takes one computer turn that nobody holds (or whose holder's lease lapsed) for
    /// `lease`; its game's id, or `None` when there is none.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_computer_turn(&self, lease: Duration) -> Result<Option<String>, StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                let d = c.dialect();
                let sql = format!(
                    "UPDATE computer_turns SET holder = $1, expires = {}
                     WHERE game = (SELECT game FROM computer_turns WHERE expires < {}
                                   ORDER BY expires LIMIT 1{})
                     RETURNING game",
                    d.later("$2"),
                    d.now(),
                    d.skip_locked()
                );
                let instance = c.instance().to_owned();
                let ids = c
                    .column(&sql, &values![instance, lease.as_secs_f64()])
                    .await?;
                Ok(ids.into_iter().next())
            })
        })
        .await
    }

    /// Extends this instance's hold on game `id`'s computer turn; `false` when it no
    /// longer holds it.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn renew_computer_turn(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "UPDATE computer_turns SET expires = {} WHERE game = $1 AND holder = $2",
                    c.dialect().later("$3")
                );
                let instance = c.instance().to_owned();
                let params = values![id, instance, lease.as_secs_f64()];
                Ok(c.execute(&sql, &params).await? == 1)
            })
        })
        .await
    }

    /// Finishes a computer turn this instance holds without a move (the computer is
    /// not to move after all).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn finish_computer_turn(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let instance = c.instance().to_owned();
                c.execute(
                    "DELETE FROM computer_turns WHERE game = $1 AND holder = $2",
                    &values![id, instance],
                )
                .await?;
                Ok(())
            })
        })
        .await
    }

    /// Lets go of every turn this instance holds, so another may take them at once
    /// (on shutdown).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn release_computer_turns(&self) -> Result<(), StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "UPDATE computer_turns SET holder = NULL, expires = {} WHERE holder = $1",
                    c.dialect().long_ago()
                );
                let instance = c.instance().to_owned();
                c.execute(&sql, &values![instance]).await?;
                Ok(())
            })
        })
        .await
    }

    /// Whether periodic job `timer` is due now and this instance runs it: `true` for
    /// exactly one caller per `every`, however many instances ask.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_tick(&self, timer: &str, every: Duration) -> Result<bool, StoreError> {
        let timer = timer.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let d = c.dialect();
                let sql = format!(
                    "INSERT INTO timers (name, due) VALUES ($1, {})
                     ON CONFLICT (name) DO UPDATE SET due = excluded.due
                     WHERE timers.due <= {}",
                    d.later("$2"),
                    d.now()
                );
                let params = values![timer, every.as_secs_f64()];
                Ok(c.execute(&sql, &params).await? == 1)
            })
        })
        .await
    }

    /// The games whose running clock has fallen by `now_ms` (at most `limit`).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn overdue(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                c.column(
                    "SELECT id FROM games WHERE deadline <= $1 ORDER BY deadline LIMIT $2",
                    &values![now_ms, limit],
                )
                .await
            })
        })
        .await
    }

    /// How far each of these games has come, in their order (a game no longer stored
    /// has [`Progress::EXPIRED`]): one cheap question for many games, to catch a change
    /// whose announcement was lost.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn progress(&self, ids: &[String]) -> Result<Vec<(String, Progress)>, StoreError> {
        let ids = ids.to_vec();
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "SELECT g.id, (SELECT count(*) FROM moves m WHERE m.game = g.id),
                            g.token2 IS NOT NULL OR g.opponent <> 'human',
                            g.rematch IS NOT NULL, g.version
                     FROM games g WHERE g.id {}",
                    c.dialect().any_of("$1")
                );
                let mut found = HashMap::new();
                for mut r in c.query(&sql, &values![ids.clone()]).await? {
                    let progress = Progress {
                        expired: false,
                        plies: r.get(1)?,
                        seat_2_taken: r.get(2)?,
                        rematch: r.get(3)?,
                        version: r.get(4)?,
                    };
                    found.insert(r.get::<String>(0)?, progress);
                }
                Ok(ids
                    .into_iter()
                    .map(|id| {
                        let progress = found.get(&id).copied().unwrap_or(Progress::EXPIRED);
                        (id, progress)
                    })
                    .collect())
            })
        })
        .await
    }

    /// Lists game `id` publicly: in the lobby while it waits for an opponent, among the
    /// games to watch while it is played.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn list_publicly(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                c.execute(
                    "INSERT INTO listings (game) VALUES ($1) ON CONFLICT DO NOTHING",
                    &values![id],
                )
                .await?;
                Ok(())
            })
        })
        .await
    }

    /// Whether game `id` is listed publicly.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn is_listed(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql = "SELECT 1 FROM listings WHERE game = $1";
                Ok(c.query_opt(sql, &values![id]).await?.is_some())
            })
        })
        .await
    }

    /// The ids of up to `limit` public games of a [`Listing`], the most recently
    /// active first (expired games not yet deleted among them).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn listed(&self, listing: Listing, limit: usize) -> Result<Vec<String>, StoreError> {
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "SELECT g.id FROM listings l JOIN games g ON g.id = l.game
                     WHERE {} ORDER BY g.activity DESC LIMIT $1",
                    listing.condition()
                );
                c.column(&sql, &values![limit]).await
            })
        })
        .await
    }

    /// Game `id`'s stored analysis, if one is stored.
    ///
    /// # Errors
    /// When the database fails or holds a row it cannot read.
    pub async fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql =
                    "SELECT plies, document FROM analyses WHERE game = $1 AND document IS NOT NULL";
                let Some(mut r) = c.query_opt(sql, &values![&id]).await? else {
                    return Ok(None);
                };
                let plies = r
                    .get(0)
                    .map_err(|e| StoreError::Corrupt(format!("analysis of {id}: {e}")))?;
                Ok(Some(StoredAnalysis {
                    plies,
                    document: r.get(1)?,
                }))
            })
        })
        .await
    }

    /// Takes the job of analysing game `id` (`plies` moves) for `lease`: `true` unless
    /// an analysis of those moves is stored, or another holder's lease has not lapsed
    /// (then it computes it).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_analysis(
        &self,
        id: &str,
        plies: usize,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let d = c.dialect();
                // A stored document expires long ago: one of other moves is replaced.
                let sql = format!(
                    "INSERT INTO analyses (game, plies, document, holder, expires)
                     VALUES ($1, $2, NULL, $3, {})
                     ON CONFLICT (game) DO UPDATE SET plies = excluded.plies, document = NULL,
                         holder = excluded.holder, expires = excluded.expires
                     WHERE analyses.expires < {}
                       AND (analyses.document IS NULL OR analyses.plies <> excluded.plies)",
                    d.later("$4"),
                    d.now()
                );
                let instance = c.instance().to_owned();
                let params = values![id, plies, instance, lease.as_secs_f64()];
                Ok(c.execute(&sql, &params).await? == 1)
            })
        })
        .await
    }

    /// Extends this instance's hold on game `id`'s analysis job; `false` when it no
    /// longer holds it.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn renew_analysis(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "UPDATE analyses SET expires = {}
                     WHERE game = $1 AND holder = $2 AND document IS NULL",
                    c.dialect().later("$3")
                );
                let instance = c.instance().to_owned();
                let params = values![id, instance, lease.as_secs_f64()];
                Ok(c.execute(&sql, &params).await? == 1)
            })
        })
        .await
    }

    /// Stores the analysis of a job this instance holds, ending the job; `false` when
    /// it no longer holds it (nothing is stored).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn store_analysis(
        &self,
        id: &str,
        analysis: &StoredAnalysis,
    ) -> Result<bool, StoreError> {
        let (id, analysis) = (id.to_owned(), analysis.clone());
        self.run(move |c| {
            Box::pin(async move {
                let sql = format!(
                    "UPDATE analyses SET plies = $3, document = $4, holder = NULL, expires = {}
                     WHERE game = $1 AND holder = $2 AND document IS NULL",
                    c.dialect().long_ago()
                );
                let instance = c.instance().to_owned();
                let params = values![id, instance, analysis.plies, analysis.document];
                Ok(c.execute(&sql, &params).await? == 1)
            })
        })
        .await
    }

    /// Gives up a job this instance holds without a document (it failed or stopped),
    /// so that the next request starts it again at once.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn release_analysis(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.run(move |c| {
            Box::pin(async move {
                let instance = c.instance().to_owned();
                c.execute(
                    "DELETE FROM analyses WHERE game = $1 AND holder = $2 AND document IS NULL",
                    &values![id, instance],
                )
                .await?;
                Ok(())
            })
        })
        .await
    }
}
