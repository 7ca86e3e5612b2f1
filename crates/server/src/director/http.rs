//! The director's endpoints and the players' requests to the director,
//! for signed-in accounts (session cookie, JSON bodies, same origin):
//!
//! - `POST /api/games/{id}/decide` `{"decision": {"act": "stop_clocks"},
//!   "reason": "…"}`: a decision on a game (see [`super::Act`]).
//! - `POST /api/requests` `{"kind": "claim", "game": "…", "message": "…"}`
//!   or `{"kind": "appeal", "decision": 7, "message": "…"}`: a player
//!   writes to the director (6.6, 14.1.3).
//! - `POST /api/requests/{id}/answer` `{"answer": "…"}`: the director
//!   answers.
//! - `GET /api/account/decisions`: the decisions concerning me, and my
//!   requests with their answers.
//!
//! Every decision is logged with its reason and told to both players.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::Act;
use crate::accounts::http::signed_in_user;
use crate::error::{ActionError, ErrorCode};
use crate::notify::{self, Notice};
use crate::room::Command;
use crate::rooms::Shared;
use crate::setup::GameSetup;
use crate::storage::User;
use crate::storage::tournaments::{Decision, Request, RequestKind};

/// The longest reason, message or answer.
pub const TEXT_CHARS: usize = 2000;

/// How many decisions and requests a list shows.
const LISTED: usize = 200;

/// `text` trimmed, refused when empty or over [`TEXT_CHARS`].
///
/// # Errors
///
/// `bad_request` naming `field`.
pub fn checked_text(text: &str, field: &str) -> Result<String, ActionError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("{field}: empty; the players are told it"),
        ));
    }
    if chars > TEXT_CHARS {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("{field}: {chars} characters, over the limit of {TEXT_CHARS}"),
        ));
    }
    Ok(text.to_owned())
}

/// Whether account `user` directs the game `setup`: the director of its
/// tournament, or a site director for a correspondence game of none.
///
/// # Errors
///
/// `forbidden` for anyone else; `internal` when storage fails.
pub async fn ensure_directs(
    shared: &Arc<Shared>,
    user: i64,
    setup: &GameSetup,
) -> Result<(), ActionError> {
    let directs = match &setup.tournament {
        Some(terms) => terms.director == user,
        None => {
            setup.is_correspondence() && shared.stored(move |s| s.is_site_director(user)).await?
        }
    };
    if directs {
        Ok(())
    } else {
        Err(ActionError::new(
            ErrorCode::Forbidden,
            "only the game's tournament director decides this (ICCF 14)",
        ))
    }
}

/// The body of a decision.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Decide {
    /// What.
    decision: Act,
    /// Why.
    reason: String,
}

/// `POST /api/games/{id}/decide`.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but the
/// game's director; `bad_request` for a decision that is not one or an
/// empty reason; what the game refuses (`game_over`, `not_allowed`). On
/// any refusal nothing is changed or logged.
pub async fn decide(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let asked: Decide = crate::json::body(&body, "decision")?;
    let reason = checked_text(&asked.reason, "reason")?;
    let described = shared.ask(&id, |reply| Command::Describe { reply }).await?;
    ensure_directs(&shared, user.id, &described.setup).await?;
    let decision = on_game(
        &shared,
        &user,
        &described.setup,
        asked.decision,
        reason,
        None,
    )
    .await?;
    Ok(axum::Json(json!({"decision": decision})).into_response())
}

/// Applies `act` to game `setup` for `director`, logs it, and tells both
/// players; the decision's id. `player` names the account it concerns
/// when it is about one player (a withdrawal).
///
/// # Errors
///
/// What the game refuses; `internal` when storage fails.
pub async fn on_game(
    shared: &Arc<Shared>,
    director: &User,
    setup: &GameSetup,
    act: Act,
    reason: String,
    player: Option<i64>,
) -> Result<i64, ActionError> {
    shared
        .ask(&setup.id, |reply| Command::Direct {
            decision: act.clone(),
            by: director.name.clone(),
            reason: reason.clone(),
            reply,
        })
        .await??;
    let at = shared.clock.now_ms();
    let decision = Decision {
        id: 0,
        tournament: setup.tournament.as_ref().map(|t| t.id.clone()),
        game: Some(setup.id.clone()),
        player,
        by: director.id,
        by_name: director.name.clone(),
        player_name: None,
        body: serde_json::to_string(&act).unwrap_or_default(),
        reason: reason.clone(),
        at,
    };
    let id = shared.stored(move |s| s.log_decision(&decision)).await?;
    for color in shakmaty::Color::ALL {
        if let Some(p) = setup.player(color) {
            tell_decision(shared, p.id, &setup.id, id, director, act.name(), &reason);
        }
    }
    Ok(id)
}

/// Tells account `user` of decision `id` (about `game`, or about the
/// player when `game` is empty).
pub fn tell_decision(
    shared: &Shared,
    user: i64,
    game: &str,
    id: i64,
    director: &User,
    act: &str,
    reason: &str,
) {
    notify::tell(
        &shared.hub,
        &shared.storage,
        user,
        game,
        usize::try_from(id).unwrap_or_default(),
        Notice::Decision {
            director: director.name.clone(),
            act: act.to_owned(),
            reason: reason.to_owned(),
        },
        shared.clock.now_ms(),
    );
}

/// A decision as JSON.
pub fn decision_json(d: &Decision) -> Value {
    json!({
        "id": d.id,
        "tournament": d.tournament,
        "game": d.game,
        "player": d.player,
        "by": d.by,
        "by_name": d.by_name,
        "player_name": d.player_name,
        "decision": serde_json::from_str::<Value>(&d.body).unwrap_or(Value::Null),
        "reason": d.reason,
        "at": d.at,
    })
}

