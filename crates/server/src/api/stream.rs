//! NDJSON streams: one JSON object a line, an empty line every 6 s to keep
//! the connection alive. `GET /api/stream/event` (an account's news: its
//! games and challenges at once, then what happens) and the game streams
//! of the Board and Bot APIs (`gameFull`, then `gameState` on each change,
//! ending with the game). A stream costs one small task and a channel,
//! like a page's socket.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio::sync::mpsc;

/// How often an idle stream sends an empty line.
pub const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// Lines a stream holds for a slow reader.
const BUFFERED: usize = 16;

/// Where a stream's task writes its lines; sending fails once the reader
/// has gone.
#[derive(Debug, Clone)]
pub struct Lines(mpsc::Sender<Bytes>);

impl Lines {
    /// Sends one object as a line; `false` once the reader has gone.
    pub async fn send(&self, value: &Value) -> bool {
        let mut line = value.to_string();
        line.push('\n');
        self.0.send(Bytes::from(line)).await.is_ok()
    }

    /// Resolves once the reader has gone.
    pub async fn closed(&self) {
        self.0.closed().await;
    }

    /// Sends the keep-alive empty line; `false` once the reader has gone.
    pub async fn keep_alive(&self) -> bool {
        self.0.send(Bytes::from_static(b"\n")).await.is_ok()
    }
}

/// An NDJSON response whose lines `task` writes; the task ends when it
/// returns or when the reader goes away (its next send fails).
pub fn ndjson<F>(task: impl FnOnce(Lines) -> F) -> Response
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Bytes>(BUFFERED);
    tokio::spawn(task(Lines(tx)));
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| (Ok::<_, Infallible>(line), rx))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response()
}

/// The `gameState` without the clocks, as text, to tell a change from a
/// repeat (a game stream keeps this, not the parsed state).
pub fn changes(game_state: &Value) -> String {
    let mut key = game_state.clone();
    if let Some(object) = key.as_object_mut() {
        object.remove("wtime");
        object.remove("btime");
    }
    key.to_string()
}
