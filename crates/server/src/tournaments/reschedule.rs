//! Moving an event's start before it begins: `POST
//! /api/tournaments/{id}/reschedule` `{"starts_at", "reason"}`, by its
//! director only. `starts_at` is a time (Unix ms) after now and within a
//! year, or `null`: the director starts it. The players who entered stay
//! entered; the change is logged with its reason, which they see, and
//! the clockwork looks at the new time.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;

use super::arbiter::asked;
use super::before_start::{decided, ensure_not_started};
use super::create::checked_start;
use crate::error::ActionError;
use crate::rooms::Shared;

/// The body of a new start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewStart {
    /// When it starts by itself (Unix ms); none: when the director
    /// starts it.
    starts_at: Option<u64>,
    /// Why.
    reason: String,
}

/// `POST /api/tournaments/{id}/reschedule`.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but the
/// director; `bad_request` for a body that is not one, a time in the
/// past or more than a year ahead, or an empty reason; `not_allowed`
/// once the event has started (or ended).
pub async fn reschedule(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, asked, reason) = asked(
        &shared,
        &headers,
        &id,
        &body,
        "new start",
        |b: &NewStart| &b.reason,
    )
    .await?;
    ensure_not_started(
        &tournament,
        "the tournament has started already: its start cannot move",
    )?;
    let now = shared.clock.now_ms();
    tournament.starts_at = asked
        .starts_at
        .map(|at| checked_start(at, now))
        .transpose()?;
    let act = json!({"act": "reschedule", "starts_at": tournament.starts_at});
    decided(&shared, &director, &tournament, act, &reason).await
}
