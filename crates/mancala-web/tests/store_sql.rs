//! The store's logic written once over both databases: values reach each column type
//! and come back whole, answers keep the order asked, and a transaction that a
//! statement refused leaves its connection clean for the next request (PostgreSQL
//! aborts such a transaction; a pool of one connection shows whether it was ended).

mod common;

use std::time::Duration;

use common::TestDb;
use mancala_web::{
    ComputerCommit, GameRow, NewMove, Next, PlayState, Progress, StateChange, StateUpdate, Store,
    StoreOptions,
};

fn game(id: &str, opponent: &str) -> GameRow {
    GameRow {
        id: id.into(),
        rules: mancala_core::Rules::from_text("kalah(6,4) empty-capture either-side-empty")
            .unwrap(),
        opponent: opponent.into(),
        token_hashes: [Some([7; 32]), None],
        activity_ms: 1_700_000_000_000,
        ..GameRow::default()
    }
}

fn mv(id: &str, ply: usize, house: u8, next: Next) -> NewMove {
    NewMove {
        game: id.into(),
        ply,
        house,
        next,
        state: None,
    }
}

const LONG: Duration = Duration::from_secs(60);

/// A store on `db` with a single connection (PostgreSQL), so that every request
/// after the first uses the connection the first one left.
async fn single_connection(db: &TestDb) -> Store {
    match &db.location {
        None => Store::in_memory().unwrap(),
        Some(location) => Store::open(location, &StoreOptions { max_connections: 1 })
            .await
            .unwrap(),
    }
}

on_both_backends!(
    every_column_keeps_its_value_at_the_edges,
    progress_answers_in_the_order_asked,
    a_refused_transaction_leaves_its_connection_clean,
);

async fn every_column_keeps_its_value_at_the_edges(db: TestDb) {
    let s = db.store().await;
    // The longest rules value: a game of one's own (its whole description) on its
    // largest board.
    let mut own = mancala_core::description::Description::builtin("ayoayo").unwrap();
    own.key = "edges-of-ayoayo".into();
    (own.board.houses, own.board.seeds) = (own.board.max_houses, own.board.max_seeds);
    let row = GameRow {
        rules: mancala_core::Rules::from_description(own).unwrap(),
        token_hashes: [Some([0; 32]), Some([255; 32])],
        rematch: Some("r".into()),
        rematch_by: Some(2),
        invite_hash: Some([9; 32]),
        activity_ms: i64::MAX,
        finished_ms: Some(i64::MIN),
        version: u64::try_from(i64::MAX).unwrap(),
        deadline_ms: Some(-1),
        rated: true,
        rating: Some("{}".into()),
        ..game("edges", "human")
    };
    s.create(&row).await.unwrap();
    assert_eq!(s.load("edges").await.unwrap(), Some(row));
    assert_eq!(s.load("none").await.unwrap(), None);
}

async fn progress_answers_in_the_order_asked(db: TestDb) {
    let s = db.store().await;
    for id in ["a", "b", "c"] {
        s.create(&game(id, "human")).await.unwrap();
    }
    let asked: Vec<String> = ["c", "gone", "a", "b"].map(String::from).to_vec();
    let found = s.progress(&asked).await.unwrap();
    let order: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(order, ["c", "gone", "a", "b"]);
    assert_eq!(found[1].1, Progress::EXPIRED);
    assert!(!found[0].1.expired);
}

async fn a_refused_transaction_leaves_its_connection_clean(db: TestDb) {
    let s = single_connection(&db).await;
    s.create(&game("g", "greedy")).await.unwrap();
    let computer = Next::Computer { lease: LONG };
    assert!(s.append_move(&mv("g", 0, 1, computer)).await.unwrap());
    // The ply is taken: the insert fails inside the transaction.
    assert_eq!(
        s.append_computer_move(&mv("g", 0, 2, computer))
            .await
            .unwrap(),
        ComputerCommit::PlyTaken
    );
    // The same connection goes on: a read, a write in a transaction, a change of
    // state refused by its version and one accepted.
    assert_eq!(s.load("g").await.unwrap().unwrap().moves, [1]);
    assert_eq!(
        s.append_computer_move(&mv("g", 1, 2, Next::Person))
            .await
            .unwrap(),
        ComputerCommit::Stored
    );
    let change = |seen_version| StateChange {
        game: "g".into(),
        update: StateUpdate {
            seen_version,
            play: PlayState::default(),
            deadline_ms: None,
        },
        keep_plies: None,
        next: Next::Person,
    };
    assert!(!s.change_state(&change(99)).await.unwrap());
    let version = s.load("g").await.unwrap().unwrap().version;
    assert!(s.change_state(&change(version)).await.unwrap());
    let after = s.load("g").await.unwrap().unwrap();
    assert_eq!((after.moves, after.version), (vec![1, 2], version + 1));
}
