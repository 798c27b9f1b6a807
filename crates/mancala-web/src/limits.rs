//! Everything the server bounds, with its defaults: computer players, request rates,
//! open live streams, how long games are kept, and who a client is.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::store::Expiry;
use crate::think::ThinkLimits;

/// The server's limits; `Limits::default()` is what `mancala serve` uses unless told
/// otherwise.
///
/// ```
/// let limits = mancala_web::Limits::default();
/// assert_eq!(limits.rates.create.to_string(), "20/60s");
/// assert!(!limits.trust_forwarded_for);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Computer players: time, search size, memory, threads.
    pub think: ThinkLimits,
    /// Requests per client.
    pub rates: RateLimits,
    /// Open live streams.
    pub streams: StreamLimits,
    /// How long games are kept.
    pub expiry: Expiry,
    /// Take the client's address from the last `X-Forwarded-For` entry (the one the
    /// proxy in front of the server added) instead of the connection's peer. Only
    /// behind a proxy that sets it: otherwise any client could claim any address.
    pub trust_forwarded_for: bool,
    /// Mark the session cookie `Secure` (sent over TLS only): the site is served over
    /// TLS, by a proxy in front of it. A trusted proxy's `X-Forwarded-Proto: https`
    /// does the same per request.
    pub secure_cookies: bool,
    /// Accounts: how rated games between the same two count.
    pub accounts: AccountLimits,
    /// Connections: read timeouts and how many one client may hold open.
    pub connections: ConnectionLimits,
}

/// What keeps ratings honest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccountLimits {
    /// The most rated games between the same two accounts that change their ratings
    /// in any 24 hours; later ones are kept as rated but count for nothing (farming a
    /// rating off a second account of one's own gets nowhere). Counted by accounts,
    /// not addresses: many honest players share one address.
    pub rated_per_pair_per_day: u32,
}

impl Default for AccountLimits {
    fn default() -> Self {
        AccountLimits {
            rated_per_pair_per_day: 5,
        }
    }
}

/// Slow or many connections: what one client can hold of the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// How long a connection may take to send a request's headers (and how long it
    /// may sit idle between requests) before it is closed.
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive in full: past it, 408.
    pub body_timeout: Duration,
    /// Connections open at once from one client (an IPv4 address or an IPv6 /64, as
    /// the peer is); more are closed as they are accepted. Not applied with
    /// `trust_forwarded_for`: behind a proxy every connection is the proxy's.
    pub per_client: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            per_client: 256,
        }
    }
}

/// Requests per client, by kind: each a [`Rate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// `POST /api/games` and rematches (each makes a game).
    pub create: Rate,
    /// `POST /api/games/{id}/join`.
    pub join: Rate,
    /// `POST /api/games/{id}/moves`.
    pub moves: Rate,
    /// Opening a live stream (`/live`, `/ws`).
    pub live: Rate,
    /// Reading: `GET /api/games/{id}` and game pages.
    pub read: Rate,
    /// How long a 429 answer is held back before it is sent. A client that floods
    /// without heeding `Retry-After` (one request after another on a connection) then
    /// sends at most one request per this long per connection, instead of keeping the
    /// server busy refusing it.
    pub refusal_delay: Duration,
}

impl Default for RateLimits {
    fn default() -> Self {
        let per_minute = |count| Rate {
            count,
            per: Duration::from_secs(60),
        };
        RateLimits {
            create: per_minute(20),
            join: per_minute(20),
            moves: per_minute(300),
            live: per_minute(60),
            read: per_minute(600),
            refusal_delay: Duration::from_secs(1),
        }
    }
}

/// At most `count` requests in any `per`: a client may spend all `count` at once, and
/// gets one more every `per / count` (a token bucket, the GCRA of the `governor` crate).
/// Written `COUNT/DURATION`, e.g. `20/60s`.
///
/// ```
/// use mancala_web::Rate;
/// let r: Rate = "300/1m".parse().unwrap();
/// assert_eq!((r.count, r.per.as_secs()), (300, 60));
/// assert_eq!(r.to_string(), "300/60s");
/// assert!("0/1s".parse::<Rate>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Requests allowed at once (the burst).
    pub count: u32,
    /// The window in which `count` requests are allowed.
    pub per: Duration,
}

impl Rate {
    /// The time after which one more request is allowed.
    #[must_use]
    pub fn period(&self) -> Duration {
        (self.per / self.count).max(Duration::from_nanos(1))
    }
}

impl FromStr for Rate {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (count, per) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: expected COUNT/DURATION, e.g. 20/60s"))?;
        let count: u32 = count
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{s:?}: the count must be a whole number above 0"))?;
        let per = parse_duration(per)?;
        Ok(Rate { count, per })
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.count, format_duration(self.per))
    }
}

/// Open live streams (server-sent events and WebSockets together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// At most this many open at once from one client.
    pub per_client: usize,
    /// At most this many open at once in all.
    pub total: usize,
    /// How long after a game's end its streams stay open for a rematch: a stream of a
    /// finished game ends once it has carried the view naming the rematch, or when
    /// this has passed since the end without one.
    pub rematch_wait: Duration,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            per_client: 32,
            total: 1000,
            rematch_wait: Duration::from_secs(15 * 60),
        }
    }
}

/// A duration written as a number and a unit: `500ms`, `30s`, `10m`, `24h`, `7d`.
///
/// # Errors
/// A message when `s` is not one.
///
/// ```
/// use mancala_web::parse_duration;
/// assert_eq!(parse_duration("7d").unwrap().as_secs(), 7 * 86_400);
/// assert_eq!(parse_duration("250ms").unwrap().as_millis(), 250);
/// assert!(parse_duration("7").is_err());
/// ```
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("{s:?}: give a unit (ms, s, m, h or d)"))?;
    let (n, unit) = s.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("{s:?}: expected a number and a unit, e.g. 30s"))?;
    let ms = match unit {
        "ms" => 1,
        "s" => 1000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(format!("{s:?}: the unit is one of ms, s, m, h, d")),
    };
    let d = Duration::from_millis(n.saturating_mul(ms));
    if d.is_zero() {
        return Err(format!("{s:?}: must be longer than 0"));
    }
    Ok(d)
}

/// `d` in one of `parse_duration`'s forms: days or hours when whole, else seconds or
/// milliseconds.
#[must_use]
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    for (unit, size) in [("d", 86_400_000), ("h", 3_600_000)] {
        if ms >= size && ms % size == 0 {
            return format!("{}{unit}", ms / size);
        }
    }
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}
