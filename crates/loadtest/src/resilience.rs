//! How the load tool rides out a node that goes away: how long a game
//! keeps trying (reconnecting through the same address, sending its move
//! again) before it gives up, the backoff between tries, and whether every
//! game is read back after the run.
//!
//! ```
//! use std::time::Duration;
//! use rochade_loadtest::Resilience;
//! let keep_trying = Resilience::default();
//! assert_eq!(keep_trying.reconnect_for, Duration::from_secs(30));
//! assert!(keep_trying.check_stored);
//! // As the tool was before: the first broken socket ends the game.
//! let fragile = Resilience::none();
//! assert_eq!(fragile.reconnect_for, Duration::ZERO);
//! ```

use std::time::Duration;

use rand::Rng;
use tokio::time::Instant;

/// What the tool does when a socket breaks or the server says `busy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resilience {
    /// How long one move (or one socket) keeps trying after its first
    /// failure: the socket is opened again through the same URL (a proxy
    /// sends it to a live node), the game's state read, and the move sent
    /// again unless the state already holds it. Zero: the first failure
    /// ends the game.
    pub reconnect_for: Duration,
    /// After the run, read every game the tool played back from the server
    /// (`GET /api/games/{id}`, trying again for `reconnect_for`, at least
    /// [`CHECK_AT_LEAST`], over all the games) and compare its stored
    /// moves with those the tool was acknowledged.
    pub check_stored: bool,
}

/// How long the check after the run tries to read one game, at least.
pub const CHECK_AT_LEAST: Duration = Duration::from_secs(10);

impl Default for Resilience {
    /// Thirty seconds of trying, and every game read back after the run.
    fn default() -> Resilience {
        Resilience {
            reconnect_for: Duration::from_secs(30),
            check_stored: true,
        }
    }
}

impl Resilience {
    /// No second try and no check after the run.
    pub fn none() -> Resilience {
        Resilience {
            reconnect_for: Duration::ZERO,
            check_stored: false,
        }
    }
}

/// The first pause after a failure.
const FIRST_PAUSE: Duration = Duration::from_millis(100);

/// The longest pause between two tries.
const LONGEST_PAUSE: Duration = Duration::from_secs(2);

/// Pauses between tries: doubling from [`FIRST_PAUSE`] to
/// [`LONGEST_PAUSE`], each drawn between half and all of its length (so
/// that the games a dead node dropped do not all come back in one
/// instant), within a window counted from the first pause.
#[derive(Debug, Clone)]
pub(crate) struct Backoff {
    /// How long the tries may go on.
    window: Duration,
    /// When the first pause began.
    began: Option<Instant>,
    /// The next pause, before its draw.
    next: Duration,
}

impl Backoff {
    /// Tries for `window` from the first failure.
    pub(crate) fn new(window: Duration) -> Backoff {
        Backoff {
            window,
            began: None,
            next: FIRST_PAUSE,
        }
    }

    /// Pauses before the next try; `false` (at once) when the window has
    /// passed and there is to be no next try.
    pub(crate) async fn pause(&mut self) -> bool {
        let now = Instant::now();
        let until = *self.began.get_or_insert(now) + self.window;
        if now >= until {
            return false;
        }
        let drawn = self.next.mul_f64(rand::rng().random_range(0.5..=1.0));
        tokio::time::sleep_until((now + drawn).min(until)).await;
        self.next = (self.next * 2).min(LONGEST_PAUSE);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn no_window_means_no_second_try() {
        let mut backoff = Backoff::new(Duration::ZERO);
        assert!(!backoff.pause().await);
    }

    #[tokio::test(start_paused = true)]
    async fn pauses_double_up_to_the_longest_within_the_window() {
        let start = Instant::now();
        let mut backoff = Backoff::new(Duration::from_secs(10));
        let mut pauses = Vec::new();
        let mut before = start;
        while backoff.pause().await {
            pauses.push(before.elapsed());
            before = Instant::now();
        }
        // 0.1, 0.2, 0.4, 0.8, 1.6 s, then 2 s each (drawn from half to all).
        assert!(pauses[0] >= FIRST_PAUSE / 2 && pauses[0] <= FIRST_PAUSE);
        assert!(pauses.iter().all(|p| *p <= LONGEST_PAUSE));
        assert!(pauses.len() >= 7, "{pauses:?}");
        let total = start.elapsed();
        assert!(total >= Duration::from_secs(10), "{total:?}");
        assert!(total < Duration::from_secs(10) + LONGEST_PAUSE, "{total:?}");
    }
}
