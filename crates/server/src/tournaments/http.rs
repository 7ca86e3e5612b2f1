//! Tournaments over HTTP, for signed-in accounts (session cookie, JSON
//! bodies, same origin):
//!
//! - `POST /api/tournaments`: a site director creates one (`rochade user
//!   director NAME` appoints them), naming its director (themself by
//!   default); see [`super::create`].
//! - `GET /api/tournaments`, `GET /api/tournaments/{id}`: the list; one
//!   with its players, rounds, games, standings and decisions.
//! - `POST /api/tournaments/{id}/players` `{"name": …}`,
//!   `POST /api/tournaments/{id}/start`: the director names the players
//!   (after the start of a Swiss: a late entry), then starts it: round 1
//!   is paired, or every game of a correspondence section begins
//!   ([`super::runner::begin`]).
//! - `POST /api/tournaments/{id}/withdraw` `{"player", "silent",
//!   "reason"}`: a withdrawal forfeits every unfinished game of the player
//!   (a silent one is also a breach of conduct, 13.3.2.3 b);
//!   `POST /api/tournaments/{id}/warn` `{"player", "reason"}`: a warning
//!   (13.3); `POST /api/tournaments/{id}/leave` `{"player", "days",
//!   "year", "reason"}`: extra leave (10.1).
//!
//! Each of the director's acts is logged with its reason and told to the
//! players it concerns.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::runner::save;
use super::{Entrant, Start, System, Tournament};
use crate::accounts::http::signed_in_user;
use crate::director::Act;
use crate::director::http::{checked_text, decision_json, on_game, tell_decision};
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::storage::tournaments::Decision;
use crate::storage::{LeaveGrant, User};

/// How many tournaments the list shows.
const LISTED: usize = 100;

/// How many decisions a tournament's page shows.
const DECISIONS: usize = 200;

/// The account named `name`.
///
/// # Errors
///
/// `not_found` naming `field` when there is none.
pub(super) async fn account(
    shared: &Arc<Shared>,
    name: &str,
    field: &str,
) -> Result<User, ActionError> {
    let key = name.to_owned();
    shared.stored(move |s| s.user(&key)).await?.ok_or_else(|| {
        ActionError::new(
            ErrorCode::NotFound,
            format!("{field}: no account is named `{name}`"),
        )
    })
}

/// The tournament `id`.
///
/// # Errors
///
/// `not_found` when there is none.
pub(super) async fn load(shared: &Arc<Shared>, id: &str) -> Result<Tournament, ActionError> {
    let key = id.to_owned();
    shared
        .stored(move |s| s.tournament(&key))
        .await?
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("tournament {id}: not found")))
}

/// A tournament as JSON, players by name.
pub(super) fn tournament_json(t: &Tournament) -> Value {
    let start = match t.start {
        Start::Standard => Value::Null,
        Start::Chess960EachGame => json!("each_game"),
        Start::Chess960 { number } => json!(number),
    };
    let (system, rounds, baku) = match t.system {
        System::RoundRobin => ("round_robin", super::report::total_rounds(t), false),
        System::Swiss { rounds, baku } => ("swiss", rounds, baku),
        System::Knockout => ("knockout", super::report::total_rounds(t), false),
        System::Arena { .. } => ("arena", 0, false),
    };
    let status = if t.finished.is_some() {
        "finished"
    } else if t.started.is_some() {
        "started"
    } else {
        "created"
    };
    json!({
        "id": t.id,
        "name": t.name,
        "system": system,
        "rounds": rounds,
        "baku": baku,
        "minutes": super::arena::minutes(t),
        "byRound": t.by_round,
        "startsAt": t.starts_at,
        "breakSecs": t.break_secs,
        "entry": {
            "open": t.entry.open,
            "minRating": t.entry.min_rating,
            "maxRating": t.entry.max_rating,
            "minAccountDays": t.entry.min_account_days,
        },
        "tiebreaks": super::standings::order(t).iter().map(|b| b.code()).collect::<Vec<_>>(),
        "maxByes": t.max_byes,
        "knockout": t.knockout,
        "paused": t.paused,
        "problem": t.problem,
        "calledOff": t.called_off,
        "status": status,
        "round": t.rounds.len(),
        "finished": t.finished,
        "director": t.director_name,
        "timeControl": t.time_control,
        "rules": t.rules,
        "rated": t.rated,
        "double": t.double,
        "tripleBlock": t.triple_block,
        "drawsFromMove": t.draws_from_move,
        "chess960": start,
        "silenceDays": t.silence_days,
        "defaultSecs": t.default_secs,
        "players": t.players.iter().map(|p| json!({
            "id": p.id,
            "name": p.name,
            "rating": p.rating,
            "withdrawn": t.is_withdrawn(p.id),
        })).collect::<Vec<_>>(),
        "started": t.started,
        "created": t.created,
    })
}

