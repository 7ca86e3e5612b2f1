//! The Board API (people with a board program) and the Bot API (bot
//! accounts): the player's acts in a game — move, resign, abort, draw and
//! take-back answers, chat, claim-victory (the game's stream is
//! `game_stream.rs`). The two differ only in who may use
//! them: `board:play` and a person's account, or `bot:play` and a bot's.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use shakmaty::Color;

use super::ApiError;
use super::auth::Bearer;
use super::form::Fields;
use crate::accounts::scope::Scope;
use crate::event::OfferAction;
use crate::protocol::{ClientMessage, TakebackAction};
use crate::room::{Command, Described};
use crate::rooms::Shared;
use crate::setup::Seats;

/// Which API: lichess's `board` or `bot` in the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Api {
    /// People with a board program.
    Board,
    /// Bot accounts.
    Bot,
}

impl Api {
    /// Reads the path's word.
    pub(super) fn of(word: &str) -> Result<Api, ApiError> {
        match word {
            "board" => Ok(Api::Board),
            "bot" => Ok(Api::Bot),
            _ => Err(ApiError::new(StatusCode::NOT_FOUND, "Not found")),
        }
    }

    /// Refuses a token or account that may not use this API.
    pub(super) fn admit(self, bearer: &Bearer) -> Result<(), ApiError> {
        let bot = bearer.0.user.bot;
        match self {
            Api::Board => {
                bearer.require(Scope::BoardPlay)?;
                if bot {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "bot accounts play through the Bot API",
                    ));
                }
            }
            Api::Bot => {
                bearer.require(Scope::BotPlay)?;
                if !bot {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "this is not a bot account (rochade user bot NAME)",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The game `id` and the colour the bearer plays in it.
pub(super) async fn my_game(
    shared: &Arc<Shared>,
    bearer: &Bearer,
    id: &str,
) -> Result<(Described, Color), ApiError> {
    let no_game = || ApiError::new(StatusCode::NOT_FOUND, format!("No such game: {id}"));
    let described = shared
        .ask(id, |reply| Command::Describe { reply })
        .await
        .map_err(|_| no_game())?;
    let color = described
        .setup
        .player_color(bearer.0.user.id)
        .ok_or_else(no_game)?;
    Ok((described, color))
}

/// `GET /api/{board|bot}/game/{id}/chat`: the players' chat so far,
/// `[{"user": name, "text": …}]`, oldest first.
pub async fn chat_lines(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path((api, id, what)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    Api::of(&api)?.admit(&bearer)?;
    if what != "chat" {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "Not found"));
    }
    my_game(&shared, &bearer, &id).await?;
    let game = id.clone();
    let stored = shared
        .stored(move |s| s.load(&game))
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("No such game: {id}")))?;
    let record = crate::record::Record::replay(stored.setup, stored.events)?;
    let lines: Vec<Value> = record
        .chat
        .iter()
        .map(|(color, text, _)| {
            let user = record.setup.player(*color).map_or_else(
                || {
                    if *color == Color::White {
                        "White"
                    } else {
                        "Black"
                    }
                    .to_owned()
                },
                |p| p.name.clone(),
            );
            json!({"user": user, "text": text})
        })
        .collect();
    Ok(axum::Json(lines).into_response())
}

/// The query of a move: `?offeringDraw=true`.
#[derive(Debug, serde::Deserialize)]
pub struct MoveQuery {
    /// Offer a draw with the move.
    #[serde(rename = "offeringDraw", default)]
    offering_draw: Option<bool>,
}

/// `{"ok": true}`.
fn ok() -> Response {
    axum::Json(json!({"ok": true})).into_response()
}

/// Sends `message` to game `id` as the bearer's seat.
async fn act(
    shared: &Arc<Shared>,
    id: &str,
    color: Color,
    message: ClientMessage,
) -> Result<(), ApiError> {
    shared
        .ask(id, |reply| Command::Act {
            seats: Seats::One(color),
            message: message.clone(),
            reply,
        })
        .await??;
    Ok(())
}

