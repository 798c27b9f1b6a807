//! Who a client is, for per-client limits: the connection's peer address, or behind a
//! trusted proxy the address it forwards.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::{Extensions, HeaderMap, Request};
use tower_governor::GovernorError;
use tower_governor::key_extractor::KeyExtractor;

/// A client as the limits count it: an IPv4 address, or an IPv6 /64 network (one
/// household or server usually holds a whole /64, so counting its addresses one by one
/// would let it multiply its limits).
///
/// ```
/// use mancala_web::ClientKey;
/// let a = ClientKey::of_ip("2001:db8::1".parse().unwrap());
/// let b = ClientKey::of_ip("2001:db8::ffff".parse().unwrap());
/// assert_eq!(a, b);
/// assert_eq!(ClientKey::of_ip("::ffff:10.1.2.3".parse().unwrap()).to_string(), "10.1.2.3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of a client at `ip`.
    #[must_use]
    pub fn of_ip(ip: IpAddr) -> ClientKey {
        match ip {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let bits = u128::from(v6) & !((1u128 << 64) - 1);
                    ClientKey(IpAddr::V6(Ipv6Addr::from(bits)))
                }
            },
        }
    }

    /// The key of a request: the peer's address, or with `trust_forwarded_for` the last
    /// address of its `X-Forwarded-For` header when it has one. A request without a
    /// peer address (a test calling the router directly) counts as `0.0.0.0`.
    #[must_use]
    pub fn of_request(
        headers: &HeaderMap,
        extensions: &Extensions,
        trust_forwarded_for: bool,
    ) -> ClientKey {
        if trust_forwarded_for {
            // The proxy appends the address it saw last; entries before it are the
            // client's own claims.
            let forwarded = headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return ClientKey::of_ip(ip);
            }
        }
        let peer = extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
        ClientKey::of_ip(peer)
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V6(_) => write!(f, "{}/64", self.0),
            IpAddr::V4(_) => write!(f, "{}", self.0),
        }
    }
}

/// The rate limiter's key: the [`ClientKey`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientKeyExtractor {
    pub trust_forwarded_for: bool,
}

impl KeyExtractor for ClientKeyExtractor {
    type Key = ClientKey;

    fn extract<T>(&self, req: &Request<T>) -> Result<ClientKey, GovernorError> {
        Ok(ClientKey::of_request(
            req.headers(),
            req.extensions(),
            self.trust_forwarded_for,
        ))
    }
}
