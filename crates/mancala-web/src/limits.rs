//! What one server allows a computer player, so that nobody who can reach it can hold
//! its cores or its memory: the time, nodes, simulations and table sizes a spec may ask
//! for, and the memory budget that the table-hungry players share.

use mancala_engine::{PlayerSpec, level_spec};

/// Bounds on the computer players of one server (`mancala serve --max-think-ms` etc.).
///
/// A spec that asks for more than a bound is refused when the game is created (422,
/// naming the bound); a spec that names no time (`alphabeta:depth=12`, `mcts:sims=N`)
/// is still stopped at [`ThinkLimits::max_ms`] a move, whatever the board.
///
/// ```
/// use mancala_web::ThinkLimits;
/// let limits = ThinkLimits::default();
/// assert!(limits.check(&"alphabeta:ms=500".parse().unwrap()).is_ok());
/// let e = limits.check(&"alphabeta:ms=100000000".parse().unwrap()).unwrap_err();
/// assert!(e.contains("at most 2000 ms"), "{e}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThinkLimits {
    /// Most milliseconds a move (`ms=`, and the cap on every search).
    pub max_ms: u64,
    /// Most search nodes a move (`nodes=`).
    pub max_nodes: u64,
    /// Most MCTS simulations a move (`sims=`).
    pub max_sims: u64,
    /// Deepest search (`depth=`).
    pub max_depth: u64,
    /// Largest table one player may ask for, in MiB (`hash=`).
    pub max_table_mb: u64,
    /// The MiB that all computer players thinking at once share for their tables: a
    /// player waits for its share before it thinks.
    pub memory_mb: u64,
}

impl Default for ThinkLimits {
    /// Two seconds a move, and budgets a 2-core machine spends in about that time.
    fn default() -> ThinkLimits {
        ThinkLimits {
            max_ms: 2_000,
            max_nodes: 40_000_000,
            max_sims: 2_000_000,
            max_depth: 40,
            max_table_mb: 64,
            memory_mb: 256,
        }
    }
}

/// A spec option and the bound it must respect, with the server option that sets it.
struct Bound {
    key: &'static str,
    unit: &'static str,
    flag: &'static str,
}

const BOUNDS: [Bound; 5] = [
    Bound {
        key: "ms",
        unit: "ms",
        flag: "--max-think-ms",
    },
    Bound {
        key: "nodes",
        unit: "nodes",
        flag: "--max-think-nodes",
    },
    Bound {
        key: "sims",
        unit: "simulations",
        flag: "--max-think-sims",
    },
    Bound {
        key: "depth",
        unit: "plies",
        flag: "--max-think-depth",
    },
    Bound {
        key: "hash",
        unit: "MiB",
        flag: "--max-table-mb",
    },
];

impl ThinkLimits {
    fn bound(&self, key: &str) -> u64 {
        match key {
            "ms" => self.max_ms,
            "nodes" => self.max_nodes,
            "sims" => self.max_sims,
            "depth" => self.max_depth,
            _ => self.max_table_mb,
        }
    }

    /// Whether `spec` stays within these bounds, or a message naming the first bound
    /// it breaks.
    ///
    /// # Errors
    /// The message for the client (and a 422).
    pub fn check(&self, spec: &PlayerSpec) -> Result<(), String> {
        for b in &BOUNDS {
            let Some(value) = spec.option(b.key) else {
                continue;
            };
            let max = self.bound(b.key);
            match value.parse::<u64>() {
                Ok(v) if v <= max => {}
                _ => {
                    return Err(format!(
                        "{spec} asks for {value} {unit}; this server allows at most {max} \
                         {unit} ({flag})",
                        unit = b.unit,
                        flag = b.flag
                    ));
                }
            }
        }
        Ok(())
    }