/// A request as JSON.
pub fn request_json(r: &Request) -> Value {
    json!({
        "id": r.id,
        "kind": r.kind.as_str(),
        "game": r.game,
        "decision": r.decision,
        "tournament": r.tournament,
        "by": r.by,
        "by_name": r.by_name,
        "message": r.message,
        "at": r.at,
        "answer": r.answer.as_ref().map(|(text, at)| json!({"text": text, "at": at})),
    })
}

/// The body of a request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRequest {
    /// `appeal` or `claim`.
    kind: String,
    /// The game a claim is about.
    #[serde(default)]
    game: Option<String>,
    /// The decision an appeal is against.
    #[serde(default)]
    decision: Option<i64>,
    /// What the player writes.
    message: String,
}

/// `POST /api/requests`: an appeal against a decision concerning me, or a
/// claim about a game I play that has a director.
///
/// # Errors
///
/// `unauthorized` without a session; `bad_request` for a kind without
/// its game or decision, or an empty message; `not_found` for a decision
/// or game that is not there; `forbidden` when it does not concern me.
pub async fn file(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let asked: NewRequest = crate::json::body(&body, "request")?;
    let bad = |m: &str| ActionError::new(ErrorCode::BadRequest, m);
    let not_yours = || {
        ActionError::new(
            ErrorCode::Forbidden,
            "a player writes to the director about their own games and decisions",
        )
    };
    let kind =
        RequestKind::parse(&asked.kind).ok_or_else(|| bad("kind: expected appeal or claim"))?;
    let message = checked_text(&asked.message, "message")?;
    let (game, decision, tournament) = match kind {
        RequestKind::Appeal => {
            let id = asked
                .decision
                .ok_or_else(|| bad("decision: an appeal names the decision it is against"))?;
            let decision = shared
                .stored(move |s| s.decision(id))
                .await?
                .ok_or_else(|| {
                    ActionError::new(
                        ErrorCode::NotFound,
                        format!("decision {id}: no such decision"),
                    )
                })?;
            let concerns = decision.player == Some(user.id)
                || match &decision.game {
                    Some(game) => {
                        let described = shared
                            .ask(game, |reply| Command::Describe { reply })
                            .await?;
                        described.setup.player_color(user.id).is_some()
                    }
                    None => false,
                };
            if !concerns {
                return Err(not_yours());
            }
            (decision.game, Some(id), decision.tournament)
        }
        RequestKind::Claim => {
            let game = asked
                .game
                .ok_or_else(|| bad("game: a claim names the game it is about"))?;
            let described = shared
                .ask(&game, |reply| Command::Describe { reply })
                .await?;
            let setup = described.setup;
            if setup.player_color(user.id).is_none() {
                return Err(not_yours());
            }
            if setup.tournament.is_none() && !setup.is_correspondence() {
                return Err(ActionError::new(
                    ErrorCode::NotAllowed,
                    "only tournament and correspondence games have a director",
                ));
            }
            (Some(game), None, setup.tournament.map(|t| t.id))
        }
    };
    let request = Request {
        id: 0,
        kind,
        game,
        decision,
        tournament,
        by: user.id,
        by_name: user.name.clone(),
        message,
        at: shared.clock.now_ms(),
        answer: None,
    };
    let id = shared.stored(move |s| s.file_request(&request)).await?;
    Ok(axum::Json(json!({"id": id})).into_response())
}

/// The body of an answer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    /// The director's answer.
    answer: String,
}

/// `POST /api/requests/{id}/answer`.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such request;
/// `forbidden` for anyone but its director; `not_allowed` when it was
/// answered already; `bad_request` for an empty answer.
pub async fn answer(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let asked: Answer = crate::json::body(&body, "answer")?;
    let answer = checked_text(&asked.answer, "answer")?;
    let request = shared
        .stored(move |s| s.request(id))
        .await?
        .ok_or_else(|| {
            ActionError::new(
                ErrorCode::NotFound,
                format!("request {id}: no such request"),
            )
        })?;
    let me = user.id;
    let directs = match request.tournament.clone() {
        Some(t) => shared
            .stored(move |s| s.tournament(&t))
            .await?
            .is_some_and(|t| t.director == me),
        None => shared.stored(move |s| s.is_site_director(me)).await?,
    };
    if !directs {
        return Err(ActionError::new(
            ErrorCode::Forbidden,
            "only the director of the game answers (ICCF 14.2.1)",
        ));
    }
    let at = shared.clock.now_ms();
    let text = answer.clone();
    if !shared
        .stored(move |s| s.answer_request(id, &text, at))
        .await?
    {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            format!("request {id} has been answered already"),
        ));
    }
    notify::tell(
        &shared.hub,
        &shared.storage,
        request.by,
        request.game.as_deref().unwrap_or_default(),
        usize::try_from(id).unwrap_or_default(),
        Notice::Answered {
            director: user.name.clone(),
            answer,
        },
        at,
    );
    Ok(axum::Json(json!({"id": id})).into_response())
}

/// `GET /api/account/decisions`.
///
/// # Errors
///
/// `unauthorized` without a session.
pub async fn mine(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let me = user.id;
    let (decisions, requests) = shared
        .stored(move |s| Ok((s.decisions_for(me, LISTED)?, s.requests_by(me, LISTED)?)))
        .await?;
    Ok(axum::Json(json!({
        "decisions": decisions.iter().map(decision_json).collect::<Vec<_>>(),
        "requests": requests.iter().map(request_json).collect::<Vec<_>>(),
    }))
    .into_response())
}
