//! One suite, two backends: every test body runs against SQLite and against a real,
//! throwaway PostgreSQL (skipped loudly where PostgreSQL cannot be installed, never
//! under `CI=true`; see `mancala-pgtest`).

#![allow(dead_code)]

pub mod calls;
pub mod sse;

use std::sync::Arc;

use mancala_pgtest::TempPostgres;
use mancala_web::{DbLocation, Games, Limits, Store, StoreOptions};

/// Which database a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A private in-memory SQLite database.
    Sqlite,
    /// A fresh database in a throwaway PostgreSQL cluster.
    Postgres,
}

/// A database for one test; the PostgreSQL cluster lives as long as it.
pub struct TestDb {
    /// Where the database is (PostgreSQL), to open more stores on it.
    pub location: Option<DbLocation>,
    _cluster: Option<Arc<TempPostgres>>,
}

impl TestDb {
    /// A new database for test `test`, or `None` when PostgreSQL is skipped.
    pub fn new(backend: Backend, test: &str) -> Option<TestDb> {
        match backend {
            Backend::Sqlite => Some(TestDb {
                location: None,
                _cluster: None,
            }),
            Backend::Postgres => {
                let pg = mancala_pgtest::require_shared(test)?;
                let name = test.rsplit(':').next().unwrap_or(test).to_ascii_lowercase();
                let url = pg.create_database(&name).expect("create a database");
                Some(TestDb {
                    location: Some(DbLocation::Postgres(url)),
                    _cluster: Some(pg),
                })
            }
        }
    }

    /// A store on this database (a new private one each time for SQLite).
    pub async fn store(&self) -> Store {
        match &self.location {
            None => Store::in_memory().unwrap(),
            Some(location) => Store::open(location, &StoreOptions::default())
                .await
                .unwrap(),
        }
    }

    /// The game service over a new store on this database, with its background work
    /// running (until the test ends), as `mancala serve` runs it.
    pub async fn games(&self) -> Games {
        self.games_with(Limits::default()).await
    }

    /// [`TestDb::games`] with these limits.
    pub async fn games_with(&self, limits: Limits) -> Games {
        let games = Games::with_limits(self.store().await, limits);
        std::mem::forget(games.start_background());
        games
    }
}

/// Defines, for each `async fn NAME(db: TestDb)` listed, the tests `sqlite::NAME` and
/// `postgres::NAME`, each with a fresh database; after `multi_thread:`, on a runtime
/// of two worker threads (the default is tokio's test runtime, one thread).
#[macro_export]
macro_rules! on_both_backends {
    (multi_thread: $($name:ident),* $(,)?) => {
        $crate::on_both_backends!(
            @with (flavor = "multi_thread", worker_threads = 2) $($name),*
        );
    };
    ($($name:ident),* $(,)?) => {
        $crate::on_both_backends!(@with () $($name),*);
    };
    (@with $flavor:tt $($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test $flavor]
                async fn $name() {
                    let db = super::common::TestDb::new(
                        super::common::Backend::Sqlite,
                        stringify!($name),
                    );
                    super::$name(db.expect("SQLite is always there")).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test $flavor]
                async fn $name() {
                    let name = concat!("postgres::", stringify!($name));
                    let Some(db) = super::common::TestDb::new(super::common::Backend::Postgres, name)
                    else {
                        return;
                    };
                    super::$name(db).await;
                }
            )*
        }
    };
}
