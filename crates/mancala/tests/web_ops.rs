//! `mancala serve` as its operator sees it: JSON logs with a request id on every
//! request's line, the metrics on an address of their own and not on the public one,
//! the probes, and the options' help and checks.

mod server;

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;
use server::{Server, TestDb};

on_both_backends!(metrics_are_served_apart_and_not_publicly);

/// `GET` on `url`: the status, the `x-request-id` answered, and the body.
fn get(url: &str, request_id: Option<&str>) -> (u16, String, String) {
    let mut req = ureq::get(url).timeout(Duration::from_secs(10));
    if let Some(id) = request_id {
        req = req.set("x-request-id", id);
    }
    let response = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {url}: {e}"),
    };
    let status = response.status();
    let id = response
        .header("x-request-id")
        .unwrap_or_default()
        .to_owned();
    (status, id, response.into_string().unwrap())
}

/// Waits for a log line of `server` satisfying `found`.
fn wait_for_line(server: &Server, what: &str, found: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        if let Some(line) = server.log().into_iter().find(|l| found(l)) {
            return line;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no log line with {what}: {:#?}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn json_logs_carry_each_request_s_id() {
    let db = TestDb::sqlite();
    let server = Server::start_with(&db, &["--log-format", "json"]);
    let (status, made, _) = get(&format!("{}/api/lobby", server.base), None);
    assert_eq!(status, 200);
    assert!(made.starts_with("mancala-"), "{made}");
    let (status, kept, _) = get(&format!("{}/api/lobby", server.base), Some("proxy-42"));
    assert_eq!((status, kept.as_str()), (200, "proxy-42"));
    let (status, _, _) = get(&format!("{}/healthz", server.base), Some("probe-1"));
    assert_eq!(status, 200);

    for id in [&made, &kept] {
        let line = wait_for_line(&server, id, |l| l.contains(id.as_str()));
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["span"]["request_id"], id.as_str(), "{line}");
        assert_eq!(v["span"]["uri"], "/api/lobby");
        assert_eq!(v["fields"]["status"], 200, "{line}");
        assert_eq!(v["level"], "INFO");
    }
    // Every line is one JSON object, and the probe wrote none at INFO.
    let log = server.log();
    assert!(log.len() > 3);
    for line in &log {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"));
        assert!(v.is_object(), "{line}");
        assert!(
            v["timestamp"].is_string() && v["level"].is_string(),
            "{line}"
        );
    }
    assert!(!log.iter().any(|l| l.contains("probe-1")), "{log:#?}");
}

#[test]
fn text_logs_carry_the_request_id_too() {
    let db = TestDb::sqlite();
    let server = Server::start(&db);
    let (_, id, _) = get(&format!("{}/api/lobby", server.base), None);
    let line = wait_for_line(&server, &id, |l| l.contains(&id));
    assert!(line.contains("finished processing request"), "{line}");
    assert!(
        serde_json::from_str::<Value>(&line).is_err(),
        "text by default"
    );
}

fn metrics_are_served_apart_and_not_publicly(db: TestDb) {
    let server = Server::start_with(&db, &["--metrics-listen", "127.0.0.1:0"]);
    let line = wait_for_line(&server, "the metrics' address", |l| {
        l.contains("metrics on http://")
    });
    let rest = line.split("metrics on http://").nth(1).unwrap();
    let metrics = format!("http://{}", rest.split('/').next().unwrap());
    assert_ne!(metrics, server.base);

    let (status, _, _) = get(&format!("{}/api/lobby", server.base), None);
    assert_eq!(status, 200);
    let (status, _, page) = get(&format!("{}/metrics", server.base), None);
    assert_eq!(status, 404, "not on the public listener");
    assert!(page.contains("Page not found"));
    let (status, _, text) = get(&format!("{metrics}/metrics"), None);
    assert_eq!(status, 200);
    let lobby =
        "mancala_http_request_duration_seconds_count{route=\"/api/lobby\",status=\"200\"} 1";
    assert!(text.contains(lobby), "{text}");
    assert!(text.contains("mancala_db_up{store="), "{text}");
    let pool = text.contains("mancala_db_pool_open ");
    assert_eq!(pool, matches!(db, TestDb::Postgres(..)), "{text}");
    let (status, _, _) = get(&format!("{metrics}/api/lobby"), None);
    assert_eq!(status, 404, "the metrics' address serves nothing else");
    let (status, _, ready) = get(&format!("{}/readyz", server.base), None);
    assert_eq!(status, 200, "{ready}");
}

#[test]
fn the_metrics_token_opens_metrics_on_the_main_listener() {
    let db = TestDb::sqlite();
    let token = "a-token-for-prometheus-only";
    let server = Server::start_with(&db, &["--metrics-token", token]);
    let url = format!("{}/metrics", server.base);
    let (status, _, _) = get(&url, None);
    assert_eq!(status, 401);
    let response = ureq::get(&url)
        .set("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    assert_eq!(response.content_type(), "text/plain");
    assert!(
        response
            .into_string()
            .unwrap()
            .contains("mancala_live_streams_open 0")
    );
}

#[test]
fn a_short_metrics_token_is_refused_from_the_option_or_the_environment() {
    let db = TestDb::sqlite();
    let serve = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_mancala"));
        c.args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.arg())
            .env_remove("MANCALA_METRICS_TOKEN");
        c
    };
    let out = serve().args(["--metrics-token", "short"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--metrics-token") && err.contains("16"),
        "{err}"
    );
    let out = serve()
        .env("MANCALA_METRICS_TOKEN", "short")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 16"));
}

#[test]
fn serve_help_lists_the_operator_s_options() {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for option in [
        "--log-format",
        "json",
        "--metrics-listen",
        "--metrics-token",
        "MANCALA_METRICS_TOKEN",
    ] {
        assert!(help.contains(option), "{option} missing from:\n{help}");
    }
}
