//! A server on a free port with its own database, for the tests.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rochade_loadtest::client::{GameSocket, post_json};
use rochade_server::{ServeConfig, Server, Shared};
use serde_json::{Value, json};
use tokio::sync::oneshot;

/// How long a test waits for one answer.
pub const WAIT: Duration = Duration::from_secs(10);

/// A fresh database: a SQLite file's path, or, when
/// `ROCHADE_TEST_POSTGRES` names a PostgreSQL server
/// (`scripts/with-postgres` starts one), the URL of a new database on it,
/// so that the same tests run on both backends.
pub fn temp_db() -> PathBuf {
    if let Ok(server) = std::env::var("ROCHADE_TEST_POSTGRES") {
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "t{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        return PathBuf::from(
            rochade_server::storage::postgres_database(&server, &name)
                .expect("a database on the test server"),
        );
    }
    temp_dir("db").join("games.sqlite")
}

/// A fresh empty directory for files a test keeps beside its server (a
/// Maildir, say), whichever database [`temp_db`] gives.
pub fn temp_dir(what: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "rochade-server-test-{what}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Opens the database `db` from [`temp_db`] (again, beside a server).
pub fn open(db: &std::path::Path) -> rochade_server::SqlStorage {
    rochade_server::SqlStorage::connect(&db.to_string_lossy()).expect("opens")
}

/// The moves stored for `game` in the database `db`, in order (UCI).
pub fn stored_moves(db: &std::path::Path, game: &str) -> Vec<String> {
    use rochade_server::storage::Storage;
    open(db)
        .load(game)
        .expect("reads")
        .expect("stored")
        .events
        .iter()
        .filter_map(|e| match &e.event {
            rochade_server::event::Event::Move { uci, .. } => Some(uci.clone()),
            _ => None,
        })
        .collect()
}

/// The whole app over a fresh database, without sockets (for
/// `app.oneshot(request)`); keep the sender: dropping it stops the rooms.
pub fn fresh_app() -> (axum::Router, tokio::sync::watch::Sender<bool>) {
    app_over(open(&temp_db()))
}

/// The whole app over `storage` (prepared by the test), without sockets;
/// keep the sender: dropping it stops the rooms.
pub fn app_over(
    storage: rochade_server::SqlStorage,
) -> (axum::Router, tokio::sync::watch::Sender<bool>) {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let shared = Shared::new(
        Arc::new(storage),
        rochade_server::EngineChoice::Builtin,
        rochade_server::limits::Limits::default(),
        stopped,
    );
    (rochade_server::app(shared), stop)
}

/// Sends `request` to `app` without a socket; returns the status and the
/// JSON body (`null` when the body is not JSON).
pub async fn send_json(
    app: &axum::Router,
    request: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, Value) {
    let (status, bytes) = send_bytes(app, request).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Sends `request` to `app` without a socket; returns the status and the
/// whole body (a stream is read to its end).
pub async fn send_bytes(
    app: &axum::Router,
    request: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, Vec<u8>) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = app.clone().oneshot(request).await.expect("answers");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, bytes.to_vec())
}

