//! Nothing a visitor sends can exhaust the server (docs/security.md): one
//! test per probe that found a way to, each failing on the server before
//! the limits. The connection-level limits (header timeouts, connections
//! per address, security headers, origins) are in `defences.rs`.

mod support;

use std::time::{Duration, Instant};

use rochade_loadtest::client::{ClientError, GameSocket, get_json, post_json};
use rochade_server::ServeConfig;
use rochade_server::limits::Limits;
use rochade_server::storage::Storage;
use serde_json::{Value, json};
use support::{TestServer, WAIT, play, temp_db};

/// A server whose limits are `limits` changed by `change`, over `db`.
async fn server_with(db: std::path::PathBuf, change: impl FnOnce(&mut Limits)) -> TestServer {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), db);
    change(&mut config.limits);
    TestServer::start_config(config).await
}

/// `POST /api/games` with `body`: the status and answer.
async fn create(server: &TestServer, body: Value) -> (u16, Value) {
    post_json(&server.host, "/api/games", &body)
        .await
        .expect("answers")
}

/// Point 1: a robot game at `30d` used to think for a day and a half a
/// move; the search now ends at the cap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robot_thinks_no_longer_than_the_cap() {
    let server = server_with(temp_db(), |l| l.robot_think = Duration::from_secs(1)).await;
    let game = server
        .create(json!({"opponent": "robot", "level": 8, "color": "black", "time_control": "30d"}))
        .await;
    let started = Instant::now();
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    let moved = socket
        .state(Duration::from_secs(30), |s| s["ply"] == 1)
        .await
        .expect("the robot moves within the cap");
    assert_eq!(moved["turn"], "black");
    assert!(started.elapsed() < Duration::from_secs(30));
    server.stop().await;
}

/// Point 1: robot games one address plays at once are limited.
#[tokio::test]
async fn robot_games_per_address_are_limited() {
    let server = server_with(temp_db(), |l| l.robot_games_per_address = 2).await;
    let body = json!({"opponent": "robot", "level": 1, "color": "white", "time_control": "-"});
    for _ in 0..2 {
        assert_eq!(create(&server, body.clone()).await.0, 201);
    }
    let (status, answer) = create(&server, body.clone()).await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(answer["error"]["code"], "too_many_games");
    // Other kinds of game are not counted.
    let local = json!({"opponent": "local", "time_control": "-"});
    assert_eq!(create(&server, local).await.0, 201);
    server.stop().await;
}

/// Point 2: game creation is limited per address.
#[tokio::test]
async fn creating_games_is_limited_per_address() {
    let server = server_with(temp_db(), |l| l.games_per_minute = 5).await;
    let body = json!({"opponent": "local", "time_control": "5+3"});
    for _ in 0..5 {
        assert_eq!(create(&server, body.clone()).await.0, 201);
    }
    let (status, answer) = create(&server, body).await;
    assert_eq!(status, 429);
    assert_eq!(answer["error"]["code"], "too_many_requests");
    server.stop().await;
}

/// Point 2: a friend game whose invitation nobody opens is aborted after
/// the join time, and a room with nobody in it is unloaded (and loaded
/// again when asked for).
#[tokio::test]
async fn unjoined_games_are_aborted_and_empty_rooms_unloaded() {
    let server = server_with(temp_db(), |l| {
        l.unload_after = Duration::from_millis(200);
        l.friend_join = Duration::from_secs(3600);
    })
    .await;
    let game = server
        .create(json!({"opponent": "friend", "color": "white", "time_control": "5+3"}))
        .await;
    let id = game["game"].as_str().expect("id");
    assert_eq!(server.shared.live(), 1);
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(server.shared.live(), 0, "nobody there: unloaded");
    assert_eq!(server.shared.schedule.len(), 1, "its expiry is scheduled");
    server.shared.advance_clocks(Duration::from_secs(3601));
    let deadline = Instant::now() + WAIT;
    let state = loop {
        let (status, state) = get_json(&server.host, &format!("/api/games/{id}"))
            .await
            .expect("answers");
        assert_eq!(status, 200);
        if state["aborted"] == true || Instant::now() > deadline {
            break state;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(state["aborted"], true, "{state}");
    assert_eq!(state["closed"], "unjoined");
    assert_eq!(state["outcome"], json!(null));
    server.stop().await;
}

/// Point 2: a restart no longer loads every stored game into memory, and
/// aborted games go after their retention time.
#[tokio::test]
async fn a_restart_loads_nothing_and_old_aborted_games_go() {
    let db = temp_db();
    let server = server_with(db.clone(), |_| {}).await;
    for _ in 0..10 {
        server
            .create(json!({"opponent": "friend", "color": "white", "time_control": "5+3"}))
            .await;
    }
    let local = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let (mut socket, _) = server
        .connect(&local, local["token"].as_str().expect("token"))
        .await;
    socket.send(&json!({"t": "abort"})).await.expect("sends");
    socket
        .state(WAIT, |s| s["aborted"] == true)
        .await
        .expect("aborted");
    socket.close().await;
    server.stop().await;

    let again = server_with(db.clone(), |l| l.retain_aborted = Duration::from_millis(1)).await;
    assert_eq!(again.shared.live(), 0, "unfinished games wait unloaded");
    assert_eq!(again.shared.schedule.len(), 10);
    // The retention sweep runs at start.
    tokio::time::sleep(Duration::from_millis(500)).await;
    again.stop().await;
    let stored = support::open(&db);
    assert_eq!(
        stored.count().expect("counts"),
        10,
        "the aborted game is gone"
    );
}

/// Point 3: a socket must say hello in time.
#[tokio::test]
async fn a_silent_socket_is_closed_after_the_handshake_time() {
    let server = server_with(temp_db(), |l| l.handshake = Duration::from_millis(300)).await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let id = game["game"].as_str().expect("id");
    let mut socket = GameSocket::open(&server.host, id).await.expect("opens");
    let error = socket.recv(WAIT).await.expect("an error");
    assert_eq!(error["code"], "handshake");
    assert!(matches!(
        socket.recv(WAIT).await,
        Err(ClientError::Closed | ClientError::WebSocket(_))
    ));
    server.stop().await;
}

/// Point 3: a socket that goes silent (not even answering pings) is closed.
#[tokio::test]
async fn a_socket_that_never_answers_is_closed() {
    let server = server_with(temp_db(), |l| l.socket_idle = Duration::from_millis(600)).await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    // Not reading means not answering the server's pings.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let end = socket.until("state", WAIT, |_| false).await;
    assert!(
        matches!(end, Err(ClientError::Closed | ClientError::WebSocket(_))),
        "{end:?}"
    );
    server.stop().await;
}

/// Point 4: the message limit follows the seat, however many sockets.
#[tokio::test]
async fn the_message_limit_follows_the_seat_token() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let token = game["token"].as_str().expect("token");
    let mut sockets = Vec::new();
    for _ in 0..5 {
        sockets.push(server.connect(&game, token).await.0);
    }
    for socket in &mut sockets {
        for _ in 0..20 {
            socket.send(&json!({"t": "ping"})).await.expect("sends");
        }
    }
    let mut pongs = 0;
    for socket in &mut sockets {
        while let Ok(m) = socket.recv(Duration::from_millis(500)).await {
            if m["t"] == "pong" {
                pongs += 1;
            }
        }
    }
    // 20 a second for the seat, not 20 for each of five sockets.
    assert!((20..=30).contains(&pongs), "{pongs} pongs");
    server.stop().await;
}

/// Point 4: a seat has at most so many sockets.
#[tokio::test]
async fn a_seat_has_a_limited_number_of_sockets() {
    let server = server_with(temp_db(), |l| l.sockets_per_seat = 3).await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let token = game["token"].as_str().expect("token");
    let id = game["game"].as_str().expect("id");
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(server.connect(&game, token).await.0);
    }
    let mut fourth = GameSocket::connect(&server.host, id, token)
        .await
        .expect("connects");
    let refused = fourth.recv(WAIT).await.expect("an answer");
    assert_eq!(refused["code"], "too_many_sockets");
    server.stop().await;
}

