//! A small client for the server's HTTP API and WebSocket, for the load
//! tester and the tests: one JSON POST over plain HTTP/1.1, and a game
//! socket that sends and reads JSON messages.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The read buffer of a socket: room for one 4 KiB message (the
/// protocol's largest) twice over.
pub const BUFFER: usize = 8 * 1024;

/// A client-side failure.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The network failed.
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    /// The WebSocket failed.
    #[error("websocket: {0}")]
    WebSocket(#[from] Box<tokio_tungstenite::tungstenite::Error>),
    /// The server answered something unreadable.
    #[error("bad answer: {0}")]
    BadAnswer(String),
    /// Nothing came in time.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The socket closed.
    #[error("the socket closed")]
    Closed,
    /// The server answered an act with an error message (`busy`,
    /// `stale_ply`, …; docs/protocol.md).
    #[error("refused ({code}): {message}")]
    Refused {
        /// The error's code.
        code: String,
        /// What the server said.
        message: String,
    },
}

/// `POST {path}` with a JSON `body` to `host` (`127.0.0.1:8080`); returns
/// the status and the JSON answer.
///
/// # Errors
///
/// [`ClientError`] when the connection fails or the answer is not HTTP + JSON.
pub async fn post_json(host: &str, path: &str, body: &Value) -> Result<(u16, Value), ClientError> {
    let body = body.to_string();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    exchange(host, &head, &body).await
}

/// An HTTP answer: its status, the session secret of its `Set-Cookie`
/// (`rochade_session`), and its JSON body (`null` when there is none).
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The session secret the server set, if it set one.
    pub session: Option<String>,
    /// The body as JSON.
    pub json: Value,
}

/// `method path` at `host` with a JSON `body` (none when empty) and the
/// page's session cookie `session`, as a browser on the page sends it.
///
/// # Errors
///
/// [`ClientError`] when the connection fails or the answer is not HTTP.
pub async fn request(
    host: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    session: Option<&str>,
) -> Result<Answer, ClientError> {
    let body = body.map(Value::to_string).unwrap_or_default();
    // The page's own origin, as the browser sends it.
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n");
    if !body.is_empty() {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    } else if method == "POST" {
        head.push_str("Content-Length: 0\r\n");
    }
    if let Some(secret) = session {
        head.push_str(&format!("Cookie: rochade_session={secret}\r\n"));
    }
    let (status, head, body) = send_raw(host, &head, &body).await?;
    let session = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        if !name.eq_ignore_ascii_case("set-cookie") {
            return None;
        }
        let pair = value.trim().split(';').next()?;
        let (cookie, secret) = pair.split_once('=')?;
        (cookie == "rochade_session" && !secret.is_empty()).then(|| secret.to_owned())
    });
    let json = serde_json::from_str(&body).unwrap_or(Value::Null);
    Ok(Answer {
        status,
        session,
        json,
    })
}

/// `GET {path}` at `host`; returns the status and the JSON answer.
///
/// # Errors
///
/// [`ClientError`] when the connection fails or the answer is not HTTP + JSON.
pub async fn get_json(host: &str, path: &str) -> Result<(u16, Value), ClientError> {
    exchange(
        host,
        &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n"),
        "",
    )
    .await
}

/// Sends one request (`head`: request line and headers, each ending in
/// CRLF) with `body` over a new connection; reads the status and JSON.
/// `GET {path}` at `host`; returns the status and the body as text
/// (`/metrics`, say).
///
/// # Errors
///
/// [`ClientError`] when the connection fails or the answer is not HTTP.
pub async fn get_text(host: &str, path: &str) -> Result<(u16, String), ClientError> {
    let (status, _, body) = send_raw(
        host,
        &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n"),
        "",
    )
    .await?;
    Ok((status, body))
}

async fn exchange(host: &str, head: &str, body: &str) -> Result<(u16, Value), ClientError> {
    let (status, _, body) = send_raw(host, head, body).await?;
    let json =
        serde_json::from_str(&body).map_err(|e| ClientError::BadAnswer(format!("{e}: {body}")))?;
    Ok((status, json))
}

/// Sends one request over a new connection; the status, the head and the
/// body of the answer.
async fn send_raw(
    host: &str,
    head: &str,
    body: &str,
) -> Result<(u16, String, String), ClientError> {
    let request = format!("{head}Connection: close\r\n\r\n{body}");
    let mut stream = TcpStream::connect(host).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| ClientError::BadAnswer(text.to_string()))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::BadAnswer(head.to_owned()))?;
    Ok((status, head.to_owned(), body.to_owned()))
}

/// A player's or spectator's socket to one game. One that asked for move
/// messages (as the page does) turns each into the state it makes of the
/// state before (docs/protocol.md), so that its reader sees states only.
#[derive(Debug)]
pub struct GameSocket {
    /// The connection.
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last state read, which the next move message builds on.
    last: Option<Value>,
}

/// A message's text read as `T` (a JSON value, or a type of the tool's
/// own); what does not read is a [`ClientError::BadAnswer`] with the text.
pub(crate) fn read_message<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Result<T, ClientError> {
    serde_json::from_str(text).map_err(|e| ClientError::BadAnswer(format!("{e}: {text}")))
}