/// `POST /api/{board|bot}/game/{id}/move/{uci}`: a move in the position
/// now, perhaps with a draw offer.
pub async fn make_move(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path((api, id, uci)): Path<(String, String, String)>,
    Query(query): Query<MoveQuery>,
) -> Result<Response, ApiError> {
    Api::of(&api)?.admit(&bearer)?;
    let (_, color) = my_game(&shared, &bearer, &id).await?;
    shared
        .ask(&id, |reply| Command::Play {
            seats: Seats::One(color),
            uci: uci.clone(),
            offer_draw: query.offering_draw == Some(true),
            reply,
        })
        .await??;
    Ok(ok())
}

/// `POST /api/{board|bot}/game/{id}/{resign|abort|berserk|claim-victory|chat}`
/// (`berserk`: an arena game, before one's first move);
/// `claim-victory` wins when the opponent left (see `opponentGone`); a chat line
/// has the form fields `room` (`player`; the spectators' room is not kept
/// here) and `text`.
pub async fn end(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path((api, id, what)): Path<(String, String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    Api::of(&api)?.admit(&bearer)?;
    let (_, color) = my_game(&shared, &bearer, &id).await?;
    let message = match what.as_str() {
        "resign" => ClientMessage::Resign { color: None },
        "abort" => ClientMessage::Abort { color: None },
        "berserk" => ClientMessage::Berserk { color: None },
        "claim-victory" => ClientMessage::ClaimVictory { color: None },
        "chat" => {
            let fields = Fields::read(&headers, &body, &["room", "text"])?;
            match fields.text("room") {
                Some("player") => {}
                Some("spectator") => {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "room: the spectators' room is not kept here; `player` is",
                    ));
                }
                _ => {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "room: `player` or `spectator` is required",
                    ));
                }
            }
            let text = fields
                .text("text")
                .ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "text: required"))?;
            ClientMessage::Chat {
                text: text.to_owned(),
                color: None,
            }
        }
        _ => return Err(ApiError::new(StatusCode::NOT_FOUND, "Not found")),
    };
    act(&shared, &id, color, message).await?;
    Ok(ok())
}

/// `POST /api/{board|bot}/game/{id}/{draw|takeback}/{yes|no}`: `yes`
/// accepts the opponent's offer or makes one; `no` declines.
pub async fn answer(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path((api, id, what, answer)): Path<(String, String, String, String)>,
) -> Result<Response, ApiError> {
    Api::of(&api)?.admit(&bearer)?;
    let (described, color) = my_game(&shared, &bearer, &id).await?;
    let state: Value = serde_json::from_str(&described.state)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let opponent = if color == Color::White {
        "black"
    } else {
        "white"
    };
    let yes = match answer.as_str() {
        "yes" => true,
        "no" => false,
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("`{answer}`: the answer is yes or no"),
            ));
        }
    };
    let offered = |kind: &str| state["offers"][kind] == opponent;
    let message = match (what.as_str(), yes) {
        ("draw", true) if offered("draw") => ClientMessage::Draw {
            action: OfferAction::Accept,
            color: None,
        },
        ("draw", true) => ClientMessage::Draw {
            action: OfferAction::Offer,
            color: None,
        },
        ("draw", false) => ClientMessage::Draw {
            action: OfferAction::Decline,
            color: None,
        },
        ("takeback", true) if offered("takeback") => ClientMessage::Takeback {
            action: TakebackAction::Accept,
            color: None,
        },
        ("takeback", true) => ClientMessage::Takeback {
            action: TakebackAction::Request,
            color: None,
        },
        ("takeback", false) => ClientMessage::Takeback {
            action: TakebackAction::Decline,
            color: None,
        },
        _ => return Err(ApiError::new(StatusCode::NOT_FOUND, "Not found")),
    };
    act(&shared, &id, color, message).await?;
    Ok(ok())
}
