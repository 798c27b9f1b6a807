//! The rules core's speed on the four hand-written games, for comparing two builds in
//! one run (docs/speed.md): random games a second and a perft, each printed as one
//! line `name figure`. `cargo run --release -p mancala-core --example kernel_speed`.

use std::time::Instant;

use mancala_core::{Position, RepetitionTracker, Rules, perft};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Random games from the start of `rules`: how many a second.
fn playouts(rules: Rules, games: u32) -> f64 {
    let start = Position::new(rules);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut repetitions = RepetitionTracker::new(&start);
    let track = rules.variant().has_repetition_rule();
    let clock = Instant::now();
    for _ in 0..games {
        let mut p = start;
        repetitions.reset(&start);
        while !p.is_over() {
            let legal = p.legal_moves();
            let before = p;
            p.play_unchecked(legal[rng.random_range(0..legal.len())]);
            if track && repetitions.record(&before, &p) {
                break;
            }
        }
    }
    f64::from(games) / clock.elapsed().as_secs_f64()
}

/// Leaves of a perft a second.
fn perft_rate(rules: Rules, depth: u32) -> f64 {
    let clock = Instant::now();
    let leaves = perft(&Position::new(rules), depth);
    leaves as f64 / clock.elapsed().as_secs_f64()
}

fn main() {
    let kinds = [
        ("kalah(6,4)", Rules::kalah(6, 4)),
        ("oware(6,4)", Rules::oware(6, 4)),
        ("oware-simplified(6,4)", Rules::oware_simplified(6, 4)),
        ("togyzkumalak(9,9)", Rules::togyz_kumalak(9, 9)),
    ];
    for (name, rules) in kinds {
        println!("playouts/s {name} {:.0}", playouts(rules, 200_000));
    }
    println!(
        "perft-leaves/s kalah(6,4) d9 {:.0}",
        perft_rate(Rules::kalah(6, 4), 9)
    );
    println!(
        "perft-leaves/s oware(6,4) d8 {:.0}",
        perft_rate(Rules::oware(6, 4), 8)
    );
}
