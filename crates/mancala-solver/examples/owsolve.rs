//! Solves the Oware(6,4) position after the given moves with the cached table:
//! `owsolve TABLE_SEEDS SECONDS M1 M2 ...`.
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_core::{Game, Move, Rules};
use mancala_solver::{OwareTable, SolveConfig, Solver};

fn main() {
    let args: Vec<u16> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let rules = Rules::oware(6, 4);
    let mut game = Game::new(rules);
    for &m in &args[2..] {
        game.play(Move::new(m as u8).unwrap()).unwrap();
    }
    let config = SolveConfig::default()
        .with_table_mb(512)
        .with_time_limit(Duration::from_secs(u64::from(args[1])));
    let mut solver = Solver::new(config);
    if args[0] > 0 {
        let path = OwareTable::cache_path(rules, args[0]);
        let table =
            OwareTable::load_or_build(rules, args[0], path.as_deref(), None, |_| {}).unwrap();
        solver.set_oware_table(Arc::new(table));
    }
    let start = Instant::now();
    let r = solver.solve(&game);
    println!(
        "{} seeds: {:?} in {:.2} s",
        game.position().seeds_in_play(),
        r.map(|s| s.move_values),
        start.elapsed().as_secs_f64()
    );
}
