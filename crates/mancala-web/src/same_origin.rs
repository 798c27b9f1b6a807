//! The refusal of cross-site requests made with the session cookie (CSRF): a request
//! that changes state, carries the cookie, and comes from another site's page is
//! refused with 403.
//!
//! Where the browser says where a request comes from (`Sec-Fetch-Site`), that is
//! believed: only `same-origin` (and `none`, a request the person made themselves)
//! pass. Otherwise the request's `Origin`, or without one its `Referer`, must be this
//! site: the same scheme, host and port. A request with neither (not from a browser's
//! page) passes, as do requests with only bearer tokens: a browser never sends a
//! bearer token on its own.

use axum::extract::{Request, State};
use axum::http::uri::{Authority, Scheme};
use axum::http::{HeaderMap, Method, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::CookieJar;

use crate::caller::SESSION_COOKIE;
use crate::error::GameError;
use crate::games::Games;
use crate::http::ApiError;

/// The middleware: see the module's documentation.
pub(crate) async fn same_origin_with_cookie(
    State(games): State<Games>,
    request: Request,
    next: Next,
) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    let has_cookie = CookieJar::from_headers(request.headers())
        .get(SESSION_COOKIE)
        .is_some();
    if !safe && has_cookie && cross_site(request.headers(), &games) {
        return ApiError::Game(GameError::Forbidden(
            "a request from another site's page with this site's session cookie".into(),
        ))
        .into_response();
    }
    next.run(request).await
}

/// Whether the site is served over TLS: the server says so (`--secure-cookies`), or a
/// trusted proxy in front of it does (`X-Forwarded-Proto: https`).
pub(crate) fn served_over_tls(games: &Games, headers: &HeaderMap) -> bool {
    let limits = games.limits();
    limits.secure_cookies
        || (limits.trust_forwarded_for
            && headers
                .get("x-forwarded-proto")
                .and_then(|p| p.to_str().ok())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https")))
}

/// A scheme, host and port: what makes an origin.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of an absolute URL (`Origin`, `Referer`); `None` for `null` or
    /// anything else without a scheme and a host.
    fn of_url(url: &str) -> Option<Origin> {
        let uri: Uri = url.trim().parse().ok()?;
        let scheme = uri.scheme()?;
        Origin::of(scheme, uri.authority()?)
    }

    fn of(scheme: &Scheme, authority: &Authority) -> Option<Origin> {
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        Some(Origin {
            scheme: scheme.as_str().to_ascii_lowercase(),
            host: authority.host().to_ascii_lowercase(),
            port: authority.port_u16().unwrap_or(default_port),
        })
    }
}

/// This site's origin as the request was sent to it: the scheme it is served over and
/// its `Host`, or behind a trusted proxy the `X-Forwarded-Host` the proxy set (a proxy
/// that rewrites `Host` to its upstream's address would otherwise make every request
/// look cross-site).
fn site_origin(headers: &HeaderMap, games: &Games) -> Option<Origin> {
    let text = |name: &str| headers.get(name).and_then(|h| h.to_str().ok());
    let forwarded = games
        .limits()
        .trust_forwarded_for
        .then(|| text("x-forwarded-host"))
        .flatten()
        .and_then(|h| h.split(',').next_back())
        .map(str::trim);
    let host: Authority = forwarded
        .or_else(|| text(header::HOST.as_str()))?
        .parse()
        .ok()?;
    let scheme = if served_over_tls(games, headers) {
        Scheme::HTTPS
    } else {
        Scheme::HTTP
    };
    Origin::of(&scheme, &host)
}

/// Whether the request comes from another site's page (see the module's
/// documentation).
fn cross_site(headers: &HeaderMap, games: &Games) -> bool {
    let text = |name: header::HeaderName| headers.get(name).and_then(|h| h.to_str().ok());
    if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
        return !matches!(site.trim(), "same-origin" | "none");
    }
    let claimed = match (text(header::ORIGIN), text(header::REFERER)) {
        (Some(origin), _) => origin,
        (None, Some(referer)) => referer,
        (None, None) => return false,
    };
    match (Origin::of_url(claimed), site_origin(headers, games)) {
        (Some(theirs), Some(ours)) => theirs != ours,
        // `Origin: null` (a sandboxed page, a redirect), or no `Host`: not ours.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_its_scheme_host_and_port() {
        let o = |u| Origin::of_url(u);
        assert_eq!(o("http://Example.test"), o("http://example.test:80"));
        assert_eq!(
            o("https://example.test/a/page?x"),
            o("https://example.test:443")
        );
        assert_ne!(o("https://example.test"), o("http://example.test"));
        assert_ne!(o("http://example.test:8080"), o("http://example.test"));
        assert_eq!(o("null"), None);
        assert_eq!(o("ftp://example.test"), None);
    }
}
