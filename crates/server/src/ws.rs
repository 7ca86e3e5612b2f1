//! One WebSocket. Its first message says who is there
//! (`{"t":"hello","token":…}`: the seat token never travels in the URL,
//! where proxies log it); then one task takes the player's messages to
//! the room one at a time and sends the room's news (states, rematch
//! news) and the answers (errors). Bad input gets an error message and
//! nothing else: the socket stays open and the game is untouched. Limits
//! (docs/security.md): the protocol's frame size (larger frames end the
//! connection), a time to say hello, an idle time (the server pings;
//! browsers answer by themselves), and messages per second per seat
//! token and per address, however many sockets they are spread over; a
//! socket that goes on sending over them is cut off ([`crate::flood`]).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{broadcast, mpsc};

use crate::error::{ActionError, ErrorCode};
use crate::flood::Flood;
use crate::limits::ClientAddr;
use crate::protocol::{self, ClientMessage};
use crate::room::{Command, Out};
use crate::rooms::Shared;
use crate::setup::Seats;
use crate::state;

/// The most a socket reads at once. Clients' messages are short (a move
/// is about 40 bytes); one up to [`protocol::MAX_FRAME`] takes a few
/// reads. Each read zeroes the buffer's free room before it, and an idle
/// socket keeps its buffer: 1 KiB instead of 8 took 13 KiB off each game
/// of two sockets in the load tool's figures (docs/performance.md).
pub const BUFFER: usize = 1024;

/// `GET /ws/{id}`: upgrades to the game's WebSocket.
pub async fn upgrade(
    upgrade: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
    ClientAddr(addr): ClientAddr,
) -> Response {
    let frame = shared.limits.frame;
    upgrade
        .read_buffer_size(BUFFER)
        .write_buffer_size(0)
        // The protocol's size: a larger frame ends the connection.
        .max_message_size(frame)
        .max_frame_size(frame)
        .on_upgrade(move |socket| serve_socket(socket, shared, id, addr))
}

/// What a socket's hello says.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hello {
    /// The seat token (empty: a spectator).
    token: String,
    /// Moves come as move messages.
    move_messages: bool,
}

/// The first message's token and wishes, waiting at most the handshake
/// time.
async fn hello(stream: &mut WebSocket, wait: Duration) -> Result<Hello, ActionError> {
    let refuse = |m: &str| ActionError::new(ErrorCode::Handshake, m);
    let first = tokio::time::timeout(wait, async {
        loop {
            match stream.next().await {
                Some(Ok(Message::Text(text))) => return Some(text),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                _ => return None,
            }
        }
    })
    .await
    .map_err(|_| refuse("no hello: a socket's first message says who is there"))?
    .ok_or_else(|| refuse("the socket closed before its hello"))?;
    match protocol::parse(first.as_str())? {
        ClientMessage::Hello {
            token,
            move_messages,
        } => Ok(Hello {
            token: token.unwrap_or_default(),
            move_messages,
        }),
        _ => Err(refuse(
            "the first message must be {\"t\":\"hello\",\"token\":…} (null for a spectator)",
        )),
    }
}

