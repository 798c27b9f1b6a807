//! Where the games live (`--db`), and the store's settings beside it.

use std::path::PathBuf;
use std::str::FromStr;

use super::StoreError;

/// Where the games live, as `--db` or `DATABASE_URL` names it: a path or a `sqlite:`
/// URL for SQLite, a `postgres://` or `postgresql://` URL for PostgreSQL. Any other
/// `scheme://` is an error rather than a file name.
///
/// ```
/// use mancala_web::DbLocation;
/// let pg: DbLocation = "postgres://mancala@db.internal/mancala".parse().unwrap();
/// assert!(matches!(pg, DbLocation::Postgres(_)));
/// let file: DbLocation = "sqlite:///var/lib/mancala/games.sqlite".parse().unwrap();
/// assert_eq!(file, DbLocation::Sqlite("/var/lib/mancala/games.sqlite".into()));
/// assert!("mysql://db/mancala".parse::<DbLocation>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbLocation {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL.
    Postgres(String),
}

impl FromStr for DbLocation {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<DbLocation, StoreError> {
        if let Some(rest) = s.strip_prefix("sqlite:") {
            let path = rest.strip_prefix("//").unwrap_or(rest);
            if path.is_empty() {
                return Err(StoreError::Location(format!("{s}: no file named")));
            }
            return Ok(DbLocation::Sqlite(path.into()));
        }
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            return Ok(DbLocation::Postgres(s.to_owned()));
        }
        if let Some((scheme, _)) = s.split_once("://") {
            let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
            if is_scheme {
                return Err(StoreError::Location(format!(
                    "{s}: unknown database URL scheme {scheme}:// \
                     (a file path, sqlite:PATH or postgres://USER@HOST/DB)"
                )));
            }
        }
        if s.is_empty() {
            return Err(StoreError::Location("an empty database path".into()));
        }
        Ok(DbLocation::Sqlite(s.into()))
    }
}

impl std::fmt::Display for DbLocation {
    /// The location for logs: a PostgreSQL URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DbLocation::Sqlite(path) => write!(f, "SQLite {}", path.display()),
            DbLocation::Postgres(url) => write!(f, "PostgreSQL {}", redacted(url)),
        }
    }
}

/// Settings of a store that are not part of its location.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// PostgreSQL: connections in this instance's pool.
    pub max_connections: usize,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            max_connections: 16,
        }
    }
}

/// `url` with its password, if any, replaced by `***` (for logs).
pub(super) fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_owned();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}
