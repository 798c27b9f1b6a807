//! SQLite (rusqlite): the embedded default, for one server instance.
//!
//! One connection, owned by a thread of its own (`tokio_rusqlite`): every operation is
//! short, and the requests queue to that thread. Handing each operation to tokio's
//! blocking pool instead woke an idle pool thread per operation, and the pool's
//! threads then fought over the one connection: on the 2-core host that hand-over
//! cost more CPU than the queries (docs/speed.md). The database runs in WAL mode with `synchronous=NORMAL`, which keeps every
//! committed transaction across a crash or `kill -9` of the server (only an
//! operating-system crash or power loss could lose the last ones).
//!
//! SQLite serves one instance: on opening, every computer turn held by an earlier run
//! is let go, so a restart resumes them at once, and every analysis job an earlier run
//! claimed is dropped (the next request starts it again).
//!
//! Opening migrates any database an earlier release wrote: the releases before
//! migrations (V1 finds their tables in place), and the release of the web hardening,
//! which added V3's columns by itself (see [`migrate`]).

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use futures_util::future::BoxFuture;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ToSql};
use tokio::sync::mpsc;

use super::checkpoint::{self, Checkpointer};
use super::sql::{Conn, Database, Dialect, Job, Row, Value};
use super::{Change, Probe, StoreError};

/// The migrations, in order (`migrations/sqlite`).
const MIGRATIONS: [(&str, &str); 10] = super::migrations_of!("sqlite");

/// The version of the migration that adds the columns the hardening release added
/// by itself.
const V3: i32 = 3;

/// How V3 adds each of its columns to `games`, one per line.
const ADD_COLUMN: &str = "ALTER TABLE games ADD COLUMN ";

/// The SQLite database: one connection on a thread of its own.
pub(super) struct SqliteDb {
    /// The log's checkpoints, for a database in a file; stops with the store.
    _checkpointer: Option<Checkpointer>,
    conn: tokio_rusqlite::Connection,
    instance: Arc<str>,
}

impl SqliteDb {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub(super) fn open(path: &Path) -> Result<SqliteDb, StoreError> {
        SqliteDb::setup(Connection::open(path)?)
    }

    /// A private in-memory database.
    pub(super) fn in_memory() -> Result<SqliteDb, StoreError> {
        SqliteDb::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<SqliteDb, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Checkpoints run on a thread of their own (`checkpoint`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Every statement is compiled once and kept: compiling one took longer than
        // running it.
        conn.set_prepared_statement_cache_capacity(64);
        conn.busy_timeout(Duration::from_secs(5))?;
        migrate(&mut conn)?;
        // One instance per file: whatever an earlier run held is free now.
        conn.execute(
            "UPDATE computer_turns SET holder = NULL, expires = 0 WHERE holder IS NOT NULL",
            [],
        )?;
        conn.execute("DELETE FROM analyses WHERE document IS NULL", [])?;
        let checkpointer = match checkpoint::file_of(&conn) {
            Some(path) => Some(Checkpointer::start(&path)?),
            None => None,
        };
        Ok(SqliteDb {
            _checkpointer: checkpointer,
            conn: conn.into(),
            instance: super::new_instance_name().into(),
        })
    }
}

impl Database for SqliteDb {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn sole_writer(&self) -> bool {
        true
    }

    fn run(&self, job: Job) -> BoxFuture<'_, Result<Box<dyn std::any::Any + Send>, StoreError>> {
        let instance = Arc::clone(&self.instance);
        Box::pin(async move {
            let outcome = self
                .conn
                .call(move |conn| {
                    // A panic cannot leave SQLite inconsistent (every statement or
                    // transaction is atomic, and one left open is rolled back below),
                    // so the connection's thread goes on serving the other requests;
                    // this one fails.
                    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        run_ready(job(&mut SqliteConn {
                            conn,
                            instance: &instance,
                        }))
                    }));
                    if !conn.is_autocommit() {
                        let _ = conn.execute_batch("ROLLBACK");
                    }
                    Ok(result)
                })
                .await;
            match outcome {
                Ok(Ok(result)) => result,
                Ok(Err(_)) => Err(StoreError::Task("a database operation panicked".into())),
                Err(e) => Err(StoreError::Task(e.to_string())),
            }
        })
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        None
    }

    fn probe(&self) -> Probe {
        Probe::sqlite(self.conn.clone(), &MIGRATIONS)
    }
}

/// Drives `work` to its end at once: every statement of a [`SqliteConn`] is done when
/// it returns, so the work never waits.
fn run_ready<T>(mut work: BoxFuture<'_, Result<T, StoreError>>) -> Result<T, StoreError> {
    match work.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(result) => result,
        Poll::Pending => Err(StoreError::Task(
            "a database operation waited on the SQLite connection's thread".into(),
        )),
    }
}

/// The connection, lent to one piece of work on its thread.
struct SqliteConn<'a> {
    conn: &'a mut Connection,
    instance: &'a str,
}

/// `sql` with PostgreSQL's placeholders `$n` written as SQLite's `?n` (SQLite reads
/// `$n` as a named parameter, numbered in order of appearance rather than by `n`).
fn placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(ch);
        }
    }
    out
}

/// A [`Value`] as SQLite takes it.
struct Param<'a>(&'a Value);

impl ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self.0 {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(n) => ToSqlOutput::Borrowed(ValueRef::Integer(*n)),
            Value::Real(x) => ToSqlOutput::Borrowed(ValueRef::Real(*x)),
            Value::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Value::Bytes(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
            Value::Bool(b) => ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(*b))),
            // A list is read by `json_each` (Dialect::any_of).
            Value::Texts(list) => ToSqlOutput::from(
                serde_json::to_string(list)
                    .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
            ),
            Value::Ints(list) => ToSqlOutput::from(
                serde_json::to_string(list)
                    .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
            ),
        })
    }
}

