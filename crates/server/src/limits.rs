//! What one visitor may ask of the server: every limit in one place, with
//! its default, settable by name (`rochade serve --limit NAME=VALUE`), and
//! the rate limiter the limits are enforced with. `docs/security.md` lists
//! them all and says why each is there.
//!
//! ```
//! use rochade_server::limits::Limits;
//! let mut limits = Limits::default();
//! limits.set("robot_think", "3s")?;
//! limits.set("games_per_minute", "10")?;
//! assert_eq!(limits.robot_think.as_secs(), 3);
//! assert!(limits.set("no_such_limit", "1").is_err());
//! # Ok::<(), rochade_server::limits::LimitError>(())
//! ```

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Every limit the server enforces.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    // The robot (docs/security.md, "The robot").
    /// The longest one robot search may take, whatever the clock says.
    pub robot_think: Duration,
    /// Robot searches that run at once (worker threads).
    pub robot_workers: usize,
    /// Robot searches that may wait for a worker.
    pub robot_queue: usize,
    /// Robot games one address may be playing at once (rooms loaded).
    pub robot_games_per_address: usize,

    // Games.
    /// Games one address may create per minute (a burst of the same size).
    pub games_per_minute: u32,
    /// A friend game whose invitation nobody takes is aborted after this.
    pub friend_join: Duration,
    /// An unfinished game with no event for this long is abandoned.
    pub idle_game: Duration,
    /// A player may claim the win when the opponent (a person) has had no
    /// connection to the game for this long (lichess's `claim-victory`).
    pub gone_claim: Duration,
    /// A room with no socket is unloaded after this (loaded again on demand).
    pub unload_after: Duration,
    /// How long an act waits for its commit before its player is answered
    /// "busy: try again" (a slow disk, a database gone away); the room
    /// then unloads, to be loaded again from what is stored.
    pub store_wait: Duration,
    /// Finished games are deleted this long after their end (`None`: kept).
    pub retain_finished: Option<Duration>,
    /// Games aborted before both sides moved are deleted this long after.
    pub retain_aborted: Duration,

    // Connections and sockets.
    /// The largest WebSocket message (the protocol's frame size).
    pub frame: usize,
    /// Time to send a whole HTTP request head.
    pub header_read: Duration,
    /// Time for a new socket to say who it is (`hello`).
    pub handshake: Duration,
    /// A socket that sends nothing (not even a pong) for this long is closed.
    pub socket_idle: Duration,
    /// Open connections one address may hold.
    pub connections_per_address: usize,
    /// Sockets one seat may have open at once.
    pub sockets_per_seat: usize,

    // Messages.
    /// Messages per second per seat token, over all its sockets (a burst of the same size).
    pub messages_per_second: u32,
    /// Messages per second per address, over all its sockets (a burst of the same size).
    pub address_messages_per_second: u32,
    /// Joins and leaves within this window share one state message.
    pub presence_every: Duration,

    // Accounts.
    /// Sign-in attempts one account may receive a minute (a burst of as many).
    pub sign_ins_per_account: u32,
    /// Sign-in attempts one address may make a minute (a burst of as many).
    pub sign_ins_per_address: u32,
    /// Accounts one address may make an hour (a burst of as many).
    pub sign_ups_per_address: u32,

    // Input.
    /// Periods a time control may have.
    pub periods: usize,
    /// Characters a time control text may have.
    pub text: usize,

    // Correspondence.
    /// Leave days each player may book in a calendar year (ICCF 10.1; the
    /// organiser's setting), besides any granted.
    pub leave_days: usize,
    /// After how many days without a move a correspondence game of no
    /// tournament is listed for the site's directors (a tournament sets
    /// its own).
    pub silence_days: u32,
    /// A correspondence player is told their time is running low when this
    /// much is left on their clock.
    pub low_time: Duration,
    /// At most one e-mail digest per player per this long.
    pub digest_every: Duration,
    // Browsers.
    /// Origins (`https://chess.example.org`) besides the server's own
    /// host whose pages may open game sockets.
    pub origins: Vec<String>,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            robot_think: Duration::from_secs(5),
            robot_workers: cores,
            robot_queue: 1024,
            robot_games_per_address: 4,
            games_per_minute: 20,
            friend_join: Duration::from_secs(24 * 3600),
            idle_game: Duration::from_secs(7 * 24 * 3600),
            gone_claim: Duration::from_secs(30),
            unload_after: Duration::from_secs(30),
            store_wait: Duration::from_secs(5),
            retain_finished: None,
            retain_aborted: Duration::from_secs(24 * 3600),
            frame: crate::protocol::MAX_FRAME,
            header_read: Duration::from_secs(10),
            handshake: Duration::from_secs(10),
            socket_idle: Duration::from_secs(75),
            connections_per_address: 64,
            sockets_per_seat: 8,
            messages_per_second: 20,
            address_messages_per_second: 100,
            presence_every: Duration::from_millis(250),
            sign_ins_per_account: 5,
            sign_ins_per_address: 20,
            sign_ups_per_address: 20,
            periods: 5,
            text: 64,
            leave_days: 45,
            silence_days: 14,
            low_time: Duration::from_secs(24 * 3600),
            digest_every: Duration::from_secs(3600),
            origins: Vec::new(),
        }
    }
}

