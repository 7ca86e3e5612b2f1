//! A small stand-in for `rochade serve` that misbehaves on purpose: just
//! enough of the protocol (docs/protocol.md) for the load tool's friend
//! games (`POST /api/games`, `GET /api/games/{id}`, `/ws/{id}` with
//! `hello`, `move` and `resign`), and faults on chosen moves, counted over
//! the whole server: the game's sockets closed before a move is stored or
//! after (a node killed before or after its commit), `busy` with nothing
//! stored, `busy` after storing and then the game's sockets closed (a
//! commit that landed late: the room closes, as `rochade serve`'s does),
//! and, to see that the tool notices, a move acknowledged and then
//! forgotten, or stored twice.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;

/// Which moves misbehave: a move whose number is a multiple of `every`
/// (when not zero), counting from 1 over the whole server the first try at
/// each ply of each game. A move sent again at the same ply never
/// misbehaves: a node fails once and the next try meets a live one, so a
/// move cannot draw fault after fault until the tool's window runs out.
#[derive(Debug, Clone, Copy, Default)]
pub struct Faults {
    /// Not stored, the game's sockets closed (a node killed before its
    /// commit).
    pub close_before_store: usize,
    /// Stored, then the game's sockets close without a word.
    pub close_after_store: usize,
    /// Answered `busy`, nothing stored.
    pub busy: usize,
    /// Stored, answered `busy` (the commit landed late), then the game's
    /// sockets close.
    pub late_busy: usize,
    /// Acknowledged, then forgotten: the next state lacks it.
    pub forget: usize,
    /// Stored twice.
    pub double: usize,
}

impl Faults {
    /// Whether move number `n` has the fault `every`.
    fn hits(every: usize, n: usize) -> bool {
        every != 0 && n.is_multiple_of(every)
    }
}

/// One game.
#[derive(Debug)]
struct Game {
    /// The stored moves (UCI).
    moves: Vec<String>,
    /// The result, once resigned.
    outcome: Option<&'static str>,
    /// States for every socket of the game; `null`: close.
    news: broadcast::Sender<Value>,
    /// Plies whose first try has come in.
    tried: usize,
}

/// What the connections share.
#[derive(Debug, Default)]
struct Shared {
    /// Games by id.
    games: Mutex<HashMap<String, Game>>,
    /// Moves received so far, every try.
    moves: AtomicUsize,
    /// First tries at a ply received so far: the count faults go by.
    first_tries: AtomicUsize,
    /// The faults.
    faults: Faults,
}

/// A running fake server.
#[derive(Debug)]
pub struct FakeServer {
    /// `127.0.0.1:PORT`.
    pub host: String,
    /// Its state, to look into after a run.
    shared: Arc<Shared>,
}

impl FakeServer {
    /// Starts a server with `faults` on a free port.
    pub async fn start(faults: Faults) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let host = listener.local_addr().expect("address").to_string();
        let shared = Arc::new(Shared {
            faults,
            ..Shared::default()
        });
        let for_task = shared.clone();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                tokio::spawn(connection(tcp, for_task.clone()));
            }
        });
        FakeServer { host, shared }
    }

    /// Moves received (every try counted).
    pub fn moves_received(&self) -> usize {
        self.shared.moves.load(Ordering::Relaxed)
    }
}

/// The state object of a game.
fn state_of(id: &str, game: &Game) -> Value {
    let mut pos = Chess::default();
    for m in &game.moves {
        if let Some(played) = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok()) {
            pos.play_unchecked(played);
        }
    }
    let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
    let over = game.outcome.is_some() || pos.is_game_over();
    let dests = if over { json!({}) } else { json!({"a1": []}) };
    json!({
        "id": id,
        "ply": game.moves.len(),
        "fen": fen.to_string(),
        "moves": game.moves.iter().map(|m| json!({"uci": m})).collect::<Vec<_>>(),
        "dests": dests,
        "outcome": game.outcome.map(|r| json!({"result": r})),
        "aborted": false,
        "closed": null,
    })
}

