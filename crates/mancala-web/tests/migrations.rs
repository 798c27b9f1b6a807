//! Upgrading: a database written by the release before schema migrations
//! (`fixtures/sqlite-v0.sqlite`, made by `fixtures/make-sqlite-v0.py` with that
//! release's binary) opens, keeps every game as that release served it, still takes
//! its seat tokens, and the move the computer owed when that server was killed is
//! played. So do the databases of the two releases after it: the web hardening's,
//! which added its columns to that schema by itself (no migrations), and the first
//! release with migrations (V1 and V2, on SQLite and PostgreSQL); each gets V3.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::TestDb;
use mancala_web::{
    Background, ClientKey, DbLocation, Games, JoinRequest, MoveRequest, Store, StoreOptions, now_ms,
};
use serde_json::Value;

/// The keys of the game JSON that release served.
const KEYS: [&str; 17] = [
    "id",
    "variant",
    "houses",
    "stores",
    "to_move",
    "ply",
    "over",
    "result",
    "moves",
    "history",
    "players",
    "rules",
    "legal_moves",
    "last_move",
    "repetition",
    "end",
    "rematch",
];

fn fixture() -> (tempfile::TempDir, DbLocation, Value) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.sqlite");
    std::fs::copy(dir.join("sqlite-v0.sqlite"), &db).unwrap();
    let record = std::fs::read_to_string(dir.join("sqlite-v0.json")).unwrap();
    (
        tmp,
        DbLocation::Sqlite(db),
        serde_json::from_str(&record).unwrap(),
    )
}

async fn open(location: &DbLocation) -> (Games, Background) {
    let games = Games::new(
        Store::open(location, &StoreOptions::default())
            .await
            .unwrap(),
    );
    let background = games.start_background();
    (games, background)
}

async fn view(games: &Games, id: &str) -> Value {
    serde_json::to_value(games.view(id).await.unwrap()).unwrap()
}

fn games_of(record: &Value) -> impl Iterator<Item = (&String, &Value)> {
    record.as_object().unwrap().iter()
}

/// Every game as recorded, but the one where the computer owed a move, which has it.
async fn every_game_is_intact(games: &Games, record: &Value) {
    for (name, game) in games_of(record) {
        let before = &game["view"];
        let after = view(games, before["id"].as_str().unwrap()).await;
        let keys: &[&str] = if name == "computer-to-move" {
            // Its settings and seats; the move it owed may be played already.
            &["id", "variant", "rules", "players"]
        } else {
            &KEYS
        };
        for &key in keys {
            if key == "legal_moves" && before["players"][1]["joined"] == false {
                // Since the web hardening a game starts when player 2 joins: no moves
                // until then.
                assert_eq!(after["started"], false, "{name}");
                assert_eq!(after[key], serde_json::json!([]), "{name}");
                continue;
            }
            if key == "history" {
                // Since the move list's marks, each entry also has `captured` and
                // `again`; the seat and house are as they were.
                let seat_and_house = |v: &Value| -> Vec<(Value, Value)> {
                    let entries = v.as_array().unwrap().iter();
                    entries
                        .map(|e| (e["seat"].clone(), e["house"].clone()))
                        .collect()
                };
                assert_eq!(
                    seat_and_house(&after[key]),
                    seat_and_house(&before[key]),
                    "{name}"
                );
                continue;
            }
            if key == "players" {
                // Since names (issue 25) every seat has a name, and a computer's spec
                // is under `computer`.
                for seat in 0..2 {
                    let (was, now) = (&before[key][seat], &after[key][seat]);
                    for field in ["seat", "kind", "joined"] {
                        assert_eq!(now[field], was[field], "{name}: {key} {field}");
                    }
                    if !was["name"].is_null() {
                        assert_eq!(now["computer"], was["name"], "{name}: {key}");
                    }
                }
                continue;
            }
            if key == "rules" {
                // Since a game's options became its own (issue 51), a view's rules
                // show only the options its game takes: Kalah's two, no other's.
                let kalah = before["variant"] == "kalah";
                for (field, was) in before[key].as_object().unwrap() {
                    match after[key].get(field) {
                        Some(now) => assert_eq!(now, was, "{name}: rules {field}"),
                        None => assert!(!kalah, "{name}: rules {field} is gone"),
                    }
                }
                let fields = |v: &Value| v.as_object().unwrap().len();
                assert!(
                    fields(&after[key]) <= fields(&before[key]),
                    "{name}: {after}"
                );
                continue;
            }
            if key == "end" && !before[key].is_null() {
                // Since names (issue 25) a computer is named by its level.
                let renamed = before[key]
                    .to_string()
                    .replace("Computer (greedy)", "Greedy bot");
                assert_eq!(after[key].to_string(), renamed, "{name}: {key}");
                continue;
            }
            assert_eq!(after[key], before[key], "{name}: {key}");
        }
        // Its expiry counts from the upgrade, not from its creation.
        let expires_at = after["expires_at"].as_i64().unwrap();
        assert!(expires_at >= now_ms() / 1000 + 23 * 3600, "{name}: {after}");
    }
}

