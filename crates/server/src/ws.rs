//! One WebSocket: the reader takes the player's messages to the room one
//! at a time; the writer sends states, rematch news and errors. Bad input
//! gets an error message and nothing else: the socket stays open and the
//! game is untouched.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

use crate::error::{ActionError, ErrorCode};
use crate::protocol::{self, ClientMessage};
use crate::room::{Command, Out};
use crate::rooms::Shared;
use crate::setup::Seats;
use crate::state;

/// Messages a socket may send per second.
pub const RATE: u32 = 20;

/// The largest frame the socket layer accepts at all; frames between 4 KiB
/// and this get `too_large`, larger ones end the connection.
pub const HARD_LIMIT: usize = 1 << 20;

/// The read buffer of a socket: room for one 4 KiB message.
pub const BUFFER: usize = 8 * 1024;

/// A per-socket limit of [`RATE`] messages in each one-second window.
#[derive(Debug)]
struct RateLimit {
    /// Start of the window.
    window: Instant,
    /// Messages in it.
    count: u32,
}

impl RateLimit {
    /// Whether one more message is allowed now; the second value says
    /// whether this is the first refusal of the window (worth an error).
    fn allow(&mut self) -> (bool, bool) {
        let now = Instant::now();
        if now.duration_since(self.window) >= Duration::from_secs(1) {
            self.window = now;
            self.count = 0;
        }
        self.count += 1;
        (self.count <= RATE, self.count == RATE + 1)
    }
}

/// The query of `/ws/{id}`.
#[derive(Debug, serde::Deserialize)]
pub struct SocketQuery {
    /// The seat token; none for a spectator.
    #[serde(default)]
    token: String,
}

/// `GET /ws/{id}?token=…`: upgrades to the game's WebSocket.
pub async fn upgrade(
    upgrade: axum::extract::WebSocketUpgrade,
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
    axum::extract::Path(id): axum::extract::Path<String>,
    axum::extract::Query(query): axum::extract::Query<SocketQuery>,
) -> axum::response::Response {
    upgrade
        // Small buffers: thousands of sockets, each message a few KiB.
        .read_buffer_size(BUFFER)
        .write_buffer_size(0)
        .max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .on_upgrade(move |socket| serve_socket(socket, shared, id, query.token))
}

/// Serves one socket of game `id` opened with `token`.
pub async fn serve_socket(socket: WebSocket, shared: Arc<Shared>, id: String, token: String) {
    let (mut sink, mut stream) = socket.split();
    let joined = shared
        .ask(&id, |reply| Command::Join {
            token: token.clone(),
            reply,
        })
        .await;
    let joined = match joined {
        Ok(joined) => joined,
        Err(e) => {
            let _ = sink
                .send(Message::Text(protocol::error_message(&e, None).into()))
                .await;
            let _ = sink.close().await;
            return;
        }
    };
    let seats = joined.seats;
    let (tx, mut rx) = mpsc::channel::<String>(64);
    let _ = tx.send(state::message(&joined.state, seats.as_str())).await;
    let mut updates = joined.updates;
    let mut shutdown = shared.shutdown.clone();
    let (room, game) = (shared.clone(), id.clone());
    let writer = tokio::spawn(async move {
        loop {
            let text = tokio::select! {
                text = rx.recv() => match text {
                    Some(text) => text,
                    None => break,
                },
                update = updates.recv() => match update {
                    Ok(out) => match render(&out, seats) {
                        Some(text) => text,
                        None => continue,
                    },
                    // Too slow to read every state: the latest one will do.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        match room.ask(&game, |reply| Command::State { reply }).await {
                            Ok(json) => state::message(&json, seats.as_str()),
                            Err(_) => continue,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = shutdown.changed() => break,
            };
            if sink
                .send(Message::Text(Utf8Bytes::from(text)))
                .await
                .is_err()
            {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut limit = RateLimit {
        window: Instant::now(),
        count: 0,
    };
    while let Some(Ok(frame)) = stream.next().await {
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(bytes) if bytes.len() > protocol::MAX_FRAME => {
                let e = ActionError::new(ErrorCode::TooLarge, "frame over 4 KiB");
                let _ = tx.send(protocol::error_message(&e, None)).await;
                continue;
            }
            Message::Binary(_) => {
                let e = ActionError::new(ErrorCode::BadJson, "messages are JSON text frames");
                let _ = tx.send(protocol::error_message(&e, None)).await;
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let (allowed, first_refusal) = limit.allow();
        if !allowed {
            if first_refusal {
                let e = ActionError::new(
                    ErrorCode::RateLimited,
                    format!("over {RATE} messages a second: the rest of this second is dropped"),
                );
                let _ = tx.send(protocol::error_message(&e, None)).await;
            }
            continue;
        }
        let reply = handle_text(&shared, &id, seats, text.as_str()).await;
        if let Some(reply) = reply
            && tx.send(reply).await.is_err()
        {
            break;
        }
    }
    drop(tx);
    shared.tell(&id, Command::Leave { seats });
    let _ = writer.await;
}

/// Handles one text frame; returns the direct answer, if any (states come
/// through the room's broadcast).
async fn handle_text(shared: &Arc<Shared>, id: &str, seats: Seats, text: &str) -> Option<String> {
    let message = match protocol::parse(text) {
        Ok(m) => m,
        Err(e) => return Some(protocol::error_message(&e, None)),
    };
    if message == ClientMessage::Ping {
        return Some(format!("{{\"v\":{},\"t\":\"pong\"}}", protocol::VERSION));
    }
    let ply = match &message {
        ClientMessage::Move { ply, .. } => Some(*ply),
        _ => None,
    };
    let result = shared
        .ask(id, |reply| Command::Act {
            seats,
            message: message.clone(),
            reply,
        })
        .await
        .and_then(|r| r);
    match result {
        Ok(()) => None,
        Err(e) => Some(protocol::error_message(&e, ply)),
    }
}

/// What a room's news looks like to a socket with `seats`.
fn render(out: &Out, seats: Seats) -> Option<String> {
    match out {
        Out::State(json) => Some(state::message(json, seats.as_str())),
        Out::Rematch { game, white, black } => {
            // Colours swap: the old White plays Black.
            let token = match seats {
                Seats::Spectator => return None,
                Seats::One(shakmaty::Color::White) => black,
                Seats::One(shakmaty::Color::Black) | Seats::Both => white,
            };
            Some(
                serde_json::json!({"v": protocol::VERSION, "t": "rematch", "game": game, "token": token})
                    .to_string(),
            )
        }
    }
}
