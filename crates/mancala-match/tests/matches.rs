//! Matches between real players: the stronger side wins them.

use mancala_core::Rules;
use mancala_match::{MatchConfig, run_match};

#[test]
fn deeper_search_beats_greedy() {
    let config = MatchConfig {
        rules: Rules::kalah(6, 4),
        p1: "alphabeta:depth=6".parse().unwrap(),
        p2: "greedy".parse().unwrap(),
        games: 8,
        seed: 2,
        swap: true,
        opening_plies: 2,
        balanced: None,
    };
    let stats = run_match(&config, |_, _| {}).unwrap();
    assert_eq!(stats.games(), 8);
    assert!(stats.score_rate() >= 0.75, "{stats:?}");
}

/// The strongest level without a clock beats a random mover in every game of Togyz
/// Kumalak on the standard board, in either seat. (`expert` is
/// `alphabeta:nodes=400000`: the test plays the level itself, not a cheaper stand-in.)
#[test]
fn expert_beats_random_in_every_game_of_togyz_kumalak() {
    let config = MatchConfig {
        rules: Rules::togyz_kumalak(9, 9),
        p1: "expert".parse().unwrap(),
        p2: "random".parse().unwrap(),
        games: 6,
        seed: 1,
        swap: true,
        opening_plies: 0,
        balanced: None,
    };
    let stats = run_match(&config, |_, _| {}).unwrap();
    assert_eq!(stats.games(), 6);
    assert_eq!(stats.p1_seats(), (3, 3));
    for r in &stats.results {
        assert_eq!(r.p1_points(), 1.0, "game {}: {:?}", r.index, r.outcome);
    }
}