/// Serves one socket of game `id` from address `addr`, in one task: it
/// reads the player's messages and sends the room's news, each in turn.
/// (A reading task and a sending task per socket, sharing the socket
/// behind a lock, cost a second wake-up for every move the player made,
/// a second task's memory and the lock's hand-over: docs/performance.md.)
/// A send waits at most the idle time: a client that reads nothing is
/// cut off.
pub async fn serve_socket(socket: WebSocket, shared: Arc<Shared>, id: String, addr: IpAddr) {
    let _open = crate::metrics::SocketOpen::count();
    let mut socket = socket;
    // The room's queue, kept between messages.
    let mut room_queue = None;
    let joined = match hello(&mut socket, shared.limits.handshake).await {
        Ok(hello) => shared
            .ask_kept(&mut room_queue, &id, |reply| Command::Join {
                token: hello.token.clone(),
                reply,
                told: None,
            })
            .await
            .and_then(|joined| joined.map(|joined| (joined, hello))),
        Err(e) => Err(e),
    };
    let (
        joined,
        Hello {
            token,
            move_messages,
        },
    ) = match joined {
        Ok(joined) => joined,
        Err(e) => {
            let _ = socket
                .send(Message::Text(protocol::error_message(&e, None).into()))
                .await;
            let _ = socket.close().await;
            return;
        }
    };
    let seats = joined.seats;
    let idle = shared.limits.socket_idle;
    let mut out = Sending { idle, open: true };
    out.put(&mut socket, state::message(&joined.state, seats.as_str()))
        .await;
    if let Some((color, lines)) = &joined.conditional {
        out.put(&mut socket, conditional_message(*color, lines))
            .await;
    }
    let mut updates = joined.updates;
    let mut shutdown = shared.shutdown.clone();
    let mut pings = tokio::time::interval(idle / 3);
    pings.tick().await;
    // One wait for shutdown for the socket's life (a new one each turn
    // took and gave back a place in the signal's list of waiters).
    let stop = shutdown.changed();
    tokio::pin!(stop);
    let mut warned = false;
    let mut flood = Flood::default();
    let mut cut_off = false;
    // One timer for the socket's life, pushed back at each frame (cheaper
    // than a timer a frame).
    let silent = tokio::time::sleep(idle);
    tokio::pin!(silent);
    while out.open {
        let turn = tokio::select! {
            // The room's news first: a player who sends keeps seeing the
            // game.
            biased;
            update = updates.recv() => Turn::News(update),
            frame = socket.next() => Turn::Frame(frame),
            _ = pings.tick() => Turn::Ping,
            () = &mut silent => break,
            _ = &mut stop => break,
        };
        let frame = match turn {
            Turn::News(Ok(news)) => {
                if let Some(text) = render(&news, seats, move_messages) {
                    out.put(&mut socket, text).await;
                }
                continue;
            }
            // Too slow to read every state: the latest one will do.
            Turn::News(Err(broadcast::error::RecvError::Lagged(_))) => {
                if let Ok(text) = whole_state(&shared, &mut room_queue, &id, seats).await {
                    out.put(&mut socket, text).await;
                }
                continue;
            }
            // The room closed (unloaded, or stale after a commit that
            // failed); its last answer to this socket has gone out.
            Turn::News(Err(broadcast::error::RecvError::Closed)) => break,
            Turn::Ping => {
                out.send(&mut socket, Message::Ping(Default::default()))
                    .await;
                continue;
            }
            Turn::Frame(frame) => frame,
        };
        let Some(Ok(frame)) = frame else {
            break;
        };
        silent.as_mut().reset(tokio::time::Instant::now() + idle);
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                let e = ActionError::new(ErrorCode::BadJson, "messages are JSON text frames");
                out.put(&mut socket, protocol::error_message(&e, None))
                    .await;
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !allowed(&shared, &token, addr) {
            let per_second = shared.limits.messages_per_second;
            if flood.dropped(tokio::time::Instant::now(), per_second) {
                let why = protocol::error_message(&Flood::cut_off(per_second), None);
                let _ = tokio::time::timeout(
                    crate::flood::LINGER,
                    socket.send(Message::Text(why.into())),
                )
                .await;
                tracing::info!(game = %id, %addr, "a socket that flooded is cut off");
                cut_off = true;
                break;
            }
            // One error per burst; the rest of it is dropped.
            if !warned {
                warned = true;
                let e = ActionError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "over {} messages a second: the rest are dropped",
                        shared.limits.messages_per_second
                    ),
                );
                out.put(&mut socket, protocol::error_message(&e, None))
                    .await;
            }
            continue;
        }
        warned = false;
        if let Some(reply) = handle_text(&shared, &mut room_queue, &id, seats, text.as_str()).await
        {
            out.put(&mut socket, reply).await;
        }
    }
    shared.tell(&id, Command::Leave { seats });
    let _ = socket.close().await;
    if cut_off {
        crate::flood::linger(&mut socket).await;
    }
}

