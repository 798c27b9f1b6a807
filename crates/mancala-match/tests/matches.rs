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
