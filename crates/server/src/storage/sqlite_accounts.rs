//! [`AccountStore`] on the SQLite database: tables `users`, `sessions`,
//! `tokens` (migration 3 in `sqlite.rs`).

use rusqlite::{OptionalExtension, Row, params};

use super::accounts::{AccountStore, NewUser, User};
use super::{SqliteStorage, StorageError};

/// The columns of a user, in [`user_of`]'s order.
pub(super) const USER: &str =
    "users.id, users.name, users.password, users.email, users.bot, users.disabled, users.created";

/// A user from a row whose first columns are [`USER`].
pub(super) fn user_of(row: &Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        id: row.get(0)?,
        name: row.get(1)?,
        password: row.get(2)?,
        email: row.get(3)?,
        bot: row.get(4)?,
        disabled: row.get(5)?,
        created: row.get::<_, i64>(6)? as u64,
    })
}

impl AccountStore for SqliteStorage {
    fn add_user(&self, user: &NewUser) -> Result<User, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let inserted = conn.execute(
            "INSERT INTO users (name, name_key, password, email, bot, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (name_key) DO NOTHING",
            params![
                user.name,
                user.name.to_ascii_lowercase(),
                user.password,
                user.email,
                user.bot,
                user.created as i64
            ],
        )?;
        if inserted == 0 {
            return Err(StorageError::Taken(user.name.clone()));
        }
        Ok(User {
            id: conn.last_insert_rowid(),
            name: user.name.clone(),
            password: user.password.clone(),
            email: user.email.clone(),
            bot: user.bot,
            disabled: false,
            created: user.created,
        })
    }

    fn user(&self, name: &str) -> Result<Option<User>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                &format!("SELECT {USER} FROM users WHERE name_key = ?1"),
                params![name.to_ascii_lowercase()],
                user_of,
            )
            .optional()?)
    }

    fn users(&self) -> Result<Vec<User>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare(&format!("SELECT {USER} FROM users ORDER BY name_key"))?;
        let users = stmt
            .query_map([], user_of)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(users)
    }

    fn set_password(&self, user: i64, phc: &str, keep: Option<&str>) -> Result<(), StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE users SET password = ?2 WHERE id = ?1",
            params![user, phc],
        )?;
        tx.execute(
            "DELETE FROM sessions WHERE user = ?1 AND digest IS NOT ?2",
            params![user, keep],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn set_disabled(&self, user: i64, disabled: bool) -> Result<(), StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        tx.execute(
            "UPDATE users SET disabled = ?2 WHERE id = ?1",
            params![user, disabled],
        )?;
        if disabled {
            tx.execute("DELETE FROM sessions WHERE user = ?1", params![user])?;
        }
        tx.commit()?;
        Ok(())
    }

    fn set_bot(&self, user: i64, bot: bool) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "UPDATE users SET bot = ?2 WHERE id = ?1",
            params![user, bot],
        )?;
        Ok(())
    }

    fn session(&self, digest: &str) -> Result<Option<User>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                &format!(
                    "SELECT {USER} FROM sessions JOIN users ON users.id = sessions.user
                     WHERE sessions.digest = ?1 AND users.disabled = 0"
                ),
                params![digest],
                user_of,
            )
            .optional()?)
    }

    fn end_session(&self, digest: &str) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute("DELETE FROM sessions WHERE digest = ?1", params![digest])?;
        Ok(())
    }

    fn add_token(
        &self,
        digest: &str,
        user: i64,
        scopes: &str,
        description: &str,
        now: u64,
    ) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO tokens (digest, user, scopes, description, created) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![digest, user, scopes, description, now as i64],
        )?;
        Ok(())
    }

    fn token(&self, digest: &str) -> Result<Option<(User, String)>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                &format!(
                    "SELECT {USER}, tokens.scopes FROM tokens JOIN users ON users.id = tokens.user
                     WHERE tokens.digest = ?1 AND users.disabled = 0"
                ),
                params![digest],
                |row| Ok((user_of(row)?, row.get(7)?)),
            )
            .optional()?)
    }
}
