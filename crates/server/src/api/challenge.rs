//! Challenges: `POST /api/challenge/{username}`, `…/{id}/accept`,
//! `…/{id}/decline`, `…/{id}/cancel`, and `POST /api/challenge/ai` (a game
//! against the robot).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use shakmaty::Color;

use super::ApiError;
use super::auth::Bearer;
use super::form::Fields;
use crate::accounts::scope::Scope;
use crate::challenges::flow::{self, Terms};
use crate::challenges::{ColorChoice, control_of};
use crate::limits::ClientAddr;
use crate::rooms::Shared;
use crate::setup::GameSetup;
use rochade_laws::clock::TimeControl;

/// The fields a challenge takes.
const CHALLENGE_FIELDS: &[&str] = &[
    "rated",
    "clock.limit",
    "clock.increment",
    "days",
    "color",
    "variant",
    "fen",
    "keepAliveStream",
    "rules",
];

/// `{"ok": true}`.
fn ok() -> Response {
    axum::Json(json!({"ok": true})).into_response()
}

/// A token may make and answer challenges with `challenge:write`, and a
/// bot or board player with its play scope.
fn may_challenge(bearer: &Bearer) -> Result<(), ApiError> {
    let scopes = &bearer.0.scopes;
    if [Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay]
        .iter()
        .any(|s| scopes.contains(s))
    {
        Ok(())
    } else {
        bearer.require(Scope::ChallengeWrite)
    }
}

/// The variant a request asks for: standard (the default) or Chess960;
/// other variants and custom positions are refused.
pub fn chess960_asked(fields: &Fields) -> Result<bool, ApiError> {
    let chess960 = match fields.text("variant") {
        None | Some("standard") => false,
        Some("chess960") => true,
        Some(variant) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("variant: `{variant}` is not played here; standard and chess960 are"),
            ));
        }
    };
    if fields.text("fen").is_some() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "fen: games from a custom position are not played here yet",
        ));
    }
    Ok(chess960)
}

/// The time control a request asks for, within the server's limits, and
/// whether it is a Chess960 game.
fn requested_game(fields: &Fields, shared: &Shared) -> Result<(TimeControl, bool), ApiError> {
    let chess960 = chess960_asked(fields)?;
    let control = control_of(
        fields.number("clock.limit")?,
        fields.number("clock.increment")?,
        fields.number("days")?,
    )?;
    crate::setup::checked_control(&control.to_string(), &shared.limits)?;
    Ok((control, chess960))
}

/// `POST /api/challenge/{username}`: challenges an account.
pub async fn create(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path(username): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    may_challenge(&bearer)?;
    let fields = Fields::read(&headers, &body, CHALLENGE_FIELDS)?;
    let (control, chess960) = requested_game(&fields, &shared)?;
    let terms = Terms {
        control,
        rated: fields.boolean("rated")?.unwrap_or(false),
        color: ColorChoice::parse(fields.text("color"))?,
        chess960,
    };
    let json = flow::issue(&shared, &bearer.0.user, &username, terms).await?;
    Ok(axum::Json(json).into_response())
}

/// `POST /api/challenge/{id}/accept`: the challenged player accepts; the
/// game is created and both players hear `gameStart`.
pub async fn accept(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    ClientAddr(from): ClientAddr,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    may_challenge(&bearer)?;
    flow::accept(&shared, bearer.0.user.id, &id, from).await?;
    Ok(ok())
}

/// `POST /api/challenge/{id}/decline`: the challenged player declines,
/// with a reason (`generic`, `later`, `tooFast`, …).
pub async fn decline(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    may_challenge(&bearer)?;
    let fields = Fields::read(&headers, &body, &["reason"])?;
    let reason = fields.text("reason").unwrap_or("generic");
    flow::decline(&shared, bearer.0.user.id, &id, reason).await?;
    Ok(ok())
}

/// `GET /api/challenge`: the token's open challenges, `{"in": [...],
/// "out": [...]}` as lichess lists them (`challenge:read`).
pub async fn mine(State(shared): State<Arc<Shared>>, bearer: Bearer) -> Result<Response, ApiError> {
    bearer.require(Scope::ChallengeRead)?;
    let open = crate::lobby::http::challenges_json(&shared, bearer.0.user.id).await?;
    Ok(axum::Json(open).into_response())
}

/// `POST /api/challenge/{id}/cancel`: the challenger takes it back.
pub async fn cancel(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    may_challenge(&bearer)?;
    flow::cancel(&shared, bearer.0.user.id, &id).await?;
    Ok(ok())
}

/// `POST /api/challenge/ai`: a game against the robot at `level` 1–8.
pub async fn ai(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    ClientAddr(from): ClientAddr,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    may_challenge(&bearer)?;
    let fields = Fields::read(
        &headers,
        &body,
        &[
            "level",
            "clock.limit",
            "clock.increment",
            "days",
            "color",
            "variant",
            "fen",
        ],
    )?;
    let (control, chess960) = requested_game(&fields, &shared)?;
    let level = fields.number("level")?.unwrap_or(1);
    let level = u32::try_from(level).unwrap_or(u32::MAX);
    let me = flow::player(&bearer.0.user);
    let color = match ColorChoice::parse(fields.text("color"))? {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => Color::from_white(rand::random::<bool>()),
    };
    let players = match color {
        Color::White => [Some(me), None],
        Color::Black => [None, Some(me)],
    };
    let mut setup = GameSetup::between(
        players,
        &control.to_string(),
        false,
        Some(level),
        &shared.limits,
    )?;
    if chess960 {
        setup.chess960 = Some(rand::random_range(0..960));
    }
    let start = setup.start_game()?.fen();
    let variant = if chess960 { "chess960" } else { "standard" };
    let id = flow::start(&shared, setup, from).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({"id": id, "variant": {"key": variant},
                          "speed": crate::ratings::Perf::speed(&control).key(),
                          "perf": crate::ratings::Perf::of(&control, chess960).key(),
                          "rated": false, "fen": start,
                          "player": if color == Color::White { "white" } else { "black" },
                          "turns": 0, "source": "ai", "status": {"id": 20, "name": "started"}})),
    )
        .into_response())
}
