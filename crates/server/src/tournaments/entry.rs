//! Entering a tournament: who may be added (by the director, or by
//! themselves in an open event within its conditions: a rating range in
//! the event's category and an account age), and leaving it.
//!
//! - `POST /api/tournaments/{id}/join`: the signed-in player enters an
//!   open event; after the start of a Swiss, a late entry paired from the
//!   next round.
//! - `POST /api/tournaments/{id}/quit`: before the start they leave the
//!   list; after it they are not paired again (a game going on goes on:
//!   resigning it is the player's own act). In an arena this is a pause:
//!   joining again brings them back.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use super::http::{load, tournament_json};
use super::runner::save;
use super::{Entrant, Start, System, Tournament};
use crate::accounts::http::signed_in_user;
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::setup::checked_control;
use crate::storage::User;

/// A day in ms.
const DAY_MS: u64 = 86_400_000;

/// A refusal: `not_allowed` with `message`.
fn refuse(message: String) -> ActionError {
    ActionError::new(ErrorCode::NotAllowed, message)
}

/// `user`'s rating in `tournament`'s category now.
///
/// # Errors
///
/// `bad_request` when its control no longer passes the server's limits;
/// `internal` when storage fails.
pub async fn rating_in(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    user: i64,
) -> Result<u16, ActionError> {
    let control = checked_control(&tournament.time_control, &shared.limits)?;
    let perf = crate::ratings::Perf::of(&control, tournament.start != Start::Standard);
    let rating = crate::ratings::current_rating(shared, user, perf).await?;
    Ok(u16::try_from(rating.shown().max(0)).unwrap_or(u16::MAX))
}

/// Whether `user` may be added to `tournament` now; the entrant, with
/// their rating and first round (a late entry's is the next round).
///
/// # Errors
///
/// `bad_request` for a player already in; `not_allowed` when it is
/// finished, full, past its last round, or started and not a Swiss (a
/// round robin's table is fixed at the start).
pub async fn admit(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    user: &User,
) -> Result<Entrant, ActionError> {
    if tournament.entrant(user.id).is_some() {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("name: {} plays in it already", user.name),
        ));
    }
    if tournament.finished.is_some() {
        return Err(refuse("the tournament is finished".into()));
    }
    if let Some(end) = super::arena::ends_at(tournament)
        && shared.clock.now_ms() >= end
    {
        return Err(refuse("the arena's time is up: no more players".into()));
    }
    let from_round = if let System::Arena { .. } = tournament.system {
        // An arena takes players while it runs.
        1
    } else if tournament.started.is_some() {
        if !matches!(tournament.system, System::Swiss { .. }) || !tournament.by_round {
            return Err(refuse(
                "the tournament has started: no more players (a round robin's table is fixed \
                 at the start)"
                    .into(),
            ));
        }
        let next = tournament.rounds.len() + 1;
        let total = usize::from(super::report::total_rounds(tournament));
        if next > total {
            return Err(refuse(format!(
                "all {total} rounds are paired: no more players"
            )));
        }
        u16::try_from(next).unwrap_or(u16::MAX)
    } else {
        1
    };
    let capacity = tournament.capacity();
    if tournament.players.len() >= capacity {
        return Err(refuse(format!("it has its {capacity} players already")));
    }
    Ok(Entrant {
        id: user.id,
        name: user.name.clone(),
        rating: Some(rating_in(shared, tournament, user.id).await?),
        from_round,
    })
}

/// Whether `user` meets the conditions of an open event.
///
/// # Errors
///
/// `forbidden` when the director names the players; `not_allowed`
/// naming the condition not met.
async fn meets_conditions(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    user: &User,
) -> Result<(), ActionError> {
    let entry = &tournament.entry;
    if !entry.open {
        return Err(ActionError::new(
            ErrorCode::Forbidden,
            "the director names the players of this tournament",
        ));
    }
    if let Some(days) = entry.min_account_days {
        let age = shared.clock.now_ms().saturating_sub(user.created) / DAY_MS;
        if age < u64::from(days) {
            return Err(refuse(format!(
                "entry: accounts of {days} days or more; yours is {age} days old"
            )));
        }
    }
    if entry.min_rating.is_some() || entry.max_rating.is_some() {
        let rating = rating_in(shared, tournament, user.id).await?;
        if let Some(low) = entry.min_rating
            && rating < low
        {
            return Err(refuse(format!(
                "entry: a rating of {low} or more; yours is {rating}"
            )));
        }
        if let Some(high) = entry.max_rating
            && rating > high
        {
            return Err(refuse(format!(
                "entry: a rating of {high} or less; yours is {rating}"
            )));
        }
    }
    Ok(())
}

/// `POST /api/tournaments/{id}/join`.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such
/// tournament; `forbidden` for an event the director fills; what
/// [`admit`] and the conditions refuse.
pub async fn join(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let user = signed_in_user(&shared, &headers).await?;
    let mut tournament = load(&shared, &id).await?;
    meets_conditions(&shared, &tournament, &user).await?;
    if super::arena::play::comes_back(&shared, &mut tournament, user.id).await? {
        save(&shared, &tournament).await?;
        shared.tournaments.changed(&tournament.id);
        return Ok(axum::Json(tournament_json(&tournament)).into_response());
    }
    let entrant = admit(&shared, &tournament, &user).await?;
    tournament.players.push(entrant);
    save(&shared, &tournament).await?;
    shared.tournaments.changed(&tournament.id);
    Ok(axum::Json(tournament_json(&tournament)).into_response())
}

/// `POST /api/tournaments/{id}/quit`.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for no such
/// tournament or a player not in it; `not_allowed` once it is finished
/// or for a player who has left already.
pub async fn quit(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let _turn = shared.tournaments.turn().await;
    let user = signed_in_user(&shared, &headers).await?;
    let mut tournament = load(&shared, &id).await?;
    if tournament.entrant(user.id).is_none() {
        return Err(ActionError::new(
            ErrorCode::NotFound,
            "you do not play in this tournament",
        ));
    }
    if tournament.finished.is_some() {
        return Err(refuse("the tournament is finished".into()));
    }
    if tournament.is_withdrawn(user.id) {
        return Err(refuse("you have left this tournament already".into()));
    }
    if tournament.started.is_none() {
        tournament.players.retain(|p| p.id != user.id);
    } else {
        tournament.withdrawn.push((user.id, shared.clock.now_ms()));
    }
    save(&shared, &tournament).await?;
    Ok(axum::Json(tournament_json(&tournament)).into_response())
}
