//! `GET /api/stream/event` and `GET /api/account/playing`: an account's
//! games and challenges.

use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use shakmaty::Color;
use tokio::sync::broadcast;

use super::ApiError;
use super::auth::Bearer;
use super::games::game_event;
use super::stream::{KEEP_ALIVE, ndjson};
use crate::error::ActionError;
use crate::room::Command;
use crate::rooms::Shared;
use crate::setup::GameSetup;

/// Every unfinished game the account `user` plays: its setup, its state
/// now and the account's colour (a game gone meanwhile is left out).
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn playing_games(
    shared: &Arc<Shared>,
    user: i64,
) -> Result<Vec<(GameSetup, Value, Color)>, ActionError> {
    let stored = shared.stored(move |s| s.playing_glances(user)).await?;
    let now = shared.clock.now_ms();
    let mut games = Vec::new();
    for game in stored {
        match (&game.glance, game.setup.player_color(user)) {
            // One query for the whole list: no room is loaded.
            (Some(glance), Some(color)) => {
                let state = glance.state_at(now.saturating_sub(game.epoch));
                games.push((game.setup, state, color));
            }
            // Stored before glances, or a seat the account took after the
            // game began (its stored settings do not name it): the room tells.
            _ => {
                let id = game.setup.id.clone();
                let Ok(described) = shared.ask(&id, |reply| Command::Describe { reply }).await
                else {
                    continue;
                };
                let (Ok(state), Some(color)) = (
                    serde_json::from_str::<Value>(&described.state),
                    described.setup.player_color(user),
                ) else {
                    continue;
                };
                games.push((described.setup, state, color));
            }
        }
    }
    Ok(games)
}

/// The `gameStart` news of every unfinished game `user` plays.
async fn current_games(shared: &Arc<Shared>, user: i64) -> Result<Vec<Value>, ApiError> {
    Ok(playing_games(shared, user)
        .await?
        .iter()
        .map(|(setup, state, color)| game_event("gameStart", setup, state, *color))
        .collect())
}

/// `GET /api/account/playing`: the account's unfinished games, "your
/// move" first.
pub async fn playing(
    State(shared): State<Arc<Shared>>,
    Bearer(owner): Bearer,
) -> Result<Response, ApiError> {
    let mut games: Vec<Value> = current_games(&shared, owner.user.id)
        .await?
        .into_iter()
        .map(|news| news["game"].clone())
        .collect();
    games.sort_by_key(|g| g["isMyTurn"] != true);
    Ok(axum::Json(json!({"nowPlaying": games})).into_response())
}

/// `GET /api/stream/event`: the account's games and open challenges at
/// once, then every `gameStart`, `gameFinish`, `challenge`,
/// `challengeCanceled` and `challengeDeclined` as it happens.
pub async fn stream(
    State(shared): State<Arc<Shared>>,
    Bearer(owner): Bearer,
) -> Result<Response, ApiError> {
    let user = owner.user.id;
    // Listen first, so that nothing falls between the snapshot and the news.
    let mut news = shared.hub.listen(user);
    let mut first = current_games(&shared, user).await?;
    let open = crate::challenges::of(&shared, user).await?;
    first.extend(
        open.into_iter()
            .map(|c| json!({"type": "challenge", "challenge": c.to_json("created")})),
    );
    Ok(ndjson(move |lines| async move {
        for item in &first {
            if !lines.send(item).await {
                return;
            }
        }
        let mut beat = tokio::time::interval(KEEP_ALIVE);
        beat.tick().await;
        loop {
            let alive = tokio::select! {
                item = news.recv() => match item {
                    Ok(item) if item["type"] == crate::hub::TURN => true,
                    Ok(item) => lines.send(&item).await,
                    Err(broadcast::error::RecvError::Lagged(_)) => true,
                    Err(broadcast::error::RecvError::Closed) => false,
                },
                _ = beat.tick() => lines.keep_alive().await,
            };
            if !alive {
                return;
            }
        }
    }))
}
