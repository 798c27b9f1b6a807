//! Why a solve gives no answer.

use mancala_core::Variant;

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The solver does not handle this variant.
    #[error(
        "the solver does not handle {0} (it solves {solvable})",
        solvable = crate::reach::solvable_in_words()
    )]
    Unsupported(Variant),
    /// The problem is too large to solve on this machine.
    #[error("{0}")]
    TooLarge(String),
    /// The endgame database file given with
    /// [`Solver::with_endgame_file`](crate::Solver::with_endgame_file) could not be
    /// read or written.
    #[error("endgame database file {path}: {reason}")]
    EndgameFile {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// The time limit ran out (or the solve was stopped).
    #[error("the solve ran out of time")]
    OutOfTime,
}
