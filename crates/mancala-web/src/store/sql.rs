//! The seam between the store's logic, written once (`games.rs`, `work.rs`,
//! `account_sql.rs`), and the two databases (`sqlite.rs`, `postgres.rs`).
//!
//! The logic speaks to a [`Conn`]: statements written once with PostgreSQL's `$n`
//! placeholders (the SQLite driver reads them as `?n`), values of one neutral type
//! ([`Value`]; each driver converts them to its column types), and rows of them
//! ([`Row`]). Where the two SQL dialects differ (times, row locks, lists as
//! parameters), the [`Dialect`] gives the fragment. A [`Database`] runs a piece of
//! that logic on one of its connections: PostgreSQL on a pooled connection, SQLite on
//! its connection's thread, where every statement is done when it returns.

use std::any::Any;

use futures_util::future::BoxFuture;
use tokio::sync::mpsc;

use super::{Change, Probe, StoreError};

/// A value bound to a statement or read from a row, whichever database.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum Value {
    /// SQL `NULL`.
    #[default]
    Null,
    /// Any integer column (PostgreSQL: `smallint`, `integer` or `bigint`, converted
    /// to the parameter's type, failing if it does not fit).
    Int(i64),
    /// A floating-point column.
    Real(f64),
    /// A text column.
    Text(String),
    /// A `bytea` or `BLOB` column.
    Bytes(Vec<u8>),
    /// A boolean (SQLite: the integer 0 or 1).
    Bool(bool),
    /// A list of texts as one parameter, for [`Dialect::any_of`]: a `text[]` on
    /// PostgreSQL, a JSON array on SQLite.
    Texts(Vec<String>),
    /// A list of integers read from a row (a PostgreSQL array).
    Ints(Vec<i64>),
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Text(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Text(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::Text(s.clone())
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<u8> for Value {
    fn from(n: u8) -> Value {
        Value::Int(i64::from(n))
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Int(i64::from(n))
    }
}

impl From<u64> for Value {
    /// Saturating: no count the store keeps comes near `i64::MAX`.
    fn from(n: u64) -> Value {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<usize> for Value {
    /// Saturating, as for `u64`.
    fn from(n: usize) -> Value {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Real(x)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<[u8; 32]> for Value {
    fn from(hash: [u8; 32]) -> Value {
        Value::Bytes(hash.to_vec())
    }
}

impl From<Vec<String>> for Value {
    fn from(list: Vec<String>) -> Value {
        Value::Texts(list)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The values of a statement's parameters, in order: `values![a, b]`.
macro_rules! values {
    ($($v:expr),* $(,)?) => {
        [$($crate::store::sql::Value::from($v)),*]
    };
}
pub(crate) use values;

/// A Rust type a [`Value`] read from a row converts to.
pub(crate) trait FromValue: Sized {
    /// `v` as `Self`, or what it was instead.
    fn from_value(v: Value) -> Result<Self, String>;
}

impl FromValue for i64 {
    fn from_value(v: Value) -> Result<i64, String> {
        match v {
            Value::Int(n) => Ok(n),
            other => Err(format!("an integer expected, {other:?} found")),
        }
    }
}

impl FromValue for f64 {
    fn from_value(v: Value) -> Result<f64, String> {
        match v {
            Value::Real(x) => Ok(x),
            // SQLite keeps a whole REAL as an integer.
            #[allow(clippy::cast_precision_loss)]
            Value::Int(n) => Ok(n as f64),
            other => Err(format!("a number expected, {other:?} found")),
        }
    }
}

impl FromValue for bool {
    fn from_value(v: Value) -> Result<bool, String> {
        match v {
            Value::Bool(b) => Ok(b),
            Value::Int(n) => Ok(n != 0),
            other => Err(format!("a boolean expected, {other:?} found")),
        }
    }
}

impl FromValue for String {
    fn from_value(v: Value) -> Result<String, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(format!("a text expected, {other:?} found")),
        }
    }
}

impl FromValue for [u8; 32] {
    fn from_value(v: Value) -> Result<[u8; 32], String> {
        match v {
            Value::Bytes(b) => b
                .try_into()
                .map_err(|b: Vec<u8>| format!("a hash of 32 bytes expected, {} found", b.len())),
            other => Err(format!("bytes expected, {other:?} found")),
        }
    }
}

/// The integer types of counts and small numbers, read from any integer column.
macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: Value) -> Result<$t, String> {
                let n = i64::from_value(v)?;
                <$t>::try_from(n).map_err(|_| format!("{n} out of range"))
            }
        }
    )*};
}
from_int!(u8, u32, u64, usize);

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> Result<Option<T>, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// One row of a query's result.
#[derive(Debug)]
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `i` (from 0) as `T`, taken out of the row.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] when the column is missing or holds something else.
    pub(crate) fn get<T: FromValue>(&mut self, i: usize) -> Result<T, StoreError> {
        let v = self
            .0
            .get_mut(i)
            .map(std::mem::take)
            .ok_or_else(|| StoreError::Corrupt(format!("no column {i}")))?;
        T::from_value(v).map_err(|e| StoreError::Corrupt(format!("column {i}: {e}")))
    }

    /// Column `i` as a list of small integers: a PostgreSQL array, or the
    /// comma-separated text of SQLite's `group_concat` (`NULL`: none).
    pub(crate) fn small_ints(&mut self, i: usize) -> Result<Vec<u8>, StoreError> {
        let bad = |what: String| StoreError::Corrupt(format!("column {i}: {what}"));
        match self.get::<Value>(i)? {
            Value::Null => Ok(Vec::new()),
            Value::Ints(list) => list
                .into_iter()
                .map(|n| u8::try_from(n).map_err(|_| bad(format!("{n} out of range"))))
                .collect(),
            Value::Text(text) => text
                .split(',')
                .map(|n| {
                    n.parse()
                        .map_err(|_| bad(format!("{n:?} is no small integer")))
                })
                .collect(),
            other => Err(bad(format!("a list expected, {other:?} found"))),
        }
    }
}

