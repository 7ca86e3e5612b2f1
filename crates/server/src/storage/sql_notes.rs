//! [`NoteStore`] on either database: table `notes` (SQLite's migration 9).
//! Whether the account plays the game is read from the games table in the
//! same statement, so a note is never kept for anyone else.

use super::notes::{Note, NoteStore};
use super::sql::vals;
use super::{SqlStorage, StorageError};

impl NoteStore for SqlStorage {
    fn note(&self, user: i64, game: &str) -> Result<Option<Note>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                "SELECT notes.text, notes.at FROM games
                 LEFT JOIN notes ON notes.game = games.id AND notes.\"user\" = ?1
                 WHERE games.id = ?2 AND (games.white_user = ?1 OR games.black_user = ?1)",
                vals![user, game],
            )?
            .map(|r| {
                Ok(Note {
                    text: r.opt_text(0)?.unwrap_or_default(),
                    at: r.opt_int(1)?.map(|at| at as u64),
                })
            })
            .transpose()
        })
    }

    fn set_note(&self, user: i64, game: &str, text: &str, at: u64) -> Result<bool, StorageError> {
        // `WHERE true` after the SELECT: SQLite's parser needs it before
        // an upsert's ON CONFLICT. The casts name the parameters' types,
        // which PostgreSQL cannot infer from a SELECT list.
        let kept = self.write(|tx| {
            tx.execute(
                "INSERT INTO notes (\"user\", game, text, at)
                 SELECT CAST(?1 AS BIGINT), id, CAST(?3 AS TEXT), CAST(?4 AS BIGINT) FROM games
                 WHERE id = ?2 AND (white_user = ?1 OR black_user = ?1) AND true
                 ON CONFLICT (\"user\", game) DO UPDATE SET text = excluded.text, at = excluded.at",
                vals![user, game, text, at],
            )
        })?;
        Ok(kept == 1)
    }
}
