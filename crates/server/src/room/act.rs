//! A player's message, turned into what it adds to the game: checks who
//! may act for which colour, then hands the message to the negotiation it
//! belongs to (offers, take-backs, rematch) or makes the event itself
//! (moves, resignation, abort).

use rochade_laws::Language;
use rochade_laws::notation::{read_move, write_uci};
use shakmaty::Color;

use super::{offers, rematch, takeback};
use crate::error::{ActionError, ErrorCode};
use crate::event::{Event, OfferAction};
use crate::protocol::ClientMessage;
use crate::record::{Record, move_error};
use crate::setup::{Seats, Side};

/// What a message comes to.
#[derive(Debug)]
pub enum Plan {
    /// Nothing to store (a ping).
    Nothing,
    /// Events to store together, in order.
    Events(Vec<Event>),
    /// A rematch is agreed; `offerer` made the offer.
    Rematch {
        /// Who offered.
        offerer: Color,
    },
}

/// What `message` from a socket holding `seats` comes to.
///
/// # Errors
///
/// Who may not act, or what the negotiation refuses; nothing is changed.
pub fn plan(record: &Record, seats: Seats, message: ClientMessage) -> Result<Plan, ActionError> {
    let turn = record.turn();
    let robot = record.setup.robot_color();
    let events = match message {
        ClientMessage::Ping | ClientMessage::State => return Ok(Plan::Nothing),
        ClientMessage::Hello { .. } => {
            return Err(ActionError::new(
                ErrorCode::Handshake,
                "hello comes once, as the socket's first message",
            ));
        }
        ClientMessage::Move {
            ply,
            uci,
            san,
            lang,
            offer_draw,
        } => {
            let color = actor(seats, None, turn)?;
            if record.is_over() {
                return Err(ActionError::new(ErrorCode::GameOver, "the game is over"));
            }
            if color != turn {
                return Err(ActionError::new(
                    ErrorCode::NotYourTurn,
                    format!("{turn} is to move"),
                ));
            }
            check_ply(record, ply)?;
            let mut events = vec![Event::Move {
                uci: move_text(record, uci, san, lang)?,
            }];
            if offer_draw {
                events.extend(offers::offer_with_move(color, robot));
            }
            events
        }
        ClientMessage::Draw { action, color } => {
            offers::draw(record, actor(seats, color, turn)?, action, robot)?
        }
        ClientMessage::Conditional { lines, color } => {
            let color = actor(seats, color, turn.other())?;
            record.may_enter_conditional(color)?;
            let game = record.timed.game();
            // Stored in UCI, whatever notation they came in.
            let lines = crate::correspondence::conditional::Tree::build(
                game.position(),
                game.castling_mode(),
                &lines,
            )
            .map_err(|e| {
                ActionError::new(ErrorCode::BadRequest, format!("conditional moves: {e}"))
            })?
            .lines();
            vec![Event::Conditional {
                color: color.into(),
                lines,
            }]
        }
        ClientMessage::Claim {
            kind,
            uci,
            ply,
            color,
        } => offers::claim(record, actor(seats, color, turn)?, kind, uci, ply)?,
        ClientMessage::Resign { color } => vec![Event::Resign {
            color: actor(seats, color, turn)?.into(),
        }],
        ClientMessage::Abort { color } => vec![Event::Abort {
            color: actor(seats, color, turn)?.into(),
        }],
        ClientMessage::Berserk { color } => vec![Event::Berserk {
            color: actor(seats, color, turn)?.into(),
        }],
        ClientMessage::Takeback { action, color } => {
            // A local player takes back the move just made.
            let default = if seats == Seats::Both {
                turn.other()
            } else {
                turn
            };
            let color = actor(seats, color, default)?;
            let agreed = robot == Some(color.other()) || seats == Seats::Both;
            takeback::takeback(record, color, OfferAction::from(action), agreed)?
        }
        ClientMessage::TablebaseClaim { claim, color } => {
            // The room probes its tables: see `Room::claim_tablebase`.
            let _ = (claim, actor(seats, color, turn)?);
            return Err(ActionError::new(
                ErrorCode::Internal,
                "tablebase claims are answered by the room",
            ));
        }
        ClientMessage::ClaimVictory { .. } => {
            // The room checks presence: see `Room::claim_victory`.
            return Err(ActionError::new(
                ErrorCode::Internal,
                "claim_victory is answered by the room",
            ));
        }
        ClientMessage::Chat { text, color } => vec![Event::Chat {
            color: actor(seats, color, turn)?.into(),
            text,
        }],
        ClientMessage::Rematch { action, color } => {
            let color = actor(seats, color, turn)?;
            let agreed = seats == Seats::Both || robot == Some(color.other());
            match rematch::plan(record, color, action, agreed)? {
                rematch::Plan::Events(events) => events,
                rematch::Plan::Agree { offerer } => return Ok(Plan::Rematch { offerer }),
            }
        }
    };
    Ok(Plan::Events(events))
}

/// Refuses a message that answers another state than the current one.
///
/// # Errors
///
/// `stale_ply` naming both plies.
pub fn check_ply(record: &Record, ply: usize) -> Result<(), ActionError> {
    if ply != record.plies.len() {
        return Err(ActionError::new(
            ErrorCode::StalePly,
            format!(
                "the message answers ply {ply}, but the game is at ply {}",
                record.plies.len()
            ),
        ));
    }
    Ok(())
}

/// The colour a socket acts for: the one it holds, or for a local token
/// the one named, else `default`.
pub fn actor(seats: Seats, named: Option<Side>, default: Color) -> Result<Color, ActionError> {
    match seats {
        Seats::Spectator => Err(ActionError::new(
            ErrorCode::Spectator,
            "spectators watch; they cannot act",
        )),
        Seats::One(color) => match named {
            Some(side) if Color::from(side) != color => Err(ActionError::new(
                ErrorCode::NotYourTurn,
                format!("this seat plays {color}, not {}", Color::from(side)),
            )),
            _ => Ok(color),
        },
        Seats::Both => Ok(named.map_or(default, Color::from)),
    }
}

/// The UCI text of a move sent in UCI or in SAN of a language.
fn move_text(
    record: &Record,
    uci: Option<String>,
    san: Option<String>,
    lang: Option<String>,
) -> Result<String, ActionError> {
    let game = record.timed.game();
    match (uci, san) {
        (Some(uci), None) => Ok(uci),
        (None, Some(san)) => {
            let language: Language = lang
                .as_deref()
                .unwrap_or("en")
                .parse()
                .map_err(|e| ActionError::new(ErrorCode::BadJson, format!("lang: {e}")))?;
            let m = read_move(game.position(), &san, language, game.castling_mode())
                .map_err(|e| move_error(&e.into()))?;
            Ok(write_uci(m, game.castling_mode()))
        }
        _ => Err(ActionError::new(
            ErrorCode::BadJson,
            "a move has either `uci` or `san`",
        )),
    }
}
