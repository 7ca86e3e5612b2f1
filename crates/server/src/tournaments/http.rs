//! Tournaments over HTTP, for signed-in accounts (session cookie, JSON
//! bodies, same origin):
//!
//! - `POST /api/tournaments`: a site director creates one (`rochade user
//!   director NAME` appoints them), naming its director (themself by
//!   default).
//! - `GET /api/tournaments`, `GET /api/tournaments/{id}`: the list; one
//!   with its players, games and standings.
//! - `POST /api/tournaments/{id}/players` `{"name": …}`,
//!   `POST /api/tournaments/{id}/start`: the director names the players,
//!   then every game begins ([`super::sections`]).
//! - `POST /api/tournaments/{id}/withdraw` `{"player", "silent",
//!   "reason"}`: a withdrawal forfeits every unfinished game of the player
//!   (a silent one is also a breach of conduct, 13.3.2.3 b);
//!   `POST /api/tournaments/{id}/warn` `{"player", "reason"}`: a warning
//!   (13.3); `POST /api/tournaments/{id}/leave` `{"player", "days",
//!   "year", "reason"}`: extra leave (10.1).
//!
//! Each of the director's acts is logged with its reason and told to the
//! players it concerns.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use rand::Rng;
use rochade_laws::{GameResult, Scoring};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Entrant, MAX_PLAYERS, NAME_CHARS, Start, Tournament};
use crate::accounts::http::signed_in_user;
use crate::director::Act;
use crate::director::http::{checked_text, decision_json, on_game, tell_decision};
use crate::error::{ActionError, ErrorCode};
use crate::limits::ClientAddr;
use crate::rooms::Shared;
use crate::setup::{checked_control, random_code, rules_for};
use crate::storage::tournaments::Decision;
use crate::storage::{LeaveGrant, User};

/// How many tournaments the list shows.
const LISTED: usize = 100;

/// How many decisions a tournament's page shows.
const DECISIONS: usize = 200;

/// The body of `POST /api/tournaments`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTournament {
    /// Its name.
    name: String,
    /// The time control of every game.
    time_control: String,
    /// `iccf`, `fide` or `fide2009`; ICCF's for a control in days.
    #[serde(default)]
    rules: Option<String>,
    /// Rated (default true).
    #[serde(default = "yes")]
    rated: bool,
    /// A double round robin.
    #[serde(default)]
    double: bool,
    /// Triple Block (appendix C).
    #[serde(default)]
    triple_block: bool,
    /// Agreed draws from this move on (9.1.1).
    #[serde(default)]
    draws_from_move: Option<u32>,
    /// `null`, `"each_game"` (a Chess960 position per game), `"random"`
    /// (one drawn for the event) or a number 0–959.
    #[serde(default)]
    chess960: Option<Value>,
    /// Days without a move before a game needs the director.
    #[serde(default)]
    silence_days: Option<u32>,
    /// The director's account name (default: the creator).
    #[serde(default)]
    director: Option<String>,
}

/// Serde's default `true`.
fn yes() -> bool {
    true
}

/// The account named `name`.
///
/// # Errors
///
/// `not_found` naming `field` when there is none.
async fn account(shared: &Arc<Shared>, name: &str, field: &str) -> Result<User, ActionError> {
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
async fn load(shared: &Arc<Shared>, id: &str) -> Result<Tournament, ActionError> {
    let key = id.to_owned();
    shared
        .stored(move |s| s.tournament(&key))
        .await?
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("tournament {id}: not found")))
}

/// Stores `tournament`'s new state.
async fn save(shared: &Arc<Shared>, tournament: &Tournament) -> Result<(), ActionError> {
    let t = tournament.clone();
    shared.stored(move |s| s.save_tournament(&t)).await
}

/// The start a request asks for.
fn start_of(chess960: Option<&Value>) -> Result<Start, ActionError> {
    match chess960 {
        None | Some(Value::Null) => Ok(Start::Standard),
        Some(Value::String(s)) if s == "each_game" => Ok(Start::Chess960EachGame),
        Some(Value::String(s)) if s == "random" => Ok(Start::Chess960 {
            number: rand::rng().random_range(0..960),
        }),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n < 960) => Ok(Start::Chess960 {
            number: n.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(0),
        }),
        Some(other) => Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("chess960: `{other}` is not null, \"each_game\", \"random\" or 0–959"),
        )),
    }
}

/// A tournament as JSON, players by name.
fn tournament_json(t: &Tournament) -> Value {
    let start = match t.start {
        Start::Standard => Value::Null,
        Start::Chess960EachGame => json!("each_game"),
        Start::Chess960 { number } => json!(number),
    };
    json!({
        "id": t.id,
        "name": t.name,
        "director": t.director_name,
        "timeControl": t.time_control,
        "rules": t.rules,
        "rated": t.rated,
        "double": t.double,
        "tripleBlock": t.triple_block,
        "drawsFromMove": t.draws_from_move,
        "chess960": start,
        "silenceDays": t.silence_days,
        "players": t.players.iter().map(|p| json!({
            "id": p.id,
            "name": p.name,
            "withdrawn": t.is_withdrawn(p.id),
        })).collect::<Vec<_>>(),
        "started": t.started,
        "created": t.created,
    })
}

