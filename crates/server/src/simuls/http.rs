//! Simuls over HTTP, for signed-in accounts (session cookie, JSON bodies,
//! same origin):
//!
//! - `POST /api/simuls`: any account hosts one (one waiting to start at a
//!   time).
//! - `GET /api/simuls`, `GET /api/simuls/{id}`: the list; one with its
//!   applicants and boards (position, clocks, whose turn, result), the
//!   viewer's own seats linked with their tokens.
//! - `GET /api/simuls/{id}/pgn`: every board's game, one PGN after another.
//! - `POST /api/simuls/{id}/apply`, `…/withdraw`: an account asks to play,
//!   or takes it back, before the start.
//! - `POST /api/simuls/{id}/accept`, `…/reject` `{"name": …}`,
//!   `…/start`, `…/cancel`: the host's steps.
//!
//! Each step is checked by [`Simul`]'s method for it and stored only over
//! the revision it was made from, so two steps at once never undo each
//! other; a refused step changes nothing.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rochade_laws::RuleSet;
use rochade_laws::clock::{Limit, Scale};
use serde::Deserialize;
use serde_json::{Value, json};
use shakmaty::Color;

use super::{
    Board, Entrant, HostColor, MAX_EXTRA_MS, MAX_EXTRA_PER_PLAYER_MS, NAME_CHARS, Simul, Start,
    Status,
};
use crate::accounts::http::{session_account, signed_in_user};
use crate::error::{ActionError, ErrorCode};
use crate::limits::ClientAddr;
use crate::rooms::Shared;
use crate::setup::{
    ExtraTime, GameSetup, Player, Side, checked_control, checked_fen, checked_name,
};
use crate::storage::User;
use crate::storage::simuls::SimulGame;

/// How many simuls the list shows.
const LISTED: usize = 100;

/// How many times a step is tried again when the simul changed under it.
const TRIES: usize = 5;

/// The body of `POST /api/simuls`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSimul {
    /// Its name.
    name: String,
    /// Every board's time control (minutes + seconds a move).
    time_control: String,
    /// The host's extra time, seconds (0 to 3,600).
    #[serde(default)]
    host_extra_time: u64,
    /// The host's extra time per player, seconds (0 to 60).
    #[serde(default)]
    host_extra_time_per_player: u64,
    /// `white` (the default), `black` or `random` (drawn per board).
    #[serde(default)]
    host_color: Option<String>,
    /// `null`, `"each_board"`, `"random"` (one drawn for every board) or
    /// a number 0–959.
    #[serde(default)]
    chess960: Option<Value>,
    /// A start position (FEN) instead.
    #[serde(default)]
    fen: Option<String>,
}

/// The start a request asks for.
fn start_of(chess960: Option<&Value>, fen: Option<&str>) -> Result<Start, ActionError> {
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let chess960 = chess960.filter(|v| !v.is_null());
    match (chess960, fen) {
        (Some(_), Some(_)) => Err(bad(
            "fen: the boards start from a position or from Chess960's, not both".into(),
        )),
        (None, Some(fen)) => Ok(Start::Position {
            fen: checked_fen(fen, RuleSet::Fide)?,
        }),
        (None, None) => Ok(Start::Standard),
        (Some(Value::String(s)), None) if s == "each_board" => Ok(Start::Chess960EachBoard),
        (Some(Value::String(s)), None) if s == "random" => Ok(Start::Chess960 {
            number: rand::Rng::random_range(&mut rand::rng(), 0..960),
        }),
        (Some(Value::Number(n)), None) => match n.as_u64().map(u32::try_from) {
            Some(Ok(number @ 0..=959)) => Ok(Start::Chess960 { number }),
            _ => Err(bad(format!("chess960: {n} is not between 0 and 959"))),
        },
        (Some(other), None) => Err(bad(format!(
            "chess960: `{other}` is not null, \"each_board\", \"random\" or 0–959"
        ))),
    }
}

/// The simul `id`.
///
/// # Errors
///
/// `not_found` when there is none.
async fn load(shared: &Arc<Shared>, id: &str) -> Result<Simul, ActionError> {
    let key = id.to_owned();
    shared
        .stored(move |s| s.simul(&key))
        .await?
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("simul {id}: not found")))
}

