//! [`NoticeStore`] on either database: table `notices` and the column
//! `users.last_digest` (SQLite's migration 8).

use super::notices::{DueDigest, NoticeStore, StoredNotice};
use super::sql::vals;
use super::sql_accounts::{USER, user_of};
use super::{SqlStorage, StorageError};

impl NoticeStore for SqlStorage {
    fn add_notice(
        &self,
        user: i64,
        key: &str,
        game: &str,
        body: &str,
        at: u64,
    ) -> Result<bool, StorageError> {
        let added = self.write(|tx| {
            tx.execute(
                "INSERT INTO notices (\"user\", key, game, text, at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (\"user\", key) DO NOTHING",
                vals![user, key, game, body, at],
            )
        })?;
        Ok(added == 1)
    }

    fn due_digests(&self, since: u64, most: usize) -> Result<Vec<DueDigest>, StorageError> {
        self.read(|conn| {
            let ids = conn.query(
                "SELECT DISTINCT notices.\"user\" FROM notices
                   JOIN users ON users.id = notices.\"user\"
                 WHERE notices.sent IS NULL AND users.email IS NOT NULL AND users.disabled = 0
                   AND COALESCE(users.last_digest, 0) <= ?1
                 LIMIT ?2",
                vals![since, most],
            )?;
            let mut due = Vec::with_capacity(ids.len());
            for id in ids {
                let id = id.int(0)?;
                let Some(row) = conn.query_opt(
                    &format!("SELECT {USER}, users.lang FROM users WHERE users.id = ?1"),
                    vals![id],
                )?
                else {
                    continue;
                };
                let notices = conn
                    .query(
                        "SELECT id, at, game, text FROM notices
                         WHERE \"user\" = ?1 AND sent IS NULL ORDER BY at",
                        vals![id],
                    )?
                    .iter()
                    .map(|n| {
                        Ok(StoredNotice {
                            id: n.int(0)?,
                            at: n.uint(1)?,
                            game: n.text(2)?,
                            body: n.text(3)?,
                        })
                    })
                    .collect::<Result<Vec<_>, StorageError>>()?;
                due.push(DueDigest {
                    user: user_of(&row)?,
                    lang: row.text(7)?,
                    notices,
                });
            }
            Ok(due)
        })
    }

    fn digest_sent(&self, user: i64, ids: &[i64], at: u64) -> Result<(), StorageError> {
        self.write(|tx| {
            for id in ids {
                tx.execute("UPDATE notices SET sent = ?2 WHERE id = ?1", vals![*id, at])?;
            }
            tx.execute(
                "UPDATE users SET last_digest = ?2 WHERE id = ?1",
                vals![user, at],
            )?;
            Ok(())
        })
    }

    fn dismiss_notices(&self, user: i64, game: &str) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "DELETE FROM notices WHERE \"user\" = ?1 AND game = ?2 AND sent IS NULL",
                vals![user, game],
            )
            .map(drop)
        })
    }

    fn set_notifications(
        &self,
        user: i64,
        email: Option<&str>,
        lang: &str,
    ) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE users SET email = ?2, lang = ?3 WHERE id = ?1",
                vals![user, email, lang],
            )
            .map(drop)
        })
    }

    fn notifications(&self, user: i64) -> Result<(Option<String>, String), StorageError> {
        self.read(|conn| {
            conn.query_opt("SELECT email, lang FROM users WHERE id = ?1", vals![user])?
                .map_or(Ok((None, "en".to_owned())), |r| {
                    Ok((r.opt_text(0)?, r.text(1)?))
                })
        })
    }

    fn set_low_times(&self, user: i64, thresholds: Option<&[u64]>) -> Result<(), StorageError> {
        let json = thresholds.map(|t| serde_json::json!(t).to_string());
        self.write(|tx| {
            tx.execute(
                "UPDATE users SET low_time = ?2 WHERE id = ?1",
                vals![user, json],
            )
            .map(drop)
        })
    }

    fn low_times(&self) -> Result<Vec<(i64, Vec<u64>)>, StorageError> {
        let rows = self.read(|conn| {
            conn.query(
                "SELECT id, low_time FROM users WHERE low_time IS NOT NULL",
                &[],
            )?
            .iter()
            .map(|r| Ok((r.int(0)?, r.text(1)?)))
            .collect::<Result<Vec<_>, StorageError>>()
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, json)| Some((id, serde_json::from_str(&json).ok()?)))
            .collect())
    }
}
