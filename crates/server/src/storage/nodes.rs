//! Several nodes sharing one database: each node records a heartbeat
//! (`WriteOp::Heartbeat`), and each game names the node that owns it. A
//! node's ownership is a lease: good while its heartbeat is fresher than
//! the lease's length; after that any node may take the game over, from
//! its stored events. One statement decides each claim, so two nodes never
//! both win one.

use super::{StorageError, Unfinished};

/// Who owns a game, as a claim found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The claiming node (now, or already).
    Mine,
    /// Another node, alive.
    Owner(String),
    /// There is no such game.
    Missing,
}

/// A node's games taken over from a node that stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adopted {
    /// The node that stopped.
    pub from: String,
    /// When it was last alive (Unix ms): the clocks of its games stopped
    /// then (6.12).
    pub alive_at: u64,
    /// It stopped on purpose (SIGTERM) and handed them over, rather than
    /// going silent.
    pub handed_over: bool,
    /// Its unfinished games, now the adopting node's.
    pub games: Vec<Unfinished>,
}

/// Nodes, their heartbeats, and which owns which game.
pub trait NodeStore: Send + Sync + 'static {
    /// Node `node` claims game `game` at server time `now` (Unix ms): it
    /// gets it when nobody owns it, when it owns it already, or when its
    /// owner's heartbeat is older than `stale_before` (Unix ms). A game
    /// taken from a dead node has its clocks stopped from that node's last
    /// heartbeat until `now` (6.12), in the same transaction: whoever loads
    /// it next finds its time line moved on.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn claim(
        &self,
        game: &str,
        node: &str,
        stale_before: u64,
        now: u64,
    ) -> Result<Claim, StorageError>;

    /// Node `node` takes over at server time `now` (Unix ms) the
    /// unfinished games of every other node whose heartbeat is older than
    /// `stale_before`, and those of no node (stored by a single server
    /// before); at most `most` games at once. Their clocks stop from the
    /// last heartbeat of the node that had them until `now` (6.12), in the
    /// same transaction ([`super::resumed_epoch`]): a room opened on one of
    /// them before the takeover's next step finds its time line already
    /// moved on. The games come back with their new epochs.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn adopt(
        &self,
        node: &str,
        stale_before: u64,
        most: usize,
        now: u64,
    ) -> Result<Vec<Adopted>, StorageError>;

    /// The unfinished games node `node` owns.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn owned(&self, node: &str) -> Result<Vec<Unfinished>, StorageError>;

    /// Every node's last heartbeat (Unix ms), by name; 0 for a node that
    /// stopped ([`super::WriteOp::Stopped`]) since.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn heartbeats(&self) -> Result<Vec<(String, u64)>, StorageError>;

    /// Records node `node`'s heartbeat at `at` (Unix ms) at once, in a
    /// statement of its own beside the group commit (as
    /// [`super::WriteOp::Heartbeat`] does inside it): a node's lease must
    /// not wait behind a long queue of moves, nor behind a burst of
    /// claims when pages come back after a takeover.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn beat(&self, node: &str, at: u64) -> Result<(), StorageError>;

    /// Node `node`'s last heartbeat or stop (Unix ms), if it ever had one.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn last_heartbeat(&self, node: &str) -> Result<Option<u64>, StorageError>;
}
