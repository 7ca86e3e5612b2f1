//! Changing an event's settings before it begins: `POST
//! /api/tournaments/{id}/settings` `{"settings", "reason"}`, by its
//! director only. `settings` is the whole of them, as `POST
//! /api/tournaments` takes them (what is left out takes its default, as
//! at the creation), checked the same way; the director stays (a site
//! matter, `rochade user director`). The players who entered stay
//! entered, whatever the new entry conditions (the director may
//! withdraw one); the change is logged with its reason, which they see.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;

use super::arbiter::asked;
use super::before_start::{decided, ensure_not_started};
use super::create::{NewTournament, checked};
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;

/// The body of a change of settings.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Changed {
    /// The new settings, all of them.
    settings: NewTournament,
    /// Why.
    reason: String,
}

/// `POST /api/tournaments/{id}/settings`.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but the
/// director; `bad_request` for a body that is not one, a setting that
/// is wrong (named as at the creation), a new director, or an empty
/// reason; `not_allowed` once the event has started (or ended), or for a
/// system that takes fewer players than have entered.
pub async fn change(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, asked, reason) =
        asked(&shared, &headers, &id, &body, "settings", |b: &Changed| {
            &b.reason
        })
        .await?;
    ensure_not_started(
        &tournament,
        "the tournament has started already: its settings stay as they are",
    )?;
    if asked.settings.director.is_some() {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            "settings.director: an event's director is named at its creation",
        ));
    }
    let settings = checked(asked.settings, &shared, shared.clock.now_ms()).map_err(|mut e| {
        e.message = format!("settings.{}", e.message);
        e
    })?;
    settings.apply(&mut tournament);
    let capacity = tournament.capacity();
    if tournament.players.len() > capacity {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            format!(
                "settings.system: {} players have entered, more than the {capacity} it takes",
                tournament.players.len()
            ),
        ));
    }
    let act = json!({"act": "settings"});
    decided(&shared, &director, &tournament, act, &reason).await
}