impl FromValue for Value {
    fn from_value(v: Value) -> Result<Value, String> {
        Ok(v)
    }
}

/// The SQL dialect of a connection: the few fragments that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// SQLite: times are milliseconds since the Unix epoch, one writer at a time
    /// (every transaction takes the write lock when it begins).
    Sqlite,
    /// PostgreSQL: times are `timestamptz` of the database server's clock, rows are
    /// locked by the statements that read them for a change.
    Postgres,
}

impl Dialect {
    /// The time now, as the lease and timer columns keep it.
    pub(crate) fn now(self) -> &'static str {
        match self {
            Dialect::Sqlite => "CAST(unixepoch('subsec') * 1000 AS INTEGER)",
            Dialect::Postgres => "now()",
        }
    }

    /// The time `param` seconds (a float parameter, e.g. `$2`) from now, as
    /// [`Dialect::now`].
    pub(crate) fn later(self, param: &str) -> String {
        match self {
            Dialect::Sqlite => {
                format!("CAST(unixepoch('subsec') * 1000 + {param} * 1000 AS INTEGER)")
            }
            Dialect::Postgres => format!("now() + {param}::float8 * interval '1 second'"),
        }
    }

    /// A time before every other, as [`Dialect::now`]: a lease nobody holds.
    pub(crate) fn long_ago(self) -> &'static str {
        match self {
            Dialect::Sqlite => "0",
            Dialect::Postgres => "'-infinity'",
        }
    }

    /// What a `SELECT` adds to lock the rows it reads until the transaction ends
    /// (SQLite's transactions hold the whole database already).
    pub(crate) fn for_update(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }

    /// As [`Dialect::for_update`], passing over rows another transaction holds.
    pub(crate) fn skip_locked(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// The condition that a column is one of the list `param` ([`Value::Texts`]).
    pub(crate) fn any_of(self, param: &str) -> String {
        match self {
            Dialect::Sqlite => format!("IN (SELECT value FROM json_each({param}))"),
            Dialect::Postgres => format!("= ANY({param})"),
        }
    }

    /// The houses played in game `param`, in order, as one column (see
    /// [`Row::small_ints`]).
    pub(crate) fn moves_of(self, param: &str) -> String {
        match self {
            Dialect::Sqlite => format!(
                "(SELECT group_concat(house, ',' ORDER BY ply) FROM moves WHERE game = {param})"
            ),
            Dialect::Postgres => {
                format!("ARRAY(SELECT house FROM moves WHERE game = {param} ORDER BY ply)")
            }
        }
    }

    /// A statement that holds a lock named by the text `$1` until the transaction
    /// ends, where rows cannot serve (nothing on SQLite: its transactions are one at
    /// a time).
    pub(crate) fn named_lock(self) -> Option<&'static str> {
        match self {
            Dialect::Sqlite => None,
            Dialect::Postgres => Some("SELECT pg_advisory_xact_lock(hashtext($1))"),
        }
    }
}

