//! Serving connections (`mancala serve`): the accept loop, with what protects the
//! server from slow and greedy clients.
//!
//! - A connection that does not send a request's headers within
//!   [`ConnectionLimits::header_timeout`] is closed (hyper's header read timeout; it
//!   also closes a kept-alive connection that starts a request and never finishes
//!   its headers).
//! - A client (an IPv4 address or an IPv6 /64, as the peer is) holds at most
//!   [`ConnectionLimits::per_client`] connections at once: more are closed as soon as
//!   they are accepted. Counted by the peer, since behind a proxy every connection is
//!   the proxy's (raise the figure there, or leave the cap to the proxy).
//! - Bodies are bounded in time by [`crate::api`]'s `body_deadline` middleware.
//!
//! On shutdown, no more connections are accepted, each open one finishes the request
//! it serves, and serving ends when all have closed.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt;

use crate::client::ClientKey;
use crate::limits::ConnectionLimits;

/// The connections open per client.
struct OpenConnections {
    per_client: usize,
    open: Mutex<HashMap<ClientKey, usize>>,
}

/// One open connection of a client: counted until dropped.
struct Held {
    counts: Arc<OpenConnections>,
    client: ClientKey,
}

impl OpenConnections {
    /// Counts a new connection of `client`, unless it holds its share already.
    fn hold(self: &Arc<Self>, client: ClientKey) -> Option<Held> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(client).or_insert(0);
        if *n >= self.per_client {
            return None;
        }
        *n += 1;
        Some(Held {
            counts: Arc::clone(self),
            client,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.counts.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` completes, then lets
/// the open connections finish their requests.
///
/// # Errors
/// Never at present: a failed accept is logged and retried, as `axum::serve` does.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let counts = Arc::new(OpenConnections {
        per_client: limits.per_client.max(1),
        open: Mutex::new(HashMap::new()),
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    // Dropped to tell the connections to finish; closed once they all have.
    let (stop, stopped) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let client = ClientKey::of_ip(peer.ip());
        let Some(held) = counts.hold(client) else {
            tracing::debug!(%client, "connection refused: the client holds its share");
            continue;
        };
        let service = TowerToHyperService::new(app.clone().map_request(
            move |mut req: axum::http::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                req.map(axum::body::Body::new)
            },
        ));
        let conn = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let _held = held;
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                    return;
                }
                _ = stopped.changed() => conn.as_mut().graceful_shutdown(),
            }
            if let Err(e) = conn.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
        });
    }
    drop(stopped);
    // Wakes every connection (`changed` fails once the sender is gone), then waits
    // for them all to close.
    let _ = stop.send(());
    stop.closed().await;
    Ok(())
}

/// After a failed accept: a connection that failed before it was accepted is no
/// matter; anything else (out of file descriptors) is waited out.
async fn accept_failed(e: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %e, "accepting a connection failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
