//! The request body read timeout: a body must arrive in full within
//! [`crate::ConnectionLimits::body_timeout`], or the request is answered 408 and its
//! connection closed. A client that drips a body a byte at a time holds a connection
//! (and a task) for that long at most.

use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Reads the request's body in full within `timeout` (the API's bodies are small: at
/// most `most` bytes, a record's), then passes the request on with it.
pub(crate) async fn body_deadline(
    request: Request,
    next: Next,
    timeout: Duration,
    most: usize,
) -> Response {
    let (parts, body) = request.into_parts();
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, most)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            "request body too large, or it broke off",
        ),
        Err(_) => refusal(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "the request body did not arrive within {}",
                crate::limits::format_duration(timeout)
            ),
        ),
    }
}

/// An answer that closes the connection (its body is not read to the end).
fn refusal(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CONNECTION, "close")],
        axum::Json(serde_json::json!({ "error": message })),
    )
        .into_response()
}
