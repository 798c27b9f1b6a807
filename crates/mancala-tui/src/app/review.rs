//! Review of a finished game: its analysis (the engine's `analyse`) computed on a
//! thread of its own, so the screen stays live and shows the progress, then stepped
//! through move by move with each move's label and the best move on the board.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};

use mancala_core::Game;
use mancala_engine::{Analysis, AnalysisProgress, AnalysisSettings, Label, PlyAnalysis, analyse};

/// What the analysis thread says.
enum Update {
    Progress(AnalysisProgress),
    Done(Analysis),
}

/// A game under review: the analysis once it is done, its progress until then, and the
/// move shown.
pub struct Review {
    /// The analysis, once computed.
    pub analysis: Option<Analysis>,
    /// The last progress reported while it is computed.
    pub progress: Option<AnalysisProgress>,
    /// The move shown, from 0 (the first move of the game).
    pub ply: usize,
    /// Moves in the game.
    pub plies: usize,
    rx: Receiver<Update>,
    stop: Arc<AtomicBool>,
}

impl Review {
    /// Starts analysing `game` on a thread of its own, showing its first move.
    pub(crate) fn start(game: &Game) -> Review {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let game = game.clone();
        let flag = Arc::clone(&stop);
        let plies = game.ply();
        let spawned = std::thread::Builder::new()
            .name("mancala-analysis".to_owned())
            .spawn(move || {
                let progress = tx.clone();
                let settings = AnalysisSettings::default();
                let sent = |p| _ = progress.send(Update::Progress(p));
                // Stopped (the review was left): nobody waits for an answer.
                if let Ok(analysis) = analyse(&game, &settings, sent, &flag) {
                    let _ = tx.send(Update::Done(analysis));
                }
            });
        if let Err(e) = spawned {
            panic!("cannot start a thread for the analysis: {e}");
        }
        Review {
            analysis: None,
            progress: None,
            ply: 0,
            plies,
            rx,
            stop,
        }
    }

    /// Takes what the analysis thread said since the last call; whether anything did.
    pub(crate) fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(update) = self.rx.try_recv() {
            changed = true;
            match update {
                Update::Progress(p) => self.progress = Some(p),
                Update::Done(a) => self.analysis = Some(a),
            }
        }
        changed
    }

    /// Whether the analysis is still being computed.
    #[must_use]
    pub fn computing(&self) -> bool {
        self.analysis.is_none()
    }

    /// The analysis of the move shown, once computed.
    #[must_use]
    pub fn entry(&self) -> Option<&PlyAnalysis> {
        self.analysis.as_ref()?.plies.get(self.ply)
    }

    /// Shows the move `delta` moves later (earlier when negative), within the game.
    pub(crate) fn step(&mut self, delta: isize) {
        let last = self.plies.saturating_sub(1);
        self.ply = self.ply.saturating_add_signed(delta).min(last);
    }

    /// Shows the first move (`false`) or the last (`true`).
    pub(crate) fn jump(&mut self, to_end: bool) {
        self.ply = if to_end {
            self.plies.saturating_sub(1)
        } else {
            0
        };
    }
}

impl Drop for Review {
    /// Leaving the review stops its analysis.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What the review calls a move: the analysis's label, or "unclear" for a move an
/// estimate calls a loss no larger than the estimate may be off by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The analysis's label, sure enough to be said.
    Label(Label),
    /// An inaccuracy, mistake or blunder by estimates that may be off by as much.
    Unclear,
}

/// How many seeds a search's estimate may be off by: a loss found from estimates
/// counts only beyond it.
pub const ESTIMATE_MARGIN: i32 = 4;

/// A loss large enough not to matter next to the values: the loss is judged by
/// itself, without the change of sign an estimate near 0 may show for nothing.
const FAR_FROM_ZERO: i32 = 1000;

impl Verdict {
    /// What to call the move of `entry`. Exact values keep their label. Estimates
    /// (games the solver does not answer, before it reaches) are judged by the loss
    /// beyond [`ESTIMATE_MARGIN`] alone, so that "about -3 where another keeps about
    /// +1" is not a blunder; a loss that falls within the margin is "unclear".
    ///
    /// ```
    /// use mancala_engine::{Label, PlyAnalysis};
    /// use mancala_tui::Verdict;
    /// let entry = |best, played, exact| PlyAnalysis {
    ///     ply: 1, mover: 1, played: 4, best: vec![2], value_best: best,
    ///     value_played: played, exact, label: Label::judge(best, played),
    /// };
    /// assert_eq!(Verdict::of(&entry(1, -3, true)), Verdict::Label(Label::Blunder));
    /// assert_eq!(Verdict::of(&entry(1, -3, false)), Verdict::Unclear);
    /// assert_eq!(Verdict::of(&entry(10, -6, false)), Verdict::Label(Label::Blunder));
    /// assert_eq!(Verdict::of(&entry(5, 4, false)), Verdict::Label(Label::Good));
    /// ```
    #[must_use]
    pub fn of(entry: &PlyAnalysis) -> Verdict {
        if entry.exact || matches!(entry.label, Label::Best | Label::Good) {
            return Verdict::Label(entry.label);
        }
        let beyond = entry.value_best - entry.value_played - ESTIMATE_MARGIN;
        match Label::judge(FAR_FROM_ZERO + beyond, FAR_FROM_ZERO) {
            label @ (Label::Mistake | Label::Blunder) => Verdict::Label(label),
            _ => Verdict::Unclear,
        }
    }
}
