//! `GET /ws/lobby`: the page's account socket. Anyone may watch the
//! lobby's seeks; a signed-in player (the session cookie of the upgrade
//! request, same-origin only) also hears their challenges, games and news
//! live, and may open, cancel and accept seeks. The seeks a socket opens
//! close with it.
//!
//! Client to server (JSON text frames, at most the protocol's frame
//! size): `{"t":"seek","time_control":"5+3","rated":true,"color":"random",
//! "chess960":false,"rating_range":[1400,1800]}`, `{"t":"cancel","id":…}`,
//! `{"t":"accept","id":…}`, `{"t":"ping"}`. Server to client: `hello`
//! (who is signed in), `seeks` (the whole list, on every change),
//! `challenges` (`in` and `out`), `games` (open games, your move first),
//! `news` (a lichess event), `game` (a new game: the link to one's seat),
//! `seek_ok`, `pong` and `error` (`code`, `message`).

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use super::http::{
    GameTerms, Opened, cancel_seek, challenges_json, games_json, seat_link, seek, take_seek,
};
use crate::accounts::http::session_account;
use crate::error::{ActionError, ErrorCode};
use crate::flood::Flood;
use crate::limits::ClientAddr;
use crate::rooms::Shared;
use crate::storage::User;

/// Messages the writer holds for a slow reader.
const SEND_QUEUE: usize = 64;

/// A message from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
enum LobbyMessage {
    /// Opens a seek.
    Seek {
        /// The game asked for.
        #[serde(flatten)]
        terms: GameTerms,
        /// The opponents' ratings allowed, both ends included.
        #[serde(default)]
        rating_range: Option<[i64; 2]>,
    },
    /// Withdraws one's seek.
    Cancel {
        /// The seek.
        id: String,
    },
    /// Accepts another player's seek.
    Accept {
        /// The seek.
        id: String,
    },
    /// Keeps the connection alive.
    Ping,
}

/// `GET /ws/lobby`.
pub async fn upgrade(
    upgrade: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
) -> Response {
    let user = session_account(&shared, &headers).await.ok().flatten();
    let frame = shared.limits.frame;
    upgrade
        .read_buffer_size(crate::ws::BUFFER)
        .write_buffer_size(0)
        .max_message_size(frame)
        .max_frame_size(frame)
        .on_upgrade(move |socket| serve(socket, shared, user, addr))
}

/// An error as the socket says it.
fn error_json(e: &ActionError) -> String {
    json!({"t": "error", "code": e.code, "message": e.message}).to_string()
}

/// The account's open games as the socket last sent them, so that a move
/// in one of them changes one entry instead of asking every game's room.
#[derive(Debug, Default)]
struct Games(Vec<Value>);

impl Games {
    /// The `games` message.
    fn message(&self) -> String {
        json!({"t": "games", "games": self.0}).to_string()
    }

    /// Reads the list afresh; its message, unless storage failed.
    async fn reload(&mut self, shared: &Arc<Shared>, user: &User) -> Option<String> {
        self.0 = games_json(shared, user).await.ok()?;
        Some(self.message())
    }

    /// A move was made in game `id`: whose turn it is now, "your move"
    /// first again; `false` when the game is not in the list, or has a
    /// deadline the move moved (a correspondence game: read afresh, one
    /// query).
    fn turn(&mut self, id: &str, my_turn: bool) -> bool {
        let Some(game) = self.0.iter_mut().find(|g| g["gameId"] == id) else {
            return false;
        };
        if !game["deadline"].is_null() {
            return false;
        }
        game["isMyTurn"] = json!(my_turn);
        self.0.sort_by_key(|g| g["isMyTurn"] != true);
        true
    }
}

/// The account's challenges and games, as two messages.
async fn account_messages(shared: &Arc<Shared>, user: &User, games: &mut Games) -> Vec<String> {
    let mut messages = Vec::new();
    if let Ok(mut challenges) = challenges_json(shared, user.id).await {
        challenges["t"] = json!("challenges");
        messages.push(challenges.to_string());
    }
    messages.extend(games.reload(shared, user).await);
    messages
}

/// What a piece of the account's news adds to the socket.
async fn on_news(
    shared: &Arc<Shared>,
    user: &User,
    news: &Value,
    games: &mut Games,
) -> Vec<String> {
    let kind = news["type"].as_str().unwrap_or("");
    let mut out = Vec::new();
    if kind != crate::hub::TURN {
        out.push(json!({"t": "news", "news": news}).to_string());
    }
    if kind == "gameStart"
        && let Some(id) = news["game"]["gameId"].as_str()
        && let Ok(mut link) = seat_link(shared, id, user.id).await
    {
        link["t"] = json!("game");
        out.push(link.to_string());
    }
    match kind {
        "challenge" | "challengeDeclined" | "challengeCanceled" | "gameStart" => {
            out.extend(account_messages(shared, user, games).await);
        }
        crate::hub::TURN => {
            let id = news["gameId"].as_str().unwrap_or("");
            if games.turn(id, news["isMyTurn"] == true) {
                out.push(games.message());
            } else {
                out.extend(games.reload(shared, user).await);
            }
        }
        _ => out.extend(games.reload(shared, user).await),
    }
    out
}

