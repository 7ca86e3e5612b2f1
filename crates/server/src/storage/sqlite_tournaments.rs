//! [`TournamentStore`] on the SQLite database: tables `tournaments`,
//! `decisions`, `requests`, columns `games.tournament` and
//! `users.director` (migration 9 in `sqlite.rs`).

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::sqlite::{playing_of, playing_row};
use super::tournaments::{Decision, Request, RequestKind, TournamentGame, TournamentStore};
use super::{PlayingGame, SqliteStorage, StorageError};
use crate::tournaments::Tournament;

/// A tournament read back from its JSON column.
fn tournament_of(id: &str, json: &str) -> Result<Tournament, StorageError> {
    serde_json::from_str(json).map_err(|e| StorageError::Corrupt {
        game: format!("tournament {id}"),
        reason: e.to_string(),
    })
}

/// A tournament as its JSON column keeps it.
fn json_of(tournament: &Tournament) -> Result<String, StorageError> {
    serde_json::to_string(tournament).map_err(|e| StorageError::Corrupt {
        game: format!("tournament {}", tournament.id),
        reason: e.to_string(),
    })
}

/// The columns [`decision_of`] reads.
const DECISION: &str = "id, tournament, game, player, by, body, reason, at,
    (SELECT name FROM users WHERE users.id = by),
    (SELECT name FROM users WHERE users.id = player)";

/// A decision from the columns of [`DECISION`].
fn decision_of(row: &Row<'_>) -> rusqlite::Result<Decision> {
    Ok(Decision {
        id: row.get(0)?,
        tournament: row.get(1)?,
        game: row.get(2)?,
        player: row.get(3)?,
        by: row.get(4)?,
        body: row.get(5)?,
        reason: row.get(6)?,
        at: row.get::<_, i64>(7)? as u64,
        by_name: row.get::<_, Option<String>>(8)?.unwrap_or_default(),
        player_name: row.get(9)?,
    })
}

/// The columns [`request_of`] reads.
const REQUEST: &str = "id, kind, game, decision, tournament, by, message, at, answer, answered,
    (SELECT name FROM users WHERE users.id = by)";

/// A request from the columns of [`REQUEST`].
fn request_of(row: &Row<'_>) -> rusqlite::Result<Request> {
    let kind: String = row.get(1)?;
    let answer: Option<String> = row.get(8)?;
    let answered: Option<i64> = row.get(9)?;
    Ok(Request {
        id: row.get(0)?,
        kind: RequestKind::parse(&kind).unwrap_or(RequestKind::Claim),
        game: row.get(2)?,
        decision: row.get(3)?,
        tournament: row.get(4)?,
        by: row.get(5)?,
        message: row.get(6)?,
        at: row.get::<_, i64>(7)? as u64,
        answer: answer.zip(answered.map(|a| a as u64)),
        by_name: row.get::<_, Option<String>>(10)?.unwrap_or_default(),
    })
}

/// Whether `user` is a site director, on `conn`.
fn site_director_on(conn: &Connection, user: i64) -> Result<bool, StorageError> {
    Ok(conn
        .query_row(
            "SELECT director FROM users WHERE id = ?1",
            params![user],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        == Some(1))
}

/// The condition on a game `g` that `?1` directs (`?2`: a site director).
const DIRECTED: &str = "(g.tournament IN (SELECT id FROM tournaments WHERE director = ?1)
       OR (?2 AND g.tournament IS NULL AND g.perf = 'correspondence'))";