impl GameSocket {
    /// Opens `/ws/{game}` at `host` and says hello with `token` (empty
    /// for a spectator), as the page does.
    ///
    /// # Errors
    ///
    /// When the connection or the upgrade fails.
    pub async fn connect(host: &str, game: &str, token: &str) -> Result<GameSocket, ClientError> {
        GameSocket::connect_with(host, game, token, false).await
    }

    /// As [`GameSocket::connect`], asking for move messages after moves
    /// when `move_messages`.
    ///
    /// # Errors
    ///
    /// When the connection or the upgrade fails.
    pub async fn connect_with(
        host: &str,
        game: &str,
        token: &str,
        move_messages: bool,
    ) -> Result<GameSocket, ClientError> {
        let mut socket = GameSocket::open(host, game).await?;
        let token = (!token.is_empty()).then_some(token);
        socket
            .send(
                &serde_json::json!({"t": "hello", "token": token, "move_messages": move_messages}),
            )
            .await?;
        Ok(socket)
    }

    /// Opens `/ws/{game}` at `host` without saying anything yet.
    ///
    /// # Errors
    ///
    /// When the connection or the upgrade fails.
    pub async fn open(host: &str, game: &str) -> Result<GameSocket, ClientError> {
        GameSocket::open_path(host, &format!("/ws/{game}"), None).await
    }

    /// Opens the socket at `path` (`/ws/lobby`) with the page's session
    /// cookie `session`, if any.
    ///
    /// # Errors
    ///
    /// When the connection or the upgrade fails.
    pub async fn open_path(
        host: &str,
        path: &str,
        session: Option<&str>,
    ) -> Result<GameSocket, ClientError> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{host}{path}")
            .into_client_request()
            .map_err(|e| ClientError::WebSocket(Box::new(e)))?;
        if let Some(secret) = session {
            let cookie = format!("rochade_session={secret}")
                .parse()
                .map_err(|_| ClientError::BadAnswer("a session secret that is no header".into()))?;
            request.headers_mut().insert("cookie", cookie);
        }
        let config = WebSocketConfig::default()
            .read_buffer_size(BUFFER)
            .write_buffer_size(0);
        let (stream, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
            .await
            .map_err(Box::new)?;
        Ok(GameSocket { stream, last: None })
    }

    /// Sends one message.
    ///
    /// # Errors
    ///
    /// When the socket fails.
    pub async fn send(&mut self, message: &Value) -> Result<(), ClientError> {
        self.send_text(message.to_string()).await
    }

    /// Sends one text frame as it is.
    ///
    /// # Errors
    ///
    /// When the socket fails.
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.stream
            .send(Message::text(text))
            .await
            .map_err(Box::new)?;
        Ok(())
    }

    /// The next JSON message, waiting at most `wait`; a move message comes
    /// as the state it makes. One that does not follow the last state (a
    /// move missed) is dropped and the whole state asked for.
    ///
    /// # Errors
    ///
    /// [`ClientError::Timeout`], [`ClientError::Closed`], or an unreadable message.
    pub async fn recv(&mut self, wait: Duration) -> Result<Value, ClientError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let mut message = self.recv_raw(left).await?;
            match message["t"].as_str() {
                Some("state") => self.last = Some(message["state"].clone()),
                Some("move") => {
                    let before = self.last.take();
                    match before.and_then(|b| crate::state::apply_move(b, &message)) {
                        Some(state) => {
                            self.last = Some(state.clone());
                            message = serde_json::json!({"v": message["v"], "t": "state", "state": state});
                        }
                        None => {
                            self.send(&serde_json::json!({"t": "state"})).await?;
                            continue;
                        }
                    }
                }
                _ => {}
            }
            return Ok(message);
        }
    }

    /// The next JSON message as it came (a move message as such), waiting
    /// at most `wait`.
    ///
    /// # Errors
    ///
    /// As [`GameSocket::recv`].
    pub async fn recv_raw(&mut self, wait: Duration) -> Result<Value, ClientError> {
        let text = self.recv_text(wait).await?;
        read_message(text.as_str())
    }

    /// The next text frame as it came, unread, waiting at most `wait`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Timeout`], [`ClientError::Closed`], or a broken socket.
    pub async fn recv_text(
        &mut self,
        wait: Duration,
    ) -> Result<tokio_tungstenite::tungstenite::Utf8Bytes, ClientError> {
        loop {
            let frame = tokio::time::timeout(wait, self.stream.next())
                .await
                .map_err(|_| ClientError::Timeout(wait))?;
            match frame {
                None => return Err(ClientError::Closed),
                Some(Err(e)) => return Err(Box::new(e).into()),
                Some(Ok(Message::Text(text))) => return Ok(text),
                Some(Ok(Message::Close(_))) => return Err(ClientError::Closed),
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads messages until one of type `t` satisfies `wanted`; returns it.
    ///
    /// # Errors
    ///
    /// As [`GameSocket::recv`], with `wait` for the whole search.
    pub async fn until(
        &mut self,
        t: &str,
        wait: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let message = self.recv(left).await?;
            if message["t"] == t && wanted(&message) {
                return Ok(message);
            }
        }
    }

    /// The next state satisfying `wanted` (its `state` object).
    ///
    /// # Errors
    ///
    /// As [`GameSocket::until`].
    pub async fn state(
        &mut self,
        wait: Duration,
        wanted: impl Fn(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        let m = self.until("state", wait, |m| wanted(&m["state"])).await?;
        Ok(m["state"].clone())
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}
