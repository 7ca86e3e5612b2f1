//! The server's defences against clients that would exhaust it and pages
//! of other sites (docs/security.md), against a real server on a free port
//! with raw TCP clients: read and idle timeouts, connections per address,
//! security headers, JSON-only writes, the socket's `Origin` check.

mod support;

use std::time::Duration;

use rochade_loadtest::client::{GameSocket, post_json};
use rochade_server::ServeConfig;
use serde_json::{Value, json};
use support::{TestServer, WAIT, temp_db};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// A server whose limits `change` sets.
async fn start(change: impl FnOnce(&mut rochade_server::limits::Limits)) -> TestServer {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), temp_db());
    change(&mut config.limits);
    TestServer::start_config(config).await
}

/// An HTTP answer read off the wire.
#[derive(Debug)]
struct Answer {
    /// The status code.
    status: u16,
    /// The head's lines after the status line, names in lower case.
    headers: Vec<(String, String)>,
    /// The body.
    body: String,
}

impl Answer {
    /// Parses one whole answer.
    fn parse(bytes: &[u8]) -> Answer {
        let text = String::from_utf8_lossy(bytes);
        let (head, body) = text.split_once("\r\n\r\n").expect("a whole head");
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        Answer {
            status,
            headers,
            body: body.to_owned(),
        }
    }

    /// The value of header `name` (lower case).
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }
}

/// Sends `request` (a whole HTTP/1.1 request; it should say
/// `Connection: close`) on a new connection and reads the answer to the end.
async fn send(host: &str, request: &str) -> Answer {
    let mut stream = TcpStream::connect(host).await.expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sends");
    let mut answer = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .expect("reads");
    Answer::parse(&answer)
}

/// `GET {path}`, closing the connection after the answer.
async fn get(host: &str, path: &str) -> Answer {
    send(
        host,
        &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
    )
    .await
}

