//! [`TournamentStore`] on either database: tables `tournaments`,
//! `decisions`, `requests`, columns `games.tournament` and
//! `users.director` (SQLite's migration 9).

use super::sql::{Dialect, Row, vals};
use super::sql_games::{PLAYING, from_json, playing_of, to_json};
use super::tournaments::{Decision, Request, RequestKind, TournamentGame, TournamentStore};
use super::{PlayingGame, SqlStorage, StorageError};
use crate::tournaments::Tournament;

/// A tournament read back from its JSON column.
fn tournament_of(id: &str, json: &str) -> Result<Tournament, StorageError> {
    from_json(&format!("tournament {id}"), json)
}

/// A tournament as its JSON column keeps it.
fn json_of(tournament: &Tournament) -> Result<String, StorageError> {
    to_json(&format!("tournament {}", tournament.id), tournament)
}

/// Tournaments from rows of `id, settings`.
fn tournaments_of(rows: &[Row]) -> Result<Vec<Tournament>, StorageError> {
    rows.iter()
        .map(|r| tournament_of(&r.text(0)?, &r.text(1)?))
        .collect()
}

/// The columns [`decision_of`] reads.
const DECISION: &str = "id, tournament, game, player, \"by\", body, reason, at,
    (SELECT name FROM users WHERE users.id = \"by\"),
    (SELECT name FROM users WHERE users.id = player)";

/// A decision from the columns of [`DECISION`].
fn decision_of(row: &Row) -> Result<Decision, StorageError> {
    Ok(Decision {
        id: row.int(0)?,
        tournament: row.opt_text(1)?,
        game: row.opt_text(2)?,
        player: row.opt_int(3)?,
        by: row.int(4)?,
        body: row.text(5)?,
        reason: row.text(6)?,
        at: row.uint(7)?,
        by_name: row.opt_text(8)?.unwrap_or_default(),
        player_name: row.opt_text(9)?,
    })
}

/// The columns [`request_of`] reads.
const REQUEST: &str = "id, kind, game, decision, tournament, \"by\", message, at, answer,
    answered, (SELECT name FROM users WHERE users.id = \"by\")";

/// A request from the columns of [`REQUEST`].
fn request_of(row: &Row) -> Result<Request, StorageError> {
    let answered = row.opt_int(9)?.map(|a| a as u64);
    Ok(Request {
        id: row.int(0)?,
        kind: RequestKind::parse(&row.text(1)?).unwrap_or(RequestKind::Claim),
        game: row.opt_text(2)?,
        decision: row.opt_int(3)?,
        tournament: row.opt_text(4)?,
        by: row.int(5)?,
        message: row.text(6)?,
        at: row.uint(7)?,
        answer: row.opt_text(8)?.zip(answered),
        by_name: row.opt_text(10)?.unwrap_or_default(),
    })
}

/// The condition on a game `g` that `?1` directs (`?2`: a site director).
const DIRECTED: &str = "(games.tournament IN (SELECT id FROM tournaments WHERE director = ?1)
       OR (?2 = 1 AND games.tournament IS NULL AND games.perf = 'correspondence'))";

/// The tournaments the runner watches: not finished, and paired round by
/// round or waiting for their start time. The settings are JSON, which
/// each database reads its own way.
fn running_sql(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => {
            "SELECT id, settings FROM tournaments
             WHERE json_extract(settings, '$.finished') IS NULL
               AND (json_extract(settings, '$.by_round') = 1
                    OR (json_extract(settings, '$.started') IS NULL
                        AND json_extract(settings, '$.starts_at') IS NOT NULL))
             ORDER BY created, id"
        }
        Dialect::Postgres => {
            "SELECT id, settings FROM tournaments
             WHERE (settings::jsonb ->> 'finished') IS NULL
               AND ((settings::jsonb -> 'by_round') = 'true'::jsonb
                    OR ((settings::jsonb ->> 'started') IS NULL
                        AND (settings::jsonb ->> 'starts_at') IS NOT NULL))
             ORDER BY created, id"
        }
    }
}

