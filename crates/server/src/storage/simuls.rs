//! Simultaneous exhibitions: the storage side.

use super::{PlayingGame, StorageError};
use crate::simuls::Simul;

/// Where simuls are kept.
pub trait SimulStore: Send + Sync + 'static {
    /// Stores a new simul.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn create_simul(&self, simul: &Simul) -> Result<(), StorageError>;

    /// Replaces a stored simul if it is still at revision `from` (nobody
    /// changed it since it was read); whether it was.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn update_simul(&self, simul: &Simul, from: u64) -> Result<bool, StorageError>;

    /// The simul `id`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn simul(&self, id: &str) -> Result<Option<Simul>, StorageError>;

    /// Every simul, newest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn simuls(&self, limit: usize) -> Result<Vec<Simul>, StorageError>;

    /// The simuls account `host` hosts that have not started, not
    /// cancelled.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn waiting_simuls_of(&self, host: i64) -> Result<Vec<String>, StorageError>;

    /// The games of simul `id`, with their glances and results.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn simul_games(&self, id: &str) -> Result<Vec<SimulGame>, StorageError>;
}

/// A board's game, as the simul's page shows it.
#[derive(Debug, Clone)]
pub struct SimulGame {
    /// The game as a list entry needs it.
    pub game: PlayingGame,
    /// Its result (`1-0`, `0-1`, `1/2-1/2`) once over with one.
    pub result: Option<String>,
    /// Whether it is over (with a result, or aborted).
    pub finished: bool,
}
