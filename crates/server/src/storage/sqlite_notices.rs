//! [`NoticeStore`] on the SQLite database: table `notices` and the
//! column `users.last_digest` (migration 8 in `sqlite.rs`).

use rusqlite::{OptionalExtension, params};

use super::notices::{DueDigest, NoticeStore, StoredNotice};
use super::sqlite_accounts::{USER, user_of};
use super::{SqliteStorage, StorageError};

impl NoticeStore for SqliteStorage {
    fn add_notice(
        &self,
        user: i64,
        key: &str,
        game: &str,
        body: &str,
        at: u64,
    ) -> Result<bool, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let added = conn.execute(
            "INSERT INTO notices (user, key, game, text, at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (user, key) DO NOTHING",
            params![user, key, game, body, at as i64],
        )?;
        Ok(added == 1)
    }

    fn due_digests(&self, since: u64, most: usize) -> Result<Vec<DueDigest>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut users = conn.prepare_cached(
            "SELECT DISTINCT notices.user FROM notices JOIN users ON users.id = notices.user
             WHERE notices.sent IS NULL AND users.email IS NOT NULL AND users.disabled = 0
               AND COALESCE(users.last_digest, 0) <= ?1
             LIMIT ?2",
        )?;
        let ids = users
            .query_map(params![since as i64, most as i64], |r| r.get::<_, i64>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let mut user_and_lang = conn.prepare_cached(&format!(
            "SELECT {USER}, users.lang FROM users WHERE users.id = ?1"
        ))?;
        let mut notices_of = conn.prepare_cached(
            "SELECT id, at, game, text FROM notices WHERE user = ?1 AND sent IS NULL ORDER BY at",
        )?;
        let mut due = Vec::with_capacity(ids.len());
        for id in ids {
            let Some((user, lang)) = user_and_lang
                .query_row(params![id], |row| {
                    Ok((user_of(row)?, row.get::<_, String>(7)?))
                })
                .optional()?
            else {
                continue;
            };
            let notices = notices_of
                .query_map(params![id], |row| {
                    Ok(StoredNotice {
                        id: row.get(0)?,
                        at: row.get::<_, i64>(1)? as u64,
                        game: row.get(2)?,
                        body: row.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            due.push(DueDigest {
                user,
                lang,
                notices,
            });
        }
        Ok(due)
    }

    fn digest_sent(&self, user: i64, ids: &[i64], at: u64) -> Result<(), StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        {
            let mut sent = tx.prepare_cached("UPDATE notices SET sent = ?2 WHERE id = ?1")?;
            for id in ids {
                sent.execute(params![id, at as i64])?;
            }
            tx.execute(
                "UPDATE users SET last_digest = ?2 WHERE id = ?1",
                params![user, at as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn dismiss_notices(&self, user: i64, game: &str) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "DELETE FROM notices WHERE user = ?1 AND game = ?2 AND sent IS NULL",
            params![user, game],
        )?;
        Ok(())
    }

    fn set_notifications(
        &self,
        user: i64,
        email: Option<&str>,
        lang: &str,
    ) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "UPDATE users SET email = ?2, lang = ?3 WHERE id = ?1",
            params![user, email, lang],
        )?;
        Ok(())
    }

    fn notifications(&self, user: i64) -> Result<(Option<String>, String), StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                "SELECT email, lang FROM users WHERE id = ?1",
                params![user],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .unwrap_or((None, "en".to_owned())))
    }

    fn set_low_times(&self, user: i64, thresholds: Option<&[u64]>) -> Result<(), StorageError> {
        let json = thresholds.map(|t| serde_json::json!(t).to_string());
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "UPDATE users SET low_time = ?2 WHERE id = ?1",
            params![user, json],
        )?;
        Ok(())
    }

    fn low_times(&self) -> Result<Vec<(i64, Vec<u64>)>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt =
            conn.prepare_cached("SELECT id, low_time FROM users WHERE low_time IS NOT NULL")?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, json)| Some((id, serde_json::from_str(&json).ok()?)))
            .collect())
    }
}
