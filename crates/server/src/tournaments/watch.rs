//! `GET /ws/tournaments/{id}`: a tournament's page, live. The server
//! sends `{"t":"changed"}` whenever the tournament changes (a player
//! joins, a round is paired, a game ends, the arbiter acts); the page
//! then reads `GET /api/tournaments/{id}` again. Changes that come close
//! together are told once; the page's `{"t":"ping"}` is answered
//! `{"t":"pong"}`, anything else is ignored.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::broadcast;

use crate::error::ActionError;
use crate::rooms::Shared;

/// Changes a channel holds for a slow page (one is enough: the page
/// reads the whole tournament).
const BACKLOG: usize = 4;

/// Changes closer together than this are told once.
const COALESCE: Duration = Duration::from_millis(200);

/// The pages watching each tournament.
#[derive(Debug, Default)]
pub struct Watchers {
    /// A channel per watched tournament.
    channels: Mutex<HashMap<String, broadcast::Sender<()>>>,
}

impl Watchers {
    /// Listens for changes to tournament `id`.
    pub fn listen(&self, id: &str) -> broadcast::Receiver<()> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(id.to_owned())
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// Tells the pages watching tournament `id` that it changed; forgets
    /// channels nobody listens to any more.
    ///
    /// ```
    /// use rochade_server::tournaments::watch::Watchers;
    /// let watchers = Watchers::default();
    /// let mut page = watchers.listen("t1");
    /// watchers.changed("t1");
    /// watchers.changed("t2"); // nobody watches: nothing kept
    /// assert!(page.try_recv().is_ok());
    /// ```
    pub fn changed(&self, id: &str) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(channel) = channels.get(id) {
            if channel.receiver_count() == 0 {
                channels.remove(id);
            } else {
                let _ = channel.send(());
            }
        }
    }

    /// Forgets tournament `id`'s channel once no page listens.
    fn forget(&self, id: &str) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if channels.get(id).is_some_and(|c| c.receiver_count() == 0) {
            channels.remove(id);
        }
    }
}

/// `GET /ws/tournaments/{id}`.
///
/// # Errors
///
/// `not_found` for no such tournament (no channel is kept for it).
pub async fn upgrade(
    upgrade: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ActionError> {
    super::http::load(&shared, &id).await?;
    let frame = shared.limits.frame;
    let changes = shared.tournaments.watchers.listen(&id);
    Ok(upgrade
        .read_buffer_size(crate::ws::BUFFER)
        .write_buffer_size(0)
        .max_message_size(frame)
        .max_frame_size(frame)
        .on_upgrade(move |socket| async move {
            serve(socket, &shared, changes).await;
            shared.tournaments.watchers.forget(&id);
        }))
}

/// Tells the page each change until it goes or the server stops.
async fn serve(socket: WebSocket, shared: &Shared, mut changes: broadcast::Receiver<()>) {
    let _open = crate::metrics::SocketOpen::count();
    let (mut tx, mut rx) = socket.split();
    let mut shutdown = shared.shutdown.clone();
    let changed = Message::Text(Utf8Bytes::from_static(r#"{"t":"changed"}"#));
    let pong = Message::Text(Utf8Bytes::from_static(r#"{"t":"pong"}"#));
    loop {
        tokio::select! {
            change = changes.recv() => {
                if matches!(change, Err(broadcast::error::RecvError::Closed)) {
                    return;
                }
                tokio::time::sleep(COALESCE).await;
                while changes.try_recv().is_ok() {}
                if tx.send(changed.clone()).await.is_err() {
                    return;
                }
            }
            message = rx.next() => match message {
                Some(Ok(Message::Text(text))) if text.contains(r#""ping""#) => {
                    if tx.send(pong.clone()).await.is_err() {
                        return;
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
            _ = shutdown.changed() => return,
        }
    }
}
