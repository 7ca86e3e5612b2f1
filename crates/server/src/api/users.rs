//! Players in public, as lichess shows them: `GET /api/user/{username}`
//! (the account and its ratings), `GET /api/user/{username}/rating-history`
//! and `GET /api/games/user/{username}` (the games, newest first, as NDJSON
//! or PGN). Anyone may read them; nothing here changes anything.

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use shakmaty::{ByColor, Color};

use super::ApiError;
use super::form::Fields;
use super::stream::ndjson;
use crate::ratings::{Perf, Rating};
use crate::record::Record;
use crate::rooms::Shared;
use crate::state::GameState;
use crate::storage::{
    GameCounts, GamesQuery, RatingChange, RatingPoint, StoredGame, User, UserResult, wall_ms,
};

/// The account named `name` (any case), or lichess's 404.
async fn find(shared: &Shared, name: &str) -> Result<User, ApiError> {
    let lookup = name.to_owned();
    shared
        .stored(move |s| s.user(&lookup))
        .await?
        .filter(|u| !u.disabled)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("No such user: {name}")))
}

/// How many rated games lichess's "progress" looks back over.
const PROGRESS_GAMES: usize = 12;

/// The `perfs` object: each category played, with the deviation as of
/// `now` and the progress over the last twelve rated games.
pub fn perfs_json(ratings: &[(Perf, Rating)], history: &[RatingPoint], now: u64) -> Value {
    let mut perfs = Map::new();
    for (perf, rating) in ratings {
        let shown = rating.as_of(now);
        let points: Vec<f64> = history
            .iter()
            .filter(|p| p.perf == *perf)
            .map(|p| p.rating)
            .collect();
        let earlier = points
            .len()
            .checked_sub(PROGRESS_GAMES + 1)
            .and_then(|i| points.get(i));
        let progress = earlier.map_or(0, |e| (rating.rating - e).round() as i64);
        perfs.insert(
            perf.key().to_owned(),
            json!({
                "games": rating.games,
                "rating": shown.shown(),
                "rd": shown.deviation.round() as i64,
                "prog": progress,
                "prov": shown.provisional(),
            }),
        );
    }
    Value::Object(perfs)
}

/// An account as lichess describes it, with its ratings and counts.
pub fn user_json(
    user: &User,
    ratings: &[(Perf, Rating)],
    history: &[RatingPoint],
    counts: GameCounts,
) -> Value {
    let mut account = super::account::describe(user);
    account["perfs"] = perfs_json(ratings, history, wall_ms());
    account["count"] = json!({
        "all": counts.all,
        "rated": counts.rated,
        "win": counts.win,
        "loss": counts.loss,
        "draw": counts.draw,
    });
    account["url"] = json!(format!("/@/{}", user.name));
    account
}

/// The account `user` as lichess describes it, its ratings read now.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn profile(shared: &Shared, user: &User) -> Result<Value, ApiError> {
    let id = user.id;
    let (ratings, history, counts) = shared
        .stored(move |s| Ok((s.ratings(id)?, s.rating_history(id)?, s.game_counts(id)?)))
        .await?;
    Ok(user_json(user, &ratings, &history, counts))
}

/// `GET /api/user/{username}`.
pub async fn public(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let user = find(&shared, &name).await?;
    Ok(axum::Json(profile(&shared, &user).await?).into_response())
}

/// `GET /api/user/{username}/rating-history`: for every category, the
/// rating after each rated game as `[year, month (0–11), day, rating]`,
/// the last of each day (lichess's shape).
pub async fn rating_history(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let user = find(&shared, &name).await?;
    let id = user.id;
    let history = shared.stored(move |s| s.rating_history(id)).await?;
    Ok(axum::Json(history_json(&history)).into_response())
}

/// The rating history in lichess's shape.
pub fn history_json(history: &[RatingPoint]) -> Value {
    let series: Vec<Value> = Perf::ALL
        .iter()
        .map(|perf| {
            let mut points: Vec<[i64; 4]> = Vec::new();
            for point in history.iter().filter(|p| p.perf == *perf) {
                let days = i64::try_from(point.at / 86_400_000).unwrap_or(0);
                let (year, month, day) = rochade_laws::pgn::civil_date(days);
                let entry = [
                    year,
                    i64::from(month) - 1,
                    i64::from(day),
                    point.rating.round() as i64,
                ];
                match points.last_mut() {
                    Some(last) if last[..3] == entry[..3] => *last = entry,
                    _ => points.push(entry),
                }
            }
            json!({"name": perf.name(), "points": points})
        })
        .collect();
    Value::Array(series)
}

