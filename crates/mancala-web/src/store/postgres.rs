//! PostgreSQL (tokio-postgres with a deadpool pool): one database shared by several
//! server instances.
//!
//! Each instance has a name (also its `application_name`). After each change to a game
//! commits, the writer announces it on the channel `mancala_changes` as
//! `<instance> <game id>`, and [`PostgresStore::changes`] passes on the ones made by
//! other instances. The announcement is a statement of its own on purpose: a NOTIFY
//! inside the writing transaction holds PostgreSQL's notification lock across the
//! commit's flush to disk, which makes every move of the site wait for the one before
//! (measured: two to four times fewer moves per second on the test host). A change
//! whose announcement is lost (the writer died in between) is caught by the instances'
//! periodic [`GameStore::progress`] check instead.
//!
//! Times (leases, timers) are the database server's `now()`, so the instances' clocks
//! do not matter. Migrations run under an advisory lock, so instances starting together
//! take turns.

use std::sync::Mutex;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio::sync::mpsc;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{AsyncMessage, NoTls};

use super::{
    Change, ComputerCommit, Expiry, GameRow, GameStore, Listing, NewMove, Next, Progress,
    RematchSeat, RematchToken, StateChange, StateUpdate, StoreError, StoreOptions, StoredAnalysis,
    now_ms,
};
use crate::state::PlayState;

/// The migrations, in order (`migrations/postgres`).
const MIGRATIONS: [(&str, &str); 8] = [
    (
        "V1__initial",
        include_str!("../../migrations/postgres/V1__initial.sql"),
    ),
    (
        "V2__shared_work",
        include_str!("../../migrations/postgres/V2__shared_work.sql"),
    ),
    (
        "V3__invites_rematches_expiry",
        include_str!("../../migrations/postgres/V3__invites_rematches_expiry.sql"),
    ),
    (
        "V4__play_state",
        include_str!("../../migrations/postgres/V4__play_state.sql"),
    ),
    (
        "V5__public_games",
        include_str!("../../migrations/postgres/V5__public_games.sql"),
    ),
    (
        "V6__analyses",
        include_str!("../../migrations/postgres/V6__analyses.sql"),
    ),
    (
        "V7__accounts",
        include_str!("../../migrations/postgres/V7__accounts.sql"),
    ),
    (
        "V8__account_trust",
        include_str!("../../migrations/postgres/V8__account_trust.sql"),
    ),
];

/// The columns of `games` that [`row_to_game`] reads, in its order, after which a
/// query may add the moves.
const GAME_COLUMNS: &str = "variant, houses, seeds, empty_capture, end_rule, opponent, rematch, \
                            token1, token2, rematch_by, invite, activity, finished, play, version, \
                            deadline, account1, account2, rated, rating";

/// The advisory lock held while migrating ("mancala" in ASCII).
const MIGRATION_LOCK: i64 = 0x006d_616e_6361_6c61;

/// The channel changes are announced on.
const CHANNEL: &str = "mancala_changes";

/// How long a request waits for a pooled connection, or for a new one to open.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(10);

/// The PostgreSQL store.
pub struct PostgresStore {
    pool: Pool,
    config: tokio_postgres::Config,
    instance: String,
    /// Whether [`GameStore::changes`] was taken (it starts the listener).
    listening: Mutex<bool>,
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

fn lease_secs(lease: Duration) -> f64 {
    lease.as_secs_f64()
}

fn is_unique_violation(e: &tokio_postgres::Error) -> bool {
    e.code() == Some(&SqlState::UNIQUE_VIOLATION)
}

fn ply(mv: &NewMove) -> Result<i32, StoreError> {
    i32::try_from(mv.ply).map_err(|_| StoreError::Corrupt(format!("ply {}", mv.ply)))
}

impl PostgresStore {
    /// Connects to the database at `url`, migrates it, and opens a pool of connections.
    ///
    /// # Errors
    /// When the URL is malformed, the server cannot be reached, or a migration fails.
    pub async fn connect(url: &str, options: &StoreOptions) -> Result<PostgresStore, StoreError> {
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
        Ok(PostgresStore {
            pool,
            config,
            instance,
            listening: Mutex::new(false),
        })
    }