impl TournamentStore for SqlStorage {
    fn create_tournament(&self, tournament: &Tournament) -> Result<(), StorageError> {
        let json = json_of(tournament)?;
        self.write(|tx| {
            tx.execute(
                "INSERT INTO tournaments (id, name, director, settings, created)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                vals![
                    &tournament.id,
                    &tournament.name,
                    tournament.director,
                    json,
                    tournament.created
                ],
            )
            .map(drop)
        })
    }

    fn save_tournament(&self, tournament: &Tournament) -> Result<(), StorageError> {
        let json = json_of(tournament)?;
        self.write(|tx| {
            tx.execute(
                "UPDATE tournaments SET settings = ?2 WHERE id = ?1",
                vals![&tournament.id, json],
            )
            .map(drop)
        })
    }

    fn tournament(&self, id: &str) -> Result<Option<Tournament>, StorageError> {
        self.read(|conn| {
            conn.query_opt("SELECT settings FROM tournaments WHERE id = ?1", vals![id])?
                .map(|r| tournament_of(id, &r.text(0)?))
                .transpose()
        })
    }

    fn tournaments(&self, limit: usize) -> Result<Vec<Tournament>, StorageError> {
        self.read(|conn| {
            tournaments_of(&conn.query(
                "SELECT id, settings FROM tournaments ORDER BY created DESC, id LIMIT ?1",
                vals![limit],
            )?)
        })
    }

    fn running_tournaments(&self) -> Result<Vec<Tournament>, StorageError> {
        self.read(|conn| {
            let sql = running_sql(conn.dialect());
            tournaments_of(&conn.query(sql, &[])?)
        })
    }

    fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGame>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {PLAYING}, result FROM games WHERE tournament = ?1
                     ORDER BY created, id"
                ),
                vals![id],
            )?
            .iter()
            .map(|r| {
                Ok(TournamentGame {
                    game: playing_of(r)?,
                    result: r.opt_text(4)?,
                })
            })
            .collect()
        })
    }

    fn directed_games(&self, director: i64, site: bool) -> Result<Vec<PlayingGame>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {PLAYING} FROM games
                     WHERE finished = 0 AND {DIRECTED} ORDER BY created, id"
                ),
                vals![director, site],
            )?
            .iter()
            .map(playing_of)
            .collect()
        })
    }

    fn is_site_director(&self, user: i64) -> Result<bool, StorageError> {
        self.read(|conn| {
            Ok(conn
                .query_opt("SELECT director FROM users WHERE id = ?1", vals![user])?
                .map(|r| r.int(0))
                .transpose()?
                == Some(1))
        })
    }

    fn set_site_director(&self, user: i64, on: bool) -> Result<(), StorageError> {
        self.write(|tx| {
            tx.execute(
                "UPDATE users SET director = ?2 WHERE id = ?1",
                vals![user, on],
            )
            .map(drop)
        })
    }

    fn log_decision(&self, decision: &Decision) -> Result<i64, StorageError> {
        self.write(|tx| {
            tx.query_one(
                "INSERT INTO decisions (tournament, game, player, \"by\", body, reason, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
                vals![
                    &decision.tournament,
                    &decision.game,
                    decision.player,
                    decision.by,
                    &decision.body,
                    &decision.reason,
                    decision.at
                ],
            )?
            .int(0)
        })
    }

    fn decision(&self, id: i64) -> Result<Option<Decision>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                &format!("SELECT {DECISION} FROM decisions WHERE id = ?1"),
                vals![id],
            )?
            .as_ref()
            .map(decision_of)
            .transpose()
        })
    }

    fn decisions_for(&self, user: i64, limit: usize) -> Result<Vec<Decision>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {DECISION} FROM decisions WHERE player = ?1
                        OR game IN (SELECT id FROM games WHERE white_user = ?1)
                        OR game IN (SELECT id FROM games WHERE black_user = ?1)
                     ORDER BY at DESC, id DESC LIMIT ?2"
                ),
                vals![user, limit],
            )?
            .iter()
            .map(decision_of)
            .collect()
        })
    }

    fn tournament_decisions(&self, id: &str, limit: usize) -> Result<Vec<Decision>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {DECISION} FROM decisions WHERE tournament = ?1
                     ORDER BY at DESC, id DESC LIMIT ?2"
                ),
                vals![id, limit],
            )?
            .iter()
            .map(decision_of)
            .collect()
        })
    }

    fn file_request(&self, request: &Request) -> Result<i64, StorageError> {
        self.write(|tx| {
            tx.query_one(
                "INSERT INTO requests (kind, game, decision, tournament, \"by\", message, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
                vals![
                    request.kind.as_str(),
                    &request.game,
                    request.decision,
                    &request.tournament,
                    request.by,
                    &request.message,
                    request.at
                ],
            )?
            .int(0)
        })
    }

    fn request(&self, id: i64) -> Result<Option<Request>, StorageError> {
        self.read(|conn| {
            conn.query_opt(
                &format!("SELECT {REQUEST} FROM requests WHERE id = ?1"),
                vals![id],
            )?
            .as_ref()
            .map(request_of)
            .transpose()
        })
    }

    fn answer_request(&self, id: i64, answer: &str, at: u64) -> Result<bool, StorageError> {
        let changed = self.write(|tx| {
            tx.execute(
                "UPDATE requests SET answer = ?2, answered = ?3 WHERE id = ?1 AND answered IS NULL",
                vals![id, answer, at],
            )
        })?;
        Ok(changed == 1)
    }

    fn open_requests(&self, director: i64, site: bool) -> Result<Vec<Request>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {REQUEST} FROM requests r WHERE r.answered IS NULL
                       AND (r.tournament IN (SELECT id FROM tournaments WHERE director = ?1)
                            OR (?2 = 1 AND r.tournament IS NULL))
                     ORDER BY r.at, r.id"
                ),
                vals![director, site],
            )?
            .iter()
            .map(request_of)
            .collect()
        })
    }

    fn requests_by(&self, user: i64, limit: usize) -> Result<Vec<Request>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {REQUEST} FROM requests WHERE \"by\" = ?1
                     ORDER BY at DESC, id DESC LIMIT ?2"
                ),
                vals![user, limit],
            )?
            .iter()
            .map(request_of)
            .collect()
        })
    }
}