/// The `Content-Type` of `response` (empty when it has none).
pub fn content_type(response: &axum::response::Response) -> String {
    response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// `method path` as the holder of `token` (none: anonymous) with a form
/// `body`, as lichess's clients send it; returns the status and the JSON.
pub async fn ask(
    app: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (axum::http::StatusCode, Value) {
    use axum::http::header;
    let mut request = axum::http::Request::builder().method(method).uri(path);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    if !body.is_empty() {
        request = request.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
    }
    let request = request
        .body(axum::body::Body::from(body.to_owned()))
        .expect("request");
    send_json(app, request).await
}

/// The holder of `token` challenges `dest` with the form `form`, playing
/// White; the challenge's id.
pub async fn challenge(app: &axum::Router, token: &str, dest: &str, form: &str) -> String {
    let path = format!("/api/challenge/{dest}");
    let form = format!("{form}&color=white");
    let (status, body) = ask(app, "POST", &path, Some(token), &form).await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    body["id"].as_str().expect("id").to_owned()
}

/// The holder of `dest_token` accepts the challenge `id` of the holder of
/// `token`; the game's id (the challenger's first game now playing).
pub async fn accepted(app: &axum::Router, token: &str, id: &str, dest_token: &str) -> String {
    let path = format!("/api/challenge/{id}/accept");
    let (status, body) = ask(app, "POST", &path, Some(dest_token), "").await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    let (_, playing) = ask(app, "GET", "/api/account/playing", Some(token), "").await;
    playing["nowPlaying"][0]["gameId"]
        .as_str()
        .expect("a game")
        .to_owned()
}

/// `method path` at `host` with the bearer `token` (no cookie) and a
/// JSON `body`; the status and JSON answer.
pub async fn bearer(
    host: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: &str,
) -> (u16, Value) {
    bearer_raw(
        host,
        method,
        path,
        "application/json",
        &body.map(Value::to_string).unwrap_or_default(),
        token,
    )
    .await
}

/// `method path` at `host` with the bearer `token` and a `body` of type
/// `kind`; the status and JSON answer.
pub async fn bearer_raw(
    host: &str,
    method: &str,
    path: &str,
    kind: &str,
    body: &str,
    token: &str,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\
         Authorization: Bearer {token}\r\nContent-Type: {kind}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(host)
        .await
        .expect("connects");
    stream.write_all(text.as_bytes()).await.expect("sends");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("reads");
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").expect("an answer");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Fischer (White) and Spassky (Black) in a game between their accounts:
/// the game, White's and Black's seat tokens, and a Board API token of
/// Fischer's.
pub async fn account_game(server: &TestServer) -> (String, String, String, String) {
    account_game_of(server, "10+0").await
}

/// [`account_game`] with the time control `control`.
pub async fn account_game_of(
    server: &TestServer,
    control: &str,
) -> (String, String, String, String) {
    let sessions = [
        sign_up(server, "Fischer").await,
        sign_up(server, "Spassky").await,
    ];
    let terms = json!({"time_control": control, "color": "white"});
    let made = rochade_loadtest::client::request(
        &server.host,
        "POST",
        "/api/account/challenge/spassky",
        Some(&terms),
        Some(&sessions[0]),
    )
    .await
    .expect("answers");
    let id = made.json["id"].as_str().expect("id");
    let path = format!("/api/account/challenge/{id}/accept");
    let accepted =
        rochade_loadtest::client::request(&server.host, "POST", &path, None, Some(&sessions[1]))
            .await
            .expect("answers");
    let game = accepted.json["game"].as_str().expect("game").to_owned();
    let black = token_of(&accepted.json);
    let games = rochade_loadtest::client::request(
        &server.host,
        "GET",
        "/api/account/games",
        None,
        Some(&sessions[0]),
    )
    .await
    .expect("answers");
    let white = token_of(&games.json["games"][0]);
    let storage = open(&server.db);
    let api = rochade_server::accounts::admin::create_token(&storage, "fischer", "board:play", "")
        .expect("token");
    (game, white, black, api)
}

/// The seat token in a link's `url`.
pub fn token_of(link: &Value) -> String {
    link["url"]
        .as_str()
        .expect("url")
        .split_once('#')
        .expect("#")
        .1
        .to_owned()
}

/// A running server.
pub struct TestServer {
    /// `127.0.0.1:port`.
    pub host: String,
    /// Its shared handles.
    pub shared: Arc<Shared>,
    /// The database.
    pub db: PathBuf,
    /// Stops it.
    stop: Option<oneshot::Sender<()>>,
    /// Its task.
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server over `db`.
    pub async fn start_with(db: PathBuf) -> TestServer {
        let config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), db.clone());
        TestServer::start_config(config).await
    }

    /// Starts a server as `config` says.
    pub async fn start_config(config: ServeConfig) -> TestServer {
        let db = config.db.clone();
        let server = Server::bind(config).await.expect("server starts");
        let host = server.local_addr().expect("bound").to_string();
        let shared = server.shared();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(async move {
                    let _ = stopped.await;
                })
                .await
                .expect("serves");
        });
        TestServer {
            host,
            shared,
            db,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Starts a server with a fresh database.
    pub async fn start() -> TestServer {
        TestServer::start_with(temp_db()).await
    }

    /// Stops it cleanly.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// Creates a game; returns the answer.
    pub async fn create(&self, body: Value) -> Value {
        let (status, answer) = post_json(&self.host, "/api/games", &body)
            .await
            .expect("create");
        assert_eq!(status, 201, "{answer}");
        answer
    }

    /// Opens a socket and reads the first state.
    pub async fn connect(&self, game: &Value, token: &str) -> (GameSocket, Value) {
        let id = game["game"].as_str().expect("id");
        let mut socket = GameSocket::connect(&self.host, id, token)
            .await
            .expect("connects");
        let state = socket.state(WAIT, |_| true).await.expect("first state");
        (socket, state)
    }
}

/// Sends a move answering ply `ply`.
pub async fn play(socket: &mut GameSocket, ply: usize, uci: &str) {
    socket
        .send(&json!({"t": "move", "ply": ply, "uci": uci}))
        .await
        .expect("sends");
}

/// Plays `moves` from ply 0 on one socket holding both seats; returns the
/// last state.
pub async fn play_all(socket: &mut GameSocket, moves: &[&str]) -> Value {
    let mut state = Value::Null;
    for (ply, uci) in moves.iter().enumerate() {
        play(socket, ply, uci).await;
        state = socket
            .state(WAIT, |s| s["ply"] == ply + 1)
            .await
            .expect("the move is acknowledged");
    }
    state
}

/// Proves that `socket` still works: a ping is answered with a pong.
pub async fn still_answers(socket: &mut GameSocket) {
    socket
        .send(&json!({"t": "ping"}))
        .await
        .expect("still open");
    socket
        .until("pong", WAIT, |_| true)
        .await
        .expect("still answered");
}

/// Signs `name` up on the page (password "a long secret 1"); the session.
pub async fn sign_up(server: &TestServer, name: &str) -> String {
    let body = json!({"name": name, "password": "a long secret 1"});
    let answer = rochade_loadtest::client::request(
        &server.host,
        "POST",
        "/api/auth/signup",
        Some(&body),
        None,
    )
    .await
    .expect("answers");
    answer.session.expect("a session")
}

/// Sends `message` on `socket` and expects it refused with an error whose
/// message contains `says`; the error.
pub async fn refused_saying(socket: &mut GameSocket, message: &Value, says: &str) -> Value {
    socket.send(message).await.expect("sends");
    let e = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains(says)),
        "{message} should be refused saying {says:?}: {e}"
    );
    e
}