/// `POST {path}` with `body` of `kind` (no `Content-Type` when `None`) and
/// extra header lines `extra`.
async fn post(host: &str, path: &str, kind: Option<&str>, extra: &str, body: &str) -> Answer {
    let kind = kind
        .map(|k| format!("Content-Type: {k}\r\n"))
        .unwrap_or_default();
    send(
        host,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {host}\r\n{kind}{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await
}

/// Reads from `stream` until it closes (end of file or an error) or `wait`
/// passes; returns what was read and whether it closed.
async fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> (Vec<u8>, bool) {
    let deadline = Instant::now() + wait;
    let mut got = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return (got, false),
            Ok(Ok(0) | Err(_)) => return (got, true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Reads one answer off a connection that stays open (kept alive or
/// upgraded): the head, then as much body as it says.
async fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            let answer = Answer::parse(&got);
            let length: usize = answer
                .header("content-length")
                .map_or(0, |l| l.parse().expect("a length"));
            if got.len() >= end + 4 + length {
                return answer;
            }
        }
        let n = tokio::time::timeout(WAIT, stream.read(&mut buf))
            .await
            .expect("answered in time")
            .expect("reads");
        assert!(n > 0, "closed before the whole answer");
        got.extend_from_slice(&buf[..n]);
    }
}

/// How long the timeout tests give a client.
const SHORT: Duration = Duration::from_millis(300);

/// What became of a connection that sent `sent` to a server giving
/// [`SHORT`] to read a request: what it was answered, how long after the
/// sending it was closed, and how many games the server holds then.
async fn cut_off(what: &str, sent: &[u8]) -> (Vec<u8>, Duration, usize) {
    let server = start(|l| l.header_read = SHORT).await;
    let mut stream = TcpStream::connect(&server.host).await.expect("connects");
    stream.write_all(sent).await.expect("sends");
    let started = Instant::now();
    let (answer, closed) = read_until_closed(&mut stream, WAIT).await;
    let took = started.elapsed();
    eprintln!("{what}: closed after {took:?}");
    assert!(closed, "{what}: the connection stays open");
    let games = server.shared.live();
    server.stop().await;
    (answer, took, games)
}

#[tokio::test]
async fn a_half_sent_request_head_is_cut_off() {
    let (answer, took, _) = cut_off("half a head", b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await;
    assert!(answer.is_empty(), "nothing is answered to half a head");
    assert!(took >= SHORT - Duration::from_millis(50), "{took:?}");
}

#[tokio::test]
async fn a_silent_connection_is_cut_off() {
    cut_off("nothing sent", b"").await;
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_cut_off() {
    let (answer, _, _) = cut_off(
        "kept alive, idle",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    )
    .await;
    let answer = Answer::parse(&answer);
    assert_eq!((answer.status, answer.body.as_str()), (200, "ok"));
}

#[tokio::test]
async fn a_slow_body_is_cut_off() {
    let head = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
    let sent = format!("{head}Content-Length: 100\r\n\r\n{{\"opponent\"");
    let (answer, _, games) = cut_off("a tenth of a body", sent.as_bytes()).await;
    if !answer.is_empty() {
        assert_eq!(Answer::parse(&answer).status, 400);
    }
    assert_eq!(games, 0, "a game from half a request");
}

#[tokio::test]
async fn a_client_that_reads_nothing_is_cut_off() {
    let server = start(|l| l.socket_idle = Duration::from_secs(1)).await;
    let mut stream = TcpStream::connect(&server.host).await.expect("connects");
    // Far more answers than the socket buffers hold (the script is ~70 KB).
    let requests = 600;
    let one = "GET /assets/app.js HTTP/1.1\r\nHost: x\r\n\r\n";
    stream
        .write_all(one.repeat(requests).as_bytes())
        .await
        .expect("sends");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (answers, closed) = read_until_closed(&mut stream, WAIT).await;
    let text = String::from_utf8_lossy(&answers);
    let got = text.matches("HTTP/1.1 200 OK").count();
    eprintln!("read nothing for 3 s: {got} of {requests} answers before the close");
    assert!(closed, "the connection was not closed");
    assert!(got < requests, "every answer was sent: the server waited");
    server.stop().await;
}

#[tokio::test]
async fn connections_per_address_are_capped() {
    let server = start(|l| l.connections_per_address = 4).await;
    let mut open = Vec::new();
    for _ in 0..4 {
        let mut stream = TcpStream::connect(&server.host).await.expect("connects");
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("sends");
        assert_eq!(read_answer(&mut stream).await.status, 200);
        open.push(stream);
    }
    let refused = get(&server.host, "/healthz").await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.json()["error"]["code"], "too_many_requests");
    assert_eq!(refused.header("x-content-type-options"), Some("nosniff"));

    // One closes: its place is free again (once the server has seen it go).
    drop(open.pop());
    let deadline = Instant::now() + WAIT;
    loop {
        let answer = get(&server.host, "/healthz").await;
        if answer.status == 200 {
            break;
        }
        assert_eq!(answer.status, 429);
        assert!(
            Instant::now() < deadline,
            "the closed connection still counts"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.stop().await;
}

/// Opens a connection that says it comes from `client` in a PROXY
/// protocol version 1 header, and asks for `/healthz` on it.
async fn healthz_from(host: &str, client: &str) -> (TcpStream, Answer) {
    let mut stream = TcpStream::connect(host).await.expect("connects");
    let header = format!("PROXY TCP4 {client} 127.0.0.1 40000 80\r\n");
    stream
        .write_all(format!("{header}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .expect("sends");
    let answer = read_answer(&mut stream).await;
    (stream, answer)
}

#[tokio::test]
async fn behind_a_proxy_the_address_its_header_names_is_counted() {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), temp_db());
    config.limits.connections_per_address = 1;
    config.proxy_protocol = true;
    let server = TestServer::start_config(config).await;
    // Two clients through one proxy (all from 127.0.0.1): each has its place.
    let (_first, answer) = healthz_from(&server.host, "192.0.2.1").await;
    assert_eq!(answer.status, 200);
    let (_second, answer) = healthz_from(&server.host, "192.0.2.2").await;
    assert_eq!(answer.status, 200);
    // The first client again, while its connection is open: over its cap.
    let (_, answer) = healthz_from(&server.host, "192.0.2.1").await;
    assert_eq!(answer.status, 429);
    // No header: not through the proxy; closed without an answer.
    let mut direct = TcpStream::connect(&server.host).await.expect("connects");
    direct
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("sends");
    let mut got = Vec::new();
    // Closed (an end of stream, or a reset for the request left unread).
    let read = tokio::time::timeout(WAIT, direct.read_to_end(&mut got)).await;
    assert!(read.is_ok(), "the connection stayed open");
    assert!(got.is_empty(), "{:?}", String::from_utf8_lossy(&got));
    server.stop().await;
}

#[tokio::test]
async fn websockets_count_against_the_cap_while_they_are_open() {
    let server = start(|l| l.connections_per_address = 4).await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "-"}))
        .await;
    let id = game["game"].as_str().expect("id");
    let mut sockets = Vec::new();
    let deadline = Instant::now() + WAIT;
    while sockets.len() < 4 {
        // The request that created the game may count for a moment more.
        match GameSocket::connect(&server.host, id, "").await {
            Ok(socket) => sockets.push(socket),
            Err(e) => assert!(Instant::now() < deadline, "{e}"),
        }
    }
    let refused = get(&server.host, "/healthz").await;
    assert_eq!(refused.status, 429, "four open sockets do not count");
    assert!(GameSocket::connect(&server.host, id, "").await.is_err());

    if let Some(socket) = sockets.pop() {
        socket.close().await;
    }
    let deadline = Instant::now() + WAIT;
    while get(&server.host, "/healthz").await.status != 200 {
        assert!(Instant::now() < deadline, "the closed socket still counts");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.stop().await;
}

/// Asserts that `answer` carries the security headers.
fn assert_secured(what: &str, answer: &Answer) {
    let csp = answer
        .header("content-security-policy")
        .unwrap_or_else(|| panic!("{what}: no Content-Security-Policy"));
    for directive in [
        "default-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
    ] {
        assert!(csp.contains(directive), "{what}: {csp}");
    }
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("cross-origin-opener-policy", "same-origin"),
    ] {
        assert_eq!(answer.header(name), Some(value), "{what}: {name}");
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let server = TestServer::start().await;
    let host = server.host.clone();
    let page = get(&host, "/").await;
    assert!(matches!(page.status, 200 | 503), "{}", page.status);
    assert_secured("the page", &page);
    let script = get(&host, "/assets/app.js").await;
    assert_eq!(script.status, 200);
    assert_secured("a script", &script);
    let missing = get(&host, "/no/such/page").await;
    assert_eq!(missing.status, 404);
    assert_secured("a 404", &missing);
    let error = get(&host, "/api/games/nosuch").await;
    assert_eq!(error.status, 404);
    assert_eq!(error.json()["error"]["code"], "not_found");
    assert_secured("an API error", &error);
    let bad = get(&host, "/api/timecontrol?tc=abc").await;
    assert_eq!(bad.status, 400);
    assert_secured("a bad request", &bad);
    server.stop().await;
}

#[tokio::test]
async fn writes_must_be_json() {
    let server = TestServer::start().await;
    let host = server.host.clone();
    let game = r#"{"opponent":"local","time_control":"-"}"#;
    // What an HTML form of another site can send.
    for kind in [
        Some("text/plain"),
        Some("text/plain; charset=application/json"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let answer = post(&host, "/api/games", kind, "", game).await;
        assert_eq!(answer.status, 415, "{kind:?}");
        assert_eq!(answer.json()["error"]["code"], "unsupported_media_type");
        assert_secured("a 415", &answer);
    }
    assert_eq!(server.shared.live(), 0, "a game was created anyway");

    let created = post(
        &host,
        "/api/games",
        Some("Application/JSON; charset=utf-8"),
        "",
        game,
    )
    .await;
    assert_eq!(created.status, 201, "{created:?}");
    assert_eq!(server.shared.live(), 1, "the check can see a created game");

    // An invitation is taken only by JSON, or by the server's own page.
    let friend = server
        .create(json!({"opponent": "friend", "color": "white", "time_control": "-"}))
        .await;
    let path = format!(
        "/api/invites/{}",
        friend["invite"].as_str().expect("invite")
    );
    let evil = "Origin: http://evil.example\r\n";
    for (kind, extra) in [(Some("text/plain"), ""), (None, ""), (None, evil)] {
        let answer = post(&host, &path, kind, extra, "").await;
        assert_eq!(answer.status, 415, "{kind:?} {extra}");
    }
    let own = format!("Origin: http://{host}\r\n");
    let taken = post(&host, &path, None, &own, "").await;
    assert_eq!(taken.status, 200, "{taken:?}");
    assert_eq!(taken.json()["color"], "black");
    let (status, again) = post_json(&host, &path, &json!({})).await.expect("posts");
    assert_eq!(status, 409, "{again}");
    server.stop().await;
}

/// A WebSocket upgrade request for game `id`, with `origin` if given.
fn upgrade(host: &str, id: &str, origin: Option<&str>) -> String {
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    format!(
        "GET /ws/{id} HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n"
    )
}

/// The answer to an upgrade request for game `id` from `origin`.
async fn upgrade_status(host: &str, id: &str, origin: Option<&str>) -> Answer {
    let mut stream = TcpStream::connect(host).await.expect("connects");
    stream
        .write_all(upgrade(host, id, origin).as_bytes())
        .await
        .expect("sends");
    read_answer(&mut stream).await
}

#[tokio::test]
async fn sockets_open_only_from_the_servers_own_pages() {
    let server = start(|l| l.origins = vec!["https://chess.example.org".to_owned()]).await;
    let host = server.host.clone();
    let game = server
        .create(json!({"opponent": "local", "time_control": "-"}))
        .await;
    let id = game["game"].as_str().expect("id");
    for origin in [
        "http://evil.example",
        "null",
        "https://chess.example.org.evil.example",
    ] {
        let answer = upgrade_status(&host, id, Some(origin)).await;
        assert_eq!(answer.status, 403, "{origin}");
        assert_eq!(answer.json()["error"]["code"], "forbidden_origin");
    }
    let own = format!("http://{host}");
    for origin in [Some(own.as_str()), Some("https://chess.example.org"), None] {
        let answer = upgrade_status(&host, id, origin).await;
        assert_eq!(answer.status, 101, "{origin:?}");
        assert_secured("an upgrade", &answer);
    }
    server.stop().await;
}
