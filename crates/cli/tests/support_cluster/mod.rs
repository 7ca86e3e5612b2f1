//! What the tests of several real `rochade serve` nodes share (issue 20):
//! a Redis server of their own, one database for all the nodes, and the
//! nodes themselves, each with its log for a failure.
//!
//! The database is a SQLite file the processes share, or with
//! `ROCHADE_TEST_POSTGRES` (scripts/with-postgres) a fresh PostgreSQL
//! database. Redis is Debian's `redis-server`, started here on a free
//! port; without it a test is skipped, except under CI, where it fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support;

/// How long a test waits for anything a node should do.
pub const WAIT: Duration = Duration::from_secs(20);

/// A process killed when the test ends, however it ends.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A fresh empty directory `rochade-{what}-PID` for one test's files.
pub fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rochade-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `redis-server` on a free port, without persistence; none when the
/// package is not installed (and not under CI).
pub fn redis(dir: &Path) -> Option<(Killed, String)> {
    let host = support::free_host();
    let port = host.rsplit(':').next().expect("port").to_owned();
    let started = Command::new("redis-server")
        .args([
            "--port",
            &port,
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match started {
        Ok(child) => {
            let mut redis = Killed(child);
            pinged(&host, &mut redis.0);
            Some((redis, format!("redis://{host}")))
        }
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "redis-server is needed under CI: {e}"
            );
            eprintln!("skipped: no redis-server ({e})");
            None
        }
    }
}

/// Waits until the Redis server `child` at `host` answers `PING` (the
/// nodes would wait for it too, but a test that starts it says so if it
/// never comes up).
fn pinged(host: &str, child: &mut Child) {
    use std::io::{Read, Write};
    let deadline = Instant::now() + WAIT;
    loop {
        let pong = std::net::TcpStream::connect(host).and_then(|mut tcp| {
            tcp.set_read_timeout(Some(Duration::from_secs(2)))?;
            tcp.write_all(b"PING\r\n")?;
            let mut answer = [0; 7];
            tcp.read_exact(&mut answer)?;
            Ok(answer)
        });
        if pong.is_ok_and(|answer| &answer == b"+PONG\r\n") {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("redis-server at {host} ended: {status}");
        }
        assert!(
            Instant::now() < deadline,
            "redis-server at {host} never answered PING"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Where the nodes keep their games: `dir`'s SQLite file, or the
/// PostgreSQL database `rochade_{label}_PID` (a label per test of one
/// process).
pub fn database(dir: &Path, label: &str) -> String {
    match std::env::var("ROCHADE_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => {
            let name = format!("rochade_{label}_{}", std::process::id());
            rochade_server::storage::postgres_database(&url, &name).expect("a test database")
        }
        _ => dir.join("games.sqlite").to_string_lossy().into_owned(),
    }
}

/// One node.
pub struct Node {
    /// Its name (`--node`).
    pub name: &'static str,
    /// Where it listens.
    pub host: String,
    /// Its log file.
    log: PathBuf,
    /// Its arguments beyond the database, Redis and its name.
    extra: Vec<&'static str>,
    /// The process, while it runs.
    process: Option<Killed>,
}

impl Node {
    /// Starts node `name` and waits until it is ready (`/readyz`).
    pub async fn start(name: &'static str, db: &str, redis: &str, dir: &Path) -> Node {
        Node::start_with(name, db, redis, dir, &[]).await
    }

    /// [`Node::start`] with `extra` arguments to `rochade serve`, each
    /// time it starts.
    pub async fn start_with(
        name: &'static str,
        db: &str,
        redis: &str,
        dir: &Path,
        extra: &[&'static str],
    ) -> Node {
        let mut node = Node {
            name,
            host: support::free_host(),
            log: dir.join(format!("{name}.log")),
            extra: extra.to_vec(),
            process: None,
        };
        node.restart(db, redis).await;
        node
    }

    /// Starts it (again) on its address.
    pub async fn restart(&mut self, db: &str, redis: &str) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_rochade"))
            .args(["serve", "--addr", &self.host, "--db", db, "--redis", redis])
            .args(["--node", self.name])
            .args(&self.extra)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("rochade serve starts");
        let mut process = Killed(child);
        if let Err(why) = support::ready_child(&self.host, WAIT, &mut process.0).await {
            panic!("node {}: {why}\n{}", self.name, self.log());
        }
        self.process = Some(process);
    }

    /// SIGKILL.
    pub fn kill(&mut self) {
        self.process = None;
    }

    /// Sends `signal` (`STOP`, `CONT`) to the running process.
    pub fn signal(&self, signal: &str) {
        let process = self.process.as_ref().expect("the node runs");
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(process.0.id().to_string())
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{signal} node {}", self.name);
    }

    /// Its log so far.
    pub fn log(&self) -> String {
        support::log_of(&self.log)
    }
}

/// The nodes' logs, for a failure.
pub fn logs(nodes: &[&Node]) -> String {
    nodes
        .iter()
        .map(|n| format!("--- {} ---\n{}", n.name, n.log()))
        .collect()
}
