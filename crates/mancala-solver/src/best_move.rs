//! A best move of a Kalah position and its value: every core tests root moves against
//! the best value proved so far, so a move that cannot beat it is only refuted, never
//! solved exactly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use mancala_core::{Move, Position};

use crate::answer::Progress;
use crate::board::Step;
use crate::error::SolveError;
use crate::root::RootFrame;
use crate::state::{FirstGuess, KalahState};

/// What the threads of one best-move solve share.
struct Shared<'a> {
    state: &'a KalahState,
    /// The root moves, and where their progress goes, behind one lock.
    root: Mutex<(&'a mut BestRoot, &'a mut (dyn FnMut(Progress) + Send))>,
    /// Signalled whenever a test ends, for threads waiting for one to join or start.
    ready: Condvar,
    frame: &'a RootFrame<'a>,
}

/// A best move of `pos` (not over), its margin for player 1 and the nodes searched.
/// Every core tests root moves against the best value proved so far (sharing the
/// table), so a move that cannot beat it is only refuted, never solved exactly. A core
/// with no such test left joins one in progress, the two splitting its tree through
/// [`Busy`](crate::busy::Busy), instead of waiting: the last tests of a large board
/// are often one long test. A test that a better lower bound makes needless is
/// stopped and made again against that bound ([`BestRoot::record`]).
///
/// # Errors
/// [`SolveError::OutOfTime`] when the deadline passes or `stop` is set.
pub(crate) fn solve(
    state: &KalahState,
    pos: &Position,
    first_guess: Option<&FirstGuess>,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<(Move, i32, u64), SolveError> {
    let frame = RootFrame::new(pos, deadline, stop);
    let mut root = BestRoot::new(state, pos, first_guess);
    let shared = Shared {
        state,
        root: Mutex::new((&mut root, progress)),
        ready: Condvar::new(),
        frame: &frame,
    };
    rayon::scope(|scope| {
        for _ in 0..rayon::current_num_threads() {
            scope.spawn(|_| shared.work());
        }
    });
    if frame.failed() {
        return Err(SolveError::OutOfTime);
    }
    let (mv, value) = root.best();
    let margin = frame.margin(value);
    Ok((mv, margin, frame.finish()?))
}

/// The lock on the root moves, taken whatever a panicking thread left behind.
type RootGuard<'g, 'a> = MutexGuard<'g, (&'a mut BestRoot, &'a mut (dyn FnMut(Progress) + Send))>;

impl<'a> Shared<'a> {
    fn lock(&self) -> RootGuard<'_, 'a> {
        self.root.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One core's work: take the next test ([`BestRoot::next_test`]), or wait for one
    /// to end when there is none; record each result and report the bounds it proves;
    /// stop once the value is decided or the solve fails.
    fn work(&self) {
        let mut guard = self.lock();
        loop {
            if self.frame.failed() || guard.0.decided() {
                break;
            }
            let Some((k, t, done)) = guard.0.next_test(self.frame.seeds) else {
                guard = self.ready.wait(guard).unwrap_or_else(|e| e.into_inner());
                continue;
            };
            let step = guard.0.moves[k].step;
            drop(guard);
            let (v, nodes, aborted) = self.test(step, t, &done);
            guard = self.lock();
            if !aborted {
                guard.0.record(k, t, v, &done);
                let (lo, hi) = guard.0.bounds();
                let (a, b) = (self.frame.margin(lo), self.frame.margin(hi));
                (guard.1)(Progress::Bounds {
                    mv: None,
                    lower: a.min(b),
                    upper: a.max(b),
                    nodes,
                });
            } else if !done.load(Ordering::Relaxed) {
                // Stopped, and not because another thread finished the test.
                self.frame.fail();
            }
            self.ready.notify_all();
        }
        drop(guard);
        self.ready.notify_all();
    }

    /// Tests whether the root move that makes `step` is worth at least `t` (for the
    /// root's mover), stopping early when `done` is set: the fail-soft result, the
    /// nodes every thread has searched so far, and whether the test was stopped.
    fn test(&self, step: Step, t: i32, done: &AtomicBool) -> (i32, u64, bool) {
        let mut search = self.state.search(self.frame.deadline, self.frame.stop);
        search.finished = Some(done);
        let rest = self.frame.seeds - step.gain;
        let v = if step.extra {
            let need = t - step.gain;
            step.gain + search.search(step.board, rest, need - 1, need)
        } else {
            let most = step.gain - t;
            step.gain - search.search(step.board, rest, most, most + 1)
        };
        let searched = self.frame.add_nodes(search.nodes);
        (v, searched + search.nodes, search.aborted)
    }
}

/// A root move of a best-move search: the bounds proved on its value (for the player
/// to move at the root), and the next null-window test to make on it.
struct RootMove {
    mv: Move,
    step: Step,
    lo: i32,
    hi: i32,
    /// Where its next MTD(f) test goes (the last result, or the first guess).
    next_test: i32,
    /// The test threads are running on it, if any.
    running: Option<RunningTest>,
}

/// A test ("is the move worth at least `t`?") in progress on one or more threads.
struct RunningTest {
    t: i32,
    /// How many threads are on it.
    threads: usize,
    /// Set by the first thread to finish it, which stops the others.
    done: Arc<AtomicBool>,
}

/// The root moves of a best-move search. The position's value is the largest of the
/// moves' values: it is known once one move's lower bound is at least every move's
/// upper bound.
struct BestRoot {
    moves: Vec<RootMove>,
}

impl BestRoot {
    /// The root moves of `pos` (not over): exact where the move ends the game, else
    /// with the widest bounds and a first MTD(f) test at `first_guess`'s guess.
    fn new(state: &KalahState, pos: &Position, first_guess: Option<&FirstGuess>) -> BestRoot {
        let shape = &state.shape;
        let board = shape.board(pos);
        let seeds = i32::from(pos.seeds_in_play());
        BestRoot {
            moves: (0..shape.h)
                .filter(|&i| board.cell(i) > 0)
                .map(|i| {
                    let step = shape.play(board, i);
                    let exact = shape.terminal(step.board).map(|t| step.gain_with(t));
                    // The guess is for the player to move after the move.
                    let guess = match exact {
                        Some(v) => v,
                        None => step.gain_with(state.guess(pos, i, first_guess)),
                    };
                    RootMove {
                        mv: Move::from_index(i),
                        step,
                        lo: exact.unwrap_or(-seeds),
                        hi: exact.unwrap_or(seeds),
                        next_test: guess,
                        running: None,
                    }
                })
                .collect(),
        }
    }

    /// The bounds on the position's value.
    fn bounds(&self) -> (i32, i32) {
        let lo = self.moves.iter().map(|m| m.lo).max().expect("a legal move");
        let hi = self.moves.iter().map(|m| m.hi).max().expect("a legal move");
        (lo, hi)
    }

    fn decided(&self) -> bool {
        let (lo, hi) = self.bounds();
        lo == hi
    }

    /// A move whose value reaches the position's (once decided).
    fn best(&self) -> (Move, i32) {
        let (lo, _) = self.bounds();
        let m = self
            .moves
            .iter()
            .find(|m| m.lo == lo)
            .expect("a legal move");
        (m.mv, lo)
    }

    /// The next test for an idle thread, as `(move, t, done)`: a move no thread is
    /// testing that could still beat the best lower bound, tested against ("at least
    /// `t`?") the move's MTD(f) guess, but never below what it must reach to beat the
    /// best lower bound; the move with the best guess first. When every such move is
    /// being tested, the running test with the fewest threads, to join (the threads
    /// share the work through the table and [`Busy`](crate::busy::Busy)). `None` if
    /// nothing is running either.
    fn next_test(&mut self, seeds: i32) -> Option<(usize, i32, Arc<AtomicBool>)> {
        let (lo, _) = self.bounds();
        let fresh = (0..self.moves.len())
            .filter(|&k| self.moves[k].running.is_none() && self.moves[k].hi > lo)
            .max_by_key(|&k| (self.moves[k].lo, self.moves[k].next_test));
        let Some(k) = fresh else {
            let (k, test) = self
                .moves
                .iter_mut()
                .enumerate()
                .filter_map(|(k, m)| Some((k, m.running.as_mut()?)))
                .min_by_key(|(_, test)| test.threads)?;
            test.threads += 1;
            return Some((k, test.t, Arc::clone(&test.done)));
        };
        let m = &mut self.moves[k];
        // At least the move's own lower bound + 1, and more than the best lower bound
        // (unless this move holds it), of the parity of the values, within (lo, hi].
        let floor = if m.lo == lo { m.lo + 1 } else { lo + 1 };
        let mut t = m.next_test.max(floor);
        if (t - seeds).rem_euclid(2) != 0 {
            t += 1;
        }
        let t = t.min(m.hi);
        let done = Arc::new(AtomicBool::new(false));
        m.running = Some(RunningTest {
            t,
            threads: 1,
            done: Arc::clone(&done),
        });
        Some((k, t, done))
    }

    /// Records the fail-soft result `v` of testing move `k` against `t`, unless another
    /// thread on the same test has already, or the test was stopped (which `done`
    /// tells). Stops the tests this makes needless: those of other moves against at
    /// most the best lower bound.
    fn record(&mut self, k: usize, t: i32, v: i32, done: &AtomicBool) {
        if done.swap(true, Ordering::Relaxed) {
            return;
        }
        let m = &mut self.moves[k];
        if v >= t {
            m.lo = m.lo.max(v);
        } else {
            m.hi = m.hi.min(v);
        }
        m.next_test = v;
        m.running = None;
        // A test on another move at or below the best lower bound now asks more than
        // is needed (to beat that bound, not to reach `t`): stop it, so that the move
        // is tested again against the bound, which is cheaper to refute (on Kalah(6,4),
        // seven times cheaper for one move; docs/solver.md).
        let (lo, _) = self.bounds();
        for other in &mut self.moves {
            if other.lo < lo && other.running.as_ref().is_some_and(|test| test.t <= lo) {
                let test = other.running.take().expect("just checked");
                test.done.store(true, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn root(bounds: &[(i32, i32, i32)]) -> BestRoot {
        BestRoot {
            moves: bounds
                .iter()
                .enumerate()
                .map(|(i, &(lo, hi, guess))| RootMove {
                    mv: Move::from_index(i),
                    step: Step {
                        board: Board(0),
                        gain: 0,
                        extra: false,
                    },
                    lo,
                    hi,
                    next_test: guess,
                    running: None,
                })
                .collect(),
        }
    }

    /// Idle threads take fresh tests first, best guess first, then join the running
    /// test with the fewest threads; the first thread to finish a test records it, and
    /// a later result of the same test changes nothing; a better lower bound stops the
    /// tests of other moves it makes needless.
    #[test]
    fn idle_threads_start_tests_then_join_them() {
        let seeds = 10;
        let mut r = root(&[(-10, 10, 2), (-10, 10, 4), (-10, -2, -4)]);
        let (k1, t1, done1) = r.next_test(seeds).unwrap();
        assert_eq!((k1, t1), (1, 4));
        // No lower bound is proved yet, so every move could still be best.
        let (k2, t2, done2) = r.next_test(seeds).unwrap();
        assert_eq!((k2, t2), (0, 2));
        let (k3, _, _) = r.next_test(seeds).unwrap();
        assert_eq!(k3, 2);
        // Every move is being tested: join one (each has one thread), then the others.
        let (j1, tj1, join1) = r.next_test(seeds).unwrap();
        let (j2, _, _) = r.next_test(seeds).unwrap();
        assert_ne!(j1, j2);
        if j1 == k1 {
            assert_eq!(tj1, t1);
            assert!(Arc::ptr_eq(&join1, &done1));
        }

        // Move 1 is at least 6: the first result counts, the joiner's is dropped.
        r.record(k1, t1, 6, &done1);
        assert!(done1.load(Ordering::Relaxed));
        assert_eq!((r.moves[1].lo, r.moves[1].hi), (6, 10));
        r.record(k1, t1, 4, &done1);
        assert_eq!((r.moves[1].lo, r.moves[1].next_test), (6, 6));
        assert!(r.moves[1].running.is_none());
        // The tests of moves 0 (at least 2?) and 2 no longer matter: to be best, a
        // move must now beat 6. They are stopped, and a late result is dropped.
        assert!(done2.load(Ordering::Relaxed));
        assert!(r.moves.iter().all(|m| m.running.is_none()));
        r.record(k2, t2, 0, &done2);
        assert_eq!((r.moves[0].lo, r.moves[0].hi), (-10, 10));
        assert_eq!(r.bounds(), (6, 10));
        // Move 1 goes on above 6, move 0 is tested against 6 (move 2 cannot beat it).
        let (k, t, done1) = r.next_test(seeds).unwrap();
        assert_eq!((k, t), (1, 8));
        let (k, t, done0) = r.next_test(seeds).unwrap();
        assert_eq!((k, t), (0, 8));
        // Move 1 reaches 8: move 0's test against 8 is stopped too, move 1 goes on.
        r.record(1, 8, 8, &done1);
        assert!(done0.load(Ordering::Relaxed));
        let (k, t, _) = r.next_test(seeds).unwrap();
        assert_eq!((k, t), (1, 10));
    }
}
