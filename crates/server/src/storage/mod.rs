//! Where games live between moves and across restarts.
//!
//! [`Storage`] is the interface; [`SqlStorage`] keeps it in SQLite (the
//! embedded default) or PostgreSQL (for several nodes) with the same
//! statements (`sql.rs`, `sql_*.rs`); [`Writer`] puts every write through
//! one thread that commits many games' events in one transaction and only
//! then answers each of them (group commit).

pub mod accounts;
pub mod challenges;
mod game_numbers;
pub mod history;
pub mod leave;
pub mod nodes;
pub mod notes;
pub mod notices;
mod postgres;
pub mod simuls;
pub use postgres::postgres_database;
pub(crate) mod sql;
mod sql_accounts;
mod sql_challenges;
mod sql_games;
mod sql_history;
mod sql_leave;
mod sql_nodes;
mod sql_notes;
mod sql_notices;
mod sql_simuls;
mod sql_tournaments;
mod sqlite;
pub mod tournaments;
mod writer;

/// A new empty directory for one test's database, named after `what`,
/// this process and a count (tests run side by side).
#[cfg(test)]
pub(crate) fn scratch_dir(what: &str) -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "rochade-{what}-{}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A new friend game with a fresh id, and the write that stores it.
#[cfg(test)]
pub(crate) fn test_create() -> (String, WriteOp) {
    let setup = crate::record::test_record(r#"{"opponent":"local"}"#).setup;
    let id = setup.id.clone();
    let op = WriteOp::Create {
        setup: Box::new(setup),
        epoch: 0,
        wake_at: None,
        glance: None,
    };
    (id, op)
}

/// The write of a move (`uci`) as game `game`'s `seq`th event.
#[cfg(test)]
pub(crate) fn test_move(game: &str, seq: usize, uci: &str) -> WriteOp {
    WriteOp::Append {
        game: game.to_owned(),
        seq,
        event: crate::event::Timed {
            at: 1000,
            event: crate::event::Event::Move { uci: uci.into() },
        },
        ended: None,
        result: None,
        wake_at: None,
        glance: None,
    }
}

pub use accounts::{AccountStore, NewUser, User};
pub use challenges::ChallengeStore;
pub use history::{
    GameCounts, GamesQuery, History, PlayedGame, RatingChange, RatingPoint, UserResult,
};
pub use leave::{BookedLeave, LeaveGrant, LeaveStore};
pub use nodes::{Adopted, Claim, NodeStore};
pub use notes::{Note, NoteStore};
pub use notices::{DueDigest, NoticeStore, StoredNotice};
pub use simuls::SimulStore;
pub use sql_games::{SqlStorage, SqliteStorage, is_postgres, shown};
pub use tournaments::TournamentStore;
pub use writer::Writer;

use crate::event::Timed;
use crate::setup::GameSetup;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// The database file could not be read or synced.
    #[error("database file: {0}")]
    File(#[from] std::io::Error),
    /// PostgreSQL refused or failed (its code and message), or could not
    /// be reached.
    #[error("PostgreSQL: {0}")]
    Postgres(String),
    /// A stored row does not read back.
    #[error("corrupt row for game {game}: {reason}")]
    Corrupt {
        /// The game.
        game: String,
        /// What is wrong.
        reason: String,
    },
    /// A group commit's transaction failed for these writes (retried
    /// alone, they failed again): the database's own words.
    #[error("the write was not stored: {0}")]
    Refused(String),
    /// The writer thread has stopped.
    #[error("the storage writer has stopped")]
    Closed,
    /// A name already in use.
    #[error("the name {0} is taken")]
    Taken(String),
    /// Text holding the NUL character (U+0000), which PostgreSQL cannot
    /// store or look up: refused on both backends alike. The text's
    /// beginning, as Rust writes it.
    #[error("text may not hold the NUL character (U+0000): {0}")]
    Nul(String),
    /// A commit of node `node` for game `game`, which another node owns
    /// now ([`WriteOp::Owned`]).
    #[error("game {game} is no longer node {node}'s")]
    NotOwner {
        /// The game.
        game: String,
        /// The node that wrote.
        node: String,
    },
}

/// How a game ended, for how long it is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Aborted before both sides moved: nothing worth keeping long.
    Aborted,
    /// Played to an end (a result, or closed by the server after moves).
    Played,
}

