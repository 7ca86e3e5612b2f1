//! [`NodeStore`] on either database: table `nodes` and the column
//! `games.node` (SQLite's migration 12, PostgreSQL's 2). Each claim and
//! each adoption is one conditional `UPDATE`: under PostgreSQL's row
//! locks a second node's statement finds the row already changed and
//! takes nothing.

use super::nodes::{Adopted, Claim, NodeStore};
use super::sql::{Conn, Dialect, Row, Value, vals};
use super::sql_games::{UNFINISHED, unfinished_of};
use super::{SqlStorage, StorageError, Unfinished, resumed_epoch};

/// A node's heartbeat: node ?1 is alive at ?2 (Unix ms), and no longer
/// stopped.
pub(super) const HEARTBEAT: &str = "INSERT INTO nodes (name, alive_at) VALUES (?1, ?2)
     ON CONFLICT (name) DO UPDATE SET alive_at = ?2, stopped = 0";

/// Moves at most `most` unfinished games of node `from` (none: of no
/// node) to `to`, their clocks stopped from `alive` (the last heartbeat
/// of `from`, Unix ms) until `now` (6.12); returns them with their new
/// epochs.
///
/// On PostgreSQL a game whose row another transaction holds is skipped
/// (`SKIP LOCKED`), not waited for: that is the old owner's commit in
/// flight (its `FOR SHARE` check, [`super::sql_games`]), and the old owner
/// may be frozen in the middle of it. Waiting held this node's only
/// writing connection, so its own moves and heartbeats stopped and its
/// lease lapsed too: one frozen node stopped them all (the fault test's
/// freeze, 28 November). The game is taken at a later beat, once that
/// commit has ended or PostgreSQL has ended its idle transaction
/// ([`super::postgres`]).
fn take(
    tx: &mut dyn Conn,
    (from, alive): (Option<&str>, u64),
    to: &str,
    most: usize,
    now: u64,
) -> Result<Vec<Unfinished>, StorageError> {
    let most = most as i64;
    let (whose, params): (&str, &[Value]) = match from {
        Some(from) => ("node = ?3", vals![to, most, from]),
        None => ("node IS NULL", vals![to, most]),
    };
    let sql = match tx.dialect() {
        // The games picked first, in a statement of their own: a `LIMIT`
        // in the UPDATE's `IN (…)` with `FOR UPDATE` may be run again by
        // the plan and give more rows than asked (it did, in the test
        // a_takeover_takes_at_most_what_it_is_given).
        Dialect::Postgres => format!(
            "WITH picked AS (
                 SELECT id AS picked FROM games WHERE {whose} AND finished = 0
                 LIMIT ?2 FOR UPDATE SKIP LOCKED
             )
             UPDATE games SET node = ?1 FROM picked
             WHERE games.id = picked.picked RETURNING {UNFINISHED}"
        ),
        // One writer at a time: nothing to skip.
        Dialect::Sqlite => format!(
            "UPDATE games SET node = ?1 WHERE id IN (
                 SELECT id FROM games WHERE {whose} AND finished = 0 LIMIT ?2
             ) AND {whose} RETURNING {UNFINISHED}"
        ),
    };
    let rows = tx.query(&sql, params)?;
    let mut games = rows
        .iter()
        .map(unfinished_of)
        .collect::<Result<Vec<_>, _>>()?;
    for game in &mut games {
        game.epoch = resumed_epoch(game, Some(alive), now);
        tx.execute(
            "UPDATE games SET epoch = ?2 WHERE id = ?1",
            vals![game.id.as_str(), game.epoch],
        )?;
    }
    Ok(games)
}

/// How long a claim waits for a game's row that another transaction
/// holds, on PostgreSQL, before it gives up (and the player is told to
/// try again): not the lease's seconds, for the same reason as in
/// [`take`].
const CLAIM_LOCK_WAIT: &str = "SET LOCAL lock_timeout = '300ms'";

/// Game `game` as a claim reads it ([`UNFINISHED`], then its node and
/// whether it is finished), with `lock` after the query.
fn read_game(tx: &mut dyn Conn, game: &str, lock: &str) -> Result<Option<Row>, StorageError> {
    tx.query_opt(
        &format!("SELECT {UNFINISHED}, node, finished FROM games WHERE id = ?1{lock}"),
        vals![game],
    )
}

