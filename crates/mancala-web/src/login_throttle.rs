//! The log-in throttle, which slows down guessing without locking the owner out.
//!
//! Each attempt is counted before its password is checked, so that a throttled guess
//! is never checked:
//! - per username *and* client, strictly: five at once, then one a minute. One client
//!   guessing one account's password gets nowhere, and the owner, from another
//!   address, is not held back by it;
//! - per username from all clients together, loosely: fifty at once, then one every
//!   ten seconds (360 an hour), against guesses spread over many addresses. A client
//!   that has logged in to the account before (the owner's own devices) is not held
//!   back by this one;
//! - per client, whatever the username: twenty at once, then one every fifteen
//!   seconds, against one client trying many accounts.

use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use lru::LruCache;

use crate::client::ClientKey;

/// Log-in attempts per username and client: a burst of five, then one a minute.
const PER_NAME_AND_CLIENT: (u32, Duration) = (5, Duration::from_secs(60));

/// Log-in attempts per username from everywhere: a burst of fifty, then one every ten
/// seconds.
const PER_NAME: (u32, Duration) = (50, Duration::from_secs(10));

/// Log-in attempts per client: a burst of twenty, then one every fifteen seconds.
const PER_CLIENT: (u32, Duration) = (20, Duration::from_secs(15));

/// How many (username, client) pairs that have logged in are remembered.
const KNOWN_PAIRS: usize = 100_000;

fn quota((burst, every): (u32, Duration)) -> Quota {
    Quota::with_period(every)
        .expect("a period above zero")
        .allow_burst(NonZeroU32::new(burst).expect("a burst above zero"))
}

/// The throttle: attempts per (username, client), per username and per client.
pub(crate) struct LoginThrottle {
    by_name_and_client: DefaultKeyedRateLimiter<(String, ClientKey)>,
    by_name: DefaultKeyedRateLimiter<String>,
    by_client: DefaultKeyedRateLimiter<ClientKey>,
    /// The (username, client) pairs that have logged in lately: exempt from the
    /// per-username limit.
    known: Mutex<LruCache<(String, ClientKey), ()>>,
}

impl LoginThrottle {
    pub(crate) fn new() -> LoginThrottle {
        LoginThrottle {
            by_name_and_client: RateLimiter::keyed(quota(PER_NAME_AND_CLIENT)),
            by_name: RateLimiter::keyed(quota(PER_NAME)),
            by_client: RateLimiter::keyed(quota(PER_CLIENT)),
            known: Mutex::new(LruCache::new(
                std::num::NonZeroUsize::new(KNOWN_PAIRS).expect("above zero"),
            )),
        }
    }

    /// Counts an attempt at `name` from `client`; past a limit, the wait in whole
    /// seconds.
    pub(crate) fn attempt(&self, name: &str, client: &ClientKey) -> Result<(), u64> {
        let clock = governor::clock::DefaultClock::default();
        let wait = |n: governor::NotUntil<_>| {
            use governor::clock::Clock;
            n.wait_time_from(clock.now()).as_secs() + 1
        };
        let pair = (name.to_ascii_lowercase(), *client);
        self.by_name_and_client.check_key(&pair).map_err(wait)?;
        if !self.is_known(&pair) {
            self.by_name.check_key(&pair.0).map_err(wait)?;
        }
        self.by_client.check_key(client).map_err(wait)?;
        Ok(())
    }

    /// Notes that `client` logged in to `name`.
    pub(crate) fn logged_in(&self, name: &str, client: &ClientKey) {
        if let Ok(mut known) = self.known.lock() {
            known.put((name.to_ascii_lowercase(), *client), ());
        }
    }

    fn is_known(&self, pair: &(String, ClientKey)) -> bool {
        self.known
            .lock()
            .is_ok_and(|mut known| known.get(pair).is_some())
    }

    /// Forgets the counts of names and clients that have been quiet long enough to
    /// be back to a full burst (called now and then).
    pub(crate) fn forget_idle(&self) {
        self.by_name_and_client.retain_recent();
        self.by_name.retain_recent();
        self.by_client.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> ClientKey {
        ClientKey::of_ip([10, 0, 0, last].into())
    }

    #[test]
    fn one_client_s_guesses_do_not_hold_back_another() {
        let t = LoginThrottle::new();
        for _ in 0..5 {
            assert!(t.attempt("ann", &client(1)).is_ok());
        }
        let wait = t.attempt("Ann", &client(1)).unwrap_err();
        assert!((1..=61).contains(&wait), "{wait}");
        assert!(t.attempt("ann", &client(2)).is_ok(), "the owner elsewhere");
    }

    #[test]
    fn guesses_from_many_clients_meet_the_per_name_limit_but_not_known_clients() {
        let t = LoginThrottle::new();
        t.logged_in("ann", &client(200));
        for c in 0..10 {
            for _ in 0..5 {
                assert!(t.attempt("ann", &client(c)).is_ok());
            }
        }
        assert!(t.attempt("ann", &client(100)).is_err(), "fifty spent");
        assert!(t.attempt("bob", &client(100)).is_ok(), "another name");
        assert!(t.attempt("ANN", &client(200)).is_ok(), "a known client");
    }
}