impl TournamentStore for SqliteStorage {
    fn create_tournament(&self, tournament: &Tournament) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO tournaments (id, name, director, settings, created)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                tournament.id,
                tournament.name,
                tournament.director,
                json_of(tournament)?,
                tournament.created as i64
            ],
        )?;
        Ok(())
    }

    fn save_tournament(&self, tournament: &Tournament) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "UPDATE tournaments SET settings = ?2 WHERE id = ?1",
            params![tournament.id, json_of(tournament)?],
        )?;
        Ok(())
    }

    fn tournament(&self, id: &str) -> Result<Option<Tournament>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let json: Option<String> = conn
            .query_row(
                "SELECT settings FROM tournaments WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        json.map(|j| tournament_of(id, &j)).transpose()
    }

    fn tournaments(&self, limit: usize) -> Result<Vec<Tournament>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT id, settings FROM tournaments ORDER BY created DESC, id LIMIT ?1",
        )?;
        let rows = stmt
            .query_map(params![limit as i64], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.iter().map(|(id, j)| tournament_of(id, j)).collect()
    }

    fn running_tournaments(&self) -> Result<Vec<Tournament>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT id, settings FROM tournaments
             WHERE json_extract(settings, '$.finished') IS NULL
               AND (json_extract(settings, '$.by_round') = 1
                    OR (json_extract(settings, '$.started') IS NULL
                        AND json_extract(settings, '$.starts_at') IS NOT NULL))
             ORDER BY created, id",
        )?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        rows.iter().map(|(id, j)| tournament_of(id, j)).collect()
    }

    fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGame>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT id, setup, epoch, glance, result FROM games WHERE tournament = ?1
             ORDER BY created, id",
        )?;
        let rows = stmt
            .query_map(params![id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(game, setup, epoch, glance, result)| {
                Ok(TournamentGame {
                    game: playing_of(&game, &setup, epoch, glance.as_deref())?,
                    result,
                })
            })
            .collect()
    }

    fn directed_games(&self, director: i64, site: bool) -> Result<Vec<PlayingGame>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT g.id, g.setup, g.epoch, g.glance FROM games g
             WHERE g.finished = 0 AND {DIRECTED} ORDER BY g.created, g.id"
        ))?;
        let rows = stmt
            .query_map(params![director, site], playing_row)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(id, setup, epoch, glance)| playing_of(&id, &setup, epoch, glance.as_deref()))
            .collect()
    }

    fn is_site_director(&self, user: i64) -> Result<bool, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        site_director_on(&conn, user)
    }

    fn set_site_director(&self, user: i64, on: bool) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "UPDATE users SET director = ?2 WHERE id = ?1",
            params![user, on],
        )?;
        Ok(())
    }

    fn log_decision(&self, decision: &Decision) -> Result<i64, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO decisions (tournament, game, player, by, body, reason, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                decision.tournament,
                decision.game,
                decision.player,
                decision.by,
                decision.body,
                decision.reason,
                decision.at as i64
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    fn decision(&self, id: i64) -> Result<Option<Decision>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                &format!("SELECT {DECISION} FROM decisions WHERE id = ?1"),
                params![id],
                decision_of,
            )
            .optional()?)
    }

    fn decisions_for(&self, user: i64, limit: usize) -> Result<Vec<Decision>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {DECISION} FROM decisions WHERE player = ?1
                OR game IN (SELECT id FROM games WHERE white_user = ?1)
                OR game IN (SELECT id FROM games WHERE black_user = ?1)
             ORDER BY at DESC, id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![user, limit as i64], decision_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn tournament_decisions(&self, id: &str, limit: usize) -> Result<Vec<Decision>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {DECISION} FROM decisions WHERE tournament = ?1
             ORDER BY at DESC, id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![id, limit as i64], decision_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn file_request(&self, request: &Request) -> Result<i64, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO requests (kind, game, decision, tournament, by, message, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                request.kind.as_str(),
                request.game,
                request.decision,
                request.tournament,
                request.by,
                request.message,
                request.at as i64
            ],
        )?;
        Ok(conn.last_insert_rowid())
    }

    fn request(&self, id: i64) -> Result<Option<Request>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                &format!("SELECT {REQUEST} FROM requests WHERE id = ?1"),
                params![id],
                request_of,
            )
            .optional()?)
    }

    fn answer_request(&self, id: i64, answer: &str, at: u64) -> Result<bool, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let changed = conn.execute(
            "UPDATE requests SET answer = ?2, answered = ?3 WHERE id = ?1 AND answered IS NULL",
            params![id, answer, at as i64],
        )?;
        Ok(changed == 1)
    }

    fn open_requests(&self, director: i64, site: bool) -> Result<Vec<Request>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {REQUEST} FROM requests r WHERE r.answered IS NULL
               AND (r.tournament IN (SELECT id FROM tournaments WHERE director = ?1)
                    OR (?2 AND r.tournament IS NULL))
             ORDER BY r.at, r.id"
        ))?;
        let rows = stmt.query_map(params![director, site], request_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn requests_by(&self, user: i64, limit: usize) -> Result<Vec<Request>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {REQUEST} FROM requests WHERE by = ?1 ORDER BY at DESC, id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![user, limit as i64], request_of)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
