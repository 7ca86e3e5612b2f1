//! [`History`] on the SQLite database: tables `ratings` and
//! `rating_changes`, and the list columns of `games` (migration 5 in
//! `sqlite.rs`); and the rating update a rated game's end makes, inside
//! the commit that stores the end.

use rochade_laws::GameResult;
use rusqlite::{OptionalExtension, Transaction, params};

use super::history::{
    GameCounts, GamesQuery, History, PlayedGame, RatingChange, RatingPoint, UserResult,
};
use super::{SqliteStorage, StorageError};
use crate::ratings::{Perf, Rating, rate};

/// A category read back from its key.
fn perf_of(key: &str) -> Result<Perf, StorageError> {
    Perf::from_key(key).ok_or_else(|| StorageError::Corrupt {
        game: String::new(),
        reason: format!("unknown rating category {key}"),
    })
}

/// The stored rating of `user` in `perf`, or a new player's.
fn rating_of(tx: &Transaction<'_>, user: i64, perf: Perf) -> Result<Rating, StorageError> {
    let row = tx
        .query_row(
            "SELECT rating, deviation, volatility, games, at FROM ratings
             WHERE user = ?1 AND perf = ?2",
            params![user, perf.key()],
            |r| {
                Ok(Rating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                    games: r.get(3)?,
                    at: r.get::<_, i64>(4)? as u64,
                })
            },
        )
        .optional()?;
    Ok(row.unwrap_or_else(Rating::initial))
}

/// Stores `after` as the rating of `user`, and the change from `before`
/// that `game` made.
fn store_rating(
    tx: &Transaction<'_>,
    game: &str,
    user: i64,
    perf: Perf,
    before: &Rating,
    after: &Rating,
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO ratings (user, perf, rating, deviation, volatility, games, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (user, perf) DO UPDATE SET rating = ?3, deviation = ?4,
             volatility = ?5, games = ?6, at = ?7",
        params![
            user,
            perf.key(),
            after.rating,
            after.deviation,
            after.volatility,
            after.games,
            after.at as i64
        ],
    )?;
    tx.execute(
        "INSERT INTO rating_changes (game, user, perf, at, before, after, deviation)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            game,
            user,
            perf.key(),
            after.at as i64,
            before.rating,
            after.rating,
            after.deviation
        ],
    )?;
    Ok(())
}

