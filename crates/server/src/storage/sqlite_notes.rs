//! [`NoteStore`] on the SQLite database: table `notes` (migration 9 in
//! `sqlite.rs`). Whether the account plays the game is read from the
//! games table in the same statement, so a note is never kept for anyone
//! else.

use rusqlite::{OptionalExtension, params};

use super::notes::{Note, NoteStore};
use super::{SqliteStorage, StorageError};

impl NoteStore for SqliteStorage {
    fn note(&self, user: i64, game: &str) -> Result<Option<Note>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let row = conn
            .prepare_cached(
                "SELECT notes.text, notes.at FROM games
                 LEFT JOIN notes ON notes.game = games.id AND notes.user = ?1
                 WHERE games.id = ?2 AND (games.white_user = ?1 OR games.black_user = ?1)",
            )?
            .query_row(params![user, game], |r| {
                Ok(Note {
                    text: r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                    at: r.get::<_, Option<i64>>(1)?.map(|at| at as u64),
                })
            })
            .optional()?;
        Ok(row)
    }

    fn set_note(&self, user: i64, game: &str, text: &str, at: u64) -> Result<bool, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        // `WHERE true` after the SELECT: SQLite's parser needs it before
        // an upsert's ON CONFLICT.
        let kept = conn.execute(
            "INSERT INTO notes (user, game, text, at)
             SELECT ?1, id, ?3, ?4 FROM games
             WHERE id = ?2 AND (white_user = ?1 OR black_user = ?1) AND true
             ON CONFLICT (user, game) DO UPDATE SET text = excluded.text, at = excluded.at",
            params![user, game, text, at as i64],
        )?;
        Ok(kept == 1)
    }
}
