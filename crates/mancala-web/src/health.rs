//! The probes of a load balancer or a service manager: `GET /healthz` (the process
//! answers; touches nothing else) and `GET /readyz` (the database answers, with every
//! migration this server knows applied).
//!
//! Neither is rate limited nor logged per request at INFO (they come every few
//! seconds); a change of readiness is logged once, with the database's own words,
//! while the answer gives a short reason only (it is public).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::games::Games;
use crate::store::Schema;

/// How long `/readyz` waits for the database: a probe's own timeout should be longer
/// (docs/deploy.md says 3 s), so that it gets the 503 and its reason.
pub(crate) const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /healthz`: 200 whenever the process answers.
pub(crate) async fn healthz() -> Response {
    (
        StatusCode::OK,
        [(axum::http::header::CACHE_CONTROL, "no-store")],
        Json(json!({"status": "ok"})),
    )
        .into_response()
}

/// Whether the server was ready at the last `/readyz`, to log changes only.
#[derive(Clone, Default)]
pub(crate) struct Readiness {
    unready: Arc<AtomicBool>,
}

/// Why the server is not ready: the public reason, and the detail for the log.
struct NotReady {
    reason: String,
    detail: String,
}

impl Readiness {
    /// `GET /readyz`: 200 with the store and its schema version, or 503 with a reason.
    pub(crate) async fn answer(&self, games: &Games) -> Response {
        let probe = games.store().probe();
        let checked = match tokio::time::timeout(READY_TIMEOUT, probe.schema()).await {
            Err(_) => Err(NotReady {
                reason: format!(
                    "the database did not answer within {} s",
                    READY_TIMEOUT.as_secs()
                ),
                detail: "timed out".into(),
            }),
            Ok(Err(e)) => Err(NotReady {
                reason: "the database does not answer".into(),
                detail: e.to_string(),
            }),
            Ok(Ok(schema)) => current(schema),
        };
        let (status, body) = match checked {
            Ok(schema) => {
                if self.unready.swap(false, Ordering::Relaxed) {
                    tracing::info!("ready again: the database answers");
                }
                let body = json!({"status": "ready", "store": probe.backend(), "schema": schema});
                (StatusCode::OK, body)
            }
            Err(NotReady { reason, detail }) => {
                if !self.unready.swap(true, Ordering::Relaxed) {
                    tracing::warn!(%reason, %detail, "not ready");
                }
                let body = json!({"status": "unavailable", "reason": reason});
                (StatusCode::SERVICE_UNAVAILABLE, body)
            }
        };
        (
            status,
            [(axum::http::header::CACHE_CONTROL, "no-store")],
            Json(body),
        )
            .into_response()
    }
}

/// The schema version when it has every migration this server knows.
fn current(schema: Schema) -> Result<i64, NotReady> {
    match schema.applied {
        Some(v) if schema.is_current() => Ok(v),
        applied => {
            let at = applied.map_or("no migration".to_owned(), |v| format!("V{v}"));
            let reason = format!(
                "the database schema is at {at}; this server needs V{}",
                schema.known
            );
            Err(NotReady {
                detail: reason.clone(),
                reason,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schema_behind_the_server_is_not_ready_and_one_ahead_is() {
        let at = |applied| current(Schema { applied, known: 6 }).map_err(|e| e.reason);
        assert_eq!(at(Some(6)), Ok(6));
        assert_eq!(at(Some(7)), Ok(7), "a newer instance migrated: still ready");
        assert_eq!(
            at(Some(5)),
            Err("the database schema is at V5; this server needs V6".into())
        );
        assert_eq!(
            at(None),
            Err("the database schema is at no migration; this server needs V6".into())
        );
    }
}
