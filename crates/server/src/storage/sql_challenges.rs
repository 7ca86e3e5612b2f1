//! [`ChallengeStore`] on either database: table `challenges` (SQLite's
//! migration 13, PostgreSQL's 3).

use super::challenges::ChallengeStore;
use super::sql::vals;
use super::{SqlStorage, StorageError};

impl ChallengeStore for SqlStorage {
    fn open_challenge(
        &self,
        id: &str,
        challenger: i64,
        dest: i64,
        body: &str,
        made: u64,
        most: usize,
        after: u64,
    ) -> Result<bool, StorageError> {
        self.write(|tx| {
            tx.execute("DELETE FROM challenges WHERE made < ?1", vals![after])?;
            let open = tx
                .query_one(
                    "SELECT COUNT(*) FROM challenges WHERE challenger = ?1",
                    vals![challenger],
                )?
                .uint(0)?;
            if open >= most as u64 {
                return Ok(false);
            }
            tx.execute(
                "INSERT INTO challenges (id, challenger, dest, body, made)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                vals![id, challenger, dest, body, made],
            )?;
            Ok(true)
        })
    }

    fn challenge(&self, id: &str, after: u64) -> Result<Option<String>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                "SELECT body FROM challenges WHERE id = ?1 AND made >= ?2",
                vals![id, after],
            )?
            .map(|r| r.text(0))
            .transpose()
        })
    }

    fn close_challenge(&self, id: &str) -> Result<bool, StorageError> {
        self.write(|tx| Ok(tx.execute("DELETE FROM challenges WHERE id = ?1", vals![id])? > 0))
    }

    fn challenges_of(&self, user: i64, after: u64) -> Result<Vec<String>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT body FROM challenges WHERE challenger = ?1 AND made >= ?2
                 UNION ALL
                 SELECT body FROM challenges WHERE dest = ?1 AND challenger <> ?1 AND made >= ?2",
                vals![user, after],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect()
        })
    }
}
