//! PostgreSQL (tokio-postgres with a deadpool pool): one database shared by several
//! server instances.
//!
//! Each instance has a name (also its `application_name`). After each change to a game
//! commits, the writer announces it on the channel `mancala_changes` as
//! `<instance> <game id>`, and [`super::Store::changes`] passes on the ones made by
//! other instances. The announcement is a statement of its own on purpose: a NOTIFY
//! inside the writing transaction holds PostgreSQL's notification lock across the
//! commit's flush to disk, which makes every move of the site wait for the one before
//! (measured: two to four times fewer moves per second on the test host). A change
//! whose announcement is lost (the writer died in between) is caught by the instances'
//! periodic [`super::Store::progress`] check instead.
//!
//! Times (leases, timers) are the database server's `now()`, so the instances' clocks
//! do not matter. Migrations run under an advisory lock, so instances starting together
//! take turns.

use std::sync::Mutex;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use futures_util::future::BoxFuture;
use tokio::sync::mpsc;
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, NoTls};

use super::location::redacted;
use super::pg_value::row_of;
use super::sql::{Conn, Database, Dialect, Job, Row, Value};
use super::{Change, Probe, StoreError, StoreOptions};

/// The migrations, in order (`migrations/postgres`).
const MIGRATIONS: [(&str, &str); 10] = super::migrations_of!("postgres");

/// The advisory lock held while migrating ("mancala" in ASCII).
const MIGRATION_LOCK: i64 = 0x006d_616e_6361_6c61;

/// The channel changes are announced on.
const CHANNEL: &str = "mancala_changes";

/// How long a request waits for a pooled connection, or for a new one to open.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(10);

/// The PostgreSQL database: a pool of connections, and the listener of other
/// instances' changes once asked for.
pub(super) struct PostgresDb {
    pool: Pool,
    config: tokio_postgres::Config,
    instance: String,
    /// Whether [`Database::changes`] was taken (it starts the listener).
    listening: Mutex<bool>,
}

impl PostgresDb {
    /// Connects to the database at `url`, migrates it, and opens a pool of connections.
    pub(super) async fn connect(
        url: &str,
        options: &StoreOptions,
    ) -> Result<PostgresDb, StoreError> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Location(format!("{}: {e}", redacted(url))))?;
        let instance = super::new_instance_name();
        config.application_name(&instance);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECTION_TIMEOUT);
        }
        migrate(&config).await?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.max_connections.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(CONNECTION_TIMEOUT))
            .create_timeout(Some(CONNECTION_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Location(format!("connection pool: {e}")))?;
        Ok(PostgresDb {
            pool,
            config,
            instance,
            listening: Mutex::new(false),
        })
    }
}

impl Database for PostgresDb {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn sole_writer(&self) -> bool {
        false
    }

    fn run(&self, job: Job) -> BoxFuture<'_, Result<Box<dyn std::any::Any + Send>, StoreError>> {
        Box::pin(async move {
            let mut conn = PgConn {
                client: Some(self.pool.get().await?),
                instance: &self.instance,
                in_transaction: false,
            };
            let result = job(&mut conn).await;
            conn.end_transaction().await;
            result
        })
    }

    fn changes(&self) -> Option<mpsc::UnboundedReceiver<Change>> {
        let mut listening = self
            .listening
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *listening {
            return None;
        }
        *listening = true;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(listen(self.config.clone(), self.instance.clone(), tx));
        Some(rx)
    }

    fn probe(&self) -> Probe {
        Probe::postgres(self.pool.clone(), &MIGRATIONS)
    }
}

/// A pooled connection, lent to one piece of work.
struct PgConn<'a> {
    /// `None` once taken out of the pool (see [`Drop`]).
    client: Option<Object>,
    instance: &'a str,
    /// Whether a transaction was begun and not committed.
    in_transaction: bool,
}

impl PgConn<'_> {
    fn client(&self) -> Result<&Object, StoreError> {
        self.client
            .as_ref()
            .ok_or_else(|| StoreError::Task("the connection was closed".into()))
    }

    /// Rolls back a transaction the work left open, so that the connection goes back
    /// to the pool clean; one that cannot be rolled back is closed instead.
    async fn end_transaction(&mut self) {
        if !self.in_transaction {
            return;
        }
        if let Ok(client) = self.client() {
            if client.batch_execute("ROLLBACK").await.is_ok() {
                self.in_transaction = false;
            }
        }
    }

    async fn statement(&self, sql: &str) -> Result<tokio_postgres::Statement, StoreError> {
        Ok(self.client()?.prepare_cached(sql).await?)
    }
}

