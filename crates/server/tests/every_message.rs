//! Every kind of message of the three sockets (a game's, the lobby's, a
//! tournament's), each field given every wrong kind of value: numbers
//! where text belongs and text where numbers do, lists, objects, nulls,
//! huge numbers, long text, text holding the NUL character. On SQLite and
//! on PostgreSQL (the server's tests run on both) no message ends a
//! socket or the server: each socket still answers a ping afterwards, the
//! server still creates games, and the game shows after a restart what
//! it showed before (a message that happens to be well formed, an abort
//! say, may change it; nothing may change it unstored).

mod support;

use std::time::Duration;

use rochade_loadtest::client::GameSocket;
use rochade_server::ServeConfig;
use serde_json::{Value, json};
use support::{TestServer, WAIT};

/// The kinds of message a game socket takes (docs/protocol.md), those
/// that can end the game last.
const GAME_KINDS: [&str; 16] = [
    "hello",
    "ping",
    "state",
    "move",
    "conditional",
    "draw",
    "claim",
    "takeback",
    "rematch",
    "tablebase_claim",
    "berserk",
    "chat",
    "claim_victory",
    "abort",
    "resign",
    "no_such_kind",
];

/// The fields messages carry, of every kind.
const FIELDS: [&str; 18] = [
    "v",
    "uci",
    "san",
    "ply",
    "lines",
    "color",
    "action",
    "kind",
    "claim",
    "text",
    "token",
    "move_messages",
    "offer_draw",
    "lang",
    "terms",
    "rating_range",
    "id",
    "time_control",
];

/// Every wrong kind of value.
fn values() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(-1),
        json!(1e300),
        json!(18_446_744_073_709_551_615_u64),
        json!(""),
        json!("e2e4\u{0}"),
        json!("\u{0}"),
        json!("x".repeat(2000)),
        json!([]),
        json!([1, "a", null]),
        json!({}),
        json!({"t": "move"}),
    ]
}

/// Sends every message of `kinds` with each field given each wrong
/// value, then proves the socket still answers; returns how many were
/// sent.
async fn fuzz(socket: &mut GameSocket, kinds: &[&str]) -> usize {
    let mut sent = 0;
    let values = values();
    for kind in kinds {
        for field in FIELDS {
            for value in &values {
                let mut message = json!({"t": kind});
                message[field] = value.clone();
                socket
                    .send(&message)
                    .await
                    .unwrap_or_else(|e| panic!("the socket closed before {message}: {e}"));
                sent += 1;
            }
        }
    }
    // What was answered is read away; then a ping still gets its pong.
    while socket.recv(Duration::from_millis(200)).await.is_ok() {}
    support::still_answers(socket).await;
    sent
}

#[tokio::test]
async fn every_message_with_every_wrong_field_leaves_the_sockets_and_the_game_working() {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), support::temp_db());
    for (limit, value) in [
        ("messages_per_second", "1000000"),
        ("address_messages_per_second", "1000000"),
    ] {
        config.limits.set(limit, value).expect("a limit");
    }
    let server = TestServer::start_config(config).await;
    let session = support::sign_up(&server, "Fuzzer").await;
    let game = server
        .create(json!({"opponent": "friend", "color": "white", "time_control": "10+0"}))
        .await;
    let id = game["game"].as_str().expect("id").to_owned();
    let (mut white, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    let (mut spectator, _) = server.connect(&game, "").await;
    support::play(&mut white, 0, "e2e4").await;

    let mut sent = fuzz(&mut spectator, &GAME_KINDS).await;
    sent += fuzz(&mut white, &GAME_KINDS).await;

    let mut lobby = GameSocket::open_path(&server.host, "/ws/lobby", Some(&session))
        .await
        .expect("the lobby opens");
    lobby.until("hello", WAIT, |_| true).await.expect("hello");
    sent += fuzz(
        &mut lobby,
        &["seek", "cancel", "accept", "ping", "no_such_kind"],
    )
    .await;

    support::appoint(&server, "fuzzer");
    let (status, made) = support::ask_page(
        &server,
        &session,
        "POST",
        "/api/tournaments",
        Some(
            json!({"name": "Open", "time_control": "3+2", "system": "swiss",
                    "rounds": 3, "entry": {"open": true}}),
        ),
    )
    .await;
    assert!((200..300).contains(&status), "{made}");
    let path = format!("/ws/tournaments/{}", made["id"].as_str().expect("id"));
    let mut watching = GameSocket::open_path(&server.host, &path, None)
        .await
        .expect("the tournament's socket opens");
    sent += fuzz(&mut watching, &["ping", "watch", "no_such_kind"]).await;
    assert!(sent > 8000, "only {sent} messages were sent");

    // What the game shows now is what the database holds: the same after
    // a restart that reads it back.
    let shown = |state: &Value| {
        json!([
            state["ply"],
            state["fen"],
            state["outcome"],
            state["aborted"],
            state["moves"]
        ])
    };
    let (_, before) = server.connect(&game, "").await;
    // And the server still makes games.
    let again = server
        .create(json!({"opponent": "friend", "color": "black", "time_control": "5+0"}))
        .await;
    assert!(again["game"].is_string(), "{again}");
    let db = server.db.clone();
    server.stop().await;
    let server = TestServer::start_with(db).await;
    let (_, after) = server.connect(&game, "").await;
    assert!(
        before["fen"].is_string() && before["moves"].is_array(),
        "{before}"
    );
    assert_eq!(shown(&before), shown(&after));
    let (status, pgn) = support::download(&server, &format!("/api/games/{id}/pgn")).await;
    assert_eq!(status, 200, "{pgn}");
    server.stop().await;
}