/// Waits until the computer has moved in the game that owed a move; its view then.
async fn computer_has_moved(games: &Games, record: &Value) -> Value {
    let before = &record["computer-to-move"]["view"];
    let id = before["id"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let after = view(games, id).await;
        if after["ply"].as_u64() > before["ply"].as_u64() {
            assert_eq!(after["moves"][0], before["moves"][0]);
            assert_eq!(after["history"][1]["seat"], 2, "{after}");
            return after;
        }
        assert!(
            Instant::now() < deadline,
            "the owed computer move never came"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_migrations_keeps_every_game() {
    let (_tmp, location, record) = fixture();
    let (games, background) = open(&location).await;
    every_game_is_intact(&games, &record).await;
    let played = computer_has_moved(&games, &record).await;

    // The recorded tokens still play: the seat to move in the unfinished game.
    let oware = &record["oware-in-progress"];
    let v = &oware["view"];
    let seat = v["to_move"].as_u64().unwrap() as usize;
    let token = oware["tokens"][seat - 1].as_str().unwrap();
    let request = MoveRequest {
        house: v["legal_moves"][0].as_u64().unwrap().into(),
        ply: v["ply"].as_u64().unwrap(),
    };
    let id = v["id"].as_str().unwrap();
    let client = ClientKey::of_ip([127, 0, 0, 1].into());
    let after = games
        .play(id, Some(token).into(), Ok(request), client)
        .await
        .unwrap();
    assert_eq!(after.ply, v["ply"].as_u64().unwrap() as usize + 1);
    drop((games, background));

    // Opened again (migrations already applied): the same games, the new move kept.
    let (games, _background) = open(&location).await;
    assert_eq!(view(&games, id).await["ply"], after.ply);
    let again = view(&games, played["id"].as_str().unwrap()).await;
    assert_eq!(again["moves"], played["moves"]);
    for (name, game) in games_of(&record) {
        if name != "oware-in-progress" && name != "computer-to-move" {
            let id = game["view"]["id"].as_str().unwrap();
            assert_eq!(
                view(&games, id).await["moves"],
                game["view"]["moves"],
                "{name}"
            );
        }
    }
}

#[test]
fn the_fixture_is_the_schema_before_migrations() {
    let (_tmp, location, record) = fixture();
    let DbLocation::Sqlite(path) = location else {
        unreachable!()
    };
    let conn = rusqlite::Connection::open(path).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(tables, ["games", "moves"]);
    assert_eq!(record.as_object().unwrap().len(), 8);
}

/// A database migrated by a later release (a migration this one does not know) is
/// refused rather than served with a schema this release does not understand.
#[tokio::test]
async fn a_database_from_a_later_release_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let location = DbLocation::Sqlite(tmp.path().join("games.sqlite"));
    drop(
        Store::open(&location, &StoreOptions::default())
            .await
            .unwrap(),
    );
    let DbLocation::Sqlite(path) = &location else {
        unreachable!()
    };
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
         VALUES (99, 'later', '2027-01-01T00:00:00Z', '1')",
        [],
    )
    .unwrap();
    drop(conn);
    let Err(e) = Store::open(&location, &StoreOptions::default()).await else {
        panic!("opened a database from a later release");
    };
    assert!(e.to_string().contains("missing"), "{e}");
}

// ------------------------------------------------- the releases between v0 and V3

/// What the web hardening's release did to a database when it opened it (its
/// store.rs: the v0 schema, then each column it lacked by `ALTER TABLE`, then two
/// indexes), for the columns in `columns`.
const HARDENING_COLUMNS: [(&str, &str); 4] = [
    ("rematch_by", "INTEGER"),
    ("invite", "BLOB"),
    ("activity", "INTEGER"),
    ("finished", "INTEGER"),
];

fn add_hardening_columns(conn: &rusqlite::Connection, columns: &[(&str, &str)]) {
    for (name, kind) in columns {
        conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {name} {kind}"))
            .unwrap();
    }
    if columns.len() == HARDENING_COLUMNS.len() {
        conn.execute_batch(
            "CREATE INDEX IF NOT EXISTS games_activity ON games(activity);
             CREATE INDEX IF NOT EXISTS games_finished ON games(finished);",
        )
        .unwrap();
    }
}

fn sha256(s: &str) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(s.as_bytes()).to_vec()
}