/// The query fields of `GET /api/games/user/{username}`. `evals`,
/// `opening`, `literate`, `accuracy` and `division` ask for analysis
/// Rochade does not make; they are accepted and add nothing. No game has
/// been analysed, so `analysed=true` lists none. `players` (a file of
/// player names for the PGN) is not read.
const GAMES_FIELDS: &[&str] = &[
    "max",
    "until",
    "since",
    "perfType",
    "rated",
    "color",
    "result",
    "finished",
    "ongoing",
    "moves",
    "clocks",
    "pgnInJson",
    "tags",
    "lastFen",
    "evals",
    "opening",
    "literate",
    "accuracy",
    "division",
    "vs",
    "sort",
    "analysed",
    "players",
];

/// What to put in each exported game.
#[derive(Debug, Clone, Copy)]
struct Include {
    /// The moves.
    moves: bool,
    /// The clock before each move.
    clocks: bool,
    /// The PGN inside the JSON.
    pgn_in_json: bool,
    /// The position at the end.
    last_fen: bool,
}

/// Reads the query of `GET /api/games/user/{username}`.
fn games_query(
    user: i64,
    vs: Option<i64>,
    fields: &Fields,
) -> Result<(GamesQuery, Include), ApiError> {
    let bad = |m: String| ApiError::new(StatusCode::BAD_REQUEST, m);
    let mut query = GamesQuery::finished(user, usize::MAX);
    if let Some(max) = fields.number("max")? {
        query.max = usize::try_from(max).unwrap_or(usize::MAX);
    }
    query.until = fields.number("until")?;
    query.since = fields.number("since")?;
    if let Some(list) = fields.text("perfType") {
        for key in list.split(',').filter(|k| !k.is_empty()) {
            let perf = Perf::from_key(key)
                .ok_or_else(|| bad(format!("`perfType`: unknown category `{key}`")))?;
            query.perfs.push(perf);
        }
    }
    query.rated = fields.boolean("rated")?;
    query.color = match fields.text("color") {
        None => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(other) => return Err(bad(format!("`color`: `white` or `black`, not `{other}`"))),
    };
    query.result = match fields.text("result") {
        None => None,
        Some(text) => Some(
            UserResult::parse(text)
                .ok_or_else(|| bad(format!("`result`: `win`, `loss` or `draw`, not `{text}`")))?,
        ),
    };
    query.vs = vs;
    query.oldest_first = match fields.text("sort") {
        None | Some("dateDesc") => false,
        Some("dateAsc") => true,
        Some(other) => {
            return Err(bad(format!(
                "`sort`: `dateAsc` or `dateDesc`, not `{other}`"
            )));
        }
    };
    if fields.boolean("analysed")? == Some(true) {
        query.max = 0;
    }
    query.finished = fields.boolean("finished")?.unwrap_or(true);
    query.ongoing = fields.boolean("ongoing")?.unwrap_or(false);
    let include = Include {
        moves: fields.boolean("moves")?.unwrap_or(true),
        clocks: fields.boolean("clocks")?.unwrap_or(false),
        pgn_in_json: fields.boolean("pgnInJson")?.unwrap_or(false),
        last_fen: fields.boolean("lastFen")?.unwrap_or(false),
    };
    for name in [
        "tags", "evals", "opening", "literate", "accuracy", "division",
    ] {
        fields.boolean(name)?;
    }
    Ok((query, include))
}

/// Whether the reader asked for NDJSON (lichess: PGN unless so).
fn wants_ndjson(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson") || v.contains("application/json"))
}

/// `GET /api/games/user/{username}`: the account's games, newest first,
/// one JSON object a line (`Accept: application/x-ndjson`) or as PGN.
/// Rochade also filters by the player's `result` (`win`, `loss`,
/// `draw`).
pub async fn games(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let fields = Fields::query(raw.as_deref(), GAMES_FIELDS)?;
    let user = find(&shared, &name).await?;
    let vs = match fields.text("vs") {
        Some(other) => Some(find(&shared, other).await?.id),
        None => None,
    };
    let (query, include) = games_query(user.id, vs, &fields)?;
    let list = shared.stored(move |s| s.user_games(&query)).await?;
    let json = wants_ndjson(&headers);
    if json {
        return Ok(ndjson(move |lines| async move {
            for game in list {
                let Ok(Some(value)) = exported(&shared, game.id, include).await else {
                    continue;
                };
                if !lines.send(&value).await {
                    return;
                }
            }
        }));
    }
    let mut text = String::new();
    for game in list {
        let id = game.id;
        if let Some(stored) = shared.stored(move |s| s.load(&id)).await? {
            let record = Record::replay(stored.setup, stored.events)?;
            text.push_str(&crate::pgn::write_in(&record, false, Some(stored.epoch)));
            text.push_str("\n\n");
        }
    }
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn")], text).into_response())
}

