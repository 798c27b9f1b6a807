//! Every root move's exact value in Kalah: each core takes the next root move and
//! solves it by MTD(f); a core with no move left helps with one still being solved.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use mancala_core::{Move, Position};

use crate::answer::Progress;
use crate::board::Step;
use crate::error::SolveError;
use crate::root::RootFrame;
use crate::state::{FirstGuess, KalahState};

/// A thread helping with a root move another is solving starts its MTD(f) this much
/// higher (per helper), so that the two prove different bounds into the shared table.
const HELPER_GUESS_STEP: i32 = 4;

/// One root move to solve, shared by the threads.
struct RootJob {
    mv: Move,
    step: Step,
    /// The first guess at the gain of the position after it, for its mover.
    guess: i32,
    /// The move's margin, once a thread has it.
    value: Mutex<Option<i32>>,
    /// Set when `value` is; stops the threads still searching it.
    finished: AtomicBool,
}

/// What the threads of one every-move solve share.
struct Shared<'a> {
    state: &'a KalahState,
    jobs: Vec<RootJob>,
    frame: &'a RootFrame<'a>,
    /// Reports bounds on a move's gain (for the root's mover) and the nodes so far.
    report: &'a (dyn Fn(Move, i32, i32, u64) + Sync),
    /// The next job no thread has taken.
    next: AtomicUsize,
}

/// Every legal move of `pos` (not over) with its margin for player 1, in house order,
/// and the nodes searched; each root move's MTD(f) starts from `first_guess`'s guess.
///
/// # Errors
/// [`SolveError::OutOfTime`] when the deadline passes or `stop` is set.
pub(crate) fn solve(
    state: &KalahState,
    pos: &Position,
    first_guess: Option<&FirstGuess>,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    progress: &mut (impl FnMut(Progress) + Send),
) -> Result<(Vec<(Move, i32)>, u64), SolveError> {
    let shape = &state.shape;
    let frame = RootFrame::new(pos, deadline, stop);
    let board = shape.board(pos);
    let progress = Mutex::new(progress);
    let report = |mv: Move, rel_lo: i32, rel_hi: i32, nodes: u64| {
        let (a, b) = (frame.margin(rel_lo), frame.margin(rel_hi));
        let mut report = progress.lock().unwrap_or_else(|e| e.into_inner());
        report(Progress::Bounds {
            mv: Some(mv),
            lower: a.min(b),
            upper: a.max(b),
            nodes,
        });
    };
    let jobs: Vec<RootJob> = (0..shape.h)
        .filter(|&i| board.cell(i) > 0)
        .map(|i| RootJob {
            mv: Move::from_index(i),
            step: shape.play(board, i),
            guess: state.guess(pos, i, first_guess),
            value: Mutex::new(None),
            finished: AtomicBool::new(false),
        })
        .collect();
    let shared = Shared {
        state,
        jobs,
        frame: &frame,
        report: &report,
        next: AtomicUsize::new(0),
    };
    rayon::scope(|scope| {
        for _ in 0..rayon::current_num_threads() {
            scope.spawn(|_| shared.work());
        }
    });
    if frame.failed() {
        return Err(SolveError::OutOfTime);
    }
    let mut values: Vec<(Move, i32)> = shared
        .jobs
        .into_iter()
        .map(|j| {
            let v = j.value.into_inner().unwrap_or_else(|e| e.into_inner());
            (
                j.mv,
                v.expect("every root move is solved unless the solve failed"),
            )
        })
        .collect();
    values.sort_by_key(|&(m, _)| m);
    Ok((values, frame.finish()?))
}

impl Shared<'_> {
    /// One core's work: the next root move no core has taken; when none is left, help
    /// with one still being solved (sharing the table, from another first guess) until
    /// either core finishes it; stop when every move is solved or the solve fails.
    fn work(&self) {
        let mut helping = 0;
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            let (job, offset) = if k < self.jobs.len() {
                (&self.jobs[k], 0)
            } else if let Some(job) = self
                .jobs
                .iter()
                .find(|j| !j.finished.load(Ordering::Relaxed))
            {
                helping += 1;
                (job, HELPER_GUESS_STEP * helping)
            } else {
                break;
            };
            match self.solve_job(job, offset) {
                Some(rel) => {
                    let mut value = job.value.lock().unwrap_or_else(|e| e.into_inner());
                    value.get_or_insert(self.frame.margin(rel));
                    job.finished.store(true, Ordering::Relaxed);
                }
                // Stopped because another thread finished this move: go on.
                None if job.finished.load(Ordering::Relaxed) => {}
                None => {
                    self.frame.fail();
                    break;
                }
            }
        }
    }

    /// `job`'s move's gain for the root's mover, by MTD(f) from its guess plus
    /// `offset`; `None` if the search was stopped.
    fn solve_job(&self, job: &RootJob, offset: i32) -> Option<i32> {
        let mut search = self.state.search(self.frame.deadline, self.frame.stop);
        search.finished = Some(&job.finished);
        let (step, mv) = (job.step, job.mv);
        let rel = match self.state.shape.terminal(step.board) {
            Some(t) => Some(step.gain_with(t)),
            None => {
                let to_rel = |child: i32| step.gain_with(child);
                search
                    .solve(
                        step.board,
                        self.frame.seeds - step.gain,
                        job.guess + offset,
                        |lo, hi, n| {
                            (self.report)(mv, to_rel(lo), to_rel(hi), n);
                        },
                    )
                    .map(to_rel)
            }
        };
        self.frame.add_nodes(search.nodes);
        rel
    }
}
