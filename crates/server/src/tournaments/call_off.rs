//! Calling off an event before it starts: `POST
//! /api/tournaments/{id}/cancel` `{"reason"}`, by its director only. The
//! event ends without a game (its start and end the moment it is called
//! off, as when nobody has entered by its start time), stays in the
//! list among the finished ones with why, and the decision is logged
//! with its reason. Once its games have begun it is ended game by game
//! (the director's decisions, withdrawals), never called off.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Tournament;
use super::arbiter::{Reason, asked};
use super::before_start::{decided, ensure_not_started};
use crate::error::ActionError;
use crate::rooms::Shared;

/// Why an event ended before its start.
///
/// ```
/// use rochade_server::tournaments::call_off::CalledOff;
/// let by = CalledOff::Director { reason: "the hall is closed".into() };
/// assert_eq!(
///     serde_json::to_value(&by).unwrap(),
///     serde_json::json!({"by": "director", "reason": "the hall is closed"})
/// );
/// assert_eq!(
///     serde_json::to_value(CalledOff::TooFewPlayers).unwrap(),
///     serde_json::json!({"by": "too_few_players"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum CalledOff {
    /// Its director called it off, for this reason.
    Director {
        /// Why, as the director wrote it.
        reason: String,
    },
    /// Fewer than two players had entered at its start time.
    TooFewPlayers,
}

/// Ends `tournament`, not started, at `now` for `why`.
///
/// ```
/// use rochade_server::tournaments::Tournament;
/// use rochade_server::tournaments::call_off::{CalledOff, call_off};
/// let mut t: Tournament = serde_json::from_value(serde_json::json!({
///     "id": "Qb7Zk2Lm", "name": "Club Swiss", "director": 1,
///     "director_name": "Arbiter", "time_control": "10+5", "rules": "fide",
///     "rated": true, "double": false, "triple_block": false,
///     "draws_from_move": null, "start": {"start": "standard"},
///     "silence_days": 14, "players": [], "started": null, "created": 0,
/// }))
/// .unwrap();
/// call_off(&mut t, 1_000, CalledOff::TooFewPlayers);
/// assert_eq!((t.started, t.finished), (Some(1_000), Some(1_000)));
/// assert_eq!(t.called_off, Some(CalledOff::TooFewPlayers));
/// ```
pub fn call_off(tournament: &mut Tournament, now: u64, why: CalledOff) {
    tournament.started = Some(now);
    tournament.finished = Some(now);
    tournament.called_off = Some(why);
}

/// `POST /api/tournaments/{id}/cancel`.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but the
/// director; `bad_request` for a body that is not one or an empty
/// reason; `not_allowed` once the event has started (or ended).
pub async fn cancel(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let (director, mut tournament, _, reason) =
        asked(&shared, &headers, &id, &body, "cancel", |b: &Reason| {
            &b.reason
        })
        .await?;
    ensure_not_started(
        &tournament,
        "the tournament has started: only an event not yet begun is called off; end its games \
         by the director's decisions, or withdraw its players",
    )?;
    call_off(
        &mut tournament,
        shared.clock.now_ms(),
        CalledOff::Director {
            reason: reason.clone(),
        },
    );
    decided(
        &shared,
        &director,
        &tournament,
        json!({"act": "call_off"}),
        &reason,
    )
    .await
}
