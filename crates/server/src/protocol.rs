//! Messages from the page to the server (docs/protocol.md, version 1).

use serde::{Deserialize, Serialize};

use crate::error::{ActionError, ErrorCode};
use crate::event::{Claim, OfferAction};
use crate::setup::Side;

/// The protocol version this server speaks.
pub const VERSION: u64 = 1;

/// The largest text frame accepted, in bytes.
pub const MAX_FRAME: usize = 4096;

/// A message from a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message of every socket: who is there. A seat's token
    /// travels here, never in the URL, so that no proxy logs it.
    Hello {
        /// The seat token; none (or null) for a spectator.
        #[serde(default)]
        token: Option<String>,
        /// After a move, send a `move` message (the move and what it
        /// changed) instead of the whole state.
        #[serde(default)]
        move_messages: bool,
    },
    /// A move answering the state at `ply`.
    Move {
        /// Half-moves played before it.
        ply: usize,
        /// The move in UCI notation.
        #[serde(default)]
        uci: Option<String>,
        /// The move in algebraic notation (with `lang`).
        #[serde(default)]
        san: Option<String>,
        /// The language of `san` (`en`, `sk`, `cs`, …).
        #[serde(default)]
        lang: Option<String>,
        /// A draw offer made with the move (9.1.2.1; ICCF: the only way to
        /// offer, recorded as `(=)`).
        #[serde(default)]
        offer_draw: bool,
    },
    /// Conditional moves (correspondence): lines alternating the
    /// opponent's move and the answer from the position now, in SAN
    /// (English letters), UCI or ICCF numeric notation; they replace any
    /// earlier ones, and an empty list withdraws them.
    Conditional {
        /// The lines.
        lines: Vec<String>,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A draw offer or answer (9.1).
    Draw {
        /// offer, accept or decline.
        action: OfferAction,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A draw claim (9.2, 9.3).
    Claim {
        /// threefold or fifty.
        kind: Claim,
        /// Half-moves played before the intended move (required with `uci`).
        #[serde(default)]
        ply: Option<usize>,
        /// The intended move.
        #[serde(default)]
        uci: Option<String>,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// Resignation (5.1.2).
    Resign {
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// Abort before both sides have moved.
    Abort {
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A take-back request or answer.
    Takeback {
        /// request (offer), accept or decline.
        action: TakebackAction,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A rematch offer or answer.
    Rematch {
        /// offer, accept or decline.
        action: OfferAction,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A tablebase claim by the player on move (ICCF 5.1.3 a win, 5.2.4 a
    /// draw; seven or fewer pieces, a server with `--syzygy`).
    TablebaseClaim {
        /// `win` or `draw`.
        claim: crate::event::TablebaseKind,
        /// For a local token: which side claims.
        #[serde(default)]
        color: Option<Side>,
    },
    /// Berserk, in an arena game before one's first move: half one's
    /// initial time and one's increment for a point more on a win.
    Berserk {
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// Answered by `pong`.
    Ping,
    /// Answered by the whole state (a page that missed a move message).
    State,
    /// Claims the win because the opponent (a person) has left: no
    /// connection to the game for the server's `gone_claim` time.
    ClaimVictory {
        /// For a local token: which side claims (never allowed: both
        /// seats are on one device).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A line of chat to the opponent (at most 140 characters, one a
    /// second).
    Chat {
        /// What is said.
        text: String,
        /// For a local token: which side speaks.
        #[serde(default)]
        color: Option<Side>,
    },
}

/// A take-back action: the protocol says `request` where offers say `offer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakebackAction {
    /// Ask to take back.
    Request,
    /// Accept the opponent's request.
    Accept,
    /// Decline it.
    Decline,
}

impl From<TakebackAction> for OfferAction {
    fn from(a: TakebackAction) -> Self {
        match a {
            TakebackAction::Request => OfferAction::Offer,
            TakebackAction::Accept => OfferAction::Accept,
            TakebackAction::Decline => OfferAction::Decline,
        }
    }
}

/// Reads one text frame.
///
/// # Errors
///
/// `too_large`, `bad_json` or `unsupported_version`, saying what was wrong.
///
/// # Examples
///
/// ```
/// use rochade_server::protocol::{ClientMessage, parse};
/// assert_eq!(parse(r#"{"t":"ping"}"#), Ok(ClientMessage::Ping));
/// assert!(parse(r#"{"v":2,"t":"ping"}"#).is_err());
/// assert!(parse("[1,2").is_err());
/// assert!(parse(r#"{"t":"ping","t":"resign"}"#).is_err());
/// ```
pub fn parse(text: &str) -> Result<ClientMessage, ActionError> {
    if text.len() > MAX_FRAME {
        return Err(ActionError::new(
            ErrorCode::TooLarge,
            format!(
                "a frame of {} bytes is over the limit of {MAX_FRAME}",
                text.len()
            ),
        ));
    }
    let mut value = crate::json::strict(text)
        .map_err(|e| ActionError::new(ErrorCode::BadJson, format!("not JSON: {e}")))?;
    let object = value
        .as_object_mut()
        .ok_or_else(|| ActionError::new(ErrorCode::BadJson, "a message is a JSON object"))?;
    if let Some(v) = object.remove("v")
        && v.as_u64() != Some(VERSION)
    {
        return Err(ActionError::new(
            ErrorCode::UnsupportedVersion,
            format!("protocol version {v} is not supported; this server speaks {VERSION}"),
        ));
    }
    crate::json::typed(value)
        .map_err(|e| ActionError::new(ErrorCode::BadJson, format!("not a known message: {e}")))
}

/// An error message for a socket.
pub fn error_message(e: &ActionError, ply: Option<usize>) -> String {
    serde_json::json!({"v": VERSION, "t": "error", "code": e.code, "message": e.message, "ply": ply})
        .to_string()
}
