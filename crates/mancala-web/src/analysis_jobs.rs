//! The analysis jobs running on this instance and how far each has come: the state
//! the service (`games`) holds for `analysis`, apart from it so that the service does
//! not depend on the module that works on it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mancala_engine::AnalysisProgress;
use serde::Serialize;

use crate::client::ClientKey;

/// The body of a `202 Accepted`: how far the job has come.
///
/// ```text
/// {"status":"analysing","done":12,"of":49}
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PendingView {
    /// `queued` (waiting for a thinker), `table` (waiting for the endgame table),
    /// `analysing` (positions valued: `done` of `of`), or `elsewhere` (another server
    /// instance computes it).
    pub status: &'static str,
    /// Positions valued so far.
    pub done: usize,
    /// Positions to value (the moves and the final position).
    pub of: usize,
}

/// The analysis jobs of this instance, by game, and how many ran.
#[derive(Default)]
pub(crate) struct AnalysisJobs {
    pub(crate) running: Mutex<HashMap<String, Arc<JobProgress>>>,
    pub(crate) started: AtomicU64,
}

/// How far one job has come.
#[derive(Default)]
pub(crate) struct JobProgress {
    /// The client whose request started it (for the per-client cap).
    pub(crate) client: Option<ClientKey>,
    /// 0 queued, 1 table, 2 analysing.
    pub(crate) stage: AtomicUsize,
    pub(crate) done: AtomicUsize,
    pub(crate) of: AtomicUsize,
}

impl JobProgress {
    pub(crate) fn view(&self) -> PendingView {
        PendingView {
            status: match self.stage.load(Ordering::Relaxed) {
                0 => "queued",
                1 => "table",
                _ => "analysing",
            },
            done: self.done.load(Ordering::Relaxed),
            of: self.of.load(Ordering::Relaxed),
        }
    }

    pub(crate) fn note(&self, progress: AnalysisProgress) {
        match progress {
            AnalysisProgress::Table => self.stage.store(1, Ordering::Relaxed),
            AnalysisProgress::Positions { done, of, .. } => {
                self.done.store(done, Ordering::Relaxed);
                self.of.store(of, Ordering::Relaxed);
                self.stage.store(2, Ordering::Relaxed);
            }
        }
    }
}

impl AnalysisJobs {
    /// How many of the jobs here `client` started (waiting or running).
    pub(crate) fn of_client(
        running: &HashMap<String, Arc<JobProgress>>,
        client: ClientKey,
    ) -> usize {
        running
            .values()
            .filter(|j| j.client == Some(client))
            .count()
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<JobProgress>>> {
        // Every critical section leaves the map consistent.
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