impl Drop for PgConn<'_> {
    /// A connection still in a transaction (its work was dropped half-way) leaves the
    /// pool and closes, which rolls the transaction back.
    fn drop(&mut self) {
        if self.in_transaction {
            if let Some(client) = self.client.take() {
                drop(Object::take(client));
            }
        }
    }
}

/// `params` as tokio-postgres takes them.
fn params_of(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

impl Conn for PgConn<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn instance(&self) -> &str {
        self.instance
    }

    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        params: &'a [Value],
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        Box::pin(async move {
            let stmt = self.statement(sql).await?;
            Ok(self.client()?.execute(&stmt, &params_of(params)).await?)
        })
    }

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        params: &'a [Value],
    ) -> BoxFuture<'a, Result<Vec<Row>, StoreError>> {
        Box::pin(async move {
            let stmt = self.statement(sql).await?;
            let rows = self.client()?.query(&stmt, &params_of(params)).await?;
            rows.iter().map(row_of).collect()
        })
    }

    fn begin(&mut self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.in_transaction = true;
            Ok(self.client()?.batch_execute("BEGIN").await?)
        })
    }

    fn commit(&mut self) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            self.client()?.batch_execute("COMMIT").await?;
            self.in_transaction = false;
            Ok(())
        })
    }

    fn announce<'a>(&'a mut self, id: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let payload = Value::Text(format!("{} {id}", self.instance));
            let sql = format!("SELECT pg_notify('{CHANNEL}', $1)");
            let sent = async {
                let stmt = self.statement(&sql).await?;
                self.client()?
                    .execute(&stmt, &params_of(&[payload]))
                    .await?;
                Ok::<_, StoreError>(())
            };
            if let Err(e) = sent.await {
                tracing::warn!(game = %id, error = %e, "could not announce a change");
            }
        })
    }
}

/// Brings the schema up to date on a connection of its own, holding the migration
/// lock so that instances starting at once migrate one after the other.
async fn migrate(config: &tokio_postgres::Config) -> Result<(), StoreError> {
    let (mut client, connection) = config.connect(NoTls).await?;
    let driver = tokio::spawn(connection);
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    let migrations = super::migrations(&MIGRATIONS)?;
    let result = refinery::Runner::new(&migrations)
        .run_async(&mut client)
        .await;
    // Closing the connection releases the lock too; say so explicitly anyway.
    let unlocked = client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
        .await;
    drop(client);
    let _ = driver.await;
    result?;
    unlocked?;
    Ok(())
}

/// Follows the announcements of other instances' changes for as long as `tx` has a
/// receiver, reconnecting (after a second) when the connection is lost. After each
/// (re)connection it sends [`Change::Resync`]: announcements made meanwhile are lost.
async fn listen(
    config: tokio_postgres::Config,
    instance: String,
    tx: mpsc::UnboundedSender<Change>,
) {
    while !tx.is_closed() {
        if let Err(e) = listen_once(&config, &instance, &tx).await {
            tracing::warn!(error = %e, "listening for changes failed; reconnecting in 1 s");
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn listen_once(
    config: &tokio_postgres::Config,
    instance: &str,
    tx: &mpsc::UnboundedSender<Change>,
) -> Result<(), StoreError> {
    let (client, mut connection) = config.connect(NoTls).await?;
    let (notes_tx, mut notes) = mpsc::unbounded_channel();
    // The connection delivers notifications only while it is polled.
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if notes_tx.send(n).is_err() {
                        return Ok(());
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e),
                None => return Ok(()),
            }
        }
    });
    client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
    if tx.send(Change::Resync).is_err() {
        return Ok(());
    }
    while let Some(note) = notes.recv().await {
        let Some((from, game)) = note.payload().split_once(' ') else {
            continue;
        };
        if from != instance && tx.send(Change::Game(game.to_owned())).is_err() {
            return Ok(());
        }
    }
    drop(client);
    driver
        .await
        .map_err(|e| StoreError::Task(e.to_string()))??;
    Ok(())
}
