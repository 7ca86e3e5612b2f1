//! The arbiter's controls of an event paired round by round; each is a
//! decision logged with its reason (the tournament's log) and, when it
//! concerns players, told to them. Only the tournament's director may
//! use them; a refused one changes nothing.
//!
//! - `POST /api/tournaments/{id}/pause` `{"paused", "reason"}`: hold the
//!   next pairing (the round going on goes on), or let it go.
//! - `POST /api/tournaments/{id}/pair` `{"reason"}`: pair the next round
//!   now, without waiting for the break.
//! - `POST /api/tournaments/{id}/result` `{"game", "result", "reason"}`:
//!   change the result of a game that has ended (`1-0`, `0-1`,
//!   `1/2-1/2`, or a forfeit `+-`, `-+`, `--`); the game keeps its own
//!   record, the standings and the next pairings count the new result.
//! - `POST /api/tournaments/{id}/bye` `{"player", "round", "kind",
//!   "reason"}`: a half-point, full-point or zero-point bye for a round
//!   not yet paired (`"none"` takes one back), within the event's
//!   `max_byes` for half- and full-point byes.
//!
//! Withdrawing a player and late entries are in [`super::http`].

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::http::{as_director, on_player, tournament_json};
use super::report::total_rounds;
use super::runner::{outcomes_of, pair_now, save};
use super::{ByeKind, ChangedResult, SetBye, Tournament};
use crate::director::http::{checked_text, tell_decision};
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::storage::User;
use crate::storage::tournaments::Decision;

/// A refusal: `not_allowed` with `message`.
fn refuse(message: String) -> ActionError {
    ActionError::new(ErrorCode::NotAllowed, message)
}

/// A refusal: `bad_request` with `message`.
fn bad(message: String) -> ActionError {
    ActionError::new(ErrorCode::BadRequest, message)
}

/// Logs a decision about the whole of `tournament` (or one of its
/// games); its id.
pub(super) async fn log(
    shared: &Arc<Shared>,
    director: &User,
    tournament: &Tournament,
    game: Option<String>,
    body: Value,
    reason: &str,
) -> Result<i64, ActionError> {
    let decision = Decision {
        id: 0,
        tournament: Some(tournament.id.clone()),
        game,
        player: None,
        by: director.id,
        by_name: director.name.clone(),
        player_name: None,
        body: body.to_string(),
        reason: reason.to_owned(),
        at: shared.clock.now_ms(),
    };
    shared.stored(move |s| s.log_decision(&decision)).await
}

/// Refuses what an arena, which pairs its players as they wait, has not.
fn ensure_not_arena(tournament: &Tournament) -> Result<(), ActionError> {
    if let super::System::Arena { .. } = tournament.system {
        return Err(refuse(
            "an arena has no rounds: it pairs its waiting players by itself; adjudicate a game \
             going on, or hold the pairing"
                .into(),
        ));
    }
    Ok(())
}

/// Refuses what only an event paired round by round has.
fn ensure_by_round(tournament: &Tournament) -> Result<(), ActionError> {
    ensure_not_arena(tournament)?;
    if tournament.by_round {
        Ok(())
    } else {
        Err(refuse(
            "every game of this section began at once: it has no next round".into(),
        ))
    }
}

/// Refuses what a knockout's bracket decides by itself.
fn ensure_not_knockout(tournament: &Tournament, what: &str) -> Result<(), ActionError> {
    if tournament.system == super::System::Knockout {
        Err(refuse(format!(
            "a knockout's bracket decides {what} by itself; adjudicate a game going on, or \
             withdraw a player"
        )))
    } else {
        Ok(())
    }
}

