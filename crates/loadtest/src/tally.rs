//! The counters the game tasks share during a run, and each game's log of
//! what it was acknowledged (read back and compared after the run).

use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::Mutex;

use crate::check::MoveCheck;
use crate::stored::TAIL;

/// Counters shared by the game tasks.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Round trips while measuring: when each move was sent (ms after
    /// the measuring began) and its round trip in microseconds.
    pub(crate) rtts: Mutex<Vec<(u32, u32)>>,
    /// Acknowledged moves that a later state did not hold in place.
    pub(crate) lost: AtomicU64,
    /// Moves a state held beyond those acknowledged.
    pub(crate) duplicated: AtomicU64,
    /// Moves given up on: no state ever said whether they were stored.
    pub(crate) unacknowledged: AtomicU64,
    /// Error messages.
    pub(crate) errors: AtomicU64,
    /// `busy` answers (each followed by a pause and the same move again).
    pub(crate) busy: AtomicU64,
    /// Sockets opened again after one broke.
    pub(crate) reconnects: AtomicU64,
    /// Moves whose answer went missing and which the state read again
    /// showed stored: acknowledged without being sent again.
    pub(crate) recovered: AtomicU64,
    /// Moves sent again at the same ply because the state read again
    /// showed them not stored.
    pub(crate) resent: AtomicU64,
    /// Broken games.
    pub(crate) failed: AtomicU64,
    /// Sign-in times in microseconds, while measuring.
    pub(crate) sign_ins: Mutex<Vec<u32>>,
    /// Failed sign-ins while measuring.
    pub(crate) sign_in_failures: AtomicU64,
    /// Every game played, with what it was acknowledged.
    pub(crate) games: Mutex<Vec<GameLog>>,
}

impl Tally {
    /// Adds one to `counter`; returns its count before.
    pub(crate) fn count(counter: &AtomicU64) -> u64 {
        counter.fetch_add(1, Ordering::Relaxed)
    }

    /// Adds a game's lost and duplicated moves, seen during the run.
    pub(crate) fn add_check(&self, check: MoveCheck) {
        self.lost.fetch_add(check.lost, Ordering::Relaxed);
        self.duplicated
            .fetch_add(check.duplicated, Ordering::Relaxed);
    }

    /// The value of `counter`.
    pub(crate) fn read(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// One game as the tool played it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GameLog {
    /// The game's id.
    pub(crate) id: String,
    /// The moves acknowledged, in order (UCI).
    pub(crate) acked: Vec<String>,
    /// The move sent and not (yet) acknowledged, if any.
    pub(crate) in_flight: Option<String>,
    /// How and when each move of `acked` was acknowledged, in the same
    /// order: what a lost move's report says, to find it in the server's
    /// logs.
    pub(crate) how: Vec<Acked>,
}

impl GameLog {
    /// A game just made: nothing played.
    pub(crate) fn new(id: &str) -> GameLog {
        GameLog {
            id: id.to_owned(),
            acked: Vec::new(),
            in_flight: None,
            how: Vec::new(),
        }
    }

    /// Logs `uci` as acknowledged now by the message `said`, `reopened`
    /// if by the first state of a socket opened again (else by the answer
    /// to the move).
    pub(crate) fn acknowledge(&mut self, uci: String, reopened: bool, said: &str) {
        self.acked.push(uci);
        self.in_flight = None;
        // Only the last [`TAIL`] are ever shown: an older one's message
        // is let go (a five-minute run acknowledges millions).
        if let Some(older) = self.how.len().checked_sub(TAIL) {
            self.how[older].said = String::new();
        }
        self.how.push(Acked {
            reopened,
            at_ms: unix_ms(),
            said: clip(said),
        });
    }
}

/// How much of an acknowledging message is kept.
const SAID: usize = 400;

/// The first [`SAID`] bytes of `text` (cut at a character's edge).
fn clip(text: &str) -> String {
    let mut end = text.len().min(SAID);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// Now, in Unix milliseconds.
fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// How and when a move was acknowledged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Acked {
    /// By the first state of a socket opened again after the answer went
    /// missing (else by the answer itself).
    pub(crate) reopened: bool,
    /// When, in Unix milliseconds (the server's logs are in UTC).
    pub(crate) at_ms: u64,
    /// The message that acknowledged it (its beginning; empty once
    /// [`TAIL`] later ones came).
    pub(crate) said: String,
}