/// One write; a batch of them commits together or not at all.
#[derive(Debug, Clone)]
pub enum WriteOp {
    /// A new game.
    Create {
        /// Its settings.
        setup: Box<GameSetup>,
        /// Server time (Unix ms) at which its time line is at zero.
        epoch: u64,
        /// When it must be looked at with no room loaded (game time, ms).
        wake_at: Option<u64>,
        /// The game at a glance ([`crate::glance::Glance`], JSON).
        glance: Option<String>,
    },
    /// The next event of a game.
    Append {
        /// The game id.
        game: String,
        /// The event's position in the game, from 0.
        seq: usize,
        /// The event.
        event: Timed,
        /// How the game ended, if this event ended it.
        ended: Option<Ended>,
        /// The result, if this event ended the game with one; a rated
        /// game's ratings change in the same commit.
        result: Option<rochade_laws::GameResult>,
        /// When the game must next be looked at with no room loaded
        /// (game time, ms); `None` once over.
        wake_at: Option<u64>,
        /// The game at a glance after it, if this event is the last of its
        /// commit ([`crate::glance::Glance`], JSON).
        glance: Option<String>,
    },
    /// A new session of an account (the digest of its secret), committed
    /// with the games' writes.
    Session {
        /// The digest of the session's secret.
        digest: String,
        /// The account.
        user: i64,
        /// When it began (Unix ms).
        created: u64,
    },
    /// A game's time line restarts: `epoch` is the new wall-clock zero.
    Epoch {
        /// The game id.
        game: String,
        /// The new zero, in Unix milliseconds.
        epoch: u64,
    },
    /// Deletes finished games that have been kept long enough: those
    /// aborted before both sides moved that ended before
    /// `aborted_before`, the anonymous others (no account plays them) that
    /// ended before `finished_before` (Unix ms; `None`: keep them), at
    /// most `most` games at a time. Games an account played stay: they
    /// are its history.
    Purge {
        /// Aborted games that ended before this go.
        aborted_before: u64,
        /// Played games that ended before this go.
        finished_before: Option<u64>,
        /// The most games one purge deletes.
        most: usize,
    },
    /// Node `node` owns game `game` (several nodes: see [`NodeStore`]).
    Own {
        /// The game.
        game: String,
        /// The node.
        node: String,
    },
    /// The commit holds only while node `node` owns game `game`: else
    /// it fails with [`StorageError::NotOwner`] and nothing of it is
    /// kept. A room of several nodes puts it before its writes, so that a
    /// node whose game was taken over while its commit waited cannot
    /// store behind the new owner's back (under PostgreSQL the check
    /// holds the game's row until the commit: a takeover waits for it).
    Owned {
        /// The game.
        game: String,
        /// The node.
        node: String,
    },
    /// Node `node` is alive at the write's time: its heartbeat, which
    /// keeps its lease on its games.
    Heartbeat {
        /// The node.
        node: String,
    },
    /// Node `node` stops at the write's time and hands its games over:
    /// others claim and take them at once, their clocks stopped from now
    /// (6.12). Its next heartbeat makes it a live node again.
    Stopped {
        /// The node.
        node: String,
    },
}

/// An unfinished game as a player's list shows it: no events, no replay.
#[derive(Debug, Clone)]
pub struct PlayingGame {
    /// Its settings.
    pub setup: GameSetup,
    /// Server time (Unix ms) at which its time line is at zero.
    pub epoch: u64,
    /// The game at a glance after its last change (`None` for games stored
    /// before glances were).
    pub glance: Option<crate::glance::Glance>,
}

/// An unfinished game as the scheduler needs it: no events, no replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfinished {
    /// The game id.
    pub id: String,
    /// Server time (Unix ms) at which its time line is at zero.
    pub epoch: u64,
    /// Game time of its last event.
    pub last_at: u64,
    /// When it must be looked at (game time).
    pub wake_at: Option<u64>,
}

/// A game as read back.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// Its settings.
    pub setup: GameSetup,
    /// Server time (Unix ms) at which its time line is at zero.
    pub epoch: u64,
    /// Its events in order.
    pub events: Vec<Timed>,
    /// Whether it is over.
    pub finished: bool,
}

/// A place to keep games (and accounts, and their ratings).
pub trait Storage:
    AccountStore
    + ChallengeStore
    + History
    + LeaveStore
    + NodeStore
    + NoteStore
    + NoticeStore
    + SimulStore
    + TournamentStore
{
    /// Commits `ops` in one transaction, and records `alive` (Unix ms) as
    /// the last moment the server was known to run.
    ///
    /// # Errors
    ///
    /// When the transaction fails; then none of `ops` is kept.
    fn write(&self, ops: &[WriteOp], alive: u64) -> Result<(), StorageError>;

    /// The game `id`, if it exists.
    ///
    /// # Errors
    ///
    /// When the database fails or a row is corrupt.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StorageError>;

    /// The game whose invitation code is `invite`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn find_invite(&self, invite: &str) -> Result<Option<String>, StorageError>;

    /// Every game not yet over, with its time line and next deadline.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn unfinished(&self) -> Result<Vec<Unfinished>, StorageError>;

    /// The unfinished games the account `user` plays.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn playing(&self, user: i64) -> Result<Vec<String>, StorageError>;

    /// The unfinished games the account `user` plays, each with its
    /// settings, time line and last glance, in one query (no replay).
    ///
    /// # Errors
    ///
    /// When the database fails or a row is corrupt.
    fn playing_glances(&self, user: i64) -> Result<Vec<PlayingGame>, StorageError>;

    /// How many games are stored.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn count(&self) -> Result<u64, StorageError>;

    /// Housekeeping off the write path (SQLite: moving the write-ahead log
    /// into the database), called every second by its own thread.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn maintain(&self) -> Result<(), StorageError>;

    /// The last moment (Unix ms) the server was known to run.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn last_alive(&self) -> Result<Option<u64>, StorageError>;
}

/// The epoch (server time, Unix ms, at which its time line is at zero) of
/// `game` resumed at server time `now` when its server was last known to
/// run at `alive` (none: not known): its clocks stopped then (6.12), or at
/// its last event if that came later.
///
/// ```
/// use rochade_server::storage::{Unfinished, resumed_epoch};
/// let game = Unfinished { id: "g".into(), epoch: 10_000, last_at: 4_000, wake_at: None };
/// // Its server ran until 15,000 (5 s of game time); resumed at 20,000,
/// // the game goes on from 5 s: the 5 s between are not counted.
/// assert_eq!(resumed_epoch(&game, Some(15_000), 20_000), 15_000);
/// assert_eq!(resumed_epoch(&game, None, 20_000), 16_000);
/// ```
pub fn resumed_epoch(game: &Unfinished, alive: Option<u64>, now: u64) -> u64 {
    let ran = alive.map_or(0, |alive| alive.saturating_sub(game.epoch));
    now.saturating_sub(ran.max(game.last_at))
}

/// Unix milliseconds now.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