/// `GET /api/tournaments`.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn list(State(shared): State<Arc<Shared>>) -> Result<Response, ActionError> {
    let tournaments = shared.stored(|s| s.tournaments(LISTED)).await?;
    let list: Vec<Value> = tournaments.iter().map(tournament_json).collect();
    Ok(axum::Json(json!({"tournaments": list})).into_response())
}

/// `GET /api/tournaments/{id}`: the tournament, its games (result once
/// over) and the standings (points; 1 a win, ½ a draw, 0 a loss or a
/// double forfeit, ICCF 12.1).
///
/// # Errors
///
/// `not_found` for no such tournament.
pub async fn show(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let tournament = load(&shared, &id).await?;
    let key = id.clone();
    let (games, decisions) = shared
        .stored(move |s| {
            Ok((
                s.tournament_games(&key)?,
                s.tournament_decisions(&key, DECISIONS)?,
            ))
        })
        .await?;
    let outcomes = super::report::outcomes(&games);
    let name = |p: &Option<crate::setup::Player>| p.as_ref().map(|p| p.name.clone());
    let games_json: Vec<Value> = games
        .iter()
        .map(|g| {
            let setup = &g.game.setup;
            json!({
                "id": setup.id,
                "white": name(&setup.white_player),
                "black": name(&setup.black_player),
                "chess960": setup.chess960,
                "result": g.result,
                "ply": g.game.glance.as_ref().map(|gl| gl.ply),
            })
        })
        .collect();
    let table = super::standings::standings_json(&tournament, &outcomes);
    let mut json = tournament_json(&tournament);
    json["games"] = json!(games_json);
    json["standings"] = table["rows"].clone();
    json["provisional"] = table["provisional"].clone();
    for extra in ["crosstable", "bracket"] {
        if let Some(value) = table.get(extra) {
            json[extra] = value.clone();
        }
    }
    json["pairings"] = json!(super::standings::rounds_json(&tournament, &outcomes));
    if let System::Arena { .. } = tournament.system {
        let now = shared.clock.now_ms();
        json["arena"] = super::arena::ranking::view(&tournament, &outcomes, now);
    }
    json["changed"] = json!(
        tournament
            .changed
            .iter()
            .map(|c| json!({"game": c.game, "result": c.result}))
            .collect::<Vec<_>>()
    );
    json["decisions"] = json!(decisions.iter().map(decision_json).collect::<Vec<_>>());
    Ok(axum::Json(json).into_response())
}

/// The signed-in director of tournament `id`, and the tournament.
pub(super) async fn as_director(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    id: &str,
) -> Result<(User, Tournament), ActionError> {
    let user = signed_in_user(shared, headers).await?;
    let tournament = load(shared, id).await?;
    tournament.ensure_director(user.id)?;
    Ok((user, tournament))
}

/// A player named in a body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Named {
    /// The account's name.
    name: String,
}

