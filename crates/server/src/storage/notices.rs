//! Where notices wait for their e-mail digest: one row per notice, sent
//! or not, and each account's last digest (at most one an hour).

use super::{StorageError, User};

/// A notice as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredNotice {
    /// The row id.
    pub id: i64,
    /// When it arose, Unix ms.
    pub at: u64,
    /// The game it is about.
    pub game: String,
    /// What it says ([`crate::notify::Notice`] as JSON; put in words in
    /// the account's language when the digest is written).
    pub body: String,
}

/// An account whose digest is due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueDigest {
    /// The account.
    pub user: User,
    /// Its language (`en`, `sk`, `cs`).
    pub lang: String,
    /// Its unsent notices, oldest first.
    pub notices: Vec<StoredNotice>,
}

/// Notices and digests.
pub trait NoticeStore: Send + Sync + 'static {
    /// Keeps a notice for `user` unless one with the same `key` is kept
    /// already (a reminder is sent once); whether it was new.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn add_notice(
        &self,
        user: i64,
        key: &str,
        game: &str,
        body: &str,
        at: u64,
    ) -> Result<bool, StorageError>;

    /// The accounts with an e-mail address, unsent notices, and no digest
    /// since `since` (Unix ms), each with its unsent notices, oldest first;
    /// at most `most` accounts.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn due_digests(&self, since: u64, most: usize) -> Result<Vec<DueDigest>, StorageError>;

    /// The digest of `user` with the notices `ids` went out at `at`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn digest_sent(&self, user: i64, ids: &[i64], at: u64) -> Result<(), StorageError>;

    /// Drops the unsent notices of `user` about `game`: the player has
    /// moved there since, so they are stale.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn dismiss_notices(&self, user: i64, game: &str) -> Result<(), StorageError>;

    /// Sets the e-mail address (none: no e-mail) and language of `user`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_notifications(
        &self,
        user: i64,
        email: Option<&str>,
        lang: &str,
    ) -> Result<(), StorageError>;

    /// The e-mail address and language of `user`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn notifications(&self, user: i64) -> Result<(Option<String>, String), StorageError>;

    /// Sets the thresholds (ms) at which `user` hears their time runs low;
    /// none: the server's.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_low_times(&self, user: i64, thresholds: Option<&[u64]>) -> Result<(), StorageError>;

    /// Every account that set its own thresholds, with them (ms).
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn low_times(&self) -> Result<Vec<(i64, Vec<u64>)>, StorageError>;
}
