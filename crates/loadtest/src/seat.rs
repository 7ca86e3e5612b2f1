//! One seat's socket to its game that comes back when it breaks: it is
//! opened again through the same address (behind a proxy: on a live node)
//! after a pause, until it opens or its backoff's window has passed.

use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use crate::client::{ClientError, GameSocket, read_message};
use crate::resilience::Backoff;
use crate::state::Tracked;

/// How long a socket just opened may take to send its first state, and
/// how long a move may wait for its answer before the socket is taken for
/// broken.
pub(crate) const ANSWER_WAIT: Duration = Duration::from_secs(10);

/// How long a socket being dropped is given to say goodbye.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// A seat (a token) of one game, and its socket while it is open.
#[derive(Debug)]
pub(crate) struct Seat {
    /// `127.0.0.1:8080`: the server or the proxy in front of the nodes.
    host: String,
    /// The game's id.
    game: String,
    /// The seat's token (empty: a spectator).
    token: String,
    /// The socket, when open.
    socket: Option<GameSocket>,
    /// It asks for move messages.
    move_messages: bool,
    /// The game as the socket last told it.
    seen: Tracked,
    /// The message that told it: what a lost move's report shows of the
    /// answer that acknowledged it (kept as received, not copied).
    said: Utf8Bytes,
}

/// A message's type, the rest of it skipped unread.
#[derive(Debug, serde::Deserialize)]
struct Kind<'a> {
    /// `state`, `move`, `error`, …
    #[serde(borrow)]
    t: std::borrow::Cow<'a, str>,
}

/// What a message read said.
#[derive(Debug)]
pub(crate) enum Heard {
    /// A new state (whole, or made by a move message): [`Seat::seen`].
    State,
    /// An error message.
    Error {
        /// Its code.
        code: String,
        /// What it says.
        message: String,
    },
    /// Anything else.
    Other,
}

impl Seat {
    /// The seat `token` of `game` at `host`, not connected yet, whose
    /// socket asks for `move_messages`.
    pub(crate) fn new(host: &str, game: &str, token: &str, move_messages: bool) -> Seat {
        Seat {
            host: host.to_owned(),
            game: game.to_owned(),
            token: token.to_owned(),
            socket: None,
            move_messages,
            seen: Tracked::default(),
            said: Utf8Bytes::default(),
        }
    }

    /// The game as the socket last told it.
    pub(crate) fn seen(&self) -> &Tracked {
        &self.seen
    }

    /// The message behind [`Seat::seen`].
    pub(crate) fn said(&self) -> &str {
        self.said.as_str()
    }

    /// Opens the socket and says hello; its first state is [`Seat::seen`].
    pub(crate) async fn open(&mut self) -> Result<(), ClientError> {
        self.drop_socket().await;
        let mut socket =
            GameSocket::connect_with(&self.host, &self.game, &self.token, self.move_messages)
                .await?;
        let state = socket.state(ANSWER_WAIT, |_| true).await?;
        self.seen = Tracked::of_state(&state);
        self.said = Utf8Bytes::from(format!("(opened) {state}"));
        self.socket = Some(socket);
        Ok(())
    }

    /// Opens the socket, and again after each failure while `backoff`
    /// allows. `why` is the failure that led here, returned if there is no
    /// second try.
    pub(crate) async fn reopen(
        &mut self,
        backoff: &mut Backoff,
        why: ClientError,
    ) -> Result<(), ClientError> {
        self.drop_socket().await;
        let mut why = why;
        while backoff.pause().await {
            match self.open().await {
                Ok(()) => return Ok(()),
                Err(e) => why = e,
            }
        }
        Err(why)
    }

    /// Reads the next message, waiting at most `wait`, and takes a state
    /// or a move message into [`Seat::seen`]. A move message that does not
    /// follow (a move missed) or cannot be read is dropped and the whole
    /// state asked for.
    pub(crate) async fn recv(&mut self, wait: Duration) -> Result<Heard, ClientError> {
        let deadline = Instant::now() + wait;
        let Some(socket) = &mut self.socket else {
            return Err(ClientError::Closed);
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = socket.recv_text(left).await?;
            let kind: Kind<'_> = read_message(text.as_str())?;
            match kind.t.as_ref() {
                "move" => {
                    if self.seen.take_move(text.as_str()) {
                        self.said = text;
                        return Ok(Heard::State);
                    }
                    socket.send(&json!({"t": "state"})).await?;
                }
                "state" => {
                    let message: serde_json::Value = read_message(text.as_str())?;
                    self.seen = Tracked::of_state(&message["state"]);
                    self.said = text;
                    return Ok(Heard::State);
                }
                "error" => {
                    let message: serde_json::Value = read_message(text.as_str())?;
                    return Ok(Heard::Error {
                        code: message["code"].as_str().unwrap_or_default().to_owned(),
                        message: message["message"].as_str().unwrap_or_default().to_owned(),
                    });
                }
                _ => return Ok(Heard::Other),
            }
        }
    }

    /// Sends one message ([`ClientError::Closed`] with no socket open).
    pub(crate) async fn send(&mut self, message: &serde_json::Value) -> Result<(), ClientError> {
        match &mut self.socket {
            Some(socket) => socket.send(message).await,
            None => Err(ClientError::Closed),
        }
    }

    /// Closes the socket, if open, waiting at most [`CLOSE_WAIT`] for it.
    pub(crate) async fn drop_socket(&mut self) {
        if let Some(socket) = self.socket.take() {
            let _ = tokio::time::timeout(CLOSE_WAIT, socket.close()).await;
        }
    }
}