/// `POST /api/tournaments/{id}/players`: the director names a player
/// before the start; after the start of an event paired round by round,
/// a late entry, paired from the next round (logged as a decision).
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_allowed` once a round
/// robin or a section has started, after the last round, or when full;
/// `not_found` for no such account; `bad_request` for a player already
/// in.
pub async fn add_player(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament) = as_director(&shared, &headers, &id).await?;
    let asked: Named = crate::json::body(&body, "player")?;
    let player = account(&shared, &asked.name, "name").await?;
    let late = super::entry::admit(&shared, &tournament, &player).await?;
    tournament.players.push(late.clone());
    save(&shared, &tournament).await?;
    if tournament.started.is_some() {
        on_player(
            &shared,
            &director,
            &tournament,
            &late,
            json!({"act": "late_entry", "from_round": late.from_round}),
            &format!("late entry, paired from round {}", late.from_round),
        )
        .await?;
    }
    Ok(axum::Json(tournament_json(&tournament)).into_response())
}

/// `POST /api/tournaments/{id}/start`: the tournament begins now: round
/// 1 is paired and its games start, or, for a correspondence section,
/// every game at once.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_allowed` once started;
/// `bad_request` for fewer than two players; what pairing refuses.
pub async fn start(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (_, mut tournament) = as_director(&shared, &headers, &id).await?;
    if tournament.started.is_some() {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "the tournament has started already",
        ));
    }
    let now = shared.clock.now_ms();
    let games = super::runner::begin(&shared, &mut tournament, now).await?;
    Ok(axum::Json(json!({"id": tournament.id, "games": games})).into_response())
}

/// The body of a withdrawal.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Withdrawal {
    /// The player's name.
    player: String,
    /// Withdrawn without a word (13.3.2.3 b).
    #[serde(default)]
    silent: bool,
    /// Why.
    reason: String,
}

/// The entrant of `tournament` named `name`.
pub(super) fn entrant_named(tournament: &Tournament, name: &str) -> Result<Entrant, ActionError> {
    tournament
        .players
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
        .cloned()
        .ok_or_else(|| {
            ActionError::new(
                ErrorCode::NotFound,
                format!("player: `{name}` does not play in this tournament"),
            )
        })
}

/// A body naming a player of the tournament and the director's reason.
trait AboutPlayer: serde::de::DeserializeOwned {
    /// The player's name.
    fn player(&self) -> &str;
    /// Why.
    fn reason(&self) -> &str;
}

/// What the director asks about a player: the director, the tournament,
/// the body (read as `what`), its reason checked, and the player.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `bad_request` for a body
/// that is not one or an empty reason; `not_found` for a player not in
/// the tournament.
async fn about_player<T: AboutPlayer>(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    id: &str,
    body: &[u8],
    what: &str,
) -> Result<(User, Tournament, T, String, Entrant), ActionError> {
    let (director, tournament) = as_director(shared, headers, id).await?;
    let asked: T = crate::json::body(body, what)?;
    let reason = checked_text(asked.reason(), "reason")?;
    let player = entrant_named(&tournament, asked.player())?;
    Ok((director, tournament, asked, reason, player))
}

/// Logs decision `act` about `player` of `tournament` and tells them.
pub(super) async fn on_player(
    shared: &Arc<Shared>,
    director: &User,
    tournament: &Tournament,
    player: &Entrant,
    body: Value,
    reason: &str,
) -> Result<i64, ActionError> {
    let act = body["act"].as_str().unwrap_or_default().to_owned();
    let decision = Decision {
        id: 0,
        tournament: Some(tournament.id.clone()),
        game: None,
        player: Some(player.id),
        by: director.id,
        by_name: director.name.clone(),
        player_name: None,
        body: body.to_string(),
        reason: reason.to_owned(),
        at: shared.clock.now_ms(),
    };
    let id = shared.stored(move |s| s.log_decision(&decision)).await?;
    tell_decision(shared, player.id, "", id, director, &act, reason);
    Ok(id)
}

