//! [`AccountStore`] on either database: tables `users`, `sessions`,
//! `tokens` (SQLite's migration 3).

use super::accounts::{AccountStore, NewUser, User};
use super::sql::{Row, vals};
use super::{SqlStorage, StorageError};

/// The columns of a user, in [`user_of`]'s order.
pub(super) const USER: &str =
    "users.id, users.name, users.password, users.email, users.bot, users.disabled, users.created";

/// A user from a row whose first columns are [`USER`].
pub(super) fn user_of(row: &Row) -> Result<User, StorageError> {
    Ok(User {
        id: row.int(0)?,
        name: row.text(1)?,
        password: row.opt_text(2)?,
        email: row.opt_text(3)?,
        bot: row.flag(4)?,
        disabled: row.flag(5)?,
        created: row.uint(6)?,
    })
}

impl AccountStore for SqlStorage {
    fn add_user(&self, user: &NewUser) -> Result<User, StorageError> {
        let id = self.write(|tx| {
            tx.query_opt(
                "INSERT INTO users (name, name_key, password, email, bot, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (name_key) DO NOTHING
                 RETURNING id",
                vals![
                    &user.name,
                    user.name.to_ascii_lowercase(),
                    &user.password,
                    &user.email,
                    user.bot,
                    user.created
                ],
            )?
            .map(|r| r.int(0))
            .transpose()
        })?;
        let id = id.ok_or_else(|| StorageError::Taken(user.name.clone()))?;
        Ok(User {
            id,
            name: user.name.clone(),
            password: user.password.clone(),
            email: user.email.clone(),
            bot: user.bot,
            disabled: false,
            created: user.created,
        })
    }

    fn user(&self, name: &str) -> Result<Option<User>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                &format!("SELECT {USER} FROM users WHERE name_key = ?1"),
                vals![name.to_ascii_lowercase()],
            )?
            .as_ref()
            .map(user_of)
            .transpose()
        })
    }

    fn users(&self) -> Result<Vec<User>, StorageError> {
        self.read(|conn| {
            conn.query(&format!("SELECT {USER} FROM users ORDER BY name_key"), &[])?
                .iter()
                .map(user_of)
                .collect()
        })
    }

    fn set_password(&self, user: i64, phc: &str, keep: Option<&str>) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE users SET password = ?2 WHERE id = ?1",
                vals![user, phc],
            )?;
            tx.execute(
                "DELETE FROM sessions WHERE \"user\" = ?1 AND (CAST(?2 AS TEXT) IS NULL OR digest <> ?2)",
                vals![user, keep],
            )?;
            Ok(())
        })
    }

    fn set_disabled(&self, user: i64, disabled: bool) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE users SET disabled = ?2 WHERE id = ?1",
                vals![user, disabled],
            )?;
            if disabled {
                tx.execute("DELETE FROM sessions WHERE \"user\" = ?1", vals![user])?;
            }
            Ok(())
        })
    }

    fn set_bot(&self, user: i64, bot: bool) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute("UPDATE users SET bot = ?2 WHERE id = ?1", vals![user, bot])
                .map(drop)
        })
    }

    fn session(&self, digest: &str) -> Result<Option<User>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                &format!(
                    "SELECT {USER} FROM sessions JOIN users ON users.id = sessions.\"user\"
                     WHERE sessions.digest = ?1 AND users.disabled = 0"
                ),
                vals![digest],
            )?
            .as_ref()
            .map(user_of)
            .transpose()
        })
    }

    fn end_session(&self, digest: &str) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute("DELETE FROM sessions WHERE digest = ?1", vals![digest])
                .map(drop)
        })
    }

    fn add_token(
        &self,
        digest: &str,
        user: i64,
        scopes: &str,
        description: &str,
        now: u64,
    ) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO tokens (digest, \"user\", scopes, description, created)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                vals![digest, user, scopes, description, now],
            )
            .map(drop)
        })
    }

    fn token(&self, digest: &str) -> Result<Option<(User, String)>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                &format!(
                    "SELECT {USER}, tokens.scopes FROM tokens JOIN users ON users.id = tokens.\"user\"
                     WHERE tokens.digest = ?1 AND users.disabled = 0"
                ),
                vals![digest],
            )?
            .map(|row| Ok((user_of(&row)?, row.text(7)?)))
            .transpose()
        })
    }
}