/// Applies `step` to simul `id` and stores the result over the revision
/// it was read at, reading again when someone else stored first.
///
/// # Errors
///
/// `not_found` for no such simul; what `step` refuses (then nothing is
/// stored); `busy` when the simul kept changing.
async fn change(
    shared: &Arc<Shared>,
    id: &str,
    step: impl Fn(&mut Simul) -> Result<(), ActionError>,
) -> Result<Simul, ActionError> {
    for _ in 0..TRIES {
        let mut simul = load(shared, id).await?;
        let from = simul.revision;
        step(&mut simul)?;
        simul.revision = from + 1;
        let stored = simul.clone();
        if shared
            .stored(move |s| s.update_simul(&stored, from))
            .await?
        {
            return Ok(simul);
        }
    }
    Err(ActionError::new(
        ErrorCode::Busy,
        format!("simul {id} kept changing: try again"),
    ))
}

/// The account as a simul lists it.
fn entrant(user: &User) -> Entrant {
    Entrant {
        id: user.id,
        name: user.name.clone(),
    }
}

/// A colour in JSON.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A simul as JSON, without its boards' games.
fn simul_json(s: &Simul) -> Value {
    let start = match &s.start {
        Start::Standard => json!({"chess960": null, "fen": null}),
        Start::Chess960EachBoard => json!({"chess960": "each_board", "fen": null}),
        Start::Chess960 { number } => json!({"chess960": number, "fen": null}),
        Start::Position { fen } => json!({"chess960": null, "fen": fen}),
    };
    let host_color = match s.host_color {
        HostColor::White => "white",
        HostColor::Black => "black",
        HostColor::Random => "random",
    };
    json!({
        "id": s.id,
        "name": s.name,
        "host": s.host.name,
        "timeControl": s.time_control,
        "hostExtraTime": s.extra_ms / 1000,
        "hostExtraTimePerPlayer": s.extra_per_player_ms / 1000,
        "hostClockExtra": s.host_extra_ms() / 1000,
        "hostColor": host_color,
        "chess960": start["chess960"],
        "fen": start["fen"],
        "status": s.status.as_str(),
        "applicants": s.applicants.iter().map(|a| json!({
            "name": a.player.name,
            "accepted": a.accepted,
        })).collect::<Vec<_>>(),
        "created": s.created,
        "started": s.started,
        "finished": s.finished,
    })
}

/// `secs` seconds of `field` in milliseconds, at most `most_ms`.
///
/// # Errors
///
/// `bad_request` naming `field` when there are more.
fn seconds(secs: u64, most_ms: u64, field: &str) -> Result<u64, ActionError> {
    let ms = secs.saturating_mul(1000);
    if ms > most_ms {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("{field}: 0 to {} seconds, not {secs}", most_ms / 1000),
        ));
    }
    Ok(ms)
}

/// `POST /api/simuls`: the signed-in account hosts a new simul.
///
/// # Errors
///
/// `unauthorized` without a session; `bad_request` naming the field that
/// is wrong; `not_allowed` while the host has another simul waiting to
/// start.
pub async fn create(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let asked: NewSimul = crate::json::body(&body, "simul")?;
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let name = checked_name(&asked.name, NAME_CHARS)?;
    let control = checked_control(&asked.time_control, &shared.limits)?;
    if control.scale() == Scale::Days || !matches!(control.limit(), Limit::Periods(_)) {
        return Err(bad(format!(
            "time_control `{}`: a simul is played on the clock, in minutes and seconds",
            asked.time_control
        )));
    }
    let extra_ms = seconds(asked.host_extra_time, MAX_EXTRA_MS, "host_extra_time")?;
    let per_player_ms = seconds(
        asked.host_extra_time_per_player,
        MAX_EXTRA_PER_PLAYER_MS,
        "host_extra_time_per_player",
    )?;
    let host_color = HostColor::parse(asked.host_color.as_deref().unwrap_or("white"))?;
    let start = start_of(asked.chess960.as_ref(), asked.fen.as_deref())?;
    let host = user.id;
    if !shared
        .stored(move |s| s.waiting_simuls_of(host))
        .await?
        .is_empty()
    {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "you host a simul waiting to start: start or cancel it first",
        ));
    }
    let simul = Simul::new(
        crate::setup::random_code(8),
        name,
        entrant(&user),
        control.to_string(),
        extra_ms,
        per_player_ms,
        host_color,
        start,
        shared.clock.now_ms(),
    );
    let stored = simul.clone();
    shared.stored(move |s| s.create_simul(&stored)).await?;
    Ok((StatusCode::CREATED, axum::Json(simul_json(&simul))).into_response())
}