/// One stored game in lichess's export shape, with its rating changes.
async fn exported(
    shared: &Shared,
    id: String,
    include: Include,
) -> Result<Option<Value>, ApiError> {
    let game = id.clone();
    let Some((stored, changes)) = shared
        .stored(move |s| {
            Ok(match s.load(&game)? {
                Some(stored) => Some((stored, s.game_ratings(&game)?)),
                None => None,
            })
        })
        .await?
    else {
        return Ok(None);
    };
    Ok(Some(export_json(stored, &changes, include)?))
}

/// A stored game as lichess exports it (`GET /game/export/{id}` with
/// `Accept: application/json`), plus Rochade's `fideCategory`: the Laws'
/// category of its control (blitz, rapid, standard, correspondence).
fn export_json(
    stored: StoredGame,
    changes: &[RatingChange],
    include: Include,
) -> Result<Value, ApiError> {
    let epoch = stored.epoch;
    let record = Record::replay(stored.setup, stored.events)?;
    let setup = &record.setup;
    let last_at = record.last_at();
    let state_text = GameState::of(
        &record,
        std::time::Duration::from_millis(last_at),
        ByColor::new_with(|_| false),
    )
    .into_json();
    let state: Value = serde_json::from_str(&state_text)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let control = setup.control().ok();
    let perf = setup.perf();
    let speed = control.as_ref().map_or(Perf::Correspondence, Perf::speed);
    let player = |color: Color| -> Value {
        match setup.player(color) {
            Some(player) => {
                let shown = super::games::shown(player);
                let mut json = json!({
                    "user": {"name": player.name, "id": player.key()},
                    "rating": shown.rating,
                });
                if player.bot {
                    json["user"]["title"] = json!("BOT");
                }
                if shown.provisional {
                    json["provisional"] = json!(true);
                }
                if let Some(change) = changes.iter().find(|c| c.user == player.id) {
                    json["ratingDiff"] =
                        json!((change.after.round() - change.before.round()) as i64);
                }
                json
            }
            None => match setup.robot {
                Some((level, side)) if Color::from(side) == color => json!({"aiLevel": level}),
                _ => json!({}),
            },
        }
    };
    let mut game = json!({
        "id": setup.id,
        "rated": setup.rated,
        "variant": if setup.chess960.is_some() { "chess960" } else { "standard" },
        "speed": speed.key(),
        "perf": perf.key(),
        "createdAt": epoch,
        "lastMoveAt": epoch + last_at,
        "status": super::games::status(&state),
        "players": {"white": player(Color::White), "black": player(Color::Black)},
        "fideCategory": control.as_ref().map(|c| c.category(rochade_laws::RuleSet::Fide).as_str()),
    });
    if let Some(winner) = state["outcome"]["winner"].as_str() {
        game["winner"] = json!(winner);
    }
    if include.moves {
        let sans: Vec<&str> = record.plies.iter().map(|p| p.san.as_str()).collect();
        game["moves"] = json!(sans.join(" "));
    }
    if let Some(tc) = control.as_ref().map(crate::challenges::time_control_json)
        && tc["type"] == "clock"
    {
        let (initial, increment) = (tc["limit"].as_u64(), tc["increment"].as_u64());
        game["clock"] = json!({
            "initial": initial,
            "increment": increment,
            "totalTime": initial.unwrap_or(0) + 40 * increment.unwrap_or(0),
        });
    }
    if setup.chess960.is_some() {
        game["initialFen"] = state["initial_fen"].clone();
    }
    if include.last_fen {
        game["lastFen"] = state["fen"].clone();
    }
    if include.clocks {
        let centis: Vec<u64> = record
            .timed
            .clock_times()
            .iter()
            .map(|t| u64::try_from(t.as_millis() / 10).unwrap_or(u64::MAX))
            .collect();
        game["clocks"] = json!(centis);
    }
    if include.pgn_in_json {
        game["pgn"] = json!(crate::pgn::write(&record));
    }
    Ok(game)
}
