//! The exact solver: the final margin under perfect play by both players.
//!
//! Values are *margins*: player 1's final score minus player 2's, when both play
//! perfectly from the position. The solver depends on the rules (`mancala-core`)
//! alone; a caller with a heuristic search can speed it up with first guesses
//! ([`Solver::with_first_guess`]), as the engine's `perfect` player and `mancala
//! solve` do.
//!
//! ```text
//! lib.rs         this facade: the public API, re-exported
//! drive.rs       Solver: the entry points, the Kalah state kept between solves
//! config.rs      SolveConfig, the limits, the estimate, the table and database sizes
//! answer.rs      Solution, EndgameInfo, Progress
//! error.rs       SolveError
//! Kalah:
//!   every_move.rs  every root move's value, each root move on its own thread (idle
//!                  threads help)
//!   best_move.rs   a best move: root moves tested against the best value proved
//!   state.rs       the table, the database and the numbering kept between solves;
//!                  the caller's first guesses (FirstGuess)
//!   kalah.rs       MTD(f) null-window alpha-beta on the seeds still to be won
//!   endgame.rs     every board of <= N seeds, built first on all cores
//!   files.rs       endgame database files
//!   probe.rs       EndgameTable: the database opened to other searches
//!   table.rs       lock-free exact bounds, keyed by the board's number
//!   busy.rs        the positions threads are searching, so that threads on one test
//!                  take different children (simplified ABDADA)
//!   board.rs       the board packed in a u128, moves, numbers
//!   huge_pages.rs  table and database memory on 2 MiB pages (unsafe: madvise)
//!   prefetch.rs    cache prefetch hints (unsafe: an intrinsic)
//! Oware:
//!   oware.rs       every reachable position, one strongly connected set of
//!                  capture-free moves at a time, children first; alpha-beta over
//!                  paths inside a set (the repetition rule) with bounds that hold
//!                  whatever the history
//!   owtable/       OwareTable: the fresh value of every position with few seeds on
//!                  the board, where it is proved, by layers of seeds and splits of
//!                  the captures; kept in a file in the user's cache directory
//! bench.rs       timing the endgame database build
//! ```
//!
//! ```
//! use mancala_core::{Game, Move, Rules};
//! use mancala_solver::{SolveConfig, Solver};
//!
//! let mut solver = Solver::new(SolveConfig::default());
//! let game = Game::new(Rules::kalah(3, 2));
//! let solution = solver.solve(&game).unwrap();
//! // The value is the best of the moves' values for player 1 (who moves first).
//! let best = solution.move_values.iter().map(|&(_, v)| v).max().unwrap();
//! assert_eq!(solution.value, best);
//! assert!(solution.best_moves.iter().all(|m| solution.value_of(*m) == Some(best)));
//! ```

// All the suite's `unsafe` code is in this crate, and only where a measured win needs
// it: `huge_pages.rs` (asking the kernel for huge pages) and `prefetch.rs` (a cache
// prefetch intrinsic) each allow it for one block, with the reason next to it, and
// every unsafe block says why it is sound in a `SAFETY:` comment (which clippy checks).
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod answer;
mod bench;
mod best_move;
mod board;
mod busy;
mod config;
mod drive;
mod endgame;
mod error;
mod every_move;
mod files;
mod huge_pages;
mod kalah;
mod oware;
mod owtable;
mod prefetch;
mod probe;
mod reach;
mod root;
mod state;
mod table;

pub use answer::{EndgameInfo, Progress, Solution};
pub use bench::{EndgameBench, bench_endgame};
pub use config::{Estimate, ExpectedNodes, KALAH_MAX_POSITIONS, OWARE_MAX_SEEDS, SolveConfig};
pub use drive::Solver;
pub use error::SolveError;
pub use owtable::{LayerStats, OwareTable, OwareTableStats};
pub use probe::EndgameTable;
pub use state::FirstGuess;