/// The migrations a database has recorded: (version, checksum).
fn recorded(path: &Path) -> Vec<(i64, String)> {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.prepare("SELECT version, checksum FROM refinery_schema_history ORDER BY version")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The migrations a fresh SQLite database records.
async fn fresh_record() -> Vec<(i64, String)> {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("fresh.sqlite");
    let location = DbLocation::Sqlite(path.clone());
    drop(
        Store::open(&location, &StoreOptions::default())
            .await
            .unwrap(),
    );
    recorded(&path)
}

/// Applies the released migrations V1 and V2 (the first release with migrations) to
/// an SQLite connection.
fn first_migrations_sqlite(conn: &mut rusqlite::Connection) {
    let v1 = include_str!("../migrations/sqlite/V1__initial.sql");
    let v2 = include_str!("../migrations/sqlite/V2__shared_work.sql");
    let migrations = [
        refinery::Migration::unapplied("V1__initial", v1).unwrap(),
        refinery::Migration::unapplied("V2__shared_work", v2).unwrap(),
    ];
    refinery::Runner::new(&migrations).run(conn).unwrap();
}

/// A game as the hardening release stored it: player 1 holds `token`, a friend may
/// join with `invite`, created an hour ago.
fn insert_hardening_game(conn: &rusqlite::Connection, id: &str, token: &str, invite: &str) -> i64 {
    let activity = now_ms() - 3_600_000;
    conn.execute(
        "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule, opponent,
                            token1, invite, activity)
         VALUES (?1, 'kalah', 6, 4, 0, 'mover-cannot-move', 'human', ?2, ?3, ?4)",
        rusqlite::params![id, sha256(token), sha256(invite), activity],
    )
    .unwrap();
    activity
}