/// `POST /api/tournaments`.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but a site
/// director; `bad_request` naming the field that is wrong; `not_found`
/// for a director with no account.
pub async fn create(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let me = user.id;
    if !shared.stored(move |s| s.is_site_director(me)).await? {
        return Err(ActionError::new(
            ErrorCode::Forbidden,
            "only the site's directors create tournaments (rochade user director NAME)",
        ));
    }
    let asked: NewTournament = crate::json::body(&body, "tournament")?;
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let name = asked.name.trim().to_owned();
    let chars = name.chars().count();
    if chars == 0 || chars > NAME_CHARS {
        return Err(bad(format!(
            "name: 1 to {NAME_CHARS} characters, not {chars}"
        )));
    }
    let control = checked_control(&asked.time_control, &shared.limits)?;
    let rules = rules_for(asked.rules.as_deref(), &control)?;
    if asked.triple_block && control.scale() != rochade_laws::clock::Scale::Days {
        return Err(bad(
            "triple_block: Triple Block is a correspondence time system (appendix C)".into(),
        ));
    }
    if asked.draws_from_move == Some(0) {
        return Err(bad("draws_from_move: move numbers begin at 1".into()));
    }
    let director = match &asked.director {
        Some(name) => account(&shared, name, "director").await?,
        None => user,
    };
    let tournament = Tournament {
        id: random_code(8),
        name,
        director: director.id,
        director_name: director.name.clone(),
        time_control: control.to_string(),
        rules: rules.as_str().to_owned(),
        rated: asked.rated,
        double: asked.double,
        triple_block: asked.triple_block,
        draws_from_move: asked.draws_from_move,
        start: start_of(asked.chess960.as_ref())?,
        silence_days: asked.silence_days.unwrap_or(shared.limits.silence_days),
        players: Vec::new(),
        started: None,
        withdrawn: Vec::new(),
        created: shared.clock.now_ms(),
    };
    let t = tournament.clone();
    shared.stored(move |s| s.create_tournament(&t)).await?;
    Ok(axum::Json(tournament_json(&tournament)).into_response())
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
    let mut points: HashMap<i64, (u32, u32)> = HashMap::new();
    let name = |p: &Option<crate::setup::Player>| p.as_ref().map(|p| p.name.clone());
    let games_json: Vec<Value> = games
        .iter()
        .map(|g| {
            let setup = &g.game.setup;
            if let Some(result) = g.result.as_deref().and_then(GameResult::parse) {
                for color in shakmaty::Color::ALL {
                    if let Some(p) = setup.player(color) {
                        let entry = points.entry(p.id).or_default();
                        entry.0 += u32::from(Scoring::CLASSICAL.points(result, color));
                        entry.1 += 1;
                    }
                }
            }
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
    let mut standings: Vec<Value> = tournament
        .players
        .iter()
        .map(|p| {
            let (half, played) = points.get(&p.id).copied().unwrap_or_default();
            json!({
                "name": p.name,
                "points": f64::from(half) / 2.0,
                "finished": played,
                "withdrawn": tournament.is_withdrawn(p.id),
            })
        })
        .collect();
    standings.sort_by(|a, b| {
        b["points"]
            .as_f64()
            .partial_cmp(&a["points"].as_f64())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut json = tournament_json(&tournament);
    json["games"] = json!(games_json);
    json["standings"] = json!(standings);
    json["decisions"] = json!(decisions.iter().map(decision_json).collect::<Vec<_>>());
    Ok(axum::Json(json).into_response())
}

/// The signed-in director of tournament `id`, and the tournament.
async fn as_director(
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
/// before the start.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_allowed` once started
/// or full; `not_found` for no such account; `bad_request` for a player
/// already in.
pub async fn add_player(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let (_, mut tournament) = as_director(&shared, &headers, &id).await?;
    let asked: Named = crate::json::body(&body, "player")?;
    if tournament.started.is_some() {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "the tournament has started: no more players",
        ));
    }
    if tournament.players.len() >= MAX_PLAYERS {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            format!("a section has at most {MAX_PLAYERS} players"),
        ));
    }
    let player = account(&shared, &asked.name, "name").await?;
    if tournament.entrant(player.id).is_some() {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("name: {} plays in it already", player.name),
        ));
    }
    tournament.players.push(Entrant {
        id: player.id,
        name: player.name,
    });
    save(&shared, &tournament).await?;
    Ok(axum::Json(tournament_json(&tournament)).into_response())
}

/// `POST /api/tournaments/{id}/start`: every game begins.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_allowed` once started;
/// `bad_request` for fewer than two players.
pub async fn start(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    ClientAddr(from): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let (_, mut tournament) = as_director(&shared, &headers, &id).await?;
    if tournament.started.is_some() {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "the tournament has started already",
        ));
    }
    if tournament.players.len() < 2 {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!(
                "players: a round robin needs two players at least, not {}",
                tournament.players.len()
            ),
        ));
    }
    // Marked first: a second start while the games are made is refused.
    tournament.started = Some(shared.clock.now_ms());
    save(&shared, &tournament).await?;
    let games = super::sections::start(&shared, &tournament, from).await?;
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
fn entrant_named(tournament: &Tournament, name: &str) -> Result<Entrant, ActionError> {
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
async fn on_player(
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
    let (director, mut tournament, asked, reason, player) =
        about_player::<Withdrawal>(&shared, &headers, &id, &body, "withdrawal").await?;
    if tournament.is_withdrawn(player.id) {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            format!("{} has been withdrawn already", player.name),
        ));
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
