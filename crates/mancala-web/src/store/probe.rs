//! What the operator's endpoints ask of the database, apart from the games: whether it
//! answers with the schema this server needs (`/readyz`), how many games are being
//! played and how busy its connections are (`/metrics`).
//!
//! A [`Probe`] holds a handle on the store's connections (the SQLite connection's
//! queue, or the PostgreSQL pool), so its questions wait in line with the requests:
//! a database too busy to answer them is too busy for the players too.

use deadpool_postgres::Pool;

use super::StoreError;

/// Questions about the database behind a store (see [`super::Store::probe`]).
#[derive(Clone)]
pub struct Probe {
    backend: Backend,
    /// The latest migration this server knows.
    known: i64,
}

#[derive(Clone)]
enum Backend {
    Sqlite(tokio_rusqlite::Connection),
    Postgres(Pool),
}

/// The schema of the database against what this server needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schema {
    /// The latest migration applied to the database (`None`: none is recorded).
    pub applied: Option<i64>,
    /// The latest migration this server knows.
    pub known: i64,
}

impl Schema {
    /// Whether the database has every migration this server knows. A later one is
    /// fine: migrations only add, and during a rolling upgrade the first new
    /// instance migrates while the old ones keep serving (docs/deploy.md).
    #[must_use]
    pub fn is_current(&self) -> bool {
        self.applied.is_some_and(|v| v >= self.known)
    }
}

/// How the PostgreSQL pool's connections are used now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolUse {
    /// The most connections the pool opens (`--db-connections`).
    pub max: usize,
    /// Connections open now.
    pub open: usize,
    /// Open connections idle in the pool.
    pub idle: usize,
    /// Requests waiting for a connection.
    pub waiting: usize,
}

/// The latest version among a backend's migrations (`V<n>__name`).
fn latest(migrations: &[(&str, &str)]) -> i64 {
    super::migrations(migrations)
        .ok()
        .and_then(|m| m.iter().map(|m| i64::from(m.version())).max())
        .unwrap_or(0)
}

/// The games with both seats taken that are not over (as [`super::Listing::Playing`],
/// public or not).
const IN_PROGRESS: &str = "SELECT count(*) FROM games
                           WHERE finished IS NULL AND (opponent <> 'human' OR token2 IS NOT NULL)";

impl Probe {
    pub(super) fn sqlite(conn: tokio_rusqlite::Connection, migrations: &[(&str, &str)]) -> Probe {
        Probe {
            backend: Backend::Sqlite(conn),
            known: latest(migrations),
        }
    }

    pub(super) fn postgres(pool: Pool, migrations: &[(&str, &str)]) -> Probe {
        Probe {
            backend: Backend::Postgres(pool),
            known: latest(migrations),
        }
    }

    /// Which backend this is, for logs and metrics: `sqlite` or `postgres`.
    #[must_use]
    pub fn backend(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    /// The database's schema version: one small query.
    ///
    /// # Errors
    /// When the database does not answer.
    pub async fn schema(&self) -> Result<Schema, StoreError> {
        const SQL: &str = "SELECT MAX(version) FROM refinery_schema_history";
        let applied = match &self.backend {
            Backend::Sqlite(conn) => conn
                .call(|c| Ok(c.query_row(SQL, [], |r| r.get::<_, Option<i64>>(0))))
                .await
                .map_err(|e| StoreError::Task(e.to_string()))??,
            Backend::Postgres(pool) => {
                let client = pool.get().await?;
                let stmt = client
                    .prepare_cached("SELECT MAX(version)::int8 FROM refinery_schema_history")
                    .await?;
                client.query_one(&stmt, &[]).await?.get::<_, Option<i64>>(0)
            }
        };
        Ok(Schema {
            applied,
            known: self.known,
        })
    }

    /// Games being played now, in the whole database (the same on every instance).
    ///
    /// # Errors
    /// When the database does not answer.
    pub async fn games_in_progress(&self) -> Result<u64, StoreError> {
        let n = match &self.backend {
            Backend::Sqlite(conn) => conn
                .call(|c| Ok(c.query_row(IN_PROGRESS, [], |r| r.get::<_, i64>(0))))
                .await
                .map_err(|e| StoreError::Task(e.to_string()))??,
            Backend::Postgres(pool) => {
                let client = pool.get().await?;
                let stmt = client.prepare_cached(IN_PROGRESS).await?;
                client.query_one(&stmt, &[]).await?.get::<_, i64>(0)
            }
        };
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The PostgreSQL pool's use now; `None` for SQLite (one connection, whose queue
    /// shows in how long the probe's own queries wait).
    #[must_use]
    pub fn pool(&self) -> Option<PoolUse> {
        match &self.backend {
            Backend::Sqlite(_) => None,
            Backend::Postgres(pool) => {
                let s = pool.status();
                Some(PoolUse {
                    max: s.max_size,
                    open: s.size,
                    idle: s.available,
                    waiting: s.waiting,
                })
            }
        }
    }
}
