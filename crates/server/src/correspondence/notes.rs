//! A player's private notes on a game, kept on the server so that they
//! follow the player from device to device (issue 17 point 14); only that
//! player reads or writes them. Authorized by the page's session cookie
//! (JSON bodies only, same-origin), as the other `/api/account` calls:
//! `GET /api/account/notes/{game}` answers `{"text": "…", "at": ms | null}`;
//! `POST` with `{"text": "…"}` replaces them (at most
//! [`MOST_CHARACTERS`] characters) and answers the same.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::accounts::http::signed_in_user;
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::storage::Note;

/// The longest notes kept, in characters.
pub const MOST_CHARACTERS: usize = 10_000;

/// The body of a save.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    /// The whole text.
    text: String,
}

/// The refusal for a game the account does not play (or that does not
/// exist): the same for both, so that it says nothing of others' games.
fn not_yours(game: &str) -> ActionError {
    ActionError::new(
        ErrorCode::NotFound,
        format!("no game {game} of yours to keep notes on"),
    )
}

/// A note as JSON.
fn note_json(note: &Note) -> Value {
    json!({"text": note.text, "at": note.at})
}

/// `GET /api/account/notes/{game}`.
///
/// # Errors
///
/// `unauthorized` without a session; `not_found` for a game the account
/// does not play.
pub async fn show(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(game): Path<String>,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let id = game.clone();
    let note = shared
        .stored(move |s| s.note(user.id, &id))
        .await?
        .ok_or_else(|| not_yours(&game))?;
    Ok(axum::Json(note_json(&note)).into_response())
}

/// `POST /api/account/notes/{game}`: replaces the notes.
///
/// # Errors
///
/// `unauthorized` without a session; `bad_request` for a body that is not
/// `{"text": …}` or a text over [`MOST_CHARACTERS`]; `not_found` for a
/// game the account does not play. Nothing is stored then.
pub async fn save(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(game): Path<String>,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let asked: Saved = crate::json::body(&body, "notes")?;
    let length = asked.text.chars().count();
    if length > MOST_CHARACTERS {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("notes: {length} characters, more than the {MOST_CHARACTERS} allowed"),
        ));
    }
    let at = shared.clock.now_ms();
    let (id, text) = (game.clone(), asked.text.clone());
    let kept = shared
        .stored(move |s| s.set_note(user.id, &id, &text, at))
        .await?;
    if !kept {
        return Err(not_yours(&game));
    }
    let note = Note {
        text: asked.text,
        at: Some(at),
    };
    Ok(axum::Json(note_json(&note)).into_response())
}
