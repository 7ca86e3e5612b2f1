//! The load tool against a real `rochade serve` killed (SIGKILL) in the
//! middle of a run and started again on the same database: every socket
//! breaks, the games come back after the restart (their moves as stored),
//! and no acknowledged move is lost or repeated.
//!
//! It needs the binary, which a test of this crate cannot build: run it as
//! `ROCHADE_BIN=target/release/rochade cargo test -p rochade-loadtest
//! --test killed_server -- --ignored`. Moved to `crates/cli/tests`, it
//! finds the binary by itself (`CARGO_BIN_EXE_rochade`) and need not be
//! ignored.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use rochade_loadtest::client::get_text;
use rochade_loadtest::{LoadConfig, Resilience, run_with};

/// The `rochade` binary: Cargo's, when this test belongs to its package,
/// else `ROCHADE_BIN`.
fn binary() -> PathBuf {
    option_env!("CARGO_BIN_EXE_rochade")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("ROCHADE_BIN").map(PathBuf::from))
        .expect("ROCHADE_BIN=path/to/rochade")
}

/// A free port of 127.0.0.1, as `127.0.0.1:PORT`.
fn free_host() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    listener.local_addr().expect("address").to_string()
}

/// Starts `rochade serve` on `db` with the limits one address's load
/// needs, its log in `log`, and waits for `/healthz`.
async fn start(host: &str, db: &std::path::Path, log: &std::path::Path) -> Child {
    let log = std::fs::File::create(log).expect("log file");
    let mut child = Command::new(binary())
        .args(["serve", "--addr", host, "--db"])
        .arg(db)
        .args([
            "--limit",
            "games_per_minute=100000",
            "--limit",
            "connections_per_address=100000",
            "--limit",
            "address_messages_per_second=1000000",
        ])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("rochade serve starts");
    for _ in 0..200 {
        if matches!(get_text(host, "/healthz").await, Ok((200, _))) {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("rochade serve did not answer /healthz at {host}");
}

#[tokio::test]
#[ignore = "needs ROCHADE_BIN=path/to/rochade (or move it to crates/cli/tests)"]
async fn a_server_killed_mid_run_loses_and_repeats_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("rochade-killed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("games.sqlite");
    let host = free_host();
    let mut server = start(&host, &db, &dir.join("first.log")).await;

    let mut config = LoadConfig::new(&host, 50);
    config.rate = 5.0;
    config.ramp = Duration::from_secs(1);
    config.duration = Duration::from_secs(8);
    let load = tokio::spawn(run_with(config, Resilience::default()));

    tokio::time::sleep(Duration::from_secs(5)).await;
    server.kill().expect("SIGKILL");
    let _ = server.wait();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut server = start(&host, &db, &dir.join("second.log")).await;

    let report = load.await.expect("joins").expect("runs");
    let _ = server.kill();
    let _ = server.wait();
    let stored = report.stored.clone().expect("read back");
    assert_eq!((report.lost, report.duplicated), (0, 0), "{report:#?}");
    assert!(stored.is_clean(), "{report:#?}");
    assert_eq!(stored.games, report.games_played, "{report:#?}");
    assert!(
        report.reconnects >= 50,
        "every socket came back: {report:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
