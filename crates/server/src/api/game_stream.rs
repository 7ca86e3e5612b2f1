//! `GET /api/{board|bot}/game/stream/{id}`: `gameFull`, then a `gameState`
//! whenever the game changes, `chatLine`s and `opponentGone`, until the
//! game ends. The response body is itself the stream that waits for the
//! room's news: no task and no channel of its own, and it keeps text, not
//! parsed JSON, so a watcher costs no more than a page socket.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use shakmaty::Color;
use tokio::sync::broadcast;
use tokio::time::{Instant, Interval};

use super::ApiError;
use super::auth::Bearer;
use super::board::{Api, my_game};
use super::games::{game_full, game_state, status};
use super::stream::{KEEP_ALIVE, changes};
use crate::room::{Command, Out};
use crate::rooms::Shared;
use crate::setup::Seats;

/// lichess's `opponentGone` news for a game stream: the opponent (a
/// person) has no connection to the game once both sides have moved;
/// after the server's `gone_claim` time the win may be claimed
/// (`claimWinInSeconds` 0, then `POST …/claim-victory`).
struct Gone {
    /// The opponent is never gone: the robot, or a correspondence game.
    never_gone: bool,
    /// How long the opponent must be gone.
    wait: Duration,
    /// When the claim becomes possible, while the opponent is gone.
    claim_at: Option<Instant>,
    /// Whether the reader was last told the opponent is gone.
    told_gone: bool,
}

impl Gone {
    /// The news a new state brings, if any.
    fn seen(&mut self, state: &Value, opponent: Color) -> Option<String> {
        let side = if opponent == Color::White {
            "white"
        } else {
            "black"
        };
        let moved = state["ply"].as_u64().unwrap_or(0) >= 2;
        let away = !self.never_gone && moved && state["players"][side]["connected"] == false;
        match (away, self.told_gone) {
            (true, false) => {
                self.told_gone = true;
                self.claim_at = Some(Instant::now() + self.wait);
                Some(
                    json!({"type": "opponentGone", "gone": true,
                           "claimWinInSeconds": self.wait.as_secs()})
                    .to_string(),
                )
            }
            (false, true) => {
                self.told_gone = false;
                self.claim_at = None;
                Some(json!({"type": "opponentGone", "gone": false}).to_string())
            }
            _ => None,
        }
    }

    /// Resolves when the win may be claimed (never while nobody is gone).
    async fn claimable(claim_at: Option<Instant>) {
        match claim_at {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending().await,
        }
    }
}

/// One reader's stream of a game.
struct Watch {
    /// The room's news.
    updates: broadcast::Receiver<Out>,
    /// Lines ready to go.
    pending: VecDeque<String>,
    /// The last `gameState` sent, without the clocks.
    last: String,
    /// The game is over: the stream ends once `pending` is empty.
    over: bool,
    /// The opponent's presence.
    gone: Gone,
    /// The reader's opponent.
    opponent: Color,
    /// The keep-alive beat.
    beat: Interval,
    /// To leave the room when the stream ends.
    shared: Arc<Shared>,
    /// The game.
    id: String,
    /// The seat this stream holds.
    seats: Seats,
}

impl Drop for Watch {
    fn drop(&mut self) {
        // The reader hung up or the game ended: the seat's connection goes.
        self.shared
            .tell(&self.id, Command::Leave { seats: self.seats });
    }
}

impl Watch {
    /// A new state: its `gameState` if it changed, and presence news.
    fn state(&mut self, json: &str) {
        let Ok(state) = serde_json::from_str::<Value>(json) else {
            return;
        };
        let game_state = game_state(&state);
        self.over = status(&state) != "started";
        let key = changes(&game_state);
        if key != self.last {
            self.last = key;
            self.pending.push_back(game_state.to_string());
        }
        if !self.over
            && let Some(news) = self.gone.seen(&state, self.opponent)
        {
            self.pending.push_back(news);
        }
    }

    /// Waits for something to send; `None` once the stream is over.
    async fn next(&mut self) -> Option<String> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                return Some(line);
            }
            if self.over {
                return None;
            }
            tokio::select! {
                update = self.updates.recv() => match update {
                    Ok(Out::State(json)) => self.state(&json),
                    Ok(Out::Moved { state, .. }) => self.state(&state.json()),
                    Ok(Out::Chat { color, name, text }) => {
                        let username = name.unwrap_or_else(|| {
                            if color == Color::White { "White" } else { "Black" }.to_owned()
                        });
                        self.pending.push_back(
                            json!({"type": "chatLine", "room": "player",
                                   "username": username, "text": text.as_ref()})
                            .to_string(),
                        );
                    }
                    Ok(Out::Rematch { .. } | Out::Conditional { .. })
                    | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                () = Gone::claimable(self.gone.claim_at) => {
                    self.gone.claim_at = None;
                    self.pending.push_back(
                        json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": 0})
                            .to_string(),
                    );
                }
                _ = self.beat.tick() => return Some(String::new()),
            }
        }
    }
}

/// `GET /api/{board|bot}/game/stream/{id}`.
pub async fn game_stream(
    State(shared): State<Arc<Shared>>,
    bearer: Bearer,
    Path((api, id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    Api::of(&api)?.admit(&bearer)?;
    let (described, color) = my_game(&shared, &bearer, &id).await?;
    let token = described.setup.token(color).to_owned();
    let joined = shared
        .ask(&id, |reply| Command::Join {
            token: token.clone(),
            reply,
            told: None,
        })
        .await??;
    let state: Value = serde_json::from_str(&joined.state)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let full = game_full(&described.setup, &state, described.epoch);
    let opponent = color.other();
    let mut beat = tokio::time::interval_at(Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut watch = Watch {
        updates: joined.updates,
        pending: VecDeque::from([full.to_string()]),
        last: changes(&full["state"]),
        over: status(&state) != "started",
        gone: Gone {
            // Nobody is "gone" from a correspondence game: the clock decides.
            never_gone: described.setup.robot_color() == Some(opponent)
                || described.setup.is_correspondence(),
            wait: shared.limits.gone_claim,
            claim_at: None,
            told_gone: false,
        },
        opponent,
        beat,
        shared: shared.clone(),
        id,
        seats: joined.seats,
    };
    if let Some(news) = watch.gone.seen(&state, opponent) {
        watch.pending.push_back(news);
    }
    let lines = futures_util::stream::unfold(watch, |mut watch| async move {
        let mut line = watch.next().await?;
        line.push('\n');
        Some((Ok::<_, std::convert::Infallible>(Bytes::from(line)), watch))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response())
}