    pub(super) async fn client(&self) -> Result<Object, StoreError> {
        Ok(self.pool.get().await?)
    }

    /// Tells the other instances that game `id` changed or expired (after the change
    /// committed). A failure is logged, not returned: the change itself is stored.
    pub(super) async fn announce(&self, client: &Object, id: &str) {
        let payload = format!("{} {id}", self.instance);
        let sent = match client
            .prepare_cached(&format!("SELECT pg_notify('{CHANNEL}', $1)"))
            .await
        {
            Ok(stmt) => client.execute(&stmt, &[&payload]).await.map(drop),
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            tracing::warn!(game = %id, error = %e, "could not announce a change");
        }
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

/// The game in row `r`: [`GAME_COLUMNS`], then its moves as an array.
fn row_to_game(id: &str, r: &tokio_postgres::Row) -> Result<GameRow, StoreError> {
    let corrupt = |what: &str| StoreError::Corrupt(format!("game {id}: {what}"));
    let small = |i: i16, what: &str| u8::try_from(i).map_err(|_| corrupt(what));
    let hash = |b: Option<Vec<u8>>, what: &str| {
        b.map(|b| <[u8; 32]>::try_from(b.as_slice()).map_err(|_| corrupt(what)))
            .transpose()
    };
    let moves: Vec<i16> = r.try_get(20)?;
    let play: String = r.try_get(13)?;
    let version: i64 = r.try_get(14)?;
    Ok(GameRow {
        id: id.to_owned(),
        variant: r.try_get(0)?,
        houses: small(r.try_get(1)?, "houses")?,
        seeds: small(r.try_get(2)?, "seeds")?,
        empty_capture: r.try_get(3)?,
        end_rule: r.try_get(4)?,
        opponent: r.try_get(5)?,
        rematch: r.try_get(6)?,
        token_hashes: [
            hash(r.try_get(7)?, "token hash")?,
            hash(r.try_get(8)?, "token hash")?,
        ],
        rematch_by: r
            .try_get::<_, Option<i16>>(9)?
            .map(|s| small(s, "rematch seat"))
            .transpose()?,
        invite_hash: hash(r.try_get(10)?, "invite hash")?,
        activity_ms: r.try_get(11)?,
        finished_ms: r.try_get(12)?,
        play: PlayState::from_json(&play).map_err(|e| corrupt(&format!("play state: {e}")))?,
        version: u64::try_from(version).map_err(|_| corrupt("version"))?,
        deadline_ms: r.try_get(15)?,
        accounts: [r.try_get(16)?, r.try_get(17)?],
        rated: r.try_get(18)?,
        rating: r.try_get(19)?,
        moves: moves
            .into_iter()
            .map(|h| small(h, "move"))
            .collect::<Result<_, _>>()?,
    })
}

/// Stores a new game (inside a transaction or not).
async fn insert_game(
    client: &impl deadpool_postgres::GenericClient,
    g: &GameRow,
) -> Result<(), StoreError> {
    let stmt = client
        .prepare_cached(
            "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule, opponent,
                                token1, token2, rematch, rematch_by, invite, activity, finished,
                                play, version, deadline, account1, account2, rated, rating)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                     $18, $19, $20, $21)",
        )
        .await?;
    let tokens = g.token_hashes.map(|h| h.map(|h| h.to_vec()));
    client
        .execute(
            &stmt,
            &[
                &g.id,
                &g.variant,
                &i16::from(g.houses),
                &i16::from(g.seeds),
                &g.empty_capture,
                &g.end_rule,
                &g.opponent,
                &tokens[0],
                &tokens[1],
                &g.rematch,
                &g.rematch_by.map(i16::from),
                &g.invite_hash.map(|h| h.to_vec()),
                &g.activity_ms,
                &g.finished_ms,
                &g.play.to_json(),
                &i64::try_from(g.version).unwrap_or(i64::MAX),
                &g.deadline_ms,
                &g.accounts[0],
                &g.accounts[1],
                &g.rated,
                &g.rating,
            ],
        )
        .await?;
    Ok(())
}

/// Loads a game (inside a transaction or not).
async fn load_game(
    client: &impl deadpool_postgres::GenericClient,
    id: &str,
) -> Result<Option<GameRow>, StoreError> {
    let stmt = client
        .prepare_cached(&format!(
            "SELECT {GAME_COLUMNS}, ARRAY(SELECT house FROM moves WHERE game = $1 ORDER BY ply)
             FROM games WHERE id = $1"
        ))
        .await?;
    client
        .query_opt(&stmt, &[&id])
        .await?
        .map(|r| row_to_game(id, &r))
        .transpose()
}

/// The rematch of game `id`, in a transaction holding `id`'s row: what
/// [`GameStore::rematch`] does, and which games changed.
async fn rematch(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
    asker: u8,
    new: &GameRow,
    token_for: &RematchToken,
) -> Result<RematchSeat, StoreError> {
    let row = tx
        .query_opt(
            "SELECT rematch, rematch_by FROM games WHERE id = $1 FOR UPDATE",
            &[&id],
        )
        .await?
        .ok_or_else(|| StoreError::Corrupt(format!("rematch of {id}: no such game")))?;
    let (existing, by): (Option<String>, Option<i16>) = (row.try_get(0)?, row.try_get(1)?);
    // A rematch that has expired since is started again.
    let existing = match existing {
        Some(rid) => load_game(tx, &rid).await?,
        None => None,
    };
    let Some(game) = existing else {
        let mut row = new.clone();
        row.token_hashes = [Some(token_for(&row.id)), None];
        row.activity_ms = now_ms();
        insert_game(tx, &row).await?;
        tx.execute(
            // A change of the game: its streams carry it (see GameRow::version).
            "UPDATE games SET rematch = $2, rematch_by = $3, version = version + 1
             WHERE id = $1",
            &[&id, &row.id, &i16::from(asker)],
        )
        .await?;
        return Ok(RematchSeat {
            id: row.id,
            seat: 1,
            fresh: true,
        });
    };
    let mine = token_for(&game.id);
    let seat: u8 = if by == Some(i16::from(asker)) { 1 } else { 2 };
    let fresh = match game.token_hashes[usize::from(seat - 1)] {
        Some(held) if held == mine => false,
        None if seat == 2 => {
            // Taken once: a second request of the other player finds it held.
            let n = tx
                .execute(
                    "UPDATE games SET token2 = $2, activity = $3 WHERE id = $1 AND token2 IS NULL",
                    &[&game.id, &mine.as_slice(), &now_ms()],
                )
                .await?;
            n == 1
        }
        _ => {
            return Err(StoreError::Corrupt(format!(
                "rematch {}: seat {seat} holds another token",
                game.id
            )));
        }
    };
    Ok(RematchSeat {
        id: game.id,
        seat,
        fresh,
    })
}

impl GameStore for PostgresStore {
    fn instance(&self) -> &str {
        &self.instance
    }