/// A limit that cannot be set as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// No limit has that name.
    #[error("no limit is called `{0}` (see docs/security.md)")]
    Unknown(String),
    /// The value does not read as the limit's kind.
    #[error("limit `{name}`: `{value}` is not {expected}")]
    Value {
        /// The limit.
        name: String,
        /// The value given.
        value: String,
        /// What it should look like.
        expected: &'static str,
    },
    /// `NAME=VALUE` without the `=`.
    #[error("`{0}`: a limit is set as NAME=VALUE")]
    Form(String),
}

/// Reads a duration: `250ms`, `5s`, `10m`, `24h`, `7d`.
pub(crate) fn duration(name: &str, value: &str) -> Result<Duration, LimitError> {
    let bad = || LimitError::Value {
        name: name.to_owned(),
        value: value.to_owned(),
        expected: "a duration such as 250ms, 5s, 10m, 24h or 7d",
    };
    let split = value.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (number, unit) = value.split_at(split);
    let n: u64 = number.parse().map_err(|_| bad())?;
    let ms = match unit {
        "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return Err(bad()),
    };
    n.checked_mul(ms).map(Duration::from_millis).ok_or_else(bad)
}

/// Reads a whole number of at least 1.
fn count<T: std::str::FromStr + PartialOrd + From<u8>>(
    name: &str,
    value: &str,
) -> Result<T, LimitError> {
    value
        .parse::<T>()
        .ok()
        .filter(|n| *n >= T::from(1))
        .ok_or_else(|| LimitError::Value {
            name: name.to_owned(),
            value: value.to_owned(),
            expected: "a whole number of at least 1",
        })
}

