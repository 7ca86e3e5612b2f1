//! What the director decides about an event before it begins (calling it
//! off, moving its start, changing its settings): refused once it has
//! started; otherwise the event is stored, the decision logged with its
//! reason and told to every entrant (the event's name before the reason), and the event's
//! pages and clockwork told.

use std::sync::Arc;

use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::Tournament;
use super::arbiter::log;
use super::http::tournament_json;
use super::runner::save;
use crate::director::http::tell_decision;
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::storage::User;

/// Refuses with `refusal` (`not_allowed`) once `tournament` has started.
pub(super) fn ensure_not_started(
    tournament: &Tournament,
    refusal: &str,
) -> Result<(), ActionError> {
    match tournament.started {
        Some(_) => Err(ActionError::new(ErrorCode::NotAllowed, refusal)),
        None => Ok(()),
    }
}

/// Stores `tournament` as `director` changed it by `act`
/// (`{"act": name, …}`) for `reason`, logs and tells the decision; the
/// event as the answer.
///
/// # Errors
///
/// `internal` when storage fails.
pub(super) async fn decided(
    shared: &Arc<Shared>,
    director: &User,
    tournament: &Tournament,
    act: Value,
    reason: &str,
) -> Result<Response, ActionError> {
    save(shared, tournament).await?;
    let name = act["act"].as_str().unwrap_or_default().to_owned();
    let decision = log(shared, director, tournament, None, act, reason).await?;
    let told = format!("{}: {reason}", tournament.name);
    for player in &tournament.players {
        tell_decision(shared, player.id, "", decision, director, &name, &told);
    }
    shared.tournaments.changed(&tournament.id);
    Ok(axum::Json(tournament_json(tournament)).into_response())
}
