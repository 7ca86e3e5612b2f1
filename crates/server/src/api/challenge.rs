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
use super::games::game_event;
use crate::accounts::scope::Scope;
use crate::challenges::{Challenge, ColorChoice, control_of};
use crate::limits::ClientAddr;
use crate::rooms::Shared;
use crate::setup::{GameSetup, Player};
use crate::storage::User;
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

/// A player as a game remembers them.
fn player(user: &User) -> Player {
    Player {
        id: user.id,
        name: user.name.clone(),
        bot: user.bot,
        rating: None,
    }
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

/// Refuses what this server does not play yet: variants and custom positions.
fn standard_only(fields: &Fields) -> Result<(), ApiError> {
    if let Some(variant) = fields.text("variant")
        && variant != "standard"
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("variant: `{variant}` is not played here; standard is"),
        ));
    }
    if fields.text("fen").is_some() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "fen: games from a custom position are not played here yet",
        ));
    }
    Ok(())
}

/// The standard game and time control a request asks for, within the
/// server's limits.
fn requested_control(fields: &Fields, shared: &Shared) -> Result<TimeControl, ApiError> {
    standard_only(fields)?;
    let control = control_of(
        fields.number("clock.limit")?,
        fields.number("clock.increment")?,
        fields.number("days")?,
    )?;
    crate::setup::checked_control(&control.to_string(), &shared.limits)?;
    Ok(control)
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
    let control = requested_control(&fields, &shared)?;
    let rated = fields.boolean("rated")?.unwrap_or(false);
    let color = ColorChoice::parse(fields.text("color"))?;
    let challenger = bearer.0.user;
    let lookup = username.clone();
    let dest = shared
        .stored(move |s| s.user(&lookup))
        .await?
        .filter(|u| !u.disabled)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("No such user: {username}")))?;
    if dest.id == challenger.id {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "you cannot challenge yourself",
        ));
    }
    let perf = crate::ratings::Perf::speed(&control);
    let challenge = Challenge::new(
        crate::ratings::rated(&shared, player(&challenger), perf).await?,
        crate::ratings::rated(&shared, player(&dest), perf).await?,
        rated,
        control,
        color,
    );
    let json = challenge.to_json("created");
    shared.challenges.add(challenge)?;
    let news = json!({"type": "challenge", "challenge": json});
    shared.hub.tell(dest.id, news.clone());
    shared.hub.tell(challenger.id, news);
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
    let me = bearer.0.user.id;
    let challenge = shared.challenges.take(&id, |c| c.dest.id == me)?;
    let players = match challenge.challenger_color {
        Color::White => [
            Some(challenge.challenger.clone()),
            Some(challenge.dest.clone()),
        ],
        Color::Black => [
            Some(challenge.dest.clone()),
            Some(challenge.challenger.clone()),
        ],
    };
    let setup = GameSetup::between(
        players,
        &challenge.control.to_string(),
        challenge.rated,
        None,
        &shared.limits,
    )?;
    start(&shared, setup, from).await?;
    Ok(ok())
}

/// Stores a game between accounts and tells its players.
async fn start(
    shared: &Arc<Shared>,
    setup: GameSetup,
    from: std::net::IpAddr,
) -> Result<String, ApiError> {
    let id = setup.id.clone();
    let setup = crate::ratings::with_ratings(shared, setup).await?;
    shared.create(setup, from).await?;
    let described = shared
        .ask(&id, |reply| crate::room::Command::Describe { reply })
        .await?;
    let state: serde_json::Value = serde_json::from_str(&described.state)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    for color in Color::ALL {
        if let Some(player) = described.setup.player(color) {
            shared.hub.tell(
                player.id,
                game_event("gameStart", &described.setup, &state, color),
            );
        }
    }
    Ok(id)
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
    let reason = fields.text("reason").unwrap_or("generic").to_owned();
    let me = bearer.0.user.id;
    let challenge = shared.challenges.take(&id, |c| c.dest.id == me)?;
    let mut json = challenge.to_json("declined");
    json["declineReasonKey"] = json!(reason);
    json["declineReason"] = json!(format!("The challenge was declined ({reason})."));
    shared.hub.tell(
        challenge.challenger.id,
        json!({"type": "challengeDeclined", "challenge": json}),
    );
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel`: the challenger takes it back.
pub async fn cancel(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    may_challenge(&bearer)?;
    let me = bearer.0.user.id;
    let challenge = shared.challenges.take(&id, |c| c.challenger.id == me)?;
    shared.hub.tell(
        challenge.dest.id,
        json!({"type": "challengeCanceled", "challenge": challenge.to_json("canceled")}),
    );
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
    let control = requested_control(&fields, &shared)?;
    let level = fields.number("level")?.unwrap_or(1);
    let level = u32::try_from(level).unwrap_or(u32::MAX);
    let me = player(&bearer.0.user);
    let color = match ColorChoice::parse(fields.text("color"))? {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => Color::from_white(rand::random::<bool>()),
    };
    let players = match color {
        Color::White => [Some(me), None],
        Color::Black => [None, Some(me)],
    };
    let setup = GameSetup::between(
        players,
        &control.to_string(),
        false,
        Some(level),
        &shared.limits,
    )?;
    let id = start(&shared, setup, from).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({"id": id, "variant": {"key": "standard"}, "speed": "correspondence",
                          "perf": "correspondence", "rated": false, "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "player": if color == Color::White { "white" } else { "black" },
                          "turns": 0, "source": "ai", "status": {"id": 20, "name": "started"}})),
    )
        .into_response())
}
