//! [`NodeStore`] on either database: table `nodes` and the column
//! `games.node` (SQLite's migration 12, PostgreSQL's 2). Each claim and
//! each adoption is one conditional `UPDATE`: under PostgreSQL's row
//! locks a second node's statement finds the row already changed and
//! takes nothing.

use super::nodes::{Adopted, Claim, NodeStore};
use super::sql::{Conn, vals};
use super::sql_games::{UNFINISHED, unfinished_of};
use super::{SqlStorage, StorageError, Unfinished};

/// A node's heartbeat: node ?1 is alive at ?2 (Unix ms), and no longer
/// stopped.
pub(super) const HEARTBEAT: &str = "INSERT INTO nodes (name, alive_at) VALUES (?1, ?2)
     ON CONFLICT (name) DO UPDATE SET alive_at = ?2, stopped = 0";

/// Moves at most `most` unfinished games of node `from` (none: of no
/// node) to `to`; returns them.
fn take(
    tx: &mut dyn Conn,
    from: Option<&str>,
    to: &str,
    most: usize,
) -> Result<Vec<Unfinished>, StorageError> {
    let most = most as i64;
    let rows = match from {
        Some(from) => tx.query(
            &format!(
                "UPDATE games SET node = ?1 WHERE id IN (
                     SELECT id FROM games WHERE node = ?2 AND finished = 0 LIMIT ?3
                 ) AND node = ?2 RETURNING {UNFINISHED}"
            ),
            vals![to, from, most],
        )?,
        None => tx.query(
            &format!(
                "UPDATE games SET node = ?1 WHERE id IN (
                     SELECT id FROM games WHERE node IS NULL AND finished = 0 LIMIT ?2
                 ) AND node IS NULL RETURNING {UNFINISHED}"
            ),
            vals![to, most],
        )?,
    };
    rows.iter().map(unfinished_of).collect()
}

impl NodeStore for SqlStorage {
    fn claim(&self, game: &str, node: &str, stale_before: u64) -> Result<Claim, StorageError> {
        self.write(|tx| {
            let taken = tx.execute(
                "UPDATE games SET node = ?2 WHERE id = ?1 AND (
                     node IS NULL OR node = ?2
                     OR node NOT IN (SELECT name FROM nodes WHERE alive_at >= ?3 AND stopped = 0)
                 )",
                vals![game, node, stale_before],
            )?;
            if taken > 0 {
                return Ok(Claim::Mine);
            }
            Ok(
                match tx.query_opt("SELECT node FROM games WHERE id = ?1", vals![game])? {
                    None => Claim::Missing,
                    Some(row) => match row.opt_text(0)? {
                        Some(owner) if owner != node => Claim::Owner(owner),
                        _ => Claim::Mine,
                    },
                },
            )
        })
    }

    fn adopt(
        &self,
        node: &str,
        stale_before: u64,
        most: usize,
    ) -> Result<Vec<Adopted>, StorageError> {
        self.write(|tx| {
            let mut adopted = Vec::new();
            let mut left = most;
            // Games of no node were stored by a single server: its last
            // heartbeat is the table `alive`.
            let orphans = take(tx, None, node, left)?;
            if !orphans.is_empty() {
                left -= orphans.len();
                let alive = tx
                    .query_opt("SELECT at FROM alive WHERE id = 1", &[])?
                    .map(|r| r.uint(0))
                    .transpose()?
                    .unwrap_or(0);
                adopted.push(Adopted {
                    from: String::new(),
                    alive_at: alive,
                    handed_over: false,
                    games: orphans,
                });
            }
            let dead = tx.query(
                "SELECT name, alive_at, stopped FROM nodes
                 WHERE (alive_at < ?1 OR stopped = 1) AND name <> ?2
                 ORDER BY name",
                vals![stale_before, node],
            )?;
            for row in &dead {
                if left == 0 {
                    break;
                }
                let from = row.text(0)?;
                let games = take(tx, Some(&from), node, left)?;
                if games.is_empty() {
                    continue;
                }
                left -= games.len();
                adopted.push(Adopted {
                    from,
                    alive_at: row.uint(1)?,
                    handed_over: row.int(2)? != 0,
                    games,
                });
            }
            Ok(adopted)
        })
    }

    fn owned(&self, node: &str) -> Result<Vec<Unfinished>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!("SELECT {UNFINISHED} FROM games WHERE node = ?1 AND finished = 0"),
                vals![node],
            )?
            .iter()
            .map(unfinished_of)
            .collect()
        })
    }

    fn heartbeats(&self) -> Result<Vec<(String, u64)>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT name, CASE WHEN stopped = 0 THEN alive_at ELSE 0 END FROM nodes
                 ORDER BY name",
                &[],
            )?
            .iter()
            .map(|r| Ok((r.text(0)?, r.uint(1)?)))
            .collect()
        })
    }

    fn beat(&self, node: &str, at: u64) -> Result<(), StorageError> {
        // On a reading connection, in a statement of its own (it commits
        // alone): not the writing connection, which the group commit and
        // the claims hold in turn.
        self.read(|conn| conn.execute(HEARTBEAT, vals![node, at]).map(drop))
    }

    fn last_heartbeat(&self, node: &str) -> Result<Option<u64>, StorageError> {
        self.read(|conn| {
            conn.query_opt("SELECT alive_at FROM nodes WHERE name = ?1", vals![node])?
                .map(|r| r.uint(0))
                .transpose()
        })
    }
}
