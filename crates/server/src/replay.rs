//! `GET /api/games/{id}/replay`: a game move by move for the replay board
//! of a profile page: the start, then each move with the position after
//! it. Read from storage, so looking at an old game loads no room.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::record::Record;
use crate::rooms::Shared;

/// `GET /api/games/{id}/replay`.
///
/// # Errors
///
/// `not_found` for an unknown game; `internal` when storage fails.
pub async fn replay(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    let game = id.clone();
    let stored = shared
        .stored(move |s| s.load(&game))
        .await?
        .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("no game {id}")))?;
    let record = Record::replay(stored.setup, stored.events)?;
    let mut game = record.setup.start_game()?;
    let initial = game.fen();
    let mut moves = Vec::with_capacity(record.plies.len());
    for ply in &record.plies {
        game.play_uci(&ply.uci).map_err(|e| {
            ActionError::new(ErrorCode::Internal, format!("stored move {}: {e}", ply.uci))
        })?;
        moves.push(json!({"san": ply.san, "uci": ply.uci, "fen": game.fen()}));
    }
    let result = if record.aborted {
        "*"
    } else {
        record
            .timed
            .game()
            .outcome()
            .map_or("*", |o| o.result.as_str())
    };
    let name = |color: Color| record.setup.player(color).map(|p| p.name.clone());
    Ok(axum::Json(json!({
        "id": record.setup.id,
        "initialFen": initial,
        "moves": moves,
        "result": result,
        "white": name(Color::White),
        "black": name(Color::Black),
    }))
    .into_response())
}