    async fn create(&self, g: &GameRow) -> Result<(), StoreError> {
        insert_game(&self.client().await?, g).await
    }

    async fn load(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        load_game(&self.client().await?, id).await
    }

    async fn claim_seat_2(
        &self,
        id: &str,
        token_hash: [u8; 32],
        account: Option<&str>,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "UPDATE games SET token2 = $2, activity = $3, account2 = $4
                 WHERE id = $1 AND token2 IS NULL AND opponent = 'human'
                   AND (NOT rated OR $4::text IS NOT NULL)",
            )
            .await?;
        let n = client
            .execute(&stmt, &[&id, &token_hash.as_slice(), &now_ms(), &account])
            .await?;
        if n == 1 {
            self.announce(&client, id).await;
        }
        Ok(n == 1)
    }

    async fn append_move(&self, mv: &NewMove) -> Result<bool, StoreError> {
        let client = self.client().await?;
        // One statement either way: one round trip, one transaction. The game's row
        // first (its version checked, its activity, end and state set), the move only
        // if that row was updated, and the computer's turn if it is next.
        const GAME_THEN_MOVE: &str = "WITH g AS (
                UPDATE games SET activity = $4, finished = CASE WHEN $5 THEN $4 ELSE finished END,
                                 version = version + 1,
                                 play = CASE WHEN $9 THEN $6 ELSE play END,
                                 deadline = CASE WHEN $9 THEN $7 ELSE deadline END
                WHERE id = $1 AND (NOT $9 OR version = $8) RETURNING id)";
        let (ply, house) = (ply(mv)?, i16::from(mv.house));
        let (now, ends) = (now_ms(), mv.next == Next::Nobody);
        let (play, deadline, seen) = match &mv.state {
            Some(s) => (
                Some(s.play.to_json()),
                s.deadline_ms,
                Some(i64::try_from(s.seen_version).unwrap_or(i64::MAX)),
            ),
            None => (None, None, None),
        };
        let has_state = mv.state.is_some();
        let params: [&(dyn ToSql + Sync); 9] = [
            &mv.game, &ply, &house, &now, &ends, &play, &deadline, &seen, &has_state,
        ];
        let result = match mv.next {
            Next::Person | Next::Nobody => {
                let stmt = client
                    .prepare_cached(&format!(
                        "{GAME_THEN_MOVE}
                         INSERT INTO moves (game, ply, house) SELECT id, $2, $3 FROM g"
                    ))
                    .await?;
                client.execute(&stmt, &params).await
            }
            Next::Computer { lease } => {
                let stmt = client
                    .prepare_cached(&format!(
                        "{GAME_THEN_MOVE},
                         m AS (INSERT INTO moves (game, ply, house) SELECT id, $2, $3 FROM g RETURNING game)
                         INSERT INTO computer_turns (game, holder, expires)
                         SELECT game, $10, now() + $11::float8 * interval '1 second' FROM m
                         ON CONFLICT (game) DO UPDATE SET holder = excluded.holder, expires = excluded.expires"
                    ))
                    .await?;
                let secs = lease_secs(lease);
                let mut all = params.to_vec();
                all.extend([&self.instance as &(dyn ToSql + Sync), &secs]);
                client.execute(&stmt, &all).await
            }
        };
        match result {
            Ok(1) => {
                self.announce(&client, &mv.game).await;
                Ok(true)
            }
            // The game changed since the move was decided.
            Ok(_) => Ok(false),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    async fn rematch(
        &self,
        id: &str,
        asker: u8,
        new: &GameRow,
        token_for: RematchToken,
    ) -> Result<RematchSeat, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let seat = rematch(&tx, id, asker, new, &token_for).await?;
        tx.commit().await?;
        if seat.fresh {
            // Seat 1: the old game now has a rematch; seat 2: the rematch starts.
            let changed = if seat.seat == 1 { id } else { &seat.id };
            self.announce(&client, changed).await;
        }
        Ok(seat)
    }

