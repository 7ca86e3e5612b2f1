//! [`History`] on either database: tables `ratings` and
//! `rating_changes`, and the list columns of `games` (SQLite's migration
//! 5); and the rating update a rated game's end makes, inside the commit
//! that stores the end.

use rochade_laws::GameResult;

use super::history::{
    GameCounts, GamesQuery, History, PlayedGame, RatingChange, RatingPoint, UserResult,
};
use super::sql::{Conn, Row, Value, vals};
use super::{SqlStorage, StorageError};
use crate::ratings::{Perf, Rating, rate};

/// A category read back from its key.
fn perf_of(key: &str) -> Result<Perf, StorageError> {
    Perf::from_key(key).ok_or_else(|| StorageError::Corrupt {
        game: String::new(),
        reason: format!("unknown rating category {key}"),
    })
}

/// A rating from the columns `rating, deviation, volatility, games, at`
/// starting at column `from`.
fn rating_at(row: &Row, from: usize) -> Result<Rating, StorageError> {
    Ok(Rating {
        rating: row.real(from)?,
        deviation: row.real(from + 1)?,
        volatility: row.real(from + 2)?,
        games: row.int(from + 3)? as u32,
        at: row.uint(from + 4)?,
    })
}

/// The stored rating of `user` in `perf`, or a new player's.
fn rating_of(tx: &mut dyn Conn, user: i64, perf: Perf) -> Result<Rating, StorageError> {
    let row = tx.query_opt(
        "SELECT rating, deviation, volatility, games, at FROM ratings
         WHERE \"user\" = ?1 AND perf = ?2",
        vals![user, perf.key()],
    )?;
    row.map_or_else(|| Ok(Rating::initial()), |r| rating_at(&r, 0))
}

/// Stores `after` as the rating of `user`, and the change from `before`
/// that `game` made.
fn store_rating(
    tx: &mut dyn Conn,
    game: &str,
    user: i64,
    perf: Perf,
    before: &Rating,
    after: &Rating,
) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO ratings (\"user\", perf, rating, deviation, volatility, games, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (\"user\", perf) DO UPDATE SET rating = ?3, deviation = ?4,
             volatility = ?5, games = ?6, at = ?7",
        vals![
            user,
            perf.key(),
            after.rating,
            after.deviation,
            after.volatility,
            after.games,
            after.at
        ],
    )?;
    tx.execute(
        "INSERT INTO rating_changes (game, \"user\", perf, at, before, after, deviation)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        vals![
            game,
            user,
            perf.key(),
            after.at,
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
    tx: &mut dyn Conn,
    game: &str,
    result: GameResult,
    at: u64,
) -> Result<(), StorageError> {
    let Some(row) = tx.query_opt(
        "SELECT white_user, black_user, perf FROM games WHERE id = ?1 AND rated = 1",
        vals![game],
    )?
    else {
        return Ok(());
    };
    let (Some(white), Some(black), Some(perf)) =
        (row.opt_int(0)?, row.opt_int(1)?, row.opt_text(2)?)
    else {
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
fn conditions(query: &GamesQuery) -> (String, Vec<Value>) {
    let mut sql = String::new();
    let mut values: Vec<Value> = Vec::new();
    let mut param = |sql: &mut String, text: &str, value: Value| {
        values.push(value);
        sql.push_str(&text.replace('?', &format!("?{}", values.len() + 1)));
    };
    match (query.finished, query.ongoing) {
        (true, false) => sql.push_str(" AND finished = 1"),
        (false, true) => sql.push_str(" AND finished = 0"),
        (false, false) => sql.push_str(" AND 1 = 0"),
        (true, true) => {}
    }
    if let Some(until) = query.until {
        param(&mut sql, " AND created <= ?", until.into());
    }
    if let Some(since) = query.since {
        param(&mut sql, " AND created >= ?", since.into());
    }
    if let Some(rated) = query.rated {
        param(&mut sql, " AND rated = ?", rated.into());
    }
    if !query.perfs.is_empty() {
        sql.push_str(" AND perf IN (");
        for (i, perf) in query.perfs.iter().enumerate() {
            if i > 0 {
                sql.push(',');
            }
            param(&mut sql, "?", perf.key().into());
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

impl History for SqlStorage {
    fn ratings(&self, user: i64) -> Result<Vec<(Perf, Rating)>, StorageError> {
        let mut ratings = self.read(|conn| {
            conn.query(
                "SELECT perf, rating, deviation, volatility, games, at FROM ratings
                 WHERE \"user\" = ?1",
                vals![user],
            )?
            .iter()
            .map(|r| Ok((perf_of(&r.text(0)?)?, rating_at(r, 1)?)))
            .collect::<Result<Vec<_>, StorageError>>()
        })?;
        ratings.sort_by_key(|(perf, _)| *perf);
        Ok(ratings)
    }

    fn rating_history(&self, user: i64) -> Result<Vec<RatingPoint>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT perf, at, after FROM rating_changes WHERE \"user\" = ?1 ORDER BY at, game",
                vals![user],
            )?
            .iter()
            .map(|r| {
                Ok(RatingPoint {
                    perf: perf_of(&r.text(0)?)?,
                    at: r.uint(1)?,
                    rating: r.real(2)?,
                })
            })
            .collect()
        })
    }

    fn game_ratings(&self, game: &str) -> Result<Vec<RatingChange>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT \"user\", perf, before, after, deviation FROM rating_changes
                 WHERE game = ?1",
                vals![game],
            )?
            .iter()
            .map(|r| {
                Ok(RatingChange {
                    user: r.int(0)?,
                    perf: perf_of(&r.text(1)?)?,
                    before: r.real(2)?,
                    after: r.real(3)?,
                    deviation: r.real(4)?,
                })
            })
            .collect()
        })
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
        let mut all = vec![Value::Int(query.user)];
        all.extend(values);
        self.read(|conn| {
            conn.query(&sql, &all)?
                .iter()
                .map(|r| {
                    Ok(PlayedGame {
                        id: r.text(0)?,
                        created: r.uint(1)?,
                    })
                })
                .collect()
        })
    }

    fn game_counts(&self, user: i64) -> Result<GameCounts, StorageError> {
        let r = self.read(|conn| {
            conn.query_one(
                "SELECT COUNT(*), CAST(COALESCE(SUM(rated), 0) AS BIGINT),
                        CAST(COALESCE(SUM(won), 0) AS BIGINT),
                        CAST(COALESCE(SUM(lost), 0) AS BIGINT),
                        CAST(COALESCE(SUM(drawn), 0) AS BIGINT)
                 FROM (SELECT rated,
                              CASE WHEN result = '1-0' THEN 1 ELSE 0 END AS won,
                              CASE WHEN result = '0-1' THEN 1 ELSE 0 END AS lost,
                              CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END AS drawn
                         FROM games WHERE white_user = ?1 AND finished = 1 AND aborted = 0
                       UNION ALL
                       SELECT rated,
                              CASE WHEN result = '0-1' THEN 1 ELSE 0 END AS won,
                              CASE WHEN result = '1-0' THEN 1 ELSE 0 END AS lost,
                              CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END AS drawn
                         FROM games WHERE black_user = ?1 AND finished = 1 AND aborted = 0)
                      AS played",
                vals![user],
            )
        })?;
        Ok(GameCounts {
            all: r.uint(0)?,
            rated: r.uint(1)?,
            win: r.uint(2)?,
            loss: r.uint(3)?,
            draw: r.uint(4)?,
        })
    }
}
