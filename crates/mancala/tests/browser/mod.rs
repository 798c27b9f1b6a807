//! What the browser tests share: finding chromium and its driver (never skipped under
//! CI), starting chromedriver on a free loopback port, and opening a headless session
//! of a given size and colour scheme.

#![allow(dead_code)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};

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

/// How a browser session looks at pages: its size in pixels, the colour scheme, and
/// whether it asks for reduced motion.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// Width and height in CSS pixels.
    pub size: (u32, u32),
    /// The dark colour scheme rather than the light one.
    pub dark: bool,
    /// `prefers-reduced-motion: reduce`.
    pub reduced_motion: bool,
}

impl Look {
    /// A light session of `size`, with motion.
    pub fn new(size: (u32, u32)) -> Look {
        Look {
            size,
            dark: false,
            reduced_motion: false,
        }
    }
}

/// A headless Chromium session with its own profile (`profile`), looking as `look` says.
pub async fn session(driver: &Driver, profile: &std::path::Path, look: Look) -> Client {
    let (width, height) = look.size;
    let mut args = vec![
        "--headless=new".to_owned(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--hide-scrollbars".into(),
        format!("--window-size={width},{height}"),
        format!("--user-data-dir={}", profile.display()),
    ];
    if look.dark {
        args.push("--blink-settings=preferredColorScheme=0".into());
    }
    if look.reduced_motion {
        args.push("--force-prefers-reduced-motion".into());
    }
    let mut options = json!({"binary": "/usr/bin/chromium", "args": args});
    if width < 500 {
        // Chromium's windows are at least 500 px wide: a phone's width is emulated.
        options["mobileEmulation"] = json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "touch": true, "mobile": true}
        });
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    // A session request can find the driver's connection reset while it is still
    // starting up: ask again, a few times, before giving up.
    let url = format!("http://127.0.0.1:{}", driver.1);
    let mut attempts = 0;
    loop {
        attempts += 1;
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            Err(e) if attempts < 3 => {
                eprintln!("WebDriver session attempt {attempts} failed: {e}; retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(e) => panic!("a WebDriver session: {e}"),
        }
    }
}

/// Runs `script` in the page; its value (null when it fails).
pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// Clicks the element with this id (failing the test when there is none).
pub async fn click(c: &Client, id: &str) {
    c.find(fantoccini::Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("no element #{id}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicking #{id}: {e}"));
}

/// Evaluates `expr` in the page until it is truthy; returns its value. After 20 s it
/// fails with `what` and where the page is (address, status line, form error).
pub async fn wait_for(c: &Client, expr: &str, what: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = js(c, &format!("return ({expr});")).await;
        if !(v.is_null() || v == json!(false) || v == json!("")) {
            return v;
        }
        if Instant::now() > deadline {
            let page = js(
                c,
                "return {url: location.href, status: document.getElementById('status')?.textContent, \
                 error: (document.getElementById('form-error') || {}).textContent};",
            )
            .await;
            panic!("timed out waiting for {what}; page: {page}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the home page has built its form (the variants, their boards and
/// options, the computer players) from the server's lists (`catalogue.js`).
pub async fn form_ready(c: &Client) {
    wait_for(
        c,
        "document.body.dataset.form === 'ready'",
        "the home page's form",
    )
    .await;
}
