//! Review of a finished game: its analysis (the engine's `analyse`) computed on a
//! thread of its own, so the screen stays live and shows the progress, then stepped
//! through move by move with each move's label and the best move on the board.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};

use mancala_core::Game;
use mancala_engine::{Analysis, AnalysisProgress, AnalysisSettings, PlyAnalysis, analyse};

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
