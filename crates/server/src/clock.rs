//! The server's time: one source every room, timer and scheduler reads,
//! so that a test can move it forward by hand ([`ServerClock::advance`])
//! and a 1+0 game runs out of time without waiting a minute.
//!
//! Server time is Unix milliseconds as the system said at start, then
//! counted on the monotonic clock (a wall-clock jump never moves a game
//! clock), plus whatever was added by hand. A game's own time line is
//! server time minus the game's `epoch` (see [`crate::storage::WriteOp`]).
//!
//! ```
//! use std::time::Duration;
//! use rochade_server::clock::ServerClock;
//! let clock = ServerClock::new();
//! let before = clock.now_ms();
//! clock.advance(Duration::from_secs(61));
//! assert!(clock.now_ms() >= before + 61_000);
//! ```

use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// The server's time.
#[derive(Debug)]
pub struct ServerClock {
    /// Unix milliseconds at `start`.
    wall_at_start: u64,
    /// When the clock was made.
    start: Instant,
    /// Time added by hand, and its changes.
    skew: watch::Sender<Duration>,
}

impl Default for ServerClock {
    fn default() -> ServerClock {
        ServerClock::new()
    }
}

impl ServerClock {
    /// A clock that reads the system's time now.
    pub fn new() -> ServerClock {
        ServerClock {
            wall_at_start: crate::storage::wall_ms(),
            start: Instant::now(),
            skew: watch::Sender::new(Duration::ZERO),
        }
    }

    /// Server time now, in Unix milliseconds.
    pub fn now_ms(&self) -> u64 {
        let elapsed = self.start.elapsed() + *self.skew.borrow();
        self.wall_at_start + elapsed.as_millis() as u64
    }

    /// Moves the time forward by `by`, as if that much had passed.
    pub fn advance(&self, by: Duration) {
        self.skew.send_modify(|skew| *skew += by);
    }

    /// Tells of every [`ServerClock::advance`].
    pub fn changes(&self) -> watch::Receiver<Duration> {
        self.skew.subscribe()
    }

    /// The monotonic instant at which server time reaches `at_ms` (now,
    /// if it has already).
    pub fn instant_of(&self, at_ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(at_ms.saturating_sub(self.now_ms()))
    }
}

/// Moves `clock` forward as standard input says, for tests against the
/// real binary (`rochade serve --test-clock`): each line `advance
/// DURATION` (`250ms`, `90s`, `10d`) adds that much; every line is
/// answered on standard output with `now MS` (server time after it) or
/// `error: …`. Ends with standard input.
pub async fn follow_stdin(clock: std::sync::Arc<ServerClock>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let mut out = tokio::io::stdout();
    while let Ok(Some(line)) = lines.next_line().await {
        let answer = match line.trim().strip_prefix("advance ") {
            Some(by) => match crate::limits::duration("advance", by.trim()) {
                Ok(by) => {
                    clock.advance(by);
                    format!("now {}\n", clock.now_ms())
                }
                Err(e) => format!("error: {e}\n"),
            },
            None if line.trim() == "now" => format!("now {}\n", clock.now_ms()),
            None => format!("error: expected `advance DURATION` or `now`, not `{line}`\n"),
        };
        if out.write_all(answer.as_bytes()).await.is_err() || out.flush().await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn time_runs_and_can_be_advanced() {
        let clock = ServerClock::new();
        let t0 = clock.now_ms();
        tokio::time::advance(Duration::from_millis(1500)).await;
        assert_eq!(clock.now_ms(), t0 + 1500);
        let changes = clock.changes();
        clock.advance(Duration::from_secs(60));
        assert!(changes.has_changed().unwrap_or(false));
        assert_eq!(clock.now_ms(), t0 + 61_500);
        assert_eq!(clock.instant_of(t0), Instant::now());
    }
}
