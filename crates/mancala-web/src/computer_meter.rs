//! The computer players' work as `/metrics` shows it: the moves waiting for a thinker,
//! how long they waited and how long they thought. The thinkers count as they go, with
//! atomics only (no lock on the way); the metrics module registers these same meters.

use std::time::Duration;

use prometheus::{Histogram, HistogramOpts, IntGauge, Registry};

/// The buckets of the waits and thinks, in seconds: from a simple player's
/// microseconds to a long search's seconds (`--max-think-ms`, 2 s by default).
const BUCKETS: [f64; 13] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The meters of the computer moves of one service.
#[derive(Clone)]
pub(crate) struct ComputerMeter {
    waiting: IntGauge,
    wait: Histogram,
    think: Histogram,
}

impl Default for ComputerMeter {
    fn default() -> ComputerMeter {
        let histogram = |name: &str, help: &str| {
            Histogram::with_opts(HistogramOpts::new(name, help).buckets(BUCKETS.to_vec()))
                .expect("a valid histogram")
        };
        ComputerMeter {
            waiting: IntGauge::new(
                "mancala_computer_moves_waiting",
                "Computer moves waiting here for a thinker (or for the same client's \
                 earlier computer move)",
            )
            .expect("a valid gauge"),
            wait: histogram(
                "mancala_computer_wait_seconds",
                "How long computer moves waited for a thinker",
            ),
            think: histogram(
                "mancala_computer_think_seconds",
                "How long computer players thought about a move",
            ),
        }
    }
}

impl ComputerMeter {
    /// Counts a move as waiting until the guard is dropped.
    pub(crate) fn waiting(&self) -> Waiting<'_> {
        self.waiting.inc();
        Waiting(&self.waiting)
    }

    /// A move waited `d` for its thinker.
    pub(crate) fn waited(&self, d: Duration) {
        self.wait.observe(d.as_secs_f64());
    }

    /// A computer player thought `d` about a move.
    pub(crate) fn thought(&self, d: Duration) {
        self.think.observe(d.as_secs_f64());
    }

    /// Adds these meters to `registry`.
    pub(crate) fn register(&self, registry: &Registry) -> prometheus::Result<()> {
        registry.register(Box::new(self.waiting.clone()))?;
        registry.register(Box::new(self.wait.clone()))?;
        registry.register(Box::new(self.think.clone()))
    }
}

/// A computer move counted as waiting while this lives.
pub(crate) struct Waiting<'a>(&'a IntGauge);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.dec();
    }
}
