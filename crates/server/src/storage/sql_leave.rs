//! [`LeaveStore`] on either database: tables `leaves` and `leave_grants`
//! (SQLite's migration 6).

use super::leave::{BookedLeave, LeaveCheck, LeaveGrant, LeaveStore};
use super::sql::{Conn, vals};
use super::{SqlStorage, StorageError};
use crate::correspondence::leave::{Day, Leave, LeaveError};

/// The leaves of `user`, earliest first.
fn leaves_on(conn: &mut dyn Conn, user: i64) -> Result<Vec<BookedLeave>, StorageError> {
    conn.query(
        "SELECT id, first_day, last_day, booked FROM leaves WHERE \"user\" = ?1
         ORDER BY first_day",
        vals![user],
    )?
    .iter()
    .map(|row| {
        Ok(BookedLeave {
            id: row.int(0)?,
            leave: Leave {
                first: Day(row.int(1)?),
                last: Day(row.int(2)?),
            },
            booked: row.uint(3)?,
        })
    })
    .collect()
}

/// The grants to `user`.
fn grants_on(conn: &mut dyn Conn, user: i64) -> Result<Vec<LeaveGrant>, StorageError> {
    conn.query(
        "SELECT year, days, reason, by_name, at FROM leave_grants WHERE \"user\" = ?1
         ORDER BY at",
        vals![user],
    )?
    .iter()
    .map(|row| {
        Ok(LeaveGrant {
            year: row.int(0)?,
            days: row.int(1)?,
            reason: row.text(2)?,
            by: row.text(3)?,
            at: row.uint(4)?,
        })
    })
    .collect()
}

impl LeaveStore for SqlStorage {
    fn leaves(&self, user: i64) -> Result<Vec<BookedLeave>, StorageError> {
        self.read(|conn| leaves_on(conn, user))
    }

    fn leave_grants(&self, user: i64) -> Result<Vec<LeaveGrant>, StorageError> {
        self.read(|conn| grants_on(conn, user))
    }

    fn book_leave(
        &self,
        user: i64,
        leave: Leave,
        at: u64,
        check: LeaveCheck<'_>,
    ) -> Result<Result<i64, LeaveError>, StorageError> {
        self.write(|tx| {
            // One booking of an account at a time, on every node.
            tx.query_opt(lock_user(tx.dialect()), vals![user])?;
            let booked: Vec<Leave> = leaves_on(tx, user)?.iter().map(|b| b.leave).collect();
            let grants = grants_on(tx, user)?;
            if let Err(refusal) = check(&booked, &grants) {
                return Ok(Err(refusal));
            }
            let id = tx
                .query_one(
                    "INSERT INTO leaves (\"user\", first_day, last_day, booked)
                     VALUES (?1, ?2, ?3, ?4) RETURNING id",
                    vals![user, leave.first.0, leave.last.0, at],
                )?
                .int(0)?;
            Ok(Ok(id))
        })
    }

    fn grant_leave(&self, user: i64, grant: &LeaveGrant) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO leave_grants (\"user\", year, days, reason, by_name, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                vals![
                    user,
                    grant.year,
                    grant.days,
                    &grant.reason,
                    &grant.by,
                    grant.at
                ],
            )
            .map(drop)
        })
    }
}

/// A statement that holds an account's row until the transaction ends
/// (SQLite's one writer already does).
fn lock_user(dialect: super::sql::Dialect) -> &'static str {
    match dialect {
        super::sql::Dialect::Sqlite => "SELECT id FROM users WHERE id = ?1",
        super::sql::Dialect::Postgres => "SELECT id FROM users WHERE id = ?1 FOR UPDATE",
    }
}
