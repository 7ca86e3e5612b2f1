//! WebSocket tests with real clients against a real server on a free port.

mod support;

use std::time::Duration;

use rochade_loadtest::client::{GameSocket, post_json};
use serde_json::json;
use support::{TestServer, WAIT, play, play_all};

#[tokio::test]
async fn art_5_1_1_local_game_fools_mate_is_checkmate() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    assert_eq!(game["color"], "both");
    let (mut socket, first) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    assert_eq!(first["you"], "both");
    assert_eq!(first["ply"], 0);
    assert_eq!(first["dests"]["g1"], json!(["f3", "h3"]));
    assert_eq!(first["clock"]["category"], "blitz");
    let last = play_all(&mut socket, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    // FIDE 5.1.1: checkmate ends the game.
    assert_eq!(last["outcome"]["result"], "0-1");
    assert_eq!(last["outcome"]["winner"], "black");
    assert_eq!(last["outcome"]["reason"], "checkmate");
    assert_eq!(last["outcome"]["article"], "5.1.1");
    assert_eq!(last["dests"], json!({}));
    assert_eq!(last["clock"]["running"], json!(null));
    let sans: Vec<_> = last["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["san"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    server.stop().await;
}

#[tokio::test]
async fn art_5_1_2_robot_answers_and_the_player_resigns() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "robot", "level": 1, "color": "white", "time_control": "-"}))
        .await;
    let (mut socket, first) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    assert_eq!(first["you"], "white");
    assert_eq!(first["players"]["black"]["kind"], "robot");
    assert_eq!(first["clock"], json!(null));
    play(&mut socket, 0, "e2e4").await;
    let answered = socket
        .state(WAIT, |s| s["ply"] == 2)
        .await
        .expect("the robot moves");
    assert_eq!(answered["turn"], "white");
    // Take-backs in a casual game: the robot accepts; both plies go.
    socket
        .send(&json!({"t": "takeback", "action": "request"}))
        .await
        .expect("sends");
    socket
        .state(WAIT, |s| s["ply"] == 0)
        .await
        .expect("taken back");
    play(&mut socket, 0, "d2d4").await;
    socket
        .state(WAIT, |s| s["ply"] == 2)
        .await
        .expect("the robot moves again");
    socket.send(&json!({"t": "resign"})).await.expect("sends");
    let over = socket
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("resigned");
    // FIDE 5.1.2: the player who resigns loses.
    assert_eq!(over["outcome"]["result"], "0-1");
    assert_eq!(over["outcome"]["reason"], "resignation");
    server.stop().await;
}

#[tokio::test]
async fn art_9_1_friends_by_link_agree_a_draw() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "friend", "color": "white", "time_control": "5+3"}))
        .await;
    let white_token = game["token"].as_str().expect("token");
    let black_link = game["links"]["black"].as_str().expect("link");
    let black_token = black_link.split_once('#').expect("fragment").1;
    let (mut white, w0) = server.connect(&game, white_token).await;
    assert_eq!(w0["you"], "white");
    // The clocks wait for the friend.
    assert_eq!(w0["clock"]["running"], json!(null));
    let (mut black, b0) = server.connect(&game, black_token).await;
    assert_eq!(b0["you"], "black");
    assert_eq!(b0["clock"]["running"], "white");
    // The invitation can no longer seat anyone.
    let invite = game["invite"].as_str().expect("invite");
    let (status, answer) = post_json(&server.host, &format!("/api/invites/{invite}"), &json!({}))
        .await
        .expect("answers");
    assert_eq!(status, 409);
    assert_eq!(answer["error"]["code"], "seat_taken");

    play(&mut white, 0, "e2e4").await;
    black
        .state(WAIT, |s| s["ply"] == 1)
        .await
        .expect("black sees e4");
    play(&mut black, 1, "e7e5").await;
    white
        .state(WAIT, |s| s["ply"] == 2)
        .await
        .expect("white sees e5");
    white
        .send(&json!({"t": "draw", "action": "offer"}))
        .await
        .expect("sends");
    black
        .state(WAIT, |s| s["offers"]["draw"] == "white")
        .await
        .expect("black sees the offer");
    black
        .send(&json!({"t": "draw", "action": "accept"}))
        .await
        .expect("sends");
    for socket in [&mut white, &mut black] {
        let over = socket
            .state(WAIT, |s| !s["outcome"].is_null())
            .await
            .expect("drawn");
        // FIDE 9.1: a draw by agreement.
        assert_eq!(over["outcome"]["result"], "1/2-1/2");
        assert_eq!(over["outcome"]["reason"], "agreement");
    }
    // A rematch: colours swap, each gets its new seat.
    black
        .send(&json!({"t": "rematch", "action": "offer"}))
        .await
        .expect("sends");
    white
        .state(WAIT, |s| s["offers"]["rematch"] == "black")
        .await
        .expect("white sees the rematch offer");
    white
        .send(&json!({"t": "rematch", "action": "accept"}))
        .await
        .expect("sends");
    let news = white
        .until("rematch", WAIT, |_| true)
        .await
        .expect("rematch news");
    let id2 = news["game"].as_str().expect("game").to_owned();
    let token2 = news["token"].as_str().expect("token");
    let mut again = GameSocket::connect(&server.host, &id2, token2)
        .await
        .expect("connects");
    let s2 = again.state(WAIT, |_| true).await.expect("state");
    assert_eq!(s2["you"], "black");
    server.stop().await;
}