    async fn expire(&self, expiry: &Expiry, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let (finished, idle, unstarted) = expiry.cutoffs(now_ms);
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // Locked, so that no move or join lands in a game while it is deleted.
        let rows = tx
            .query(
                "SELECT id FROM games g WHERE
                   (finished IS NOT NULL AND finished <= $1::bigint
                    AND account1 IS NULL AND account2 IS NULL)
                   OR (finished IS NULL AND activity <=
                        CASE WHEN EXISTS (SELECT 1 FROM moves m WHERE m.game = g.id)
                             THEN $2::bigint ELSE $3::bigint END)
                 FOR UPDATE SKIP LOCKED",
                &[&finished, &idle, &unstarted],
            )
            .await?;
        let ids: Vec<String> = rows
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()?;
        if ids.is_empty() {
            return Ok(ids);
        }
        tx.execute("DELETE FROM computer_turns WHERE game = ANY($1)", &[&ids])
            .await?;
        tx.execute("DELETE FROM moves WHERE game = ANY($1)", &[&ids])
            .await?;
        tx.execute(
            "UPDATE games SET rematch = NULL, rematch_by = NULL WHERE rematch = ANY($1)",
            &[&ids],
        )
        .await?;
        tx.execute("DELETE FROM games WHERE id = ANY($1)", &[&ids])
            .await?;
        tx.commit().await?;
        for id in &ids {
            self.announce(&client, id).await;
        }
        Ok(ids)
    }