/// The databases of the hardening release, with all its columns or (a start-up cut
/// short between two `ALTER TABLE`s) some, and with or without the first release with
/// migrations before or after it: each opens, keeps what the hardening stored, and
/// records V3 as a fresh database does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_the_hardening_release_keeps_its_columns() {
    let fresh = fresh_record().await;
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite"))
        .unwrap()
        .count();
    assert_eq!(fresh.len(), files, "every migration of migrations/sqlite");
    for (columns, migrated) in [
        (&HARDENING_COLUMNS[..], false),
        (&HARDENING_COLUMNS[..2], false),
        (&HARDENING_COLUMNS[..], true),
    ] {
        let case = format!("{} columns, V1 and V2 recorded: {migrated}", columns.len());
        let (_tmp, location, record) = fixture();
        let DbLocation::Sqlite(path) = location.clone() else {
            unreachable!()
        };
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        if migrated {
            first_migrations_sqlite(&mut conn);
        }
        add_hardening_columns(&conn, columns);
        let with_invite = columns.len() == HARDENING_COLUMNS.len();
        let activity = with_invite.then(|| insert_hardening_game(&conn, "hardened", "t1", "inv"));
        if with_invite {
            // A finished game the hardening saw end, whose rematch player 1 started.
            conn.execute(
                "UPDATE games SET finished = 1795591800000, rematch_by = 1,
                                  activity = 1795591800000
                 WHERE id = ?1",
                [record["kalah-finished"]["view"]["id"].as_str().unwrap()],
            )
            .unwrap();
        }
        drop(conn);

        let (games, background) = open(&location).await;
        every_game_is_intact(&games, &record).await;
        assert_eq!(recorded(&path), fresh, "{case}");
        if let Some(activity) = activity {
            let v = view(&games, "hardened").await;
            assert_eq!(
                v["expires_at"],
                (activity + 86_400_000).div_euclid(1000),
                "{case}: its activity is kept"
            );
            let join = JoinRequest {
                invite: Some("inv".into()),
                name: None,
            };
            let seat = games.join("hardened", Ok(join)).await.unwrap();
            assert_eq!(seat.seat, 2, "{case}: its invite is kept");
            let finished = view(
                &games,
                record["kalah-finished"]["view"]["id"].as_str().unwrap(),
            )
            .await;
            assert_eq!(
                finished["expires_at"],
                (1_795_591_800_000i64 + 30 * 86_400_000) / 1000,
                "{case}: its end is kept"
            );
        }
        drop((games, background));
        // Opened again: nothing more to migrate, nothing refused.
        let (games, _background) = open(&location).await;
        every_game_is_intact(&games, &record).await;
        assert_eq!(recorded(&path), fresh, "{case}");
    }
}

on_both_backends!(
    a_database_from_the_first_release_with_migrations_gets_v3,
    an_instance_of_the_release_before_shares_the_database_after_v9,
);

/// A database of the first release with migrations (V1 and V2, no V3 columns) with a
/// game in it: V3 on are applied, and the game is kept, its expiry counted from the
/// upgrade; V9 keeps each game's rules (Kalah's options, another game's board) as one value.
async fn a_database_from_the_first_release_with_migrations_gets_v3(db: TestDb) {
    let tmp = tempfile::tempdir().unwrap();
    let location = match &db.location {
        Some(DbLocation::Postgres(url)) => {
            let (mut client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let driver = tokio::spawn(connection);
            let v1 = include_str!("../migrations/postgres/V1__initial.sql");
            let v2 = include_str!("../migrations/postgres/V2__shared_work.sql");
            let migrations = [
                refinery::Migration::unapplied("V1__initial", v1).unwrap(),
                refinery::Migration::unapplied("V2__shared_work", v2).unwrap(),
            ];
            refinery::Runner::new(&migrations)
                .run_async(&mut client)
                .await
                .unwrap();
            client
                .execute(
                    "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule,
                                        opponent, token1)
                     VALUES ('old', 'kalah', 6, 4, false, 'mover-cannot-move', 'human', $1),
                            ('opts', 'kalah', 5, 3, true, 'either-side-empty', 'human', $1),
                            ('ow', 'oware', 4, 3, false, 'mover-cannot-move', 'human', $1)",
                    &[&sha256("t1")],
                )
                .await
                .unwrap();
            drop(client);
            let _ = driver.await;
            DbLocation::Postgres(url.clone())
        }
        Some(DbLocation::Sqlite(_)) => unreachable!(),
        None => {
            let path = tmp.path().join("games.sqlite");
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            first_migrations_sqlite(&mut conn);
            conn.execute(
                "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule,
                                    opponent, token1)
                 VALUES ('old', 'kalah', 6, 4, 0, 'mover-cannot-move', 'human', ?1),
                        ('opts', 'kalah', 5, 3, 1, 'either-side-empty', 'human', ?1),
                        ('ow', 'oware', 4, 3, 0, 'mover-cannot-move', 'human', ?1)",
                [sha256("t1")],
            )
            .unwrap();
            DbLocation::Sqlite(path)
        }
    };
    let store = Store::open(&location, &StoreOptions::default())
        .await
        .unwrap();
    let old = store.load("old").await.unwrap().unwrap();
    assert!(old.activity_ms >= now_ms() - 60_000, "{old:?}");
    assert_eq!(
        (old.invite_hash, old.finished_ms, old.rematch_by),
        (None, None, None)
    );
    let games = Games::new(store);
    let request = MoveRequest { house: 3, ply: 0 };
    let client = ClientKey::of_ip([127, 0, 0, 1].into());
    // Nobody joined: it has not started (and without an invite, nobody can join).
    assert!(
        games
            .play("old", Some("t1").into(), Ok(request), client)
            .await
            .is_err()
    );
    assert_eq!(view(&games, "old").await["started"], false);
    // V9 keeps each game's rules, options and all, as one value.
    for (id, variant, rules) in [
        (
            "old",
            "kalah",
            r#"{"empty_capture":false,"end_rule":"mover-cannot-move","houses":6,"seeds":4}"#,
        ),
        (
            "opts",
            "kalah",
            r#"{"empty_capture":true,"end_rule":"either-side-empty","houses":5,"seeds":3}"#,
        ),
        (
            "ow",
            "oware",
            // A view shows the options its game takes: Oware takes none.
            r#"{"houses":4,"seeds":3}"#,
        ),
    ] {
        let v = view(&games, id).await;
        assert_eq!(v["variant"], variant, "{id}");
        assert_eq!(
            v["rules"],
            serde_json::from_str::<Value>(rules).unwrap(),
            "{id}"
        );
        assert_eq!(
            v["houses"][0].as_array().unwrap().len(),
            v["rules"]["houses"].as_u64().unwrap() as usize
        );
    }
}