/// One connection to the database, as the store's logic uses it.
pub(crate) trait Conn: Send {
    /// The dialect of the SQL it runs.
    fn dialect(&self) -> Dialect;

    /// This server instance's name in the database.
    fn instance(&self) -> &str;

    /// Runs a statement that returns no rows; the rows it changed.
    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        params: &'a [Value],
    ) -> BoxFuture<'a, Result<u64, StoreError>>;

    /// Runs a query; its rows.
    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        params: &'a [Value],
    ) -> BoxFuture<'a, Result<Vec<Row>, StoreError>>;

    /// Begins a transaction, which ends with [`Conn::commit`]; one not committed when
    /// the work on the connection ends is rolled back.
    fn begin(&mut self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Commits the transaction begun.
    fn commit(&mut self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Tells the other server instances that game `id` changed or expired, after the
    /// change committed (nothing on SQLite: one instance per file). A failure is
    /// logged, not returned: the change itself is stored.
    fn announce<'a>(&'a mut self, id: &'a str) -> BoxFuture<'a, ()>;
}

impl dyn Conn + '_ {
    /// The first row of a query, if any.
    pub(crate) async fn query_opt(
        &mut self,
        sql: &str,
        params: &[Value],
    ) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params).await?.into_iter().next())
    }

    /// The first column of every row of a query, as `T`.
    pub(crate) async fn column<T: FromValue>(
        &mut self,
        sql: &str,
        params: &[Value],
    ) -> Result<Vec<T>, StoreError> {
        self.query(sql, params)
            .await?
            .into_iter()
            .map(|mut r| r.get(0))
            .collect()
    }
}

/// Work handed to a [`Database`]: a closure over a connection whose result travels
/// back type-erased (see `Store::run`).
pub(crate) type Job = Box<
    dyn for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, Result<Box<dyn Any + Send>, StoreError>>
        + Send,
>;

/// A database the store runs on: where its connections come from, and what is
/// particular to it beyond SQL.
pub(crate) trait Database: Send + Sync {
    /// This server instance's name in the database (random per start).
    fn instance(&self) -> &str;

    /// Whether this instance is the only one writing to the database (see
    /// `Store::sole_writer`).
    fn sole_writer(&self) -> bool;

    /// Runs `job` on one connection.
    fn run(&self, job: Job) -> BoxFuture<'_, Result<Box<dyn Any + Send>, StoreError>>;

    /// Changes made by other instances (see `Store::changes`).
    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>>;

    /// A handle for the operator's questions (see `Store::probe`).
    fn probe(&self) -> Probe;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_converts_its_columns_and_says_which_one_is_bad() {
        let mut row = Row(vec![
            Value::Int(3),
            Value::Null,
            Value::Int(1),
            Value::Text("2,5,0".into()),
            Value::Int(300),
        ]);
        assert_eq!(row.get::<u8>(0).unwrap(), 3);
        assert_eq!(row.get::<Option<String>>(1).unwrap(), None);
        assert!(row.get::<bool>(2).unwrap());
        assert_eq!(row.small_ints(3).unwrap(), [2, 5, 0]);
        let e = row.get::<u8>(4).unwrap_err().to_string();
        assert!(e.contains("column 4") && e.contains("300"), "{e}");
    }
}
