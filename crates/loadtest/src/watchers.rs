//! What watching a game costs the server: the resident memory that `n`
//! page sockets on a seat add, against `n` NDJSON game streams of the
//! Board API on the same seat (issue "Players", point 12: a stream costs
//! no more than a socket).

use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::client::{ClientError, GameSocket};
use crate::rss_kib;

/// Which kind of watcher to measure. Each kind is measured in a fresh
/// server process: memory a closed watcher frees stays with the process
/// and would be counted again by the next kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Page sockets (`/ws/{game}`) on the seat.
    Sockets,
    /// NDJSON game streams (`/api/board/game/stream/{game}`) of the seat.
    Streams,
}

/// A game to watch, and who may watch it.
#[derive(Debug, Clone)]
pub struct WatchConfig {
    /// What to measure.
    pub kind: Kind,
    /// `127.0.0.1:8080`.
    pub host: String,
    /// The server's process id (Linux: its memory is read from `/proc`).
    pub server_pid: u32,
    /// Watchers of each kind.
    pub watchers: usize,
    /// The game.
    pub game: String,
    /// A seat token of the game (the page's sockets).
    pub seat_token: String,
    /// A Board API token of the same seat's account (the streams).
    pub api_token: String,
}

/// The memory one kind of watcher costs.
#[derive(Debug, Clone, Serialize)]
pub struct WatchReport {
    /// What was measured.
    pub kind: Kind,
    /// Watchers opened.
    pub watchers: usize,
    /// The server's memory before (KiB).
    pub rss_before_kib: u64,
    /// With the first `watchers` open (KiB).
    pub rss_warm_kib: u64,
    /// With twice `watchers` open (KiB).
    pub rss_with_kib: u64,
    /// Memory one more watcher costs (bytes): the second `watchers`'
    /// memory, each.
    pub bytes_each: u64,
}

/// How long the server is given to settle before its memory is read.
const SETTLE: Duration = Duration::from_secs(2);

/// The server's memory now, after settling.
async fn settled(pid: u32) -> Result<u64, ClientError> {
    tokio::time::sleep(SETTLE).await;
    rss_kib(pid).ok_or_else(|| ClientError::BadAnswer(format!("no memory reading for pid {pid}")))
}

/// Opens one Board API stream and reads its first line (`gameFull`).
async fn stream(config: &WatchConfig) -> Result<BufReader<TcpStream>, ClientError> {
    let mut tcp = TcpStream::connect(&config.host).await?;
    let head = format!(
        "GET /api/board/game/stream/{} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\r\n",
        config.game, config.host, config.api_token
    );
    tcp.write_all(head.as_bytes()).await?;
    let mut reader = BufReader::new(tcp);
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).await? == 0 {
            return Err(ClientError::Closed);
        }
        if line.contains("gameFull") {
            return Ok(reader);
        }
    }
}

/// Opens `watchers` watchers of the kind asked, then as many again, and
/// reads what the second ones cost. The first ones take up the memory the
/// allocator kept from what the server freed before (the Argon2 hash of
/// the account made for the streams is tens of MiB): counted from the
/// start, 2,000 sockets measured 0 bytes each, since the server's memory
/// fell while they opened.
///
/// # Errors
///
/// When a socket or stream cannot be opened (raise the server's
/// `sockets_per_seat` and `connections_per_address`), or `/proc` cannot
/// be read.
pub async fn watchers(config: &WatchConfig) -> Result<WatchReport, ClientError> {
    let n = config.watchers.max(1);
    let rss_before_kib = settled(config.server_pid).await?;
    let mut open = Open::default();
    open.more(config, n).await?;
    let rss_warm_kib = settled(config.server_pid).await?;
    open.more(config, n).await?;
    let rss_with_kib = settled(config.server_pid).await?;
    drop(open);
    Ok(WatchReport {
        kind: config.kind,
        watchers: n,
        rss_before_kib,
        rss_warm_kib,
        rss_with_kib,
        bytes_each: rss_with_kib.saturating_sub(rss_warm_kib) * 1024 / n as u64,
    })
}

/// The watchers open.
#[derive(Default)]
struct Open {
    /// Page sockets.
    sockets: Vec<GameSocket>,
    /// Game streams.
    streams: Vec<BufReader<TcpStream>>,
}

impl Open {
    /// Opens `n` more of the kind asked.
    async fn more(&mut self, config: &WatchConfig, n: usize) -> Result<(), ClientError> {
        for _ in 0..n {
            match config.kind {
                Kind::Sockets => {
                    let mut socket =
                        GameSocket::connect(&config.host, &config.game, &config.seat_token).await?;
                    socket.state(Duration::from_secs(10), |_| true).await?;
                    self.sockets.push(socket);
                }
                Kind::Streams => self.streams.push(stream(config).await?),
            }
        }
        Ok(())
    }
}