/// The statement with which the releases before V9 stored a game's rules (and the
/// columns they must give).
const OLD_INSERT: &str = "INSERT INTO games (id, variant, houses, seeds, empty_capture, end_rule, \
                          opponent, token1, activity) VALUES ('during', 'kalah', 5, 3, TRUE, \
                          'either-side-empty', 'human', $1, 1700000000000)";

/// The rules columns of the releases before V9 of game `id`, as text.
const OLD_COLUMNS: &str = "SELECT variant || ' ' || houses || ' ' || seeds || ' ' || \
                           CASE WHEN empty_capture THEN 'yes' ELSE 'no' END || ' ' || end_rule \
                           FROM games WHERE id = 'mine'";

/// Migrations only add, so that a rolling upgrade keeps the instances of the release
/// before running: after V9 such an instance still stores games as it did (no `rules`),
/// which this release reads, and reads the games this release stores by the five
/// columns it knows, which this release still writes.
async fn an_instance_of_the_release_before_shares_the_database_after_v9(db: TestDb) {
    let tmp = tempfile::tempdir().unwrap();
    let location = db
        .location
        .clone()
        .unwrap_or_else(|| DbLocation::Sqlite(tmp.path().join("games.sqlite")));
    let store = Store::open(&location, &StoreOptions::default())
        .await
        .unwrap();
    let rules = mancala_core::Rules::from_text("kalah(4,3) either-side-empty").unwrap();
    let mine = mancala_web::GameRow {
        id: "mine".into(),
        rules,
        opponent: "human".into(),
        token_hashes: [Some([1; 32]), None],
        ..mancala_web::GameRow::default()
    };
    store.create(&mine).await.unwrap();
    let seen = match &location {
        DbLocation::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let driver = tokio::spawn(connection);
            client.execute(OLD_INSERT, &[&sha256("t")]).await.unwrap();
            let old: String = client.query_one(OLD_COLUMNS, &[]).await.unwrap().get(0);
            drop(client);
            let _ = driver.await;
            old
        }
        DbLocation::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.execute(&OLD_INSERT.replace("$1", "?1"), [sha256("t")])
                .unwrap();
            conn.query_row(OLD_COLUMNS, [], |r| r.get(0)).unwrap()
        }
    };
    assert_eq!(seen, "kalah 4 3 no either-side-empty");
    let during = store.load("during").await.unwrap().unwrap();
    assert_eq!(
        during.rules,
        mancala_core::Rules::from_text("kalah(5,3) empty-capture either-side-empty").unwrap()
    );
}