    /// The spec the server builds for `spec`: a level resolved to its player, and a
    /// search that names no time given [`ThinkLimits::max_ms`], so no spec thinks
    /// longer than that.
    ///
    /// ```
    /// use mancala_web::ThinkLimits;
    /// let limits = ThinkLimits { max_ms: 300, ..ThinkLimits::default() };
    /// let capped = limits.capped(&"medium".parse().unwrap());
    /// assert_eq!(capped.to_string(), "alphabeta:depth=5,ms=300");
    /// assert_eq!(limits.capped(&"perfect".parse().unwrap()).to_string(), "perfect:ms=300");
    /// assert_eq!(limits.capped(&"greedy".parse().unwrap()).to_string(), "greedy");
    /// ```
    #[must_use]
    pub fn capped(&self, spec: &PlayerSpec) -> PlayerSpec {
        let resolved = match level_spec(spec.name()).and_then(|s| s.parse::<PlayerSpec>().ok()) {
            // A level takes a seed; of the players behind the levels, only MCTS uses one.
            Some(level) if level.name() == "mcts" => {
                with_option(&level, "seed", spec.option("seed"))
            }
            Some(level) => level,
            None => spec.clone(),
        };
        if resolved.option("ms").is_some() {
            return resolved;
        }
        let max = self.max_ms.to_string();
        // What each search does with no `ms`, as the engine builds it: alphabeta with
        // no limit at all thinks 500 ms, perfect 1000 ms; with only a depth, nodes or
        // simulations they are bounded by the board, not by time, so they get the cap.
        let unlimited_alphabeta =
            resolved.option("depth").is_none() && resolved.option("nodes").is_none();
        match resolved.name() {
            "alphabeta" if unlimited_alphabeta && self.max_ms >= 500 => resolved,
            "perfect" if self.max_ms >= 1000 => resolved,
            "alphabeta" | "perfect" => with_option(&resolved, "ms", Some(&max)),
            "mcts" => {
                // MCTS with no limit runs 10,000 simulations; keep that, under the cap.
                let sims = resolved
                    .option("sims")
                    .map_or_else(|| "10000".to_owned(), str::to_owned);
                let with_sims = with_option(
                    &resolved,
                    "sims",
                    (resolved.option("sims").is_none()).then_some(sims.as_str()),
                );
                with_option(&with_sims, "ms", Some(&max))
            }
            _ => resolved,
        }
    }

    /// The MiB of tables the player of `spec` (as [`ThinkLimits::capped`] gives it)
    /// may fill: its `hash` option or the engine's default.
    #[must_use]
    pub fn table_mb(spec: &PlayerSpec) -> u64 {
        let default = match spec.name() {
            "alphabeta" => 16,
            "perfect" => 64,
            _ => 0,
        };
        spec.option("hash")
            .and_then(|h| h.parse().ok())
            .unwrap_or(default)
    }
}

