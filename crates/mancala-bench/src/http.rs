//! The load's HTTP client: requests to the instances of the site in turn, each claiming
//! an address of its own through `X-Forwarded-For`, and the answers as values.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::Value;

/// A client of the server: an agent and the address it claims through the proxy.
pub(crate) struct Http {
    agent: ureq::Agent,
    /// The instances of the site, taken in turn by this client's requests.
    bases: Vec<String>,
    /// The instance of the next request.
    next: AtomicUsize,
    /// The X-Forwarded-For of every request (the server must trust it to tell clients
    /// apart on loopback), or `None`.
    address: Option<String>,
}

/// An answer: the status and body, or a connection error.
pub(crate) enum Answer {
    Status(u16, Value),
    Io(String),
}

impl Answer {
    pub(crate) fn label(&self) -> String {
        match self {
            Answer::Status(code, _) => code.to_string(),
            Answer::Io(_) => "io".into(),
        }
    }

    pub(crate) fn ok(self) -> Result<Value, String> {
        match self {
            Answer::Status(200..=299, v) => Ok(v),
            Answer::Status(code, v) => Err(format!("{code} {v}")),
            Answer::Io(e) => Err(e),
        }
    }
}

impl Http {
    /// A client of the instances `bases`, starting with the `start`th.
    pub(crate) fn new(bases: &[String], start: usize, address: Option<String>) -> Http {
        Http {
            agent: ureq::AgentBuilder::new()
                .timeout(Duration::from_secs(30))
                .build(),
            bases: bases.to_vec(),
            next: AtomicUsize::new(start),
            address,
        }
    }

    /// The base URL for the next request.
    fn base(&self) -> &str {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.bases.len();
        &self.bases[i]
    }

    pub(crate) fn request(&self, method: &str, path: &str, token: Option<&str>) -> ureq::Request {
        let mut req = self
            .agent
            .request(method, &format!("{}{path}", self.base()));
        if let Some(a) = &self.address {
            req = req.set("X-Forwarded-For", a);
        }
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        req
    }

    pub(crate) fn answer(result: Result<ureq::Response, ureq::Error>) -> Answer {
        match result {
            Ok(r) => Answer::Status(r.status(), r.into_json().unwrap_or(Value::Null)),
            Err(ureq::Error::Status(code, r)) => {
                Answer::Status(code, r.into_json().unwrap_or(Value::Null))
            }
            Err(e) => Answer::Io(e.to_string()),
        }
    }

    pub(crate) fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let req = self.request(method, path, token);
        Http::answer(match body {
            Some(b) => req.send_json(b),
            None => req.call(),
        })
    }

    pub(crate) fn send_bytes(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &[u8],
    ) -> Answer {
        let req = self
            .request(method, path, token)
            .set("Content-Type", "application/json");
        Http::answer(req.send_bytes(body))
    }
}

/// The `n`th address of a group, from the benchmarking range 198.18.0.0/15 (RFC 2544):
/// only ever a header value here, never a destination.
pub(crate) fn address(group: u8, n: u32) -> String {
    format!(
        "198.{}.{}.{}",
        18 + group / 128,
        (group % 128) * 2 + (n / 250) as u8 % 2,
        n % 250 + 1
    )
}

/// The `p` quantile of `sorted` durations, in milliseconds (0 for none).
pub(crate) fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1e3
}