/// What the director asks of tournament `id`: the director, the
/// tournament, the body (read as `what`) and its reason, checked.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but the
/// director; `bad_request` for a body that is not one or an empty
/// reason.
pub(super) async fn asked<T: DeserializeOwned>(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    id: &str,
    body: &[u8],
    what: &str,
    reason: fn(&T) -> &str,
) -> Result<(User, Tournament, T, String), ActionError> {
    let (director, tournament) = as_director(shared, headers, id).await?;
    let asked: T = crate::json::body(body, what)?;
    let reason = checked_text(reason(&asked), "reason")?;
    Ok((director, tournament, asked, reason))
}

/// The body of a pause.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pause {
    /// Hold (true) or let go (false).
    paused: bool,
    /// Why.
    reason: String,
}

/// `POST /api/tournaments/{id}/pause`.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `bad_request` for a body
/// that is not one or an empty reason; `not_allowed` for a finished
/// event, a section played all at once, or one already so.
pub async fn pause(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, asked, reason) =
        asked(&shared, &headers, &id, &body, "pause", |b: &Pause| {
            &b.reason
        })
        .await?;
    if !matches!(tournament.system, super::System::Arena { .. }) {
        ensure_by_round(&tournament)?;
    }
    if tournament.finished.is_some() {
        return Err(refuse("the tournament is finished".into()));
    }
    if tournament.paused == asked.paused {
        return Err(refuse(format!(
            "the pairing is {} already",
            if asked.paused { "held" } else { "not held" }
        )));
    }
    tournament.paused = asked.paused;
    save(&shared, &tournament).await?;
    let act = if asked.paused { "pause" } else { "resume" };
    log(
        &shared,
        &director,
        &tournament,
        None,
        json!({"act": act}),
        &reason,
    )
    .await?;
    shared.tournaments.changed(&tournament.id);
    Ok(axum::Json(tournament_json(&tournament)).into_response())
}

/// A body that is a reason alone (a pairing now, a calling off).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Reason {
    /// Why.
    pub(super) reason: String,
}

/// `POST /api/tournaments/{id}/pair`: the next round, now.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `not_allowed` before the
/// start, after the last round, while a round's games go on, or for a
/// section played all at once; what the pairing refuses.
pub async fn pair(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, _, reason) =
        asked(&shared, &headers, &id, &body, "pairing", |b: &Reason| {
            &b.reason
        })
        .await?;
    ensure_by_round(&tournament)?;
    ensure_not_knockout(&tournament, "the pairings")?;
    let games = outcomes_of(&shared, &tournament.id).await?;
    let round = pair_now(&shared, &mut tournament, &games).await?;
    log(
        &shared,
        &director,
        &tournament,
        None,
        json!({"act": "pair", "round": round}),
        &reason,
    )
    .await?;
    Ok(
        axum::Json(json!({"round": round, "tournament": tournament_json(&tournament)}))
            .into_response(),
    )
}

/// The body of a changed result.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewResult {
    /// The game's id.
    game: String,
    /// The result.
    result: String,
    /// Why.
    reason: String,
}

/// The results an arbiter may set.
const RESULTS: [&str; 6] = ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"];