/// What wakes a socket's task.
enum Turn {
    /// The room's news.
    News(Result<Out, broadcast::error::RecvError>),
    /// A frame from the client (or the end of its stream).
    Frame(Option<Result<Message, axum::Error>>),
    /// Time to ping.
    Ping,
}

/// The sending side of a socket: each send waits at most `idle`, and a
/// send that fails or times out ends the socket.
struct Sending {
    /// The longest a send may wait for the client to read.
    idle: Duration,
    /// No send has failed.
    open: bool,
}

impl Sending {
    /// Sends `text`.
    async fn put(&mut self, socket: &mut WebSocket, text: String) {
        self.send(socket, Message::Text(Utf8Bytes::from(text)))
            .await;
    }

    /// Sends `message`.
    async fn send(&mut self, socket: &mut WebSocket, message: Message) {
        if !self.open {
            return;
        }
        let sent = tokio::time::timeout(self.idle, socket.send(message)).await;
        self.open = matches!(sent, Ok(Ok(())));
    }
}

/// Whether one more message is allowed for the seat `token` (shared by
/// all its sockets) and for the address.
fn allowed(shared: &Shared, token: &String, addr: IpAddr) -> bool {
    let by_token = token.is_empty() || shared.token_messages.allow(token);
    by_token && shared.address_messages.allow(&addr)
}

/// Handles one text frame; returns the direct answer, if any (states come
/// through the room's broadcast).
async fn handle_text(
    shared: &Arc<Shared>,
    room_queue: &mut Option<mpsc::Sender<Command>>,
    id: &str,
    seats: Seats,
    text: &str,
) -> Option<String> {
    let message = match protocol::parse(text) {
        Ok(m) => m,
        Err(e) => return Some(protocol::error_message(&e, None)),
    };
    match message {
        ClientMessage::Ping => {
            return Some(format!("{{\"v\":{},\"t\":\"pong\"}}", protocol::VERSION));
        }
        ClientMessage::State => {
            return Some(
                whole_state(shared, room_queue, id, seats)
                    .await
                    .unwrap_or_else(|e| protocol::error_message(&e, None)),
            );
        }
        _ => {}
    }
    let ply = match &message {
        ClientMessage::Move { ply, .. } => Some(*ply),
        ClientMessage::Claim { ply, .. } => *ply,
        _ => None,
    };
    let result = shared
        .ask_kept(room_queue, id, |reply| Command::Act {
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

/// The room's whole state now, as the message to a socket with `seats`.
async fn whole_state(
    shared: &Arc<Shared>,
    room_queue: &mut Option<mpsc::Sender<Command>>,
    id: &str,
    seats: Seats,
) -> Result<String, ActionError> {
    let json = shared
        .ask_kept(room_queue, id, |reply| Command::State { reply })
        .await?;
    Ok(state::message(&json, seats.as_str()))
}

/// The message telling a seat its conditional moves.
fn conditional_message(color: shakmaty::Color, lines: &[String]) -> String {
    serde_json::json!({"v": protocol::VERSION, "t": "conditional",
                       "color": if color == shakmaty::Color::White { "white" } else { "black" },
                       "lines": lines})
    .to_string()
}

/// What a room's news looks like to a socket with `seats` (that asked
/// for `move_messages` or not).
fn render(out: &Out, seats: Seats, move_messages: bool) -> Option<String> {
    match out {
        Out::State(json) => Some(state::message(json, seats.as_str())),
        Out::Moved { moved, .. } if move_messages => Some(moved.as_ref().clone()),
        Out::Moved { state: json, .. } => Some(state::message(&json.json(), seats.as_str())),
        Out::Chat { color, name, text } => Some(
            serde_json::json!({"v": protocol::VERSION, "t": "chat",
                               "color": if *color == shakmaty::Color::White { "white" } else { "black" },
                               "name": name, "text": text.as_ref()})
            .to_string(),
        ),
        Out::Conditional { color, lines } => {
            seats.holds(*color).then(|| conditional_message(*color, lines))
        }
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