/// Serves one connection: a WebSocket or one HTTP request.
async fn connection(tcp: TcpStream, shared: Arc<Shared>) {
    let mut head = [0u8; 1024];
    let head = loop {
        let Ok(n) = tcp.peek(&mut head).await else {
            return;
        };
        if n == 0 {
            return;
        }
        if head[..n].windows(4).any(|w| w == b"\r\n\r\n") || n == head.len() {
            break String::from_utf8_lossy(&head[..n]).into_owned();
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    };
    let line = head.lines().next().unwrap_or_default().to_owned();
    match line.split_whitespace().collect::<Vec<_>>()[..] {
        ["GET", path, _] if path.starts_with("/ws/") => {
            let id = path.trim_start_matches("/ws/").to_owned();
            socket(tcp, &id, shared).await;
        }
        [method, path, _] => http(tcp, method, path, shared).await,
        _ => {}
    }
}

/// Answers one HTTP request and closes.
async fn http(mut tcp: TcpStream, method: &str, path: &str, shared: Arc<Shared>) {
    // Read the request through (its small body included) before answering.
    let mut request = Vec::new();
    let mut buf = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match tcp.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let (status, body) = match (method, path) {
        ("POST", "/api/games") => {
            let mut games = shared.games.lock().expect("lock");
            let id = format!("g{}", games.len());
            let (news, _) = broadcast::channel(64);
            games.insert(
                id.clone(),
                Game {
                    moves: Vec::new(),
                    outcome: None,
                    news,
                    tried: 0,
                },
            );
            let black = format!("/g/{id}#b-{id}");
            (
                "201 Created",
                json!({"game": id, "token": format!("w-{id}"), "links": {"black": black}}),
            )
        }
        ("GET", path) if path.starts_with("/api/games/") => {
            let id = path.trim_start_matches("/api/games/");
            match shared.games.lock().expect("lock").get(id) {
                Some(game) => ("200 OK", state_of(id, game)),
                None => ("404 Not Found", json!({"error": {"code": "not_found"}})),
            }
        }
        _ => ("404 Not Found", json!({"error": {"code": "not_found"}})),
    };
    let body = body.to_string();
    let answer = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.write_all(answer.as_bytes()).await;
    let _ = tcp.shutdown().await;
}

/// What a message from a socket leads to.
enum Reply {
    /// Send this to the socket.
    Answer(Value),
    /// Nothing.
    Nothing,
}

/// Serves one game socket.
async fn socket(tcp: TcpStream, id: &str, shared: Arc<Shared>) {
    let Ok(mut ws) = tokio_tungstenite::accept_async(tcp).await else {
        return;
    };
    let Some(mut news) = shared
        .games
        .lock()
        .expect("lock")
        .get(id)
        .map(|g| g.news.subscribe())
    else {
        return;
    };
    loop {
        tokio::select! {
            state = news.recv() => {
                let Ok(state) = state else { return };
                if state.is_null() {
                    return;
                }
                let text = json!({"t": "state", "state": state}).to_string();
                if ws.send(Message::text(text)).await.is_err() {
                    return;
                }
            }
            message = ws.next() => {
                let Some(Ok(Message::Text(text))) = message else { return };
                let message: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
                match act(id, &message, &shared) {
                    Reply::Answer(answer) => {
                        if ws.send(Message::text(answer.to_string())).await.is_err() {
                            return;
                        }
                    }
                    Reply::Nothing => {}
                }
            }
        }
    }
}

/// An error message.
fn error(code: &str) -> Reply {
    Reply::Answer(json!({"t": "error", "code": code, "message": code}))
}

/// Applies one message to game `id`.
fn act(id: &str, message: &Value, shared: &Shared) -> Reply {
    let mut games = shared.games.lock().expect("lock");
    let Some(game) = games.get_mut(id) else {
        return error("not_found");
    };
    let tell = |game: &Game| {
        let _ = game.news.send(state_of(id, game));
    };
    let close_all = |game: &Game| {
        let _ = game.news.send(Value::Null);
    };
    match message["t"].as_str() {
        Some("hello") => Reply::Answer(json!({"t": "state", "state": state_of(id, game)})),
        Some("resign") if game.outcome.is_some() => error("game_over"),
        Some("resign") => {
            game.outcome = Some("0-1");
            tell(game);
            Reply::Nothing
        }
        Some("move") => {
            shared.moves.fetch_add(1, Ordering::Relaxed);
            if message["ply"].as_u64() != Some(game.moves.len() as u64) {
                return error("stale_ply");
            }
            let first_try = game.moves.len() >= game.tried;
            game.tried = game.tried.max(game.moves.len() + 1);
            let (faults, n) = if first_try {
                let n = shared.first_tries.fetch_add(1, Ordering::Relaxed) + 1;
                (shared.faults, n)
            } else {
                (Faults::default(), 0)
            };
            if Faults::hits(faults.busy, n) {
                return error("busy");
            }
            if Faults::hits(faults.close_before_store, n) {
                close_all(game);
                return Reply::Nothing;
            }
            let uci = message["uci"].as_str().unwrap_or_default().to_owned();
            game.moves.push(uci.clone());
            if Faults::hits(faults.double, n) {
                game.moves.push(uci);
            }
            if Faults::hits(faults.close_after_store, n) {
                close_all(game);
                return Reply::Nothing;
            }
            if Faults::hits(faults.late_busy, n) {
                close_all(game);
                return error("busy");
            }
            tell(game);
            if Faults::hits(faults.forget, n) {
                game.moves.pop();
            }
            Reply::Nothing
        }
        _ => error("bad_json"),
    }
}
