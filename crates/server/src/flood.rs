//! A socket that floods: one that goes on sending over its rate limit.
//! The limit drops what comes over it ([`crate::limits::RateLimiter`]);
//! a socket that has had more than [`WINDOW`]'s worth of the limit
//! dropped within one [`WINDOW`] sends at least twice what it may, on
//! and on, and is cut off, so that reading and refusing it costs the
//! others nothing more (issue 20, point 8; `docs/security.md`). A page
//! that sends a burst now and then (a reconnection's catching up) stays
//! far below that.

use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::StreamExt;
use tokio::time::Instant;

use crate::error::{ActionError, ErrorCode};

/// The time over which a socket's dropped messages are counted.
pub const WINDOW: Duration = Duration::from_secs(10);

/// One socket's messages dropped over its limit in the current window.
///
/// ```
/// use rochade_server::flood::{Flood, WINDOW};
/// use tokio::time::Instant;
/// let mut flood = Flood::default();
/// let start = Instant::now();
/// // 20 a second allowed: 200 dropped within ten seconds are tolerated…
/// for _ in 0..200 {
///     assert!(!flood.dropped(start, 20));
/// }
/// // …the 201st is not.
/// assert!(flood.dropped(start, 20));
/// // A new window starts from nothing.
/// let mut flood = Flood::default();
/// for _ in 0..150 {
///     flood.dropped(start, 20);
/// }
/// assert!(!flood.dropped(start + WINDOW, 20));
/// ```
#[derive(Debug, Default, Clone)]
pub struct Flood {
    /// When the current window began (`None`: nothing dropped yet).
    since: Option<Instant>,
    /// Messages dropped since then.
    dropped: u32,
}

impl Flood {
    /// One more message was dropped at `now`, the limit being
    /// `per_second`: whether the socket is to be cut off.
    pub fn dropped(&mut self, now: Instant, per_second: u32) -> bool {
        match self.since {
            Some(since) if now.saturating_duration_since(since) < WINDOW => {}
            _ => {
                self.since = Some(now);
                self.dropped = 0;
            }
        }
        self.dropped = self.dropped.saturating_add(1);
        self.dropped > Flood::tolerated(per_second)
    }

    /// The most messages dropped within one window before the socket is
    /// cut off, for a limit of `per_second`.
    ///
    /// ```
    /// assert_eq!(rochade_server::flood::Flood::tolerated(20), 200);
    /// ```
    pub fn tolerated(per_second: u32) -> u32 {
        per_second.saturating_mul(WINDOW.as_secs() as u32)
    }

    /// What a socket cut off for a limit of `per_second` is told.
    ///
    /// ```
    /// use rochade_server::error::ErrorCode;
    /// let e = rochade_server::flood::Flood::cut_off(20);
    /// assert_eq!(e.code, ErrorCode::RateLimited);
    /// assert_eq!(e.message, "over 200 messages dropped within 10 s: this socket is closed");
    /// ```
    pub fn cut_off(per_second: u32) -> ActionError {
        ActionError::new(
            ErrorCode::RateLimited,
            format!(
                "over {} messages dropped within {} s: this socket is closed",
                Flood::tolerated(per_second),
                WINDOW.as_secs()
            ),
        )
    }
}

/// How long a socket being cut off is still read, so that it reads why.
pub const LINGER: Duration = Duration::from_millis(500);

/// Reads and drops what a socket being cut off still sends, until its
/// close answers the server's or [`LINGER`] has passed. A socket closed
/// with messages unread resets the connection, and the client may lose
/// what it had not read yet: the reason it was cut off.
pub async fn linger<S>(stream: &mut S)
where
    S: futures_util::Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let _ = tokio::time::timeout(LINGER, async {
        while let Some(Ok(frame)) = stream.next().await {
            if matches!(frame, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_counted_window_by_window() {
        let start = Instant::now();
        let mut flood = Flood::default();
        // 19 a second over the limit of 20 for a minute: never cut off.
        for second in 0..60u64 {
            for _ in 0..19 {
                assert!(!flood.dropped(start + Duration::from_secs(second), 20));
            }
        }
        // 21 a second: cut off within the second window at most.
        let mut flood = Flood::default();
        let cut = (0..20u64)
            .flat_map(|second| (0..21).map(move |_| second))
            .find(|&second| flood.dropped(start + Duration::from_secs(second), 20));
        assert_eq!(cut, Some(9));
    }

    #[test]
    fn the_count_never_overflows() {
        let start = Instant::now();
        let mut flood = Flood {
            since: Some(start),
            dropped: u32::MAX,
        };
        assert!(flood.dropped(start, 1));
    }
}