/// `POST /api/tournaments/{id}/result`.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `bad_request` for a result
/// not in the list or an empty reason; `not_found` for a game not of
/// this tournament; `not_allowed` for a game not yet over (the director
/// adjudicates one: `POST /api/games/{id}/decide`).
pub async fn result(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, asked, reason) =
        asked(&shared, &headers, &id, &body, "result", |b: &NewResult| {
            &b.reason
        })
        .await?;
    ensure_not_knockout(&tournament, "who goes through")?;
    ensure_not_arena(&tournament)?;
    if !RESULTS.contains(&asked.result.as_str()) {
        return Err(bad(format!(
            "result: `{}` is not one of {}",
            asked.result,
            RESULTS.join(", ")
        )));
    }
    let board = tournament
        .rounds
        .iter()
        .flat_map(|r| &r.boards)
        .find(|b| b.game.as_deref() == Some(asked.game.as_str()))
        .cloned()
        .ok_or_else(|| {
            ActionError::new(
                ErrorCode::NotFound,
                format!("game: {} is not a game of this tournament", asked.game),
            )
        })?;
    let games = outcomes_of(&shared, &tournament.id).await?;
    if games.get(&asked.game).is_none_or(|o| o.result.is_none()) {
        return Err(refuse(format!(
            "game: {} is not over; a game going on is adjudicated on the game \
             (POST /api/games/{}/decide)",
            asked.game, asked.game
        )));
    }
    tournament.changed.push(ChangedResult {
        game: asked.game.clone(),
        result: asked.result.clone(),
    });
    save(&shared, &tournament).await?;
    let decision = log(
        &shared,
        &director,
        &tournament,
        Some(asked.game.clone()),
        json!({"act": "result", "result": asked.result}),
        &reason,
    )
    .await?;
    for player in [board.white, board.black] {
        tell_decision(
            &shared,
            player,
            &asked.game,
            decision,
            &director,
            "result",
            &reason,
        );
    }
    shared.tournaments.changed(&tournament.id);
    Ok(axum::Json(json!({"decision": decision})).into_response())
}

/// The body of a bye.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Bye {
    /// The player's name.
    player: String,
    /// The round.
    round: u16,
    /// `half`, `full`, `zero`, or `none` to take one back.
    kind: String,
    /// Why.
    reason: String,
}

/// `POST /api/tournaments/{id}/bye`.
///
/// # Errors
///
/// `forbidden` for anyone but the director; `bad_request` for an
/// unknown kind, a round outside the event or an empty reason;
/// `not_found` for a player not in it; `not_allowed` for a round already
/// paired, a section played all at once, or a player at the event's
/// `max_byes`.
pub async fn bye(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, asked, reason) =
        asked(&shared, &headers, &id, &body, "bye", |b: &Bye| &b.reason).await?;
    ensure_by_round(&tournament)?;
    ensure_not_knockout(&tournament, "the byes")?;
    let kind = match asked.kind.as_str() {
        "none" => None,
        other => Some(ByeKind::settable(other).ok_or_else(|| {
            bad(format!(
                "kind: `{other}` is not \"half\", \"full\", \"zero\" or \"none\""
            ))
        })?),
    };
    let total = total_rounds(&tournament);
    if !(1..=total).contains(&asked.round) {
        return Err(bad(format!("round: 1 to {total}, not {}", asked.round)));
    }
    if usize::from(asked.round) <= tournament.rounds.len() {
        return Err(refuse(format!(
            "round {} is paired already: change a result instead",
            asked.round
        )));
    }
    let player = super::http::entrant_named(&tournament, &asked.player)?;
    let counted = |k: ByeKind| matches!(k, ByeKind::Half | ByeKind::Full);
    if kind.is_some_and(counted) {
        let had = tournament
            .rounds
            .iter()
            .flat_map(|r| &r.byes)
            .filter(|b| b.player == player.id && counted(b.kind))
            .count()
            + tournament
                .byes
                .iter()
                .filter(|b| b.player == player.id && b.round != asked.round && counted(b.kind))
                .count();
        let most = usize::from(tournament.max_byes);
        if had >= most {
            return Err(refuse(format!(
                "{} has had {had} of the {most} half- or full-point byes this event allows",
                player.name
            )));
        }
    }
    tournament
        .byes
        .retain(|b| !(b.player == player.id && b.round == asked.round));
    if let Some(kind) = kind {
        tournament.byes.push(SetBye {
            player: player.id,
            round: asked.round,
            kind,
        });
    }
    save(&shared, &tournament).await?;
    let decision = on_player(
        &shared,
        &director,
        &tournament,
        &player,
        json!({"act": "bye", "round": asked.round, "kind": asked.kind}),
        &reason,
    )
    .await?;
    Ok(
        axum::Json(json!({"decision": decision, "tournament": tournament_json(&tournament)}))
            .into_response(),
    )
}
