//! Slow and greedy clients against a real listener (issue 56, S5): a connection that
//! never finishes its headers is closed, a body that drips is answered 408, and one
//! client holds only so many connections at once.

use std::time::Duration;

use mancala_web::{ConnectionLimits, Games, Limits, Store, serve};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long a test waits for what should come at once (or after a short timeout):
/// without the limits under test, these waits would be the test's failure.
const PATIENCE: Duration = Duration::from_secs(10);

/// A server with short read timeouts and two connections per client; its address.
async fn server() -> std::net::SocketAddr {
    let limits = Limits {
        connections: ConnectionLimits {
            header_timeout: Duration::from_millis(300),
            body_timeout: Duration::from_millis(300),
            per_client: 2,
        },
        ..Limits::default()
    };
    let games = Games::with_limits(Store::in_memory().unwrap(), limits);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, games, std::future::pending()));
    addr
}

/// Everything the server sends until it closes the connection (or `PATIENCE` runs
/// out, which fails the test).
async fn read_to_close(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let read = tokio::time::timeout(PATIENCE, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open");
    String::from_utf8_lossy(&got).into_owned()
}

/// A complete request on `stream`, kept alive; the status line of its answer.
async fn ask(stream: &mut TcpStream) -> String {
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    let n = tokio::time::timeout(PATIENCE, stream.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap();
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn headers_that_never_end_are_cut_off() {
    let addr = server().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        .await
        .unwrap();
    let answer = read_to_close(&mut stream).await;
    assert!(!answer.contains("200 OK"), "{answer}");
}

#[tokio::test]
async fn a_body_that_drips_is_answered_408() {
    let addr = server().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"vari",
        )
        .await
        .unwrap();
    let answer = read_to_close(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within"), "{answer}");
}

#[tokio::test]
async fn a_client_holds_at_most_its_share_of_connections() {
    let addr = server().await;
    let mut first = TcpStream::connect(addr).await.unwrap();
    let mut second = TcpStream::connect(addr).await.unwrap();
    assert!(ask(&mut first).await.contains("200"));
    assert!(ask(&mut second).await.contains("200"));
    // A third is closed at once, answered nothing.
    let mut third = TcpStream::connect(addr).await.unwrap();
    let _ = third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        .await;
    assert_eq!(read_to_close(&mut third).await, "");
    // Once one closes, a new one is served.
    drop(first);
    let mut again = None;
    for _ in 0..100 {
        let mut fourth = TcpStream::connect(addr).await.unwrap();
        if ask_or_closed(&mut fourth).await {
            again = Some(fourth);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        again.is_some(),
        "a connection freed is one more for the client"
    );
    assert!(ask(&mut second).await.contains("200"), "the others go on");
}

/// Whether a request on `stream` is answered (rather than the connection closed).
async fn ask_or_closed(stream: &mut TcpStream) -> bool {
    if stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        .await
        .is_err()
    {
        return false;
    }
    let mut buf = [0u8; 64];
    matches!(
        tokio::time::timeout(PATIENCE, stream.read(&mut buf)).await,
        Ok(Ok(n)) if n > 0
    )
}
