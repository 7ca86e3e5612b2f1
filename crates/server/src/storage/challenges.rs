//! Open challenges between accounts (the lichess API's `/api/challenge`),
//! kept in the database so that any node, and the server after a restart,
//! finds them. A challenge is one row: who asks, who is asked, when, and
//! the challenge itself as JSON (`crate::challenges::Challenge`).

use super::StorageError;

/// Open challenges.
pub trait ChallengeStore: Send + Sync + 'static {
    /// Keeps challenge `id` from account `challenger` to `dest`, made at
    /// `made` (Unix ms), unless the challenger has `most` open made since
    /// `after`: then false, nothing kept. Challenges made before `after`
    /// are forgotten.
    ///
    /// # Errors
    ///
    /// When the database fails.
    #[allow(clippy::too_many_arguments)]
    fn open_challenge(
        &self,
        id: &str,
        challenger: i64,
        dest: i64,
        body: &str,
        made: u64,
        most: usize,
        after: u64,
    ) -> Result<bool, StorageError>;

    /// Challenge `id` as kept, if it was made since `after`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn challenge(&self, id: &str, after: u64) -> Result<Option<String>, StorageError>;

    /// Forgets challenge `id`: true for the one caller that forgets it
    /// (two accepting at once: one of them).
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn close_challenge(&self, id: &str) -> Result<bool, StorageError>;

    /// The challenges made since `after` by or to account `user`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn challenges_of(&self, user: i64, after: u64) -> Result<Vec<String>, StorageError>;
}
