//! Errors the players see: one stable code per kind (docs/protocol.md) and a
//! message in plain words. HTTP handlers return them with a 4xx status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// The error codes of the protocol, stable for the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a known message shape.
    BadJson,
    /// A frame over 4 KiB.
    TooLarge,
    /// A protocol version other than 1.
    UnsupportedVersion,
    /// More than 20 messages a second.
    RateLimited,
    /// A spectator tried to act.
    Spectator,
    /// An action for the colour not on move.
    NotYourTurn,
    /// The move answered an old state.
    StalePly,
    /// The move is not legal here.
    IllegalMove,
    /// The move text matches more than one legal move.
    AmbiguousMove,
    /// The move text is not a move at all.
    UnparseableMove,
    /// The game has ended.
    GameOver,
    /// The action is not allowed now or in this game.
    NotAllowed,
    /// Accept or decline with nothing pending.
    NoOffer,
    /// No such game or invitation.
    NotFound,
    /// The invitation was already used.
    SeatTaken,
    /// An HTTP body that cannot be accepted.
    BadRequest,
    /// The server could not store the action; nothing changed.
    Internal,
    /// A POST whose body is not `application/json` (HTTP 415).
    UnsupportedMediaType,
    /// A method the path does not take (HTTP 405; the `Allow` header
    /// names those it takes).
    MethodNotAllowed,
    /// A socket opened from a page of another site (HTTP 403).
    ForbiddenOrigin,
    /// One address holds too many connections, or creates games too fast (HTTP 429).
    TooManyRequests,
    /// One address plays too many robot games at once (HTTP 429).
    TooManyGames,
    /// One seat has too many sockets open.
    TooManySockets,
    /// The socket did not say who it is in time, or said it twice.
    Handshake,
    /// The server is too busy to take this now; try again (HTTP 503).
    Busy,
    /// Not signed in, or a wrong name, password or token (HTTP 401).
    Unauthorized,
    /// The user name is in use (HTTP 409).
    NameTaken,
    /// Signed in, but this is someone else's to do: a tournament
    /// director's decision, another player's notes (HTTP 403).
    Forbidden,
}

impl ErrorCode {
    /// The HTTP status for this code.
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::SeatTaken | ErrorCode::NameTaken => StatusCode::CONFLICT,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::RateLimited | ErrorCode::TooManyRequests | ErrorCode::TooManyGames => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::ForbiddenOrigin | ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

/// A refused request or action: a code and what was wrong.
///
/// # Examples
///
/// ```
/// use rochade_server::{ActionError, ErrorCode};
/// let e = ActionError::new(ErrorCode::StalePly, "the move answers ply 3, the game is at ply 4");
/// assert_eq!(e.code, ErrorCode::StalePly);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ActionError {
    /// The stable code.
    pub code: ErrorCode,
    /// What was wrong, in plain words.
    pub message: String,
}

impl ActionError {
    /// An error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ActionError {
            code,
            message: message.into(),
        }
    }
}

/// The body of an HTTP error: `{"error": {"code": …, "message": …}}`.
#[derive(Serialize)]
struct ErrorBody<'a> {
    /// The error.
    error: &'a ActionError,
}

impl IntoResponse for ActionError {
    fn into_response(self) -> Response {
        let status = self.code.status();
        (status, axum::Json(ErrorBody { error: &self })).into_response()
    }
}

impl From<crate::storage::StorageError> for ActionError {
    fn from(e: crate::storage::StorageError) -> Self {
        match e {
            // What was asked cannot be stored or looked up: the asker's
            // text, not the server, is at fault.
            e @ crate::storage::StorageError::Nul(_) => {
                ActionError::new(ErrorCode::BadRequest, e.to_string())
            }
            e => ActionError::new(ErrorCode::Internal, format!("storage: {e}")),
        }
    }
}