#[tokio::test]
async fn art_6_9_one_minute_game_ends_by_timeout() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "1+0"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    play_all(&mut socket, &["e2e4", "e7e5"]).await;
    // White thinks for a minute and a second.
    server.shared.advance_clocks(Duration::from_secs(61));
    let over = socket
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("the flag falls");
    // FIDE 6.9: the flag fell and Black can still checkmate.
    assert_eq!(over["outcome"]["result"], "0-1");
    assert_eq!(over["outcome"]["reason"], "timeout");
    assert_eq!(over["outcome"]["article"], "6.9");
    assert_eq!(over["clock"]["white"], 0);
    play(&mut socket, 2, "g1f3").await;
    let error = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(error["code"], "game_over");
    server.stop().await;
}

#[tokio::test]
async fn spectators_watch_by_url() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "10+5"}))
        .await;
    let (mut player, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    let (mut spectator, s0) = server.connect(&game, "").await;
    assert_eq!(s0["you"], "spectator");
    play(&mut player, 0, "d2d4").await;
    let seen = spectator
        .state(WAIT, |s| s["ply"] == 1)
        .await
        .expect("the spectator sees the move");
    assert_eq!(seen["last_move"], "d2d4");
    assert_eq!(seen["clock"]["category"], "rapid");
    server.stop().await;
}

#[tokio::test]
async fn moves_in_slovak_san_are_understood() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "-"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    socket
        .send(&json!({"t": "move", "ply": 0, "san": "Jf3", "lang": "sk"}))
        .await
        .expect("sends");
    let state = socket.state(WAIT, |s| s["ply"] == 1).await.expect("played");
    assert_eq!(state["last_move"], "g1f3");
    assert_eq!(state["moves"][0]["san"], "Nf3");
    server.stop().await;
}

#[tokio::test]
async fn robot_levels_by_an_external_uci_engine() {
    // Stockfish from the Debian package (scripts/setup-engines installs it).
    let engine =
        rochade_server::EngineChoice::external(std::path::Path::new("/usr/games/stockfish"))
            .unwrap_or_else(|e| panic!("{e} (run scripts/setup-engines)"));
    let mut config =
        rochade_server::ServeConfig::new("127.0.0.1:0".parse().expect("addr"), support::temp_db());
    config.engine = engine;
    let server = TestServer::start_config(config).await;
    let game = server
        .create(json!({"opponent": "robot", "level": 2, "color": "black", "time_control": "3+2"}))
        .await;
    let (mut socket, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    let first = socket
        .state(WAIT, |s| s["ply"] == 1)
        .await
        .expect("the engine opens as White");
    assert_eq!(first["turn"], "black");
    play(
        &mut socket,
        1,
        first["dests"]
            .as_object()
            .and_then(|d| {
                d.iter()
                    .next()
                    .and_then(|(from, to)| Some(format!("{from}{}", to[0].as_str()?)))
            })
            .expect("a legal reply")
            .as_str(),
    )
    .await;
    socket
        .state(WAIT, |s| s["ply"] == 3)
        .await
        .expect("the engine answers");
    server.stop().await;
}

#[tokio::test]
async fn move_messages_make_the_states_whole_ones_show() {
    let server = TestServer::start().await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let id = game["game"].as_str().expect("id");
    let (mut player, _) = server
        .connect(&game, game["token"].as_str().expect("token"))
        .await;
    // Two spectators: one takes whole states, one asks for move messages.
    let (mut whole, _) = server.connect(&game, "").await;
    let mut brief = GameSocket::connect_with(&server.host, id, "", true)
        .await
        .expect("connects");
    let first = brief.recv_raw(WAIT).await.expect("the first state");
    assert_eq!(first["t"], "state", "the first message is the whole state");
    let mut held = first["state"].clone();
    for (ply, uci) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
        play(&mut player, ply, uci).await;
        let shown = whole
            .state(WAIT, |s| s["ply"] == ply + 1)
            .await
            .expect("the whole state");
        let message = brief.recv_raw(WAIT).await.expect("the move message");
        assert!(
            message.get("moves").is_none() && message["state"].get("moves").is_none(),
            "{message}"
        );
        assert!(
            message.to_string().len() < shown.to_string().len(),
            "{message}"
        );
        assert_eq!(message["t"], "move", "{message}");
        held = rochade_loadtest::apply_move(held, &message).expect("the next ply");
        assert_eq!(held, shown, "ply {}", ply + 1);
    }
    // What is not one more move (a draw offer) comes whole.
    player
        .send(&json!({"t": "draw", "action": "offer", "color": "white"}))
        .await
        .expect("sends");
    let offered = brief.recv_raw(WAIT).await.expect("a state");
    assert_eq!(offered["t"], "state", "{offered}");
    assert_eq!(offered["state"]["offers"]["draw"], "white");
    held = offered["state"].clone();
    // A page that lost track asks for the whole state.
    brief.send(&json!({"t": "state"})).await.expect("sends");
    let again = brief.recv_raw(WAIT).await.expect("the state");
    assert_eq!(again["t"], "state");
    assert_eq!(again["state"]["moves"], held["moves"]);
    assert_eq!(again["state"]["ply"], 4);
    server.stop().await;
}