impl Limits {
    /// Sets the limit called `name` from its text.
    ///
    /// # Errors
    ///
    /// [`LimitError`] for an unknown name or a value of the wrong kind.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), LimitError> {
        match name {
            "robot_think" => self.robot_think = duration(name, value)?,
            "robot_workers" => self.robot_workers = count(name, value)?,
            "robot_queue" => self.robot_queue = count(name, value)?,
            "robot_games_per_address" => self.robot_games_per_address = count(name, value)?,
            "games_per_minute" => self.games_per_minute = count(name, value)?,
            "friend_join" => self.friend_join = duration(name, value)?,
            "idle_game" => self.idle_game = duration(name, value)?,
            "unload_after" => self.unload_after = duration(name, value)?,
            "store_wait" => self.store_wait = duration(name, value)?,
            "gone_claim" => self.gone_claim = duration(name, value)?,
            "retain_finished" => {
                self.retain_finished = match value {
                    "forever" => None,
                    _ => Some(duration(name, value)?),
                }
            }
            "retain_aborted" => self.retain_aborted = duration(name, value)?,
            "frame" => self.frame = count(name, value)?,
            "header_read" => self.header_read = duration(name, value)?,
            "handshake" => self.handshake = duration(name, value)?,
            "socket_idle" => self.socket_idle = duration(name, value)?,
            "connections_per_address" => self.connections_per_address = count(name, value)?,
            "sockets_per_seat" => self.sockets_per_seat = count(name, value)?,
            "messages_per_second" => self.messages_per_second = count(name, value)?,
            "address_messages_per_second" => self.address_messages_per_second = count(name, value)?,
            "presence_every" => self.presence_every = duration(name, value)?,
            "sign_ins_per_account" => self.sign_ins_per_account = count(name, value)?,
            "sign_ins_per_address" => self.sign_ins_per_address = count(name, value)?,
            "sign_ups_per_address" => self.sign_ups_per_address = count(name, value)?,
            "periods" => self.periods = count(name, value)?,
            "text" => self.text = count(name, value)?,
            "leave_days" => self.leave_days = count(name, value)?,
            "silence_days" => self.silence_days = count(name, value)?,
            "low_time" => self.low_time = duration(name, value)?,
            "digest_every" => self.digest_every = duration(name, value)?,
            "origins" => {
                self.origins = value
                    .split(',')
                    .map(|o| o.trim().trim_end_matches('/').to_owned())
                    .filter(|o| !o.is_empty())
                    .collect();
            }
            _ => return Err(LimitError::Unknown(name.to_owned())),
        }
        Ok(())
    }

    /// Sets a limit from `NAME=VALUE`.
    ///
    /// # Errors
    ///
    /// As [`Limits::set`], or [`LimitError::Form`] without `=`.
    pub fn set_pair(&mut self, pair: &str) -> Result<(), LimitError> {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| LimitError::Form(pair.to_owned()))?;
        self.set(name.trim(), value.trim())
    }
}

/// The address a request came from, as the limits per address count it
/// (an IPv6 address by its /64 network, which one subscriber gets:
/// [`crate::net::address_key`]), put into each request's extensions by the
/// connection loop ([`crate::net`]). Requests made without a
/// connection (tests calling the app directly) count as `127.0.0.1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientAddr(pub IpAddr);

impl Default for ClientAddr {
    fn default() -> ClientAddr {
        ClientAddr(IpAddr::V4(Ipv4Addr::LOCALHOST))
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<ClientAddr, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .copied()
            .unwrap_or_default())
    }
}

/// A token bucket: `rate` a second, holding at most `burst`.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Tokens now.
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Instant,
}

/// Rate limits for many keys at once (seat tokens, addresses): each key
/// may spend `burst` at once and gets `rate` back a second. Keys that
/// have been full for a while are forgotten, so the map stays small.
///
/// # Examples
///
/// ```
/// use rochade_server::limits::RateLimiter;
/// let limiter = RateLimiter::new(2.0, 2.0);
/// assert!(limiter.allow(&"a"));
/// assert!(limiter.allow(&"a"));
/// assert!(!limiter.allow(&"a"));
/// assert!(limiter.allow(&"b"));
/// ```
#[derive(Debug)]
pub struct RateLimiter<K> {
    /// Tokens regained per second.
    rate: f64,
    /// The most tokens a key holds.
    burst: f64,
    /// The buckets by key, and when full ones were last swept out.
    buckets: Mutex<Buckets<K>>,
}

/// A limiter's buckets.
#[derive(Debug)]
struct Buckets<K> {
    /// By key.
    by_key: HashMap<K, Bucket>,
    /// When the full ones were last swept out.
    swept: Option<Instant>,
}

/// Past this many keys, a request sweeps out the full buckets.
const SWEEP_AT: usize = 4096;