/// A column of a row as a [`Value`].
fn value_of(v: ValueRef<'_>) -> Result<Value, StoreError> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Int(n),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(t) => Value::Text(
            String::from_utf8(t.to_vec())
                .map_err(|_| StoreError::Corrupt("a text that is not UTF-8".into()))?,
        ),
        ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
    })
}

impl SqliteConn<'_> {
    fn execute_now(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut stmt = self.conn.prepare_cached(&placeholders(sql))?;
        let n = stmt.execute(rusqlite::params_from_iter(params.iter().map(Param)))?;
        Ok(u64::try_from(n).unwrap_or(u64::MAX))
    }

    fn query_now(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut stmt = self.conn.prepare_cached(&placeholders(sql))?;
        let width = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(params.iter().map(Param)))?;
        let mut found = Vec::new();
        while let Some(r) = rows.next()? {
            let row = (0..width)
                .map(|i| value_of(r.get_ref(i)?))
                .collect::<Result<_, StoreError>>()?;
            found.push(Row(row));
        }
        Ok(found)
    }
}

impl Conn for SqliteConn<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn instance(&self) -> &str {
        self.instance
    }

    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        params: &'a [Value],
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(std::future::ready(self.execute_now(sql, params)))
    }

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        params: &'a [Value],
    ) -> BoxFuture<'a, Result<Vec<Row>, StoreError>> {
        Box::pin(std::future::ready(self.query_now(sql, params)))
    }

    fn begin(&mut self) -> BoxFuture<'_, Result<(), StoreError>> {
        // The write lock at once: a transaction that read first and then found the
        // database taken would have to start over.
        let begun = self.conn.execute_batch("BEGIN IMMEDIATE");
        Box::pin(std::future::ready(begun.map_err(StoreError::from)))
    }

    fn commit(&mut self) -> BoxFuture<'_, Result<(), StoreError>> {
        let committed = self.conn.execute_batch("COMMIT");
        Box::pin(std::future::ready(committed.map_err(StoreError::from)))
    }

    fn announce<'a>(&'a mut self, _id: &'a str) -> BoxFuture<'a, ()> {
        // One instance per file: nobody else to tell.
        Box::pin(std::future::ready(()))
    }
}

/// Brings the schema up to date.
///
/// The release of the web hardening (before migrations) added V3's columns to `games`
/// by `ALTER TABLE` when it opened a database, so a database it wrote may have some or
/// all of them while V3 is not recorded (whether or not an earlier release recorded
/// V1 and V2). V3 as written would fail there (SQLite has no `ADD COLUMN IF NOT
/// EXISTS`); so after V2, such a database gets V3 without the columns it has, in one
/// transaction, and V3 is then recorded as applied with its checksum as released.
/// Every other database runs V3 as written.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    use refinery::{Runner, Target};
    let migrations = super::migrations(&MIGRATIONS)?;
    Runner::new(&migrations)
        .set_target(Target::Version(V3 - 1))
        .run(conn)?;
    let v3_applied = Runner::new(&migrations)
        .get_applied_migrations(conn)?
        .iter()
        .any(|m| m.version() == V3);
    if !v3_applied {
        let present = columns(conn, "games")?;
        if v3_columns().any(|c| present.contains(&c.to_owned())) {
            let tx = conn.transaction()?;
            tx.execute_batch(&v3_without(&present))?;
            tx.commit()?;
            Runner::new(&migrations)
                .set_target(Target::FakeVersion(V3))
                .run(conn)?;
        }
    }
    Runner::new(&migrations).run(conn)?;
    Ok(())
}

/// The columns of `table`.
fn columns(conn: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let names = conn
        .prepare("SELECT name FROM pragma_table_info(?1)")?
        .query_map([table], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(names)
}

/// The columns V3 adds to `games`.
fn v3_columns() -> impl Iterator<Item = &'static str> {
    MIGRATIONS[2].1.lines().filter_map(|line| {
        line.strip_prefix(ADD_COLUMN)
            .and_then(|rest| rest.split_whitespace().next())
    })
}

/// V3 without the lines adding a column in `present`.
fn v3_without(present: &[String]) -> String {
    MIGRATIONS[2]
        .1
        .lines()
        .filter(|line| {
            !line
                .strip_prefix(ADD_COLUMN)
                .and_then(|rest| rest.split_whitespace().next())
                .is_some_and(|column| present.iter().any(|p| p == column))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// V3 is read line by line to leave out the columns a database of the hardening
    /// release has: each of its columns must be one `ADD COLUMN` line.
    #[test]
    fn placeholders_are_numbered_for_sqlite() {
        assert_eq!(
            placeholders("UPDATE t SET a = $2 WHERE b = $1 AND c = '$x' AND d = $10"),
            "UPDATE t SET a = ?2 WHERE b = ?1 AND c = '$x' AND d = ?10"
        );
    }

    #[test]
    fn v3_adds_the_hardening_columns_one_per_line() {
        let columns: Vec<&str> = v3_columns().collect();
        assert_eq!(columns, ["rematch_by", "invite", "activity", "finished"]);
        let present = ["invite".to_owned(), "finished".to_owned()];
        let partial = v3_without(&present);
        assert!(
            partial.contains("ADD COLUMN rematch_by") && partial.contains("ADD COLUMN activity")
        );
        assert!(!partial.contains("ADD COLUMN invite") && !partial.contains("ADD COLUMN finished"));
        assert!(partial.contains("CREATE INDEX IF NOT EXISTS games_activity"));
    }
}
