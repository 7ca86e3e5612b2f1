//! What the tests of the real `rochade` binary share: a free address to
//! serve on, and waiting until the server answers there.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// `127.0.0.1:PORT` on a port nobody uses right now.
pub fn free_host() -> String {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    format!("127.0.0.1:{port}")
}

/// Waits until a server at `host` answers `GET /healthz` with 200, at
/// most `wait`.
///
/// A bare TCP connect is not enough: the free port is an ephemeral one,
/// and a connect to it while nothing listens can meet itself (TCP's
/// simultaneous open), which looks like a listener that then refuses.
pub async fn listening(host: &str, wait: Duration) {
    answering(host, "/healthz", wait).await;
}

/// Waits until the server `child` at `host` answers `GET /readyz` with
/// 200 (as a proxy waits before sending it players: one node of several
/// is ready once its lease has settled), at most `wait`; says why not
/// when it does not: the process ended (with its status), or the time ran
/// out (with what `/readyz` last answered).
pub async fn ready_child(
    host: &str,
    wait: Duration,
    child: &mut std::process::Child,
) -> Result<(), String> {
    let deadline = Instant::now() + wait;
    loop {
        if answers(host, "/readyz").await {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the server ended before it was ready: {status}"));
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "the server was not ready after {wait:?}; /readyz last said: {}",
                said(host, "/readyz").await
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until `GET path` at `host` answers 200, at most `wait`.
async fn answering(host: &str, path: &str, wait: Duration) {
    let deadline = Instant::now() + wait;
    while !answers(host, path).await {
        assert!(
            Instant::now() < deadline,
            "the server never answered {path}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether `GET path` at `host` answers 200.
async fn answers(host: &str, path: &str) -> bool {
    get(host, path)
        .await
        .is_ok_and(|answer| answer.starts_with(b"HTTP/1.1 200"))
}

/// What `GET path` at `host` answers (its status line and body), or why
/// nothing came.
async fn said(host: &str, path: &str) -> String {
    match get(host, path).await {
        Ok(answer) => {
            let text = String::from_utf8_lossy(&answer);
            let status = text.lines().next().unwrap_or_default().to_owned();
            let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
            format!("{status}: {body}")
        }
        Err(e) => e,
    }
}

/// The whole answer to `GET path` at `host`.
async fn get(host: &str, path: &str) -> Result<Vec<u8>, String> {
    let mut tcp = tokio::net::TcpStream::connect(host)
        .await
        .map_err(|e| format!("no connection: {e}"))?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    tcp.write_all(request.as_bytes())
        .await
        .map_err(|e| format!("the request was not taken: {e}"))?;
    let mut answer = Vec::new();
    match tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut answer)).await {
        Ok(Ok(_)) => Ok(answer),
        Ok(Err(e)) => Err(format!("the answer broke off: {e}")),
        Err(_) => Err("no answer within 5 s".to_owned()),
    }
}

/// What a server wrote to its log file, to show when a test fails.
pub fn log_of(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("(no log at {}: {e})", path.display()))
}
