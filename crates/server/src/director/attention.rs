//! What needs the director (ICCF 14.2): `GET /api/director` lists the
//! unfinished games they direct where the player on move has been silent
//! longer than the tournament allows, the games whose clocks they have
//! stopped, and the appeals and claims not yet answered.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::http::request_json;
use crate::accounts::http::signed_in_user;
use crate::error::ActionError;
use crate::rooms::Shared;
use crate::storage::PlayingGame;

/// A day, ms.
const DAY_MS: u64 = 86_400_000;

/// Why a game is listed, if it is: `silent` with the whole days since the
/// last move (or the start) when they reach `silence_days`, `stopped`
/// when its clocks stand while it is not over. `now` is server time.
///
/// ```
/// use rochade_server::director::attention::why_listed;
/// assert_eq!(why_listed(0, true, 15 * 86_400_000, 14), Some(("silent", 15)));
/// assert_eq!(why_listed(0, true, 13 * 86_400_000, 14), None);
/// assert_eq!(why_listed(0, false, 0, 14), Some(("stopped", 0)));
/// ```
pub fn why_listed(
    moved: u64,
    running: bool,
    now: u64,
    silence_days: u32,
) -> Option<(&'static str, u64)> {
    if !running {
        return Some(("stopped", 0));
    }
    let days = now.saturating_sub(moved) / DAY_MS;
    (days >= u64::from(silence_days)).then_some(("silent", days))
}

/// A listed game as JSON, or `None` when it needs nothing.
fn listed(game: &PlayingGame, now: u64, silence_days: u32) -> Option<Value> {
    let glance = game.glance.as_ref()?;
    let moved = game.epoch + glance.moved.unwrap_or(0);
    let (why, days) = why_listed(moved, glance.running.is_some(), now, silence_days)?;
    let name = |p: &Option<crate::setup::Player>| p.as_ref().map(|p| p.name.clone());
    Some(json!({
        "id": game.setup.id,
        "tournament": game.setup.tournament.as_ref().map(|t| &t.id),
        "white": name(&game.setup.white_player),
        "black": name(&game.setup.black_player),
        "turn": glance.turn,
        "ply": glance.ply,
        "why": why,
        "days": days,
    }))
}

/// `GET /api/director`: `{"games": […], "requests": […], "site_director":
/// bool}`, the lists empty for someone who directs nothing; whether the
/// player is one of the site's directors (who alone create tournaments)
/// tells the page whether to offer the form.
///
/// # Errors
///
/// `unauthorized` without a session.
pub async fn show(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let me = user.id;
    let default_days = shared.limits.silence_days;
    let (games, requests, site) = shared
        .stored(move |s| {
            let site = s.is_site_director(me)?;
            Ok((
                s.directed_games(me, site)?,
                s.open_requests(me, site)?,
                site,
            ))
        })
        .await?;
    let now = shared.clock.now_ms();
    // Each game carries its tournament's setting in its terms.
    let silence = |game: &PlayingGame| {
        game.setup
            .tournament
            .as_ref()
            .and_then(|t| t.silence_days)
            .unwrap_or(default_days)
    };
    let games: Vec<Value> = games
        .iter()
        .filter_map(|g| listed(g, now, silence(g)))
        .collect();
    Ok(axum::Json(json!({
        "games": games,
        "requests": requests.iter().map(request_json).collect::<Vec<_>>(),
        "site_director": site,
    }))
    .into_response())
}
