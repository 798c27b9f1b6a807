//! Timing the Kalah endgame database build (`mancala bench endgame`).

use std::time::Instant;

use mancala_core::{Rules, Variant};

use crate::board::{MAX_SOLVER_HOUSES, Shape};
use crate::endgame::Endgame;
use crate::error::SolveError;

/// The speed of building a Kalah endgame database ([`bench_endgame`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameBench {
    /// The largest seed count held.
    pub seeds: usize,
    /// Boards solved (the database's size in bytes).
    pub boards: u64,
    /// Wall time.
    pub seconds: f64,
    /// Threads of the rayon pool it ran in.
    pub threads: usize,
}

impl EndgameBench {
    /// Boards solved per second.
    #[must_use]
    pub fn boards_per_sec(&self) -> f64 {
        self.boards as f64 / self.seconds.max(1e-9)
    }
}

/// Builds the Kalah endgame database of every board of `rules`' size with at most
/// `seeds` seeds in play (one byte a board, `C(seeds + 2H, 2H)` boards), in the current
/// rayon pool, and times it.
///
/// # Errors
/// [`SolveError::Unsupported`] for a variant other than Kalah, [`SolveError::TooLarge`]
/// when the boards cannot be numbered or need more than `max_bytes`.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_solver::bench_endgame;
/// let b = bench_endgame(Rules::kalah(3, 1), 6, 1 << 20).unwrap();
/// assert_eq!(b.boards, 924); // C(6 + 6, 6)
/// assert!(bench_endgame(Rules::kalah(3, 1), 6, 900).is_err());
/// ```
pub fn bench_endgame(
    rules: Rules,
    seeds: usize,
    max_bytes: usize,
) -> Result<EndgameBench, SolveError> {
    if rules.variant() != Variant::Kalah {
        return Err(SolveError::Unsupported(rules.variant()));
    }
    let too_large = || SolveError::TooLarge(format!("a database of {seeds} seeds for {rules}"));
    if rules.houses() > MAX_SOLVER_HOUSES || seeds > 127 {
        return Err(too_large());
    }
    let shape = Shape::new(rules, seeds).ok_or_else(too_large)?;
    let bytes = Endgame::bytes_for(2 * rules.houses(), seeds).ok_or_else(too_large)?;
    if bytes > max_bytes {
        return Err(SolveError::TooLarge(format!(
            "a database of {seeds} seeds for {rules} needs {} MiB, more than the {} MiB \
             allowed",
            bytes >> 20,
            max_bytes >> 20
        )));
    }
    let start = Instant::now();
    let db = Endgame::build(&shape, seeds, |_, _| {}, || false).expect("never stopped");
    Ok(EndgameBench {
        seeds,
        boards: db.bytes() as u64,
        seconds: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    })
}
