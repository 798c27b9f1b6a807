//! What the browser tests share: finding chromium and its driver (never skipped under
//! CI), and starting chromedriver on a free loopback port.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The chromedriver binary, or `None` (a failure under `CI=true`, a skip elsewhere).
pub fn chromedriver() -> Option<&'static str> {
    let path = "/usr/bin/chromedriver";
    if std::path::Path::new(path).exists() && std::path::Path::new("/usr/bin/chromium").exists() {
        return Some(path);
    }
    let message = "chromium and chromium-driver are not installed (scripts/test.sh installs them)";
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("SKIPPED: {message}");
    None
}

/// A running chromedriver and its port; killed when dropped.
pub struct Driver(pub Child, pub u16);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts chromedriver on a free port and waits until it listens. The port is free when
/// chosen but another process (the other test's driver) can take it before ours binds,
/// so a driver that exits instead of listening is started again on another port.
pub fn start_driver(path: &str) -> Driver {
    for _ in 0..3 {
        let port = free_port();
        let mut child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(Some(_)) = child.try_wait() {
                break; // It exited: try another port.
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Driver(child, port);
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("chromedriver exited three times instead of listening");
}
