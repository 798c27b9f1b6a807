//! Issue 23: the web keeps each game's computer player between its moves (a search
//! keeps its table, `perfect` its solved positions), and lets go of it when the game
//! ends.

use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

use mancala_core::Variant;
use mancala_web::{ClientKey, Games, Limits, MoveRequest, NewGame, Store, ThinkLimits};

fn client() -> ClientKey {
    ClientKey::of_ip(IpAddr::V4(Ipv4Addr::LOCALHOST))
}

fn games(keep_mb: usize) -> Games {
    let limits = Limits {
        think: ThinkLimits {
            keep_mb,
            ..ThinkLimits::default()
        },
        ..Limits::default()
    };
    Games::with_limits(Store::in_memory().unwrap(), limits)
}

/// A game of Kalah(4,3) against a small alpha-beta search; returns its id and token.
async fn new_game(games: &Games) -> (String, String) {
    let grant = games
        .create(NewGame {
            variant: Some(Variant::Kalah),
            houses: Some(4),
            seeds: Some(3),
            opponent: Some("alphabeta:depth=3".into()),
            ..NewGame::default()
        })
        .await
        .unwrap();
    (grant.id.unwrap(), grant.token)
}

/// Waits until the person (seat 1) is to move or the game is over; whether it is
/// over.
async fn wait_for_person(games: &Games, id: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let view = games.view(id).await.unwrap();
        if view.over || view.to_move == Some(1) {
            return view.over;
        }
        assert!(Instant::now() < deadline, "the computer did not answer");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Plays the person's first legal move.
async fn play_first(games: &Games, id: &str, token: &str) {
    let view = games.view(id).await.unwrap();
    let request = MoveRequest {
        house: u128::from(view.legal_moves[0]),
        ply: view.ply as u64,
    };
    games
        .play(id, Some(token).into(), Ok(request), client())
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_computer_player_is_kept_between_moves_and_let_go_at_the_end() {
    let games = games(256);
    let (id, token) = new_game(&games).await;
    play_first(&games, &id, &token).await;
    assert!(!wait_for_person(&games, &id).await);
    let kept = games.think_stats().kept;
    assert_eq!((kept.players, kept.reused), (1, 0), "{kept:?}");
    let mut computer_moves;
    loop {
        play_first(&games, &id, &token).await;
        let over = wait_for_person(&games, &id).await;
        let view = games.view(&id).await.unwrap();
        computer_moves = view.history.iter().filter(|h| h.seat == 2).count();
        if over {
            break;
        }
        // Every computer move after the first was made by the kept player.
        let kept = games.think_stats().kept;
        assert_eq!(kept.players, 1, "{kept:?}");
        assert_eq!(kept.reused as usize, computer_moves - 1, "{kept:?}");
    }
    assert!(computer_moves > 1, "the game was too short to tell");
    assert_eq!(games.think_stats().kept.players, 0, "kept after the end");
    assert_eq!(games.think_stats().kept.memory_mb, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_memory_to_keep_players_every_move_builds_one() {
    let games = games(0);
    let (id, token) = new_game(&games).await;
    for _ in 0..2 {
        play_first(&games, &id, &token).await;
        if wait_for_person(&games, &id).await {
            break;
        }
    }
    let kept = games.think_stats().kept;
    assert_eq!((kept.players, kept.reused), (0, 0), "{kept:?}");
}
