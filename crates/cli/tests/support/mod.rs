//! What the tests of the real `rochade` binary share: a free address to
//! serve on, and waiting until the server listens there.
#![allow(dead_code)]

use std::net::TcpListener;
use std::time::{Duration, Instant};

/// `127.0.0.1:PORT` on a port nobody uses right now.
pub fn free_host() -> String {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    format!("127.0.0.1:{port}")
}

/// Waits until something listens at `host`, at most `wait`.
pub async fn listening(host: &str, wait: Duration) {
    let deadline = Instant::now() + wait;
    while tokio::net::TcpStream::connect(host).await.is_err() {
        assert!(Instant::now() < deadline, "the server never listened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
