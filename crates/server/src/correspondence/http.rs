//! The page's leave (ICCF 10.1), authorized by its session cookie (JSON
//! bodies only, same-origin): `GET /api/account/leave` shows the
//! allowance of this year and the next and the leave booked;
//! `POST /api/account/leave` with `{"from": "2026-12-01", "to":
//! "2026-12-07"}` books whole days (UTC) and stops both clocks over them
//! in every correspondence game of the player, now and in games that
//! begin before the leave ends.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::leave::{Day, Leave, check};
use crate::accounts::http::signed_in_user;
use crate::error::{ActionError, ErrorCode};
use crate::room::Command;
use crate::rooms::Shared;
use crate::setup::GameSetup;
use crate::storage::{BookedLeave, LeaveGrant};

/// The body of a booking.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Booking {
    /// The first day, `YYYY-MM-DD`.
    from: String,
    /// The last day, included.
    to: String,
}

/// Days granted to the holder of `grants` in `year`.
fn granted(grants: &[LeaveGrant], year: i64) -> i64 {
    grants
        .iter()
        .filter(|g| g.year == year)
        .map(|g| g.days)
        .sum()
}

/// A leave as JSON.
fn leave_json(booked: &BookedLeave) -> Value {
    json!({
        "id": booked.id,
        "from": booked.leave.first.to_string(),
        "to": booked.leave.last.to_string(),
        "days": booked.leave.days(),
    })
}

/// The allowance, use and leave of one account on `today`.
fn overview(per_year: i64, today: Day, leaves: &[BookedLeave], grants: &[LeaveGrant]) -> Value {
    let booked: Vec<Leave> = leaves.iter().map(|b| b.leave).collect();
    let years: Vec<Value> = (today.year()..=today.year() + 1)
        .map(|year| {
            let days = per_year + granted(grants, year);
            let used = super::leave::used_in(&booked, year);
            json!({"year": year, "days": days, "used": used, "left": (days - used).max(0)})
        })
        .collect();
    json!({
        "today": today.to_string(),
        "allowance": years,
        "leave": leaves.iter().filter(|b| b.leave.last >= today).map(leave_json).collect::<Vec<_>>(),
    })
}

/// `GET /api/account/leave`.
///
/// # Errors
///
/// `unauthorized` without a session.
pub async fn show(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let today = Day::of_ms(shared.clock.now_ms());
    let (leaves, grants) = shared
        .stored(move |s| Ok((s.leaves(user.id)?, s.leave_grants(user.id)?)))
        .await?;
    let per_year = i64::try_from(shared.limits.leave_days).unwrap_or(i64::MAX);
    Ok(axum::Json(overview(per_year, today, &leaves, &grants)).into_response())
}

/// `POST /api/account/leave`: books the days and stops the clocks.
///
/// # Errors
///
/// `unauthorized` without a session; `bad_request` naming the field or
/// the rule of 10.1 the leave breaks (booked ahead, no overlap, within the
/// year's allowance), with nothing stored.
pub async fn book(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let asked: Booking = crate::json::body(&body, "leave")?;
    let first = Day::parse(&asked.from).map_err(|e| bad(format!("from: {e}")))?;
    let last = Day::parse(&asked.to).map_err(|e| bad(format!("to: {e}")))?;
    let leave = Leave::new(first, last).map_err(|e| bad(format!("leave: {e}")))?;
    let now = shared.clock.now_ms();
    let today = Day::of_ms(now);
    let per_year = i64::try_from(shared.limits.leave_days).unwrap_or(i64::MAX);
    let id = shared
        .stored(move |s| {
            s.book_leave(user.id, leave, now, &|booked, grants| {
                check(booked, &leave, today, |year| {
                    per_year + granted(grants, year)
                })
            })
        })
        .await?
        .map_err(|e| bad(format!("leave: {e}")))?;
    let games = pause_games(&shared, user.id, leave).await;
    Ok(axum::Json(json!({
        "id": id,
        "from": leave.first.to_string(),
        "to": leave.last.to_string(),
        "days": leave.days(),
        "games": games,
    }))
    .into_response())
}

/// Stops the clocks over `leave` in every unfinished correspondence game
/// of account `user`; how many games it reached. A game that cannot be
/// reached now is logged: its clocks run as before.
async fn pause_games(shared: &Arc<Shared>, user: i64, leave: Leave) -> usize {
    let ids = match shared.stored(move |s| s.playing(user)).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(user, error = %e, "reading a leave");
            return 0;
        }
    };
    let (from, to) = leave.span_ms();
    let mut reached = 0;
    for id in ids {
        match shared
            .ask(&id, |reply| Command::Pause {
                user,
                from,
                to,
                reply,
            })
            .await
        {
            Ok(Ok(())) => reached += 1,
            Ok(Err(e)) | Err(e) => tracing::warn!(game = %id, error = %e, "a leave in a game"),
        }
    }
    reached
}

/// A new correspondence game `setup` takes in the leave its players have
/// booked that is not over yet.
///
/// # Errors
///
/// When storage fails or the room refuses.
pub async fn pause_for_booked(shared: &Arc<Shared>, setup: &GameSetup) -> Result<(), ActionError> {
    if !setup.is_correspondence() {
        return Ok(());
    }
    let today = Day::of_ms(shared.clock.now_ms());
    for player in [&setup.white_player, &setup.black_player]
        .into_iter()
        .flatten()
    {
        let user = player.id;
        let leaves = shared.stored(move |s| s.leaves(user)).await?;
        for booked in leaves.iter().filter(|b| b.leave.last >= today) {
            let (from, to) = booked.leave.span_ms();
            shared
                .ask(&setup.id, |reply| Command::Pause {
                    user,
                    from,
                    to,
                    reply,
                })
                .await??;
        }
    }
    Ok(())
}
