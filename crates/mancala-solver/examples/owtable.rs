//! Builds an Oware endgame table and prints each layer's figures:
//! `cargo run --release -p mancala-solver --example owtable -- HOUSES SEEDS TABLE_SEEDS`.
use mancala_core::Rules;
use mancala_solver::OwareTable;

fn main() {
    let args: Vec<u16> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let rules = Rules::oware(args[0] as u8, args[1] as u8);
    let start = std::time::Instant::now();
    OwareTable::build(rules, args[2], None, |l| {
        println!(
            "{:>2} seeds: {:>10} positions, {:>10} exact ({:5.1}%), {:>10} settled, {:6.2} s (total {:6.1} s)",
            l.seeds,
            l.positions,
            l.exact,
            100.0 * l.exact as f64 / l.positions as f64,
            l.settled,
            l.time.as_secs_f64(),
            start.elapsed().as_secs_f64()
        );
    })
    .unwrap();
}
