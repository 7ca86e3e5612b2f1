//! One seat's socket to its game that comes back when it breaks: it is
//! opened again through the same address (behind a proxy: on a live node)
//! after a pause, until it opens or its backoff's window has passed.

use std::time::Duration;

use serde_json::Value;

use crate::client::{ClientError, GameSocket};
use crate::resilience::Backoff;

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
        }
    }

    /// Opens the socket and says hello; the first state it is sent.
    pub(crate) async fn open(&mut self) -> Result<Value, ClientError> {
        self.drop_socket().await;
        let mut socket =
            GameSocket::connect_with(&self.host, &self.game, &self.token, self.move_messages)
                .await?;
        let state = socket.state(ANSWER_WAIT, |_| true).await?;
        self.socket = Some(socket);
        Ok(state)
    }

    /// Opens the socket, and again after each failure while `backoff`
    /// allows; the first state. `why` is the failure that led here,
    /// returned if there is no second try.
    pub(crate) async fn reopen(
        &mut self,
        backoff: &mut Backoff,
        why: ClientError,
    ) -> Result<Value, ClientError> {
        self.drop_socket().await;
        let mut why = why;
        while backoff.pause().await {
            match self.open().await {
                Ok(state) => return Ok(state),
                Err(e) => why = e,
            }
        }
        Err(why)
    }

    /// Sends one message ([`ClientError::Closed`] with no socket open).
    pub(crate) async fn send(&mut self, message: &Value) -> Result<(), ClientError> {
        match &mut self.socket {
            Some(socket) => socket.send(message).await,
            None => Err(ClientError::Closed),
        }
    }

    /// The next message, waiting at most `wait`.
    pub(crate) async fn recv(&mut self, wait: Duration) -> Result<Value, ClientError> {
        match &mut self.socket {
            Some(socket) => socket.recv(wait).await,
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