/// The least time between two sweeps. With more keys than [`SWEEP_AT`]
/// whose buckets are not full (as many sockets all sending), a sweep at
/// every request scanned them all for nothing each time; and keys swept
/// out were made again (a copy of the key) at their next request.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    /// A limiter of `rate` a second with bursts of `burst`.
    pub fn new(rate: f64, burst: f64) -> RateLimiter<K> {
        RateLimiter {
            rate,
            burst,
            buckets: Mutex::new(Buckets {
                by_key: HashMap::new(),
                swept: None,
            }),
        }
    }

    /// Whether `key` may act once more now; if so, it is counted.
    pub fn allow(&self, key: &K) -> bool {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let buckets = &mut *buckets;
        if buckets.by_key.len() >= SWEEP_AT
            && buckets
                .swept
                .is_none_or(|swept| now.duration_since(swept) >= SWEEP_EVERY)
        {
            let (rate, burst) = (self.rate, self.burst);
            buckets
                .by_key
                .retain(|_, b| b.tokens + rate * now.duration_since(b.at).as_secs_f64() < burst);
            buckets.swept = Some(now);
        }
        // A key seen before is not cloned (a socket's token, every message).
        if let Some(bucket) = buckets.by_key.get_mut(key) {
            return self.take(bucket, now);
        }
        let bucket = buckets.by_key.entry(key.clone()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        self.take(bucket, now)
    }

    /// How many keys the limiter holds.
    #[cfg(test)]
    fn keys(&self) -> usize {
        self.buckets
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .by_key
            .len()
    }

    /// Refills `bucket` for the time since it was last used and takes one
    /// token from it, if it has one.
    fn take(&self, bucket: &mut Bucket, now: Instant) -> bool {
        let regained = self.rate * now.duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + regained).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_units() {
        assert_eq!(duration("x", "250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(duration("x", "7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert!(duration("x", "5").is_err());
        assert!(duration("x", "s").is_err());
        assert!(duration("x", "99999999999999999999d").is_err());
    }

    #[test]
    fn counts_are_at_least_one() {
        let mut limits = Limits::default();
        assert!(limits.set("robot_workers", "0").is_err());
        assert!(limits.set("robot_workers", "-1").is_err());
        limits.set_pair("robot_workers = 3").expect("sets");
        assert_eq!(limits.robot_workers, 3);
        assert!(limits.set_pair("robot_workers").is_err());
    }

    #[test]
    fn retention_can_be_forever() {
        let mut limits = Limits::default();
        limits.set("retain_finished", "30d").expect("sets");
        assert_eq!(
            limits.retain_finished,
            Some(Duration::from_secs(30 * 86_400))
        );
        limits.set("retain_finished", "forever").expect("sets");
        assert_eq!(limits.retain_finished, None);
    }

    /// The clock is paused: the second after a sweep never passes.
    #[tokio::test(start_paused = true)]
    async fn full_buckets_are_swept_out_at_most_once_a_second() {
        let full_again = std::time::Duration::from_millis(1);
        // Refilled within a millisecond.
        let limiter = RateLimiter::new(1e6, 1.0);
        for key in 0..SWEEP_AT {
            assert!(limiter.allow(&key));
        }
        tokio::time::advance(full_again).await;
        // Past SWEEP_AT keys the next request sweeps out the full ones.
        assert!(limiter.allow(&SWEEP_AT));
        assert_eq!(limiter.keys(), 1);
        // Within the second after, the keys grow past it, full or not.
        for key in 0..SWEEP_AT {
            assert!(limiter.allow(&key));
        }
        tokio::time::advance(full_again).await;
        assert!(limiter.allow(&0));
        assert_eq!(limiter.keys(), SWEEP_AT + 1);
        // A second on, they are swept out again.
        tokio::time::advance(SWEEP_EVERY).await;
        assert!(limiter.allow(&SWEEP_AT));
        assert_eq!(limiter.keys(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn buckets_refill_at_their_rate() {
        let limiter = RateLimiter::new(1.0, 3.0);
        for _ in 0..3 {
            assert!(limiter.allow(&1));
        }
        assert!(!limiter.allow(&1));
        tokio::time::advance(Duration::from_millis(1100)).await;
        assert!(limiter.allow(&1));
        assert!(!limiter.allow(&1));
    }
}
