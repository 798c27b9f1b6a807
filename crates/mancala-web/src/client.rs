//! Who is asking: the client address that rate limits and stream caps count by.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request};
use tower_governor::GovernorError;
use tower_governor::key_extractor::KeyExtractor;

/// The client's address: the first `X-Forwarded-For` address when the server trusts
/// its proxy, otherwise the peer's. Without either (a request made inside the process,
/// as tests do) every such request counts as one unknown client.
///
/// ```
/// use axum::http::HeaderMap;
/// use mancala_web::client_ip;
/// let mut h = HeaderMap::new();
/// h.insert("x-forwarded-for", "203.0.113.7, 10.0.0.1".parse().unwrap());
/// assert_eq!(client_ip(&h, None, true).to_string(), "203.0.113.7");
/// assert_eq!(client_ip(&h, None, false).to_string(), "::");
/// ```
#[must_use]
pub fn client_ip(headers: &HeaderMap, peer: Option<SocketAddr>, trust_forwarded: bool) -> IpAddr {
    let forwarded = trust_forwarded
        .then(|| headers.get("x-forwarded-for")?.to_str().ok())
        .flatten()
        .and_then(|v| v.split(',').next())
        .and_then(|first| first.trim().parse().ok());
    forwarded
        .or_else(|| peer.map(|p| p.ip()))
        .unwrap_or(IpAddr::V6(Ipv6Addr::UNSPECIFIED))
}

/// The peer address axum records when serving with connect info.
pub(crate) fn peer<T>(req: &Request<T>) -> Option<SocketAddr> {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| *addr)
}

/// The client of a request, as a handler's extractor.
pub(crate) struct Client(pub IpAddr);

impl axum::extract::FromRequestParts<crate::Games> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        games: &crate::Games,
    ) -> Result<Client, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| *addr);
        let trust = games.limits().trust_forwarded;
        Ok(Client(client_ip(&parts.headers, peer, trust)))
    }
}

/// The rate limiter's key: [`client_ip`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientKey {
    pub trust_forwarded: bool,
}

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        Ok(client_ip(req.headers(), peer(req), self.trust_forwarded))
    }
}