/// Point 4: one draw offer per move (9.1.2.2, 11.5): a robot game's offer
/// used to store two rows each time, for ever.
#[tokio::test]
async fn art_9_1_2_2_one_draw_offer_per_move() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "robot", "level": 1, "color": "white", "time_control": "-"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    socket
        .send(&json!({"t": "draw", "action": "offer"}))
        .await
        .expect("sends");
    socket
        .state(WAIT, |s| s["offers"]["draw"].is_null())
        .await
        .expect("declined");
    socket
        .send(&json!({"t": "draw", "action": "offer"}))
        .await
        .expect("sends");
    let refused = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(refused["code"], "not_allowed");
    play(&mut socket, 0, "e2e4").await;
    socket
        .state(WAIT, |s| s["ply"] == 2)
        .await
        .expect("the robot answers");
    socket
        .send(&json!({"t": "draw", "action": "offer"}))
        .await
        .expect("sends");
    socket
        .state(WAIT, |s| s["offers"]["draw"].is_null() && s["ply"] == 2)
        .await
        .expect("a new move, a new offer");
    server.stop().await;
}

/// Point 5: sizes and shapes of input.
#[tokio::test]
async fn art_9_4_input_has_sizes_and_one_key_each() {
    let server = TestServer::start().await;
    let many = ["1/60"; 200].join(", ");
    let (status, answer) =
        create(&server, json!({"opponent": "local", "time_control": many})).await;
    assert_eq!(status, 400);
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("characters")),
        "{answer}"
    );
    let six = ["1/60"; 6].join(",");
    let (status, answer) = create(&server, json!({"opponent": "local", "time_control": six})).await;
    assert_eq!(status, 400);
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("6 periods")),
        "{answer}"
    );
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    socket
        .send_text(r#"{"t":"move","t":"resign"}"#.to_owned())
        .await
        .expect("sends");
    let e = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(e["code"], "bad_json");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("duplicate key `t`"))
    );
    // 9.4: a claim with an intended move answers a ply, as a move does.
    socket
        .send(&json!({"t": "claim", "kind": "threefold", "uci": "e2e4"}))
        .await
        .expect("sends");
    let e = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(e["code"], "bad_json");
    socket
        .send(&json!({"t": "claim", "kind": "threefold", "uci": "e2e4", "ply": 5}))
        .await
        .expect("sends");
    let e = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(e["code"], "stale_ply");
    let (_, state) = get_json(
        &server.host,
        &format!("/api/games/{}", game["game"].as_str().expect("id")),
    )
    .await
    .expect("state");
    assert_eq!(state["outcome"], json!(null), "not resigned");
    assert_eq!(state["ply"], 0);
    server.stop().await;
}

/// Point 6: a token in the socket's URL seats nobody; only the hello does.
#[tokio::test]
async fn a_token_in_the_url_is_not_a_seat() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let id = game["game"].as_str().expect("id");
    let token = game["token"].as_str().expect("token");
    let mut socket = GameSocket::open(&server.host, &format!("{id}?token={token}"))
        .await
        .expect("opens");
    socket
        .send(&json!({"t": "hello", "token": null}))
        .await
        .expect("sends");
    let state = socket.state(WAIT, |_| true).await.expect("state");
    assert_eq!(state["you"], "spectator");
    server.stop().await;
}