/// Updates both players' ratings after the game `game` ended with
/// `result` at `at` (Unix ms), if it is a rated game between two
/// accounts; otherwise does nothing.
pub(super) fn rate_game(
    tx: &Transaction<'_>,
    game: &str,
    result: GameResult,
    at: u64,
) -> Result<(), StorageError> {
    let row = tx
        .query_row(
            "SELECT white_user, black_user, perf FROM games WHERE id = ?1 AND rated = 1",
            params![game],
            |r| {
                Ok((
                    r.get::<_, Option<i64>>(0)?,
                    r.get::<_, Option<i64>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            },
        )
        .optional()?;
    let Some((Some(white), Some(black), Some(perf))) = row else {
        return Ok(());
    };
    if white == black || result == GameResult::BothLose {
        return Ok(());
    }
    let perf = perf_of(&perf)?;
    let (w, b) = (rating_of(tx, white, perf)?, rating_of(tx, black, perf)?);
    let (new_w, new_b) = rate(&w, &b, result, at);
    store_rating(tx, game, white, perf, &w, &new_w)?;
    store_rating(tx, game, black, perf, &b, &new_b)?;
    Ok(())
}

/// The SQL condition (on `games`, for the account `?1`) of a query's
/// filters other than the colour, and its extra parameters.
fn conditions(query: &GamesQuery) -> (String, Vec<rusqlite::types::Value>) {
    use rusqlite::types::Value;
    let mut sql = String::new();
    let mut values: Vec<Value> = Vec::new();
    let mut param = |sql: &mut String, text: &str, value: Value| {
        values.push(value);
        sql.push_str(&text.replace('?', &format!("?{}", values.len() + 1)));
    };
    match (query.finished, query.ongoing) {
        (true, false) => sql.push_str(" AND finished = 1"),
        (false, true) => sql.push_str(" AND finished = 0"),
        (false, false) => sql.push_str(" AND 0"),
        (true, true) => {}
    }
    if let Some(until) = query.until {
        param(&mut sql, " AND created <= ?", Value::Integer(until as i64));
    }
    if let Some(since) = query.since {
        param(&mut sql, " AND created >= ?", Value::Integer(since as i64));
    }
    if let Some(rated) = query.rated {
        param(&mut sql, " AND rated = ?", Value::Integer(i64::from(rated)));
    }
    if !query.perfs.is_empty() {
        sql.push_str(" AND perf IN (");
        for (i, perf) in query.perfs.iter().enumerate() {
            if i > 0 {
                sql.push(',');
            }
            param(&mut sql, "?", Value::Text(perf.key().to_owned()));
        }
        sql.push(')');
    }
    (sql, values)
}

/// The result column's value for a player's `result` with `color`.
fn result_text(result: UserResult, white: bool) -> &'static str {
    match (result, white) {
        (UserResult::Draw, _) => "1/2-1/2",
        (UserResult::Win, true) | (UserResult::Loss, false) => "1-0",
        (UserResult::Win, false) | (UserResult::Loss, true) => "0-1",
    }
}

impl History for SqliteStorage {
    fn ratings(&self, user: i64) -> Result<Vec<(Perf, Rating)>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT perf, rating, deviation, volatility, games, at FROM ratings WHERE user = ?1",
        )?;
        let rows = stmt
            .query_map(params![user], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    Rating {
                        rating: r.get(1)?,
                        deviation: r.get(2)?,
                        volatility: r.get(3)?,
                        games: r.get(4)?,
                        at: r.get::<_, i64>(5)? as u64,
                    },
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut ratings = rows
            .into_iter()
            .map(|(perf, rating)| Ok((perf_of(&perf)?, rating)))
            .collect::<Result<Vec<_>, StorageError>>()?;
        ratings.sort_by_key(|(perf, _)| *perf);
        Ok(ratings)
    }

    fn rating_history(&self, user: i64) -> Result<Vec<RatingPoint>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT perf, at, after FROM rating_changes WHERE user = ?1 ORDER BY at, game",
        )?;
        let rows = stmt
            .query_map(params![user], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)? as u64,
                    r.get::<_, f64>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(perf, at, rating)| {
                Ok(RatingPoint {
                    perf: perf_of(&perf)?,
                    at,
                    rating,
                })
            })
            .collect()
    }

    fn game_ratings(&self, game: &str) -> Result<Vec<RatingChange>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT user, perf, before, after, deviation FROM rating_changes WHERE game = ?1",
        )?;
        let rows = stmt
            .query_map(params![game], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, f64>(2)?,
                    r.get::<_, f64>(3)?,
                    r.get::<_, f64>(4)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(user, perf, before, after, deviation)| {
                Ok(RatingChange {
                    user,
                    perf: perf_of(&perf)?,
                    before,
                    after,
                    deviation,
                })
            })
            .collect()
    }

    fn user_games(&self, query: &GamesQuery) -> Result<Vec<PlayedGame>, StorageError> {
        let (filters, values) = conditions(query);
        let side = |column: &str, white: bool| {
            let result = query.result.map_or(String::new(), |r| {
                format!(" AND result = '{}'", result_text(r, white))
            });
            // The opponent's column, compared with a number we hold.
            let vs = query.vs.map_or(String::new(), |vs| {
                let other = if white { "black_user" } else { "white_user" };
                format!(" AND {other} = {vs}")
            });
            format!("SELECT id, created FROM games WHERE {column} = ?1{filters}{result}{vs}")
        };
        let mut parts = Vec::new();
        if query.color != Some(shakmaty::Color::Black) {
            parts.push(side("white_user", true));
        }
        if query.color != Some(shakmaty::Color::White) {
            parts.push(side("black_user", false));
        }
        let sql = format!(
            "{} ORDER BY created {}, id LIMIT {}",
            parts.join(" UNION ALL "),
            if query.oldest_first { "ASC" } else { "DESC" },
            query.max.min(i64::MAX as usize)
        );
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare(&sql)?;
        let mut all = vec![rusqlite::types::Value::Integer(query.user)];
        all.extend(values);
        let games = stmt
            .query_map(rusqlite::params_from_iter(all), |r| {
                Ok(PlayedGame {
                    id: r.get(0)?,
                    created: r.get::<_, i64>(1)? as u64,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(games)
    }

    fn game_counts(&self, user: i64) -> Result<GameCounts, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let counts = conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(rated), 0),
                    COALESCE(SUM(won), 0), COALESCE(SUM(lost), 0),
                    COALESCE(SUM(result = '1/2-1/2'), 0)
             FROM (SELECT rated, result, result = '1-0' AS won, result = '0-1' AS lost
                     FROM games WHERE white_user = ?1 AND finished = 1 AND aborted = 0
                   UNION ALL
                   SELECT rated, result, result = '0-1' AS won, result = '1-0' AS lost
                     FROM games WHERE black_user = ?1 AND finished = 1 AND aborted = 0)",
            params![user],
            |r| {
                Ok(GameCounts {
                    all: r.get::<_, i64>(0)? as u64,
                    rated: r.get::<_, i64>(1)? as u64,
                    win: r.get::<_, i64>(2)? as u64,
                    loss: r.get::<_, i64>(3)? as u64,
                    draw: r.get::<_, i64>(4)? as u64,
                })
            },
        )?;
        Ok(counts)
    }
}
