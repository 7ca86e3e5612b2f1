//! The lichess-compatible API: the endpoints that lichess-bot and the
//! `berserk` client use, with lichess's paths, parameters and JSON shapes,
//! so that a program written for lichess plays here by changing only the
//! server's address (`docs/api.md`).
//!
//! Every endpoint that acts is authorized by a personal API token
//! (`Authorization: Bearer …`, [`auth::Bearer`]) and never by the page's
//! session cookie, so a cross-site request cannot use it (a form cannot
//! set that header); that is why these routes take lichess's form and
//! text bodies instead of the page's JSON-only rule. Errors are lichess's:
//! a status and `{"error": "…"}` ([`ApiError`]).

pub mod account;
pub mod auth;
pub mod board;
pub mod challenge;
pub mod events;
pub mod form;
pub mod game_stream;
pub mod games;
pub mod seek;
pub mod stream;
pub mod users;

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::error::ActionError;
use crate::rooms::Shared;

/// Every route of the lichess-compatible API.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/account", get(account::me))
        .route("/api/user/{username}", get(users::public))
        .route(
            "/api/user/{username}/rating-history",
            get(users::rating_history),
        )
        .route("/api/games/user/{username}", get(users::games))
        .route("/api/account/playing", get(events::playing))
        .route("/api/token/test", post(account::test_tokens))
        .route("/api/stream/event", get(events::stream))
        // A game's record (the page's own PGN endpoint, at lichess's path).
        .route("/game/export/{id}", get(crate::http::pgn))
        // Challenges.
        .route("/api/challenge", get(challenge::mine))
        .route("/api/challenge/ai", post(challenge::ai))
        .route("/api/board/seek", post(seek::seek))
        .route("/api/challenge/{username}", post(challenge::create))
        .route("/api/challenge/{id}/accept", post(challenge::accept))
        .route("/api/challenge/{id}/decline", post(challenge::decline))
        .route("/api/challenge/{id}/cancel", post(challenge::cancel))
        // The Board and Bot APIs ({api} is `board` or `bot`).
        .route("/api/{api}/game/stream/{id}", get(game_stream::game_stream))
        .route("/api/{api}/game/{id}/move/{uci}", post(board::make_move))
        .route(
            "/api/{api}/game/{id}/{what}",
            post(board::end).get(board::chat_lines),
        )
        // berserk asks for `…/claim-victory/`.
        .route("/api/{api}/game/{id}/{what}/", post(board::end))
        .route("/api/{api}/game/{id}/{what}/{answer}", post(board::answer))
        // The framework's refusals said as lichess's errors are.
        .layer(axum::middleware::from_fn(crate::refusals::api))
}

/// An error as lichess answers it: a status and `{"error": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What was wrong.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(serde_json::json!({"error": self.message})),
        )
            .into_response()
    }
}

impl From<ActionError> for ApiError {
    fn from(e: ActionError) -> ApiError {
        ApiError::new(e.code.status(), e.message)
    }
}

impl From<crate::accounts::AccountError> for ApiError {
    fn from(e: crate::accounts::AccountError) -> ApiError {
        ActionError::from(e).into()
    }
}
