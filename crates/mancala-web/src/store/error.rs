//! Why the store failed, and which failures mean the database is away for a moment.

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL said no, or the connection failed.
    #[error("database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// No connection could be taken from the pool.
    #[error("database connection pool: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// A schema migration failed.
    #[error("database migration: {0}")]
    Migration(#[from] refinery::Error),
    /// `--db` names no database this server can use.
    #[error("{0}")]
    Location(String),
    /// A stored row could not be understood.
    #[error("database holds a bad row: {0}")]
    Corrupt(String),
    /// A blocking database task panicked.
    #[error("database task failed: {0}")]
    Task(String),
}

impl StoreError {
    /// Whether the database cannot be reached at the moment (a connection refused,
    /// lost or not to be had from the pool, a server shutting down or starting, a
    /// database locked), as opposed to a request it refused or a fault: the request
    /// may be made again in a moment, and nothing of it was stored.
    ///
    /// ```
    /// use mancala_web::StoreError;
    /// assert!(!StoreError::Corrupt("a bad row".into()).is_unavailable());
    /// ```
    #[must_use]
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Pool(deadpool_postgres::PoolError::Backend(e))
            | StoreError::Postgres(e) => postgres_unavailable(e),
            StoreError::Pool(_) => true,
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ),
            _ => false,
        }
    }

    /// Whether a statement broke a constraint: a key already stored (a ply played, a
    /// name taken).
    pub(crate) fn is_constraint_violation(&self) -> bool {
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::ConstraintViolation
            }
            StoreError::Postgres(e) => {
                e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            _ => false,
        }
    }
}

/// A PostgreSQL error that says the server is not there: the connection is closed or
/// failed (no error from the server itself), or the server is shutting down or not
/// yet accepting connections (SQLSTATE class 57P: operator intervention; 08:
/// connection exception).
fn postgres_unavailable(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        Some(code) => {
            let code = code.code();
            code.starts_with("57P") || code.starts_with("08")
        }
        None => e.as_db_error().is_none(),
    }
}
