//! Where games live between moves and across restarts.
//!
//! [`Storage`] is the interface (SQLite now, PostgreSQL later); [`Writer`]
//! puts every write through one thread that commits many games' events in
//! one transaction and only then answers each of them (group commit).

mod sqlite;
mod writer;

pub use sqlite::SqliteStorage;
pub use writer::Writer;

use crate::event::Timed;
use crate::setup::GameSetup;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    /// A stored row does not read back.
    #[error("corrupt row for game {game}: {reason}")]
    Corrupt {
        /// The game.
        game: String,
        /// What is wrong.
        reason: String,
    },
    /// The writer thread has stopped.
    #[error("the storage writer has stopped")]
    Closed,
}

/// One write; a batch of them commits together or not at all.
#[derive(Debug, Clone)]
pub enum WriteOp {
    /// A new game.
    Create {
        /// Its settings.
        setup: Box<GameSetup>,
        /// Wall-clock milliseconds (Unix) at which its time line is at zero.
        epoch: u64,
    },
    /// The next event of a game.
    Append {
        /// The game id.
        game: String,
        /// The event's position in the game, from 0.
        seq: usize,
        /// The event.
        event: Timed,
        /// Whether the game is over after it.
        finished: bool,
    },
    /// A game's time line restarts: `epoch` is the new wall-clock zero.
    Epoch {
        /// The game id.
        game: String,
        /// The new zero, in Unix milliseconds.
        epoch: u64,
    },
}

/// A game as read back.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// Its settings.
    pub setup: GameSetup,
    /// Wall-clock zero of its time line, Unix milliseconds.
    pub epoch: u64,
    /// Its events in order.
    pub events: Vec<Timed>,
    /// Whether it is over.
    pub finished: bool,
}

/// A place to keep games.
pub trait Storage: Send + Sync + 'static {
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

    /// The ids of all games not yet over.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn unfinished(&self) -> Result<Vec<String>, StorageError>;

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

/// Unix milliseconds now.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