/// `method path` with a JSON `body` as the holder of the page session
/// `session`; the status and the JSON answer.
pub async fn ask_page(
    server: &TestServer,
    session: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let a =
        rochade_loadtest::client::request(&server.host, method, path, body.as_ref(), Some(session))
            .await
            .expect("answers");
    (a.status, a.json)
}

/// Makes `name` a site director.
pub fn appoint(server: &TestServer, name: &str) {
    let user = server
        .shared
        .storage
        .user(name)
        .expect("reads")
        .expect("signed up");
    server
        .shared
        .storage
        .set_site_director(user.id, true)
        .expect("appointed");
}

/// A site director "Arbiter" and the players `names`, signed up; the
/// director's session and each player's by name.
pub async fn arbiter_and(server: &TestServer, names: &[&str]) -> (String, HashMap<String, String>) {
    let td = sign_up(server, "Arbiter").await;
    appoint(server, "arbiter");
    let mut sessions = HashMap::new();
    for name in names {
        sessions.insert((*name).to_owned(), sign_up(server, name).await);
    }
    (td, sessions)
}

/// The seat token of the holder of `session` in game `id`.
pub async fn seat(server: &TestServer, session: &str, id: &str) -> String {
    let (status, games) = ask_page(server, session, "GET", "/api/account/games", None).await;
    assert_eq!(status, 200, "{games}");
    let entry = games["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("{id} is not in {games}"));
    token_of(entry)
}

/// The tournament's page as `session` sees it.
pub async fn page(server: &TestServer, session: &str, id: &str) -> Value {
    let (status, page) = ask_page(
        server,
        session,
        "GET",
        &format!("/api/tournaments/{id}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{page}");
    page
}

/// Waits until the tournament's page meets `test`; the page.
pub async fn until(
    server: &TestServer,
    session: &str,
    id: &str,
    test: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let p = page(server, session, id).await;
        if test(&p) {
            return p;
        }
        assert!(
            start.elapsed() < WAIT,
            "the tournament never got there: {p}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `path` asked by `session` with `body`, expecting `status`; the answer.
pub async fn expect(
    server: &TestServer,
    session: &str,
    path: &str,
    body: Option<Value>,
    status: u16,
) -> Value {
    let (got, answer) = ask_page(server, session, "POST", path, body.clone()).await;
    assert_eq!(got, status, "{path} {body:?}: {answer}");
    answer
}

/// Like [`expect`] for a refusal whose message says `says`.
pub async fn refused(
    server: &TestServer,
    session: &str,
    path: &str,
    body: Option<Value>,
    says: &str,
) {
    let (got, answer) = ask_page(server, session, "POST", path, body.clone()).await;
    assert!(got >= 400, "{path} {body:?} should be refused: {answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(says),
        "{path} {body:?} should say {says:?}: {answer}"
    );
}

/// Plays board `board` to an end: 1. e4 e5, then the loser resigns (or
/// White offers a draw with 2. Nf3 and Black accepts).
pub async fn finish(
    server: &TestServer,
    sessions: &HashMap<String, String>,
    board: &Value,
    result: &str,
) {
    let game = board["game"].as_str().expect("a game");
    let session = |side: &str| {
        let name = board[side]["name"].as_str().expect("name");
        sessions[name].clone()
    };
    let mut sockets = Vec::new();
    for side in ["white", "black"] {
        let token = seat(server, &session(side), game).await;
        let socket = GameSocket::connect(&server.host, game, &token)
            .await
            .expect("connects");
        sockets.push(socket);
    }
    let [white, black] = &mut sockets[..] else {
        unreachable!()
    };
    white
        .send(&json!({"t": "move", "ply": 0, "uci": "e2e4"}))
        .await
        .expect("sends");
    black.state(WAIT, |s| s["ply"] == 1).await.expect("1. e4");
    black
        .send(&json!({"t": "move", "ply": 1, "uci": "e7e5"}))
        .await
        .expect("sends");
    white.state(WAIT, |s| s["ply"] == 2).await.expect("1... e5");
    match result {
        "1-0" => black.send(&json!({"t": "resign"})).await.expect("sends"),
        "0-1" => white.send(&json!({"t": "resign"})).await.expect("sends"),
        _ => {
            white
                .send(&json!({"t": "move", "ply": 2, "uci": "g1f3", "offer_draw": true}))
                .await
                .expect("sends");
            black.state(WAIT, |s| s["ply"] == 3).await.expect("2. Nf3");
            black
                .send(&json!({"t": "draw", "action": "accept"}))
                .await
                .expect("sends");
        }
    }
    white
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("the game ends");
}

/// `POST /api/tournaments` with `body` by `session` is refused as a bad
/// request whose message says `says`, and no tournament is stored.
pub async fn creation_refused(server: &TestServer, session: &str, body: Value, says: &str) {
    let (status, answer) = ask_page(
        server,
        session,
        "POST",
        "/api/tournaments",
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, 400, "{body}: {answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(says), "{body} should say {says}: {answer}");
    assert!(
        server
            .shared
            .storage
            .tournaments(10)
            .expect("reads")
            .is_empty(),
        "nothing stored after {body}"
    );
}

/// `GET path` without a session: the status and the body as text.
pub async fn download(server: &TestServer, path: &str) -> (u16, String) {
    let app = rochade_server::app(server.shared.clone());
    let request = axum::http::Request::get(path)
        .body(axum::body::Body::empty())
        .expect("request");
    let (status, bytes) = send_bytes(&app, request).await;
    (status.as_u16(), String::from_utf8(bytes).expect("text"))
}