    async fn claim_computer_turn(&self, lease: Duration) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "UPDATE computer_turns SET holder = $1, expires = now() + $2::float8 * interval '1 second'
                 WHERE game = (SELECT game FROM computer_turns WHERE expires < now()
                               ORDER BY expires LIMIT 1 FOR UPDATE SKIP LOCKED)
                 RETURNING game",
            )
            .await?;
        let row = client
            .query_opt(&stmt, &[&self.instance, &lease_secs(lease)])
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    async fn renew_computer_turn(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "UPDATE computer_turns SET expires = now() + $3::float8 * interval '1 second'
                 WHERE game = $1 AND holder = $2",
            )
            .await?;
        let n = client
            .execute(&stmt, &[&id, &self.instance, &lease_secs(lease)])
            .await?;
        Ok(n == 1)
    }

    async fn append_computer_move(&self, mv: &NewMove) -> Result<ComputerCommit, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let held = tx
            .query_opt(
                "SELECT 1 FROM computer_turns WHERE game = $1 AND holder = $2 FOR UPDATE",
                &[&mv.game, &self.instance],
            )
            .await?;
        if held.is_none() {
            return Ok(ComputerCommit::LeaseLost);
        }
        let inserted = tx
            .execute(
                "INSERT INTO moves (game, ply, house) VALUES ($1, $2, $3)",
                &[&mv.game, &ply(mv)?, &i16::from(mv.house)],
            )
            .await;
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => return Ok(ComputerCommit::PlyTaken),
            Err(e) => return Err(e.into()),
        }
        let updated = match &mv.state {
            None => {
                tx.execute(
                    "UPDATE games SET activity = $2, finished = CASE WHEN $3 THEN $2 ELSE finished END,
                                      version = version + 1
                     WHERE id = $1",
                    &[&mv.game, &now_ms(), &(mv.next == Next::Nobody)],
                )
                .await?
            }
            Some(state) => update_state(&tx, &mv.game, mv.next == Next::Nobody, state).await?,
        };
        if updated != 1 {
            // The game changed since the move was decided: look again.
            return Ok(ComputerCommit::PlyTaken);
        }
        match mv.next {
            Next::Computer { lease } => {
                tx.execute(
                    "UPDATE computer_turns SET expires = now() + $2::float8 * interval '1 second'
                     WHERE game = $1",
                    &[&mv.game, &lease_secs(lease)],
                )
                .await?
            }
            Next::Person | Next::Nobody => {
                tx.execute("DELETE FROM computer_turns WHERE game = $1", &[&mv.game])
                    .await?
            }
        };
        tx.commit().await?;
        self.announce(&client, &mv.game).await;
        Ok(ComputerCommit::Stored)
    }

    async fn change_state(&self, change: &StateChange) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let ends = change.next == Next::Nobody;
        let n = update_state(&tx, &change.game, ends, &change.update).await?;
        if n != 1 {
            return Ok(false);
        }
        if let Some(keep) = change.keep_plies {
            let keep = i32::try_from(keep).unwrap_or(i32::MAX);
            tx.execute(
                "DELETE FROM moves WHERE game = $1 AND ply >= $2",
                &[&change.game, &keep],
            )
            .await?;
        }
        match change.next {
            Next::Computer { lease } => {
                tx.execute(
                    "INSERT INTO computer_turns (game, holder, expires)
                     VALUES ($1, $2, now() + $3::float8 * interval '1 second')
                     ON CONFLICT (game) DO UPDATE SET holder = excluded.holder, expires = excluded.expires",
                    &[&change.game, &self.instance, &lease_secs(lease)],
                )
                .await?
            }
            Next::Person | Next::Nobody => {
                tx.execute("DELETE FROM computer_turns WHERE game = $1", &[&change.game])
                    .await?
            }
        };
        tx.commit().await?;
        self.announce(&client, &change.game).await;
        Ok(true)
    }

    async fn overdue(&self, now_ms: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = self
            .client()
            .await?
            .query(
                "SELECT id FROM games WHERE deadline <= $1 ORDER BY deadline LIMIT $2",
                &[&now_ms, &limit],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()?)
    }

    async fn finish_computer_turn(&self, id: &str) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "DELETE FROM computer_turns WHERE game = $1 AND holder = $2",
                &[&id, &self.instance],
            )
            .await?;
        Ok(())
    }

    async fn release_computer_turns(&self) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "UPDATE computer_turns SET holder = NULL, expires = '-infinity' WHERE holder = $1",
                &[&self.instance],
            )
            .await?;
        Ok(())
    }

    async fn claim_tick(&self, timer: &str, every: Duration) -> Result<bool, StoreError> {
        let n = self
            .client()
            .await?
            .execute(
                "INSERT INTO timers (name, due) VALUES ($1, now() + $2::float8 * interval '1 second')
                 ON CONFLICT (name) DO UPDATE SET due = excluded.due WHERE timers.due <= now()",
                &[&timer, &lease_secs(every)],
            )
            .await?;
        Ok(n == 1)
    }

    async fn progress(&self, ids: &[String]) -> Result<Vec<(String, Progress)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT g.id, (SELECT count(*) FROM moves m WHERE m.game = g.id),
                        g.token2 IS NOT NULL OR g.opponent <> 'human', g.rematch IS NOT NULL,
                        g.version
                 FROM games g WHERE g.id = ANY($1)",
            )
            .await?;
        let rows = client.query(&stmt, &[&ids]).await?;
        let mut found = rows
            .iter()
            .map(|r| {
                let plies: i64 = r.try_get(1)?;
                let version: i64 = r.try_get(4)?;
                let progress = Progress {
                    expired: false,
                    version: u64::try_from(version).unwrap_or(0),
                    plies: usize::try_from(plies).unwrap_or(usize::MAX),
                    seat_2_taken: r.try_get(2)?,
                    rematch: r.try_get(3)?,
                };
                Ok((r.try_get(0)?, progress))
            })
            .collect::<Result<Vec<(String, Progress)>, StoreError>>()?;
        let gone: Vec<String> = ids
            .iter()
            .filter(|id| !found.iter().any(|(f, _)| f == *id))
            .cloned()
            .collect();
        found.extend(gone.into_iter().map(|id| (id, Progress::EXPIRED)));
        Ok(found)
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

    async fn list_publicly(&self, id: &str) -> Result<(), StoreError> {
        self.client()
            .await?
            .execute(
                "INSERT INTO listings (game) VALUES ($1) ON CONFLICT DO NOTHING",
                &[&id],
            )
            .await?;
        Ok(())
    }

    async fn is_listed(&self, id: &str) -> Result<bool, StoreError> {
        let row = self
            .client()
            .await?
            .query_opt("SELECT 1 FROM listings WHERE game = $1", &[&id])
            .await?;
        Ok(row.is_some())
    }

    async fn listed(&self, listing: Listing, limit: usize) -> Result<Vec<String>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT g.id FROM listings l JOIN games g ON g.id = l.game
                 WHERE {} ORDER BY g.activity DESC LIMIT $1",
                listing.condition()
            ))
            .await?;
        let rows = client.query(&stmt, &[&limit]).await?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }

    async fn analysis(&self, id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT plies, document FROM analyses WHERE game = $1 AND document IS NOT NULL",
            )
            .await?;
        let Some(row) = client.query_opt(&stmt, &[&id]).await? else {
            return Ok(None);
        };
        let plies: i32 = row.try_get(0)?;
        Ok(Some(StoredAnalysis {
            plies: usize::try_from(plies)
                .map_err(|_| StoreError::Corrupt(format!("analysis of {id}: plies")))?,
            document: row.try_get(1)?,
        }))
    }

    async fn claim_analysis(
        &self,
        id: &str,
        plies: usize,
        lease: Duration,
    ) -> Result<bool, StoreError> {
        let plies = i32::try_from(plies).unwrap_or(i32::MAX);
        let client = self.client().await?;
        // Done rows expire at '-infinity': a stored document of other moves is replaced.
        let stmt = client
            .prepare_cached(
                "INSERT INTO analyses (game, plies, document, holder, expires)
                 VALUES ($1, $2, NULL, $3, now() + $4::float8 * interval '1 second')
                 ON CONFLICT (game) DO UPDATE SET plies = excluded.plies, document = NULL,
                     holder = excluded.holder, expires = excluded.expires
                 WHERE analyses.expires < now()
                   AND (analyses.document IS NULL OR analyses.plies <> excluded.plies)",
            )
            .await?;
        let n = client
            .execute(&stmt, &[&id, &plies, &self.instance, &lease_secs(lease)])
            .await?;
        Ok(n == 1)
    }

    async fn renew_analysis(&self, id: &str, lease: Duration) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "UPDATE analyses SET expires = now() + $3::float8 * interval '1 second'
                 WHERE game = $1 AND holder = $2 AND document IS NULL",
            )
            .await?;
        let n = client
            .execute(&stmt, &[&id, &self.instance, &lease_secs(lease)])
            .await?;
        Ok(n == 1)
    }

    async fn store_analysis(
        &self,
        id: &str,
        analysis: &StoredAnalysis,
    ) -> Result<bool, StoreError> {
        let plies = i32::try_from(analysis.plies).unwrap_or(i32::MAX);
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "UPDATE analyses SET plies = $3, document = $4, holder = NULL,
                     expires = '-infinity'
                 WHERE game = $1 AND holder = $2 AND document IS NULL",
            )
            .await?;
        let n = client
            .execute(&stmt, &[&id, &self.instance, &plies, &analysis.document])
            .await?;
        Ok(n == 1)
    }

    async fn release_analysis(&self, id: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "DELETE FROM analyses WHERE game = $1 AND holder = $2 AND document IS NULL",
            )
            .await?;
        client.execute(&stmt, &[&id, &self.instance]).await?;
        Ok(())
    }

    fn probe(&self) -> super::Probe {
        super::Probe::postgres(self.pool.clone(), &MIGRATIONS)
    }
}

/// Writes game `game`'s new play state if the game is still at the version it was
/// decided on, marking it active (and finished when `ends`); the rows updated (0: the
/// game changed meanwhile). One statement for a move that brings a state and for a
/// change of state alone, so the two cannot drift apart.
async fn update_state(
    tx: &tokio_postgres::Transaction<'_>,
    game: &str,
    ends: bool,
    state: &StateUpdate,
) -> Result<u64, StoreError> {
    Ok(tx
        .execute(
            "UPDATE games SET activity = $2, finished = CASE WHEN $3 THEN $2 ELSE finished END,
                              version = version + 1, play = $4, deadline = $5
             WHERE id = $1 AND version = $6",
            &[
                &game,
                &now_ms(),
                &ends,
                &state.play.to_json(),
                &state.deadline_ms,
                &i64::try_from(state.seen_version).unwrap_or(i64::MAX),
            ],
        )
        .await?)
}
