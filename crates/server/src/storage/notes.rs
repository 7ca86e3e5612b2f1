//! Where a player's private notes on a game live: one text per player and
//! game, written only by that player and read only by them.

use super::StorageError;

/// A player's notes on one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Note {
    /// The text (empty when none was written).
    pub text: String,
    /// When it was last saved, Unix ms; none when it never was.
    pub at: Option<u64>,
}

/// Private notes.
pub trait NoteStore: Send + Sync + 'static {
    /// The notes of account `user` on `game`: none when `user` does not
    /// play `game` (or there is no such game), an empty note when they
    /// play it and wrote nothing yet.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn note(&self, user: i64, game: &str) -> Result<Option<Note>, StorageError>;

    /// Keeps `text` as the notes of account `user` on `game` at `at` (Unix
    /// ms), replacing earlier ones; false, with nothing stored, when `user`
    /// does not play `game`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_note(&self, user: i64, game: &str, text: &str, at: u64) -> Result<bool, StorageError>;
}