/// `POST /api/tournaments/{id}/withdraw`: before the start the player
/// leaves the list; after it, every unfinished game of theirs is lost by
/// forfeit.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_found` for a player not
/// in it; `not_allowed` for one withdrawn already; `bad_request` for an
/// empty reason.
pub async fn withdraw(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, asked, reason, player) =
        about_player::<Withdrawal>(&shared, &headers, &id, &body, "withdrawal").await?;
    if tournament.is_withdrawn(player.id) {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            format!("{} has been withdrawn already", player.name),
        ));
    }
    if tournament.started.is_some() && tournament.system == System::Knockout {
        // Refused before anything is logged: a player out of the bracket.
        super::knockout::withdraw(&mut tournament.clone(), player.id)?;
    }
    let decision = on_player(
        &shared,
        &director,
        &tournament,
        &player,
        json!({"act": "withdrawal", "silent": asked.silent}),
        &reason,
    )
    .await?;
    if tournament.started.is_none() {
        tournament.players.retain(|p| p.id != player.id);
        save(&shared, &tournament).await?;
        return Ok(axum::Json(json!({"decision": decision, "forfeited": []})).into_response());
    }
    if tournament.system == System::Knockout {
        super::knockout::withdraw(&mut tournament, player.id)?;
    }
    tournament
        .withdrawn
        .push((player.id, shared.clock.now_ms()));
    save(&shared, &tournament).await?;
    let key = tournament.id.clone();
    let games = shared.stored(move |s| s.tournament_games(&key)).await?;
    let mut forfeited = Vec::new();
    for game in games.iter().filter(|g| g.result.is_none()) {
        let setup = &game.game.setup;
        let Some(color) = setup.player_color(player.id) else {
            continue;
        };
        let why = format!("withdrawal of {}: {reason}", player.name);
        match on_game(
            &shared,
            &director,
            setup,
            Act::Forfeit {
                color: color.into(),
            },
            why,
            Some(player.id),
        )
        .await
        {
            Ok(_) => forfeited.push(setup.id.clone()),
            // A game that ended meanwhile keeps its result.
            Err(e) if e.code == ErrorCode::GameOver => {}
            Err(e) => return Err(e),
        }
    }
    Ok(axum::Json(json!({"decision": decision, "forfeited": forfeited})).into_response())
}

/// The body of a warning.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Warning {
    /// The player's name.
    player: String,
    /// Why.
    reason: String,
}

/// `POST /api/tournaments/{id}/warn`: a warning (13.3), logged and told to
/// the player.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_found` for a player not
/// in it; `bad_request` for an empty reason.
pub async fn warn(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let (director, tournament, _, reason, player) =
        about_player::<Warning>(&shared, &headers, &id, &body, "warning").await?;
    let decision = on_player(
        &shared,
        &director,
        &tournament,
        &player,
        json!({"act": "warning"}),
        &reason,
    )
    .await?;
    Ok(axum::Json(json!({"decision": decision})).into_response())
}

/// The body of a grant of leave.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtraLeave {
    /// The player's name.
    player: String,
    /// How many days, 1–365.
    days: i64,
    /// The calendar year they are for.
    year: i64,
    /// Why.
    reason: String,
}

/// `POST /api/tournaments/{id}/leave`: extra leave days for a player of
/// the tournament (10.1), added to their yearly allowance.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_found` for a player not
/// in it; `bad_request` for days outside 1–365, a year other than this
/// one or the next, or an empty reason.
pub async fn grant_leave(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let (director, tournament, asked, reason, player) =
        about_player::<ExtraLeave>(&shared, &headers, &id, &body, "leave").await?;
    if !(1..=365).contains(&asked.days) {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("days: 1 to 365, not {}", asked.days),
        ));
    }
    let this_year = crate::correspondence::leave::Day::of_ms(shared.clock.now_ms()).year();
    if !(this_year..=this_year + 1).contains(&asked.year) {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("year: {this_year} or {}, not {}", this_year + 1, asked.year),
        ));
    }
    let grant = LeaveGrant {
        year: asked.year,
        days: asked.days,
        reason: reason.clone(),
        by: director.name.clone(),
        at: shared.clock.now_ms(),
    };
    let user = player.id;
    shared.stored(move |s| s.grant_leave(user, &grant)).await?;
    let decision = on_player(
        &shared,
        &director,
        &tournament,
        &player,
        json!({"act": "leave_granted", "days": asked.days, "year": asked.year}),
        &reason,
    )
    .await?;
    Ok(axum::Json(json!({"decision": decision})).into_response())
}

impl AboutPlayer for Withdrawal {
    fn player(&self) -> &str {
        &self.player
    }
    fn reason(&self) -> &str {
        &self.reason
    }
}

impl AboutPlayer for Warning {
    fn player(&self) -> &str {
        &self.player
    }
    fn reason(&self) -> &str {
        &self.reason
    }
}

impl AboutPlayer for ExtraLeave {
    fn player(&self) -> &str {
        &self.player
    }
    fn reason(&self) -> &str {
        &self.reason
    }
}
