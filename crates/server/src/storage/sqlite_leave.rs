//! [`LeaveStore`] on the SQLite database: tables `leaves` and
//! `leave_grants` (migration 6 in `sqlite.rs`).

use rusqlite::{Connection, params};

use super::leave::{BookedLeave, LeaveCheck, LeaveGrant, LeaveStore};
use super::{SqliteStorage, StorageError};
use crate::correspondence::leave::{Day, Leave, LeaveError};

/// The leaves of `user` on `conn`, earliest first.
fn leaves_on(conn: &Connection, user: i64) -> Result<Vec<BookedLeave>, StorageError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, first_day, last_day, booked FROM leaves WHERE user = ?1 ORDER BY first_day",
    )?;
    let rows = stmt.query_map(params![user], |row| {
        Ok(BookedLeave {
            id: row.get(0)?,
            leave: Leave {
                first: Day(row.get(1)?),
                last: Day(row.get(2)?),
            },
            booked: row.get::<_, i64>(3)? as u64,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The grants to `user` on `conn`.
fn grants_on(conn: &Connection, user: i64) -> Result<Vec<LeaveGrant>, StorageError> {
    let mut stmt = conn.prepare_cached(
        "SELECT year, days, reason, by_name, at FROM leave_grants WHERE user = ?1 ORDER BY at",
    )?;
    let rows = stmt.query_map(params![user], |row| {
        Ok(LeaveGrant {
            year: row.get(0)?,
            days: row.get(1)?,
            reason: row.get(2)?,
            by: row.get(3)?,
            at: row.get::<_, i64>(4)? as u64,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

impl LeaveStore for SqliteStorage {
    fn leaves(&self, user: i64) -> Result<Vec<BookedLeave>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        leaves_on(&conn, user)
    }

    fn leave_grants(&self, user: i64) -> Result<Vec<LeaveGrant>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        grants_on(&conn, user)
    }

    fn book_leave(
        &self,
        user: i64,
        leave: Leave,
        at: u64,
        check: LeaveCheck<'_>,
    ) -> Result<Result<i64, LeaveError>, StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        let booked: Vec<Leave> = leaves_on(&tx, user)?.iter().map(|b| b.leave).collect();
        let grants = grants_on(&tx, user)?;
        if let Err(refusal) = check(&booked, &grants) {
            return Ok(Err(refusal));
        }
        tx.execute(
            "INSERT INTO leaves (user, first_day, last_day, booked) VALUES (?1, ?2, ?3, ?4)",
            params![user, leave.first.0, leave.last.0, at as i64],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(Ok(id))
    }

    fn grant_leave(&self, user: i64, grant: &LeaveGrant) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO leave_grants (user, year, days, reason, by_name, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                user,
                grant.year,
                grant.days,
                grant.reason,
                grant.by,
                grant.at as i64
            ],
        )?;
        Ok(())
    }
}