/// `GET /api/simuls`: the newest first.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn list(State(shared): State<Arc<Shared>>) -> Result<Response, ActionError> {
    let simuls = shared.stored(|s| s.simuls(LISTED)).await?;
    let list: Vec<Value> = simuls.iter().map(simul_json).collect();
    Ok(axum::Json(json!({"simuls": list})).into_response())
}

/// One board as JSON: its player, the game at a glance, the result; the
/// seat's link with its token for the host and the player, the game's
/// for anyone else.
fn board_json(
    shared: &Shared,
    number: usize,
    board: &Board,
    game: Option<&SimulGame>,
    viewer: Option<i64>,
) -> Value {
    let host_color = Color::from(board.host_color);
    let mut json = json!({
        "number": number,
        "player": board.player.name,
        "hostColor": side_name(board.host_color),
        "game": board.game,
        "url": format!("/g/{}", board.game),
        "chess960": board.chess960,
        "result": null,
        "finished": false,
        "hostToMove": false,
    });
    let Some(game) = game else {
        return json;
    };
    let setup = &game.game.setup;
    let seat = viewer.and_then(|v| setup.player_color(v));
    if let Some(color) = seat {
        json["url"] = json!(format!("/g/{}#{}", setup.id, setup.token(color)));
        json["you"] = json!(if color == Color::White {
            "white"
        } else {
            "black"
        });
    }
    if let Some(glance) = &game.game.glance {
        let now = shared.clock.now_ms().saturating_sub(game.game.epoch);
        let state = glance.state_at(now);
        for key in ["fen", "turn", "ply", "clock"] {
            json[key] = state[key].clone();
        }
        json["lastMove"] = state["last_move"].clone();
        json["hostToMove"] = json!(!game.finished && Color::from(glance.turn) == host_color);
    }
    json["result"] = json!(game.result);
    json["finished"] = json!(game.finished);
    json
}

/// `GET /api/simuls/{id}`: the simul, and once started its boards in
/// order with `waiting`, the boards where the host is to move. The first
/// look after its last board ended marks it finished.
///
/// # Errors
///
/// `not_found` for no such simul.
pub async fn show(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let viewer = session_account(&shared, &headers).await?.map(|u| u.id);
    let mut simul = load(&shared, &id).await?;
    let key = id.clone();
    let games = shared.stored(move |s| s.simul_games(&key)).await?;
    let game_of = |board: &Board| games.iter().find(|g| g.game.setup.id == board.game);
    let all_over = !simul.boards.is_empty()
        && simul
            .boards
            .iter()
            .all(|b| game_of(b).is_some_and(|g| g.finished));
    if all_over && simul.status == Status::Started {
        let now = shared.clock.now_ms();
        simul = change(&shared, &id, |s| {
            s.finish(now);
            Ok(())
        })
        .await?;
    }
    let boards: Vec<Value> = simul
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| board_json(&shared, i + 1, b, game_of(b), viewer))
        .collect();
    let mut json = simul_json(&simul);
    json["waiting"] = json!(
        boards
            .iter()
            .filter(|b| b["hostToMove"] == true)
            .map(|b| b["number"].clone())
            .collect::<Vec<_>>()
    );
    json["boards"] = json!(boards);
    Ok(axum::Json(json).into_response())
}