/// Serves one lobby socket.
async fn serve(socket: WebSocket, shared: Arc<Shared>, user: Option<User>, addr: IpAddr) {
    let _open = crate::metrics::SocketOpen::count();
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<String>(SEND_QUEUE);
    let holder = shared.seeks.holder();
    let me = user.as_ref().map(|u| json!({"name": u.name, "bot": u.bot}));
    let _ = tx.try_send(json!({"t": "hello", "me": me}).to_string());
    let mut news = user.as_ref().map(|u| shared.hub.listen(u.id));
    let mut games = Games::default();
    if let Some(user) = &user {
        for message in account_messages(&shared, user, &mut games).await {
            let _ = tx.try_send(message);
        }
    }
    let mut seeks = shared.seeks.watch();
    seeks.mark_changed();
    let mut shutdown = shared.shutdown.clone();
    let ping_every = shared.limits.socket_idle / 3;
    let (writer_shared, writer_user) = (shared.clone(), user.clone());
    let writer = tokio::spawn(async move {
        let mut pings = tokio::time::interval(ping_every);
        pings.tick().await;
        loop {
            let messages: Vec<String> = tokio::select! {
                text = rx.recv() => match text {
                    Some(text) => vec![text],
                    None => break,
                },
                changed = seeks.changed() => {
                    if changed.is_err() {
                        break;
                    }
                    vec![writer_shared.seeks.message().to_string()]
                }
                item = async {
                    match news.as_mut() {
                        Some(news) => news.recv().await,
                        None => std::future::pending().await,
                    }
                } => match (item, &writer_user) {
                    (Ok(item), Some(user)) => on_news(&writer_shared, user, &item, &mut games).await,
                    (Err(broadcast::error::RecvError::Lagged(_)), Some(user)) => {
                        account_messages(&writer_shared, user, &mut games).await
                    }
                    _ => break,
                },
                _ = pings.tick() => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                    continue;
                }
                _ = shutdown.changed() => break,
            };
            for text in messages {
                if sink
                    .send(Message::Text(Utf8Bytes::from(text)))
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
        let _ = sink.close().await;
    });
    let idle = shared.limits.socket_idle;
    let mut flood = Flood::default();
    let mut cut_off = false;
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(idle, stream.next()).await {
        let text = match frame {
            Message::Text(text) => text,
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Binary(_) => {
                let e = ActionError::new(ErrorCode::BadJson, "messages are JSON text frames");
                let _ = tx.try_send(error_json(&e));
                continue;
            }
        };
        if !shared.address_messages.allow(&addr) {
            let per_second = shared.limits.address_messages_per_second;
            if flood.dropped(tokio::time::Instant::now(), per_second) {
                let why = error_json(&Flood::cut_off(per_second));
                let _ = tokio::time::timeout(crate::flood::LINGER, tx.send(why)).await;
                tracing::info!(%addr, "a lobby socket that flooded is cut off");
                cut_off = true;
                break;
            }
            let e = ActionError::new(ErrorCode::RateLimited, "too many messages a second");
            let _ = tx.try_send(error_json(&e));
            continue;
        }
        let reply = match handle(&shared, user.as_ref(), holder, addr, text.as_str()).await {
            Ok(Some(reply)) => reply,
            Ok(None) => continue,
            Err(e) => error_json(&e),
        };
        if tx.send(reply).await.is_err() {
            break;
        }
    }
    // The owner leaves: their seeks go with them.
    shared.seeks.release(holder);
    drop(tx);
    if cut_off {
        crate::flood::linger(&mut stream).await;
    }
    let _ = writer.await;
}

/// Handles one message; the direct answer, if any.
async fn handle(
    shared: &Arc<Shared>,
    user: Option<&User>,
    holder: u64,
    addr: IpAddr,
    text: &str,
) -> Result<Option<String>, ActionError> {
    let bad = |m: String| ActionError::new(ErrorCode::BadJson, m);
    let value = crate::json::strict_slice(text.as_bytes()).map_err(bad)?;
    let message: LobbyMessage = crate::json::typed(value).map_err(bad)?;
    if let LobbyMessage::Ping = message {
        return Ok(Some(json!({"t": "pong"}).to_string()));
    }
    let user =
        user.ok_or_else(|| ActionError::new(ErrorCode::Unauthorized, "sign in to play people"))?;
    match message {
        LobbyMessage::Seek {
            terms,
            rating_range,
        } => {
            let terms = terms.checked(shared)?;
            if let Some([low, high]) = rating_range
                && low > high
            {
                return Err(ActionError::new(
                    ErrorCode::BadRequest,
                    format!("rating_range: {low} is above {high}"),
                ));
            }
            let range = rating_range.map(|[low, high]| (low, high));
            match seek(shared, user, terms, range, holder, addr).await? {
                Opened::Open(id) => Ok(Some(json!({"t": "seek_ok", "id": id}).to_string())),
                // The `game` message with the link comes with the news.
                Opened::Paired(game) => {
                    Ok(Some(json!({"t": "seek_ok", "paired": game}).to_string()))
                }
            }
        }
        LobbyMessage::Cancel { id } => {
            cancel_seek(shared, user.id, &id).await?;
            Ok(None)
        }
        LobbyMessage::Accept { id } => {
            // The `game` message with the link comes with the gameStart news.
            take_seek(shared, user, &id, addr).await?;
            Ok(None)
        }
        LobbyMessage::Ping => Ok(None),
    }
}