/// `spec` with option `key` set to `value` (unchanged when `value` is `None`).
fn with_option(spec: &PlayerSpec, key: &str, value: Option<&str>) -> PlayerSpec {
    let Some(value) = value else {
        return spec.clone();
    };
    let text = spec.to_string();
    let sep = if text.contains(':') { ',' } else { ':' };
    format!("{text}{sep}{key}={value}")
        .parse()
        .unwrap_or_else(|_| spec.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> PlayerSpec {
        s.parse().unwrap()
    }

    #[test]
    fn every_bound_is_named_when_broken() {
        let l = ThinkLimits::default();
        for (s, flag) in [
            ("mcts:sims=4000000000", "--max-think-sims"),
            ("alphabeta:nodes=99999999999", "--max-think-nodes"),
            ("alphabeta:depth=99", "--max-think-depth"),
            ("perfect:hash=100000", "--max-table-mb"),
            ("alphabeta:ms=abc", "--max-think-ms"),
        ] {
            let e = l.check(&spec(s)).unwrap_err();
            assert!(e.contains(flag), "{s}: {e}");
        }
        for s in [
            "easy",
            "medium",
            "hard",
            "expert",
            "perfect",
            "mcts:sims=1000",
            "greedy",
        ] {
            assert!(l.check(&spec(s)).is_ok(), "{s}");
        }
    }

    #[test]
    fn every_search_gets_a_time_cap() {
        let l = ThinkLimits::default();
        for s in [
            "easy",
            "medium",
            "hard",
            "expert",
            "mcts:sims=5",
            "mcts",
            "alphabeta:depth=9",
        ] {
            let c = l.capped(&spec(s));
            assert_eq!(c.option("ms"), Some("2000"), "{s} -> {c}");
        }
        // Players whose own default time is within the bound keep it.
        assert_eq!(l.capped(&spec("alphabeta")).to_string(), "alphabeta");
        assert_eq!(l.capped(&spec("perfect")).to_string(), "perfect");
        assert_eq!(l.capped(&spec("mcts")).option("sims"), Some("10000"));
        assert_eq!(l.capped(&spec("alphabeta:ms=50")).option("ms"), Some("50"));
        assert_eq!(
            l.capped(&spec("random:seed=4")).to_string(),
            "random:seed=4"
        );
        assert_eq!(l.capped(&spec("easy:seed=4")).option("seed"), Some("4"));
    }
}

/// Requests a client may make, per minute, with a burst allowance (`mancala serve
/// --rate-*`); one client is one IP address (the peer's, or the first of
/// `X-Forwarded-For` behind a trusted proxy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Games created a minute.
    pub create_per_min: u32,
    /// Seats joined (and rematches asked) a minute.
    pub join_per_min: u32,
    /// Moves a minute.
    pub moves_per_min: u32,
    /// Live streams opened a minute.
    pub streams_per_min: u32,
    /// Requests of each kind a client may make at once before the rate applies.
    pub burst: u32,
}

impl Default for RateLimits {
    /// Generous for people (several moves a second in bursts, a move a second
    /// sustained per player of a household behind one address), tight for floods.
    fn default() -> RateLimits {
        RateLimits {
            create_per_min: 30,
            join_per_min: 60,
            moves_per_min: 240,
            streams_per_min: 120,
            burst: 60,
        }
    }
}

impl RateLimits {
    /// No practical limit: for tests of other things, and for servers behind a proxy
    /// that limits rates itself.
    #[must_use]
    pub fn unlimited() -> RateLimits {
        RateLimits {
            create_per_min: 6_000_000,
            join_per_min: 6_000_000,
            moves_per_min: 6_000_000,
            streams_per_min: 6_000_000,
            burst: 1_000_000,
        }
    }
}

/// Open live streams allowed at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// For one client.
    pub per_client: usize,
    /// For the whole server.
    pub total: usize,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits {
            per_client: 32,
            total: 4096,
        }
    }
}

/// When games that nobody plays are deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// A game against a friend that nobody joined, this long after it was created.
    pub unstarted: std::time::Duration,
    /// A game in progress with no move for this long.
    pub idle: std::time::Duration,
}

impl Default for Expiry {
    fn default() -> Expiry {
        Expiry {
            unstarted: std::time::Duration::from_secs(24 * 3600),
            idle: std::time::Duration::from_secs(30 * 24 * 3600),
        }
    }
}

/// Everything one server limits: computer thinking, request rates, live streams and
/// the lifetime of games nobody plays.
///
/// ```
/// use mancala_web::ServerLimits;
/// let limits = ServerLimits::default();
/// assert_eq!(limits.think.max_ms, 2000);
/// assert!(!limits.trust_forwarded);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerLimits {
    /// What computer players may spend.
    pub think: ThinkLimits,
    /// Requests per client.
    pub rates: RateLimits,
    /// Open live streams.
    pub streams: StreamLimits,
    /// Deleting games nobody plays.
    pub expiry: Expiry,
    /// Take the client's address from `X-Forwarded-For` (behind a reverse proxy that
    /// sets it); otherwise every client is its peer address.
    pub trust_forwarded: bool,
}