/// `GET /api/simuls/{id}/pgn`: every board's game as PGN, board 1 first.
///
/// # Errors
///
/// `not_found` for no such simul; `not_allowed` before the start (no
/// boards yet).
pub async fn pgn(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let simul = load(&shared, &id).await?;
    if simul.boards.is_empty() {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "the simul has no boards before its start",
        ));
    }
    // Read from storage: a simul's download loads no board's room.
    let games: Vec<String> = simul.boards.iter().map(|b| b.game.clone()).collect();
    let text = crate::pgn::of_stored(&shared, games).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn"),
            (
                header::CONTENT_DISPOSITION,
                &format!("attachment; filename=\"rochade-simul-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `POST /api/simuls/{id}/apply`: the signed-in account asks to play.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such simul;
/// `not_allowed` for the host, once started, twice, or when full.
pub async fn apply(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let now = shared.clock.now_ms();
    let me = entrant(&user);
    let simul = change(&shared, &id, |s| s.apply(&me, now)).await?;
    Ok(axum::Json(simul_json(&simul)).into_response())
}

/// `POST /api/simuls/{id}/withdraw`: the signed-in account takes its
/// application back.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such simul or
/// one who has not applied; `not_allowed` once started.
pub async fn withdraw(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let simul = change(&shared, &id, |s| s.withdraw(user.id)).await?;
    Ok(axum::Json(simul_json(&simul)).into_response())
}

/// An applicant named in a body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Named {
    /// The account's name.
    name: String,
}

/// What the host does with the applicant named in `body`, by `step`.
async fn about_applicant(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    id: &str,
    body: &[u8],
    step: fn(&mut Simul, i64, &str) -> Result<(), ActionError>,
) -> Result<Response, ActionError> {
    let user = signed_in_user(shared, headers).await?;
    let asked: Named = crate::json::body(body, "applicant")?;
    let simul = change(shared, id, |s| step(s, user.id, &asked.name)).await?;
    Ok(axum::Json(simul_json(&simul)).into_response())
}

/// `POST /api/simuls/{id}/accept` `{"name": …}`: the host accepts an
/// applicant.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such simul or a
/// name that has not applied; `forbidden` for anyone but the host;
/// `not_allowed` once started or with every board taken.
pub async fn accept(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    about_applicant(&shared, &headers, &id, &body, Simul::accept).await
}

/// `POST /api/simuls/{id}/reject` `{"name": …}`: the host turns an
/// applicant down.
///
/// # Errors
///
/// As [`accept`], but never full.
pub async fn reject(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    about_applicant(&shared, &headers, &id, &body, Simul::reject).await
}

/// The setup of `board`'s game: the host and the player, the host's extra
/// time on the host's clock, the simul's start.
///
/// # Errors
///
/// `bad_request` when the control no longer passes the server's limits.
fn board_setup(shared: &Shared, simul: &Simul, board: &Board) -> Result<GameSetup, ActionError> {
    let player = |e: &Entrant| {
        Some(Player {
            id: e.id,
            name: e.name.clone(),
            bot: false,
            rating: None,
        })
    };
    let players = match board.host_color {
        Side::White => [player(&simul.host), player(&board.player)],
        Side::Black => [player(&board.player), player(&simul.host)],
    };
    let mut setup = GameSetup::between(players, &simul.time_control, false, None, &shared.limits)?;
    setup.id = board.game.clone();
    setup.chess960 = board.chess960;
    if let Start::Position { fen } = &simul.start {
        setup.fen = Some(fen.clone());
    }
    setup.simul = Some(simul.terms());
    let ms = simul.host_extra_ms();
    setup.extra_time = (ms > 0).then_some(ExtraTime {
        color: board.host_color,
        ms,
    });
    Ok(setup)
}

/// `POST /api/simuls/{id}/start`: the host starts; every accepted player's
/// game begins.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such simul;
/// `forbidden` for anyone but the host; `not_allowed` once started or
/// cancelled, or with nobody accepted.
pub async fn start(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    ClientAddr(from): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let now = shared.clock.now_ms();
    // Marked started first: a second start while the games are made is
    // refused.
    let simul = change(&shared, &id, |s| s.start(user.id, now)).await?;
    for board in &simul.boards {
        let setup = board_setup(&shared, &simul, board)?;
        crate::challenges::flow::start(&shared, setup, from).await?;
    }
    let games: Vec<&str> = simul.boards.iter().map(|b| b.game.as_str()).collect();
    Ok(axum::Json(json!({"id": simul.id, "games": games})).into_response())
}

/// `POST /api/simuls/{id}/cancel`: the host calls it off before the
/// start.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such simul;
/// `forbidden` for anyone but the host; `not_allowed` once started or
/// cancelled.
pub async fn cancel(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let simul = change(&shared, &id, |s| s.cancel(user.id)).await?;
    Ok(axum::Json(simul_json(&simul)).into_response())
}