/// Whose a game is, for a claim.
enum Whose {
    /// The claimer's already, or a live node's.
    Known(Claim),
    /// Nobody's (`None`), or a node's that is dead: it was last alive
    /// then (Unix ms; 0 if it never beat).
    Free(Option<u64>),
}

/// Whose the game of `row` ([`read_game`]) is for node `node`'s claim:
/// a node whose heartbeat is older than `stale_before`, or who stopped,
/// no longer holds it.
fn whose(
    tx: &mut dyn Conn,
    row: &Row,
    node: &str,
    stale_before: u64,
) -> Result<Whose, StorageError> {
    Ok(match row.opt_text(4)? {
        Some(owner) if owner == node => Whose::Known(Claim::Mine),
        // A single server's game: its clocks were resumed when that
        // server last started, or are by the takeover of the games of
        // no node.
        None => Whose::Free(None),
        Some(owner) => {
            let beat = tx.query_opt(
                "SELECT alive_at, stopped FROM nodes WHERE name = ?1",
                vals![owner.as_str()],
            )?;
            match beat {
                Some(beat) if beat.uint(0)? >= stale_before && beat.int(1)? == 0 => {
                    Whose::Known(Claim::Owner(owner))
                }
                Some(beat) => Whose::Free(Some(beat.uint(0)?)),
                None => Whose::Free(Some(0)),
            }
        }
    })
}

impl NodeStore for SqlStorage {
    fn claim(
        &self,
        game: &str,
        node: &str,
        stale_before: u64,
        now: u64,
    ) -> Result<Claim, StorageError> {
        self.write(|tx| {
            // Read first without a lock: most claims find the game theirs
            // or a live node's, and a lock would wait for that node's
            // commit in flight (its `FOR SHARE`).
            let Some(row) = read_game(tx, game, "")? else {
                return Ok(Claim::Missing);
            };
            if let Whose::Known(claim) = whose(tx, &row, node, stale_before)? {
                return Ok(claim);
            }
            // To take it on PostgreSQL: read it again holding its row, so
            // that a commit of the old owner in flight ends first and its
            // last event counts. (SQLite has one writer at a time: what
            // was read stands.)
            let row = if tx.dialect() == Dialect::Postgres {
                tx.execute(CLAIM_LOCK_WAIT, &[])?;
                let Some(row) = read_game(tx, game, " FOR UPDATE")? else {
                    return Ok(Claim::Missing);
                };
                row
            } else {
                row
            };
            let alive = match whose(tx, &row, node, stale_before)? {
                Whose::Known(claim) => return Ok(claim),
                Whose::Free(alive) => alive,
            };
            let unfinished = unfinished_of(&row)?;
            // 6.12: the clocks of a game taken from a dead node stopped at
            // its last heartbeat (a finished game keeps its time line).
            let epoch = match alive {
                Some(alive) if !row.flag(5)? => resumed_epoch(&unfinished, Some(alive), now),
                _ => unfinished.epoch,
            };
            tx.execute(
                "UPDATE games SET node = ?2, epoch = ?3 WHERE id = ?1",
                vals![game, node, epoch],
            )?;
            Ok(Claim::Mine)
        })
    }

    fn adopt(
        &self,
        node: &str,
        stale_before: u64,
        most: usize,
        now: u64,
    ) -> Result<Vec<Adopted>, StorageError> {
        self.write(|tx| {
            let mut adopted = Vec::new();
            let mut left = most;
            // Games of no node were stored by a single server: its last
            // heartbeat is the table `alive`.
            let alive = tx
                .query_opt("SELECT at FROM alive WHERE id = 1", &[])?
                .map(|r| r.uint(0))
                .transpose()?
                .unwrap_or(0);
            let orphans = take(tx, (None, alive), node, left, now)?;
            if !orphans.is_empty() {
                left -= orphans.len();
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
                let alive = row.uint(1)?;
                let games = take(tx, (Some(&from), alive), node, left, now)?;
                if games.is_empty() {
                    continue;
                }
                left -= games.len();
                adopted.push(Adopted {
                    from,
                    alive_at: alive,
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
