//! Requests to a router as the account tests make them: a cookie, a bearer token, extra
//! headers and a JSON body, and the answer with its JSON.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use mancala_web::SESSION_COOKIE;
use serde_json::Value;
use tower::ServiceExt;

/// A request: method, path, optional cookie, bearer token, extra headers and body.
#[derive(Default)]
pub struct Call<'a> {
    pub cookie: Option<&'a str>,
    pub bearer: Option<&'a str>,
    pub headers: Vec<(&'a str, &'a str)>,
    pub body: Value,
}

/// A request's answer: status, headers and the body as JSON.
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub json: Value,
}

impl Answer {
    /// The session cookie's secret this answer sets.
    pub fn session(&self) -> String {
        let set = self.set_cookie();
        let value = set
            .strip_prefix(&format!("{SESSION_COOKIE}="))
            .unwrap_or_else(|| panic!("no session cookie in {set:?}"));
        value.split(';').next().unwrap().to_owned()
    }

    pub fn set_cookie(&self) -> String {
        self.headers
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    }
}

pub async fn call(r: &Router, method: &str, uri: &str, c: Call<'_>) -> Answer {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "mancala.test");
    if let Some(secret) = c.cookie {
        req = req.header(header::COOKIE, format!("{SESSION_COOKIE}={secret}"));
    }
    if let Some(t) = c.bearer {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    for (name, value) in c.headers {
        req = req.header(name, value);
    }
    let body = if c.body.is_null() {
        Body::empty()
    } else {
        Body::from(c.body.to_string())
    };
    let req = req
        .header(header::CONTENT_TYPE, "application/json")
        .body(body)
        .unwrap();
    let response = r.clone().oneshot(req).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    Answer {
        status: parts.status,
        headers: parts.headers,
        json: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

pub fn body(json: Value) -> Call<'static> {
    Call {
        body: json,
        ..Call::default()
    }
}

pub fn with_cookie(cookie: &str) -> Call<'_> {
    Call {
        cookie: Some(cookie),
        ..Call::default()
    }
}

pub fn bearing(token: &str) -> Call<'_> {
    Call {
        bearer: Some(token),
        ..Call::default()
    }
}
