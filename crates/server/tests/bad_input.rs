//! Point 15: bad input gets an error message; the connection, the game and
//! its stored history stay intact.

mod support;

use rochade_loadtest::client::{ClientError, GameSocket};
use rochade_server::storage::Storage;
use serde_json::{Value, json};
use support::{TestServer, WAIT, play, play_all};

/// The error answering the last message, then proof that the socket still
/// works (a ping is answered).
async fn error_then_alive(socket: &mut GameSocket) -> Value {
    let error = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("an error");
    support::still_answers(socket).await;
    error
}

/// The server ends `socket`: nothing more comes, the connection closes.
async fn ends(socket: &mut GameSocket) {
    let end = socket.until("state", WAIT, |_| false).await;
    assert!(
        matches!(
            end,
            Err(ClientError::Closed | ClientError::WebSocket(_) | ClientError::Io(_))
        ),
        "{end:?}"
    );
}

/// A friend game with two moves played: (server, game, white, black).
async fn friend_game() -> (TestServer, Value, GameSocket, GameSocket) {
    friend_game_on(TestServer::start().await).await
}

/// A friend game with two moves played on `server`.
async fn friend_game_on(server: TestServer) -> (TestServer, Value, GameSocket, GameSocket) {
    let game = server
        .create(json!({"opponent": "friend", "color": "white", "time_control": "10+0"}))
        .await;
    let black_token = game["links"]["black"]
        .as_str()
        .and_then(|l| l.split_once('#'))
        .map(|(_, t)| t.to_owned())
        .expect("black link");
    let (mut white, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    let (mut black, _) = server.connect(&game, &black_token).await;
    play(&mut white, 0, "e2e4").await;
    black.state(WAIT, |s| s["ply"] == 1).await.expect("e4");
    play(&mut black, 1, "c7c5").await;
    white.state(WAIT, |s| s["ply"] == 2).await.expect("c5");
    (server, game, white, black)
}

/// The game is still at ply 2 in memory and on disk.
async fn intact(server: TestServer, game: &Value) {
    let id = game["game"].as_str().expect("id");
    let (spectator, state) = server.connect(game, "").await;
    assert_eq!(state["ply"], 2);
    assert_eq!(
        state["fen"],
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    spectator.close().await;
    let db = server.db.clone();
    server.stop().await;
    let stored = support::open(&db).load(id).expect("reads").expect("stored");
    let moves = stored
        .events
        .iter()
        .filter(|e| matches!(e.event, rochade_server::event::Event::Move { .. }))
        .count();
    assert_eq!(moves, 2);
}

#[tokio::test]
async fn malformed_frames_get_bad_json() {
    let (server, game, mut white, _black) = friend_game().await;
    for text in [
        "{",
        "[1,2]",
        "\"move\"",
        r#"{"t":"castle"}"#,
        r#"{"t":"move","uci":"e2e4"}"#,
    ] {
        white.send_text(text.to_owned()).await.expect("sends");
        let e = error_then_alive(&mut white).await;
        assert_eq!(e["code"], "bad_json", "{text}");
    }
    white
        .send(&json!({"v": 2, "t": "ping"}))
        .await
        .expect("sends");
    assert_eq!(
        error_then_alive(&mut white).await["code"],
        "unsupported_version"
    );
    intact(server, &game).await;
}

/// A frame over the protocol's 4 KiB ends the connection at once: the
/// socket never buffers more than one message's worth.
#[tokio::test]
async fn oversized_frames_end_the_connection() {
    let (server, game, mut white, _black) = friend_game().await;
    let big = format!(
        r#"{{"t":"move","ply":2,"uci":"g1f3","pad":"{}"}}"#,
        "x".repeat(5000)
    );
    // The server may close before the whole frame is written.
    let _ = white.send_text(big).await;
    ends(&mut white).await;
    intact(server, &game).await;
}

/// A frame up to the protocol's 4 KiB is read whole, though a socket
/// reads 1 KiB at a time.
#[tokio::test]
async fn a_frame_near_the_limit_is_read_whole() {
    let (_server, _game, mut white, mut black) = friend_game().await;
    let padded = format!(r#"{{"t":"move","ply":2,"uci":"g1f3"{}}}"#, " ".repeat(4000));
    white.send_text(padded).await.expect("sends");
    let state = black
        .state(WAIT, |s| s["ply"] == 3)
        .await
        .expect("the move is made");
    assert_eq!(state["last_move"], "g1f3");
}

#[tokio::test]
async fn wrong_colour_and_stale_ply_are_refused() {
    let (server, game, mut white, mut black) = friend_game().await;
    // White is to move: Black may not.
    play(&mut black, 2, "g8f6").await;
    assert_eq!(error_then_alive(&mut black).await["code"], "not_your_turn");
    // White answers an old state.
    play(&mut white, 1, "g1f3").await;
    let e = error_then_alive(&mut white).await;
    assert_eq!(e["code"], "stale_ply");
    assert_eq!(e["ply"], 1);
    // An illegal move, an unreadable one.
    play(&mut white, 2, "e4e6").await;
    assert_eq!(error_then_alive(&mut white).await["code"], "illegal_move");
    play(&mut white, 2, "zz").await;
    assert_eq!(
        error_then_alive(&mut white).await["code"],
        "unparseable_move"
    );
    intact(server, &game).await;
}

#[tokio::test]
async fn spectators_and_other_games_tokens_cannot_act() {
    let (server, game, _white, _black) = friend_game().await;
    let other = server
        .create(json!({"opponent": "local", "time_control": "-"}))
        .await;
    let other_token = other["token"].as_str().expect("token");
    let (mut stranger, first) = server.connect(&game, other_token).await;
    assert_eq!(first["you"], "spectator");
    play(&mut stranger, 2, "g1f3").await;
    assert_eq!(error_then_alive(&mut stranger).await["code"], "spectator");
    let (mut spectator, _) = server.connect(&game, "").await;
    spectator
        .send(&json!({"t": "resign"}))
        .await
        .expect("sends");
    assert_eq!(error_then_alive(&mut spectator).await["code"], "spectator");
    intact(server, &game).await;
}

#[tokio::test]
async fn floods_are_rate_limited() {
    let (server, game, mut white, _black) = friend_game().await;
    for _ in 0..40 {
        white
            .send_text(r#"{"t":"draw","action":"decline"}"#.to_owned())
            .await
            .expect("sends");
    }
    let limited = white
        .until("error", WAIT, |e| e["code"] == "rate_limited")
        .await
        .expect("rate limited");
    assert_eq!(limited["code"], "rate_limited");
    // A second later the socket is heard again.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    white
        .send(&json!({"t": "draw", "action": "decline"}))
        .await
        .expect("sends");
    assert_eq!(error_then_alive(&mut white).await["code"], "no_offer");
    intact(server, &game).await;
}

/// Issue 20, point 8: a socket that goes on sending over its limit is
/// cut off; the game's other seat is answered all through, and the
/// flooder's seat plays on from a new socket.
#[tokio::test]
async fn a_socket_that_floods_is_cut_off_and_the_others_play_on() {
    let mut config =
        rochade_server::ServeConfig::new("127.0.0.1:0".parse().expect("addr"), support::temp_db());
    // Every socket of the test comes from one address: the limit by
    // seat token is the one at work here.
    config.limits.address_messages_per_second = 1_000_000;
    let (server, game, mut white, mut black) =
        friend_game_on(TestServer::start_config(config).await).await;
    let per_second = rochade_server::limits::Limits::default().messages_per_second;
    let flood = rochade_server::flood::Flood::tolerated(per_second) as usize * 3;
    for _ in 0..flood {
        // The server may close before the whole flood is written.
        if white
            .send_text(r#"{"t":"draw","action":"decline"}"#.to_owned())
            .await
            .is_err()
        {
            break;
        }
    }
    support::still_answers(&mut black).await;
    let cut = white
        .until("error", WAIT, |e| {
            e["message"].as_str().is_some_and(|m| m.contains("closed"))
        })
        .await
        .expect("told why it is cut off");
    assert_eq!(cut["code"], "rate_limited");
    ends(&mut white).await;
    // The seat is not banned: a new socket (a page coming back) plays on
    // once the seat's limit has refilled.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (mut white, state) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    assert_eq!(state["ply"], 2);
    play(&mut white, 2, "g1f3").await;
    black.state(WAIT, |s| s["ply"] == 3).await.expect("Nf3");
    server.stop().await;
}

#[tokio::test]
async fn abort_only_before_both_sides_moved() {
    let (server, game, mut white, _black) = friend_game().await;
    white.send(&json!({"t": "abort"})).await.expect("sends");
    assert_eq!(error_then_alive(&mut white).await["code"], "not_allowed");
    intact(server, &game).await;

    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "3+2"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    play_all(&mut socket, &["e2e4"]).await;
    socket.send(&json!({"t": "abort"})).await.expect("sends");
    let aborted = socket
        .state(WAIT, |s| s["aborted"] == true)
        .await
        .expect("aborted");
    assert_eq!(aborted["outcome"], json!(null));
    assert_eq!(aborted["dests"], json!({}));
    server.stop().await;
}
