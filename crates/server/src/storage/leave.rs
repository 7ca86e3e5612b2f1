//! Where leave lives (ICCF 10.1): each account's booked leave and the
//! extra days the organiser granted, per calendar year.

use super::StorageError;
use crate::correspondence::leave::{Leave, LeaveError};

/// A leave as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookedLeave {
    /// The row id.
    pub id: i64,
    /// The days.
    pub leave: Leave,
    /// When it was booked, Unix ms.
    pub booked: u64,
}

/// Extra leave days granted for a year.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaveGrant {
    /// The calendar year.
    pub year: i64,
    /// How many days.
    pub days: i64,
    /// Why.
    pub reason: String,
    /// Who granted them.
    pub by: String,
    /// When, Unix ms.
    pub at: u64,
}

/// A booking's test: given the leaves and grants already stored, whether
/// one more may be booked.
pub type LeaveCheck<'a> = &'a dyn Fn(&[Leave], &[LeaveGrant]) -> Result<(), LeaveError>;

/// Leave and grants.
pub trait LeaveStore: Send + Sync + 'static {
    /// Every leave of account `user`, earliest first.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn leaves(&self, user: i64) -> Result<Vec<BookedLeave>, StorageError>;

    /// Every grant of extra days to `user`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn leave_grants(&self, user: i64) -> Result<Vec<LeaveGrant>, StorageError>;

    /// Books `leave` for `user` at `at` (Unix ms) if `check` — given the
    /// leaves and grants already stored, read in the same transaction —
    /// allows it; the new row id, or `check`'s refusal with nothing stored.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn book_leave(
        &self,
        user: i64,
        leave: Leave,
        at: u64,
        check: LeaveCheck<'_>,
    ) -> Result<Result<i64, LeaveError>, StorageError>;

    /// Grants `user` extra leave days in a year.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn grant_leave(&self, user: i64, grant: &LeaveGrant) -> Result<(), StorageError>;
}
