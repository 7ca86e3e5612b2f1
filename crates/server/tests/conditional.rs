//! Conditional moves in a correspondence game through the running server:
//! entered by the player not on move, seen only by that player, played the
//! moment the opponent's move matches (in the same commit), dropped when
//! it does not; bad trees are refused with the line named and nothing
//! changed.

mod support;

use rochade_loadtest::client::GameSocket;
use serde_json::{Value, json};
use support::{TestServer, WAIT, account_game_of, play};

/// White's and Black's sockets in a `3d/move` game between accounts.
async fn sockets(server: &TestServer) -> (GameSocket, GameSocket) {
    let (game, white, black, _) = account_game_of(server, "3d/move").await;
    let game = json!({"game": game});
    let (white, _) = server.connect(&game, &white).await;
    let (black, _) = server.connect(&game, &black).await;
    (white, black)
}

/// The next `conditional` message on `socket`.
async fn conditional(socket: &mut GameSocket) -> Value {
    socket
        .until("conditional", WAIT, |_| true)
        .await
        .expect("the conditional moves")
}

#[tokio::test]
async fn the_answer_is_played_when_the_opponents_move_matches() {
    let server = TestServer::start().await;
    let (mut white, mut black) = sockets(&server).await;
    play(&mut white, 0, "e2e4").await;
    black.state(WAIT, |s| s["ply"] == 1).await.expect("e4");

    let lines = json!(["e5 Nf3 Nc6 Bb5", "e5 Nf3 Nf6 Nxe5", "c5 Nf3"]);
    white
        .send(&json!({"t": "conditional", "lines": lines}))
        .await
        .expect("sends");
    let mine = conditional(&mut white).await;
    assert_eq!(
        mine["lines"],
        json!(["e7e5 g1f3 b8c6 f1b5", "e7e5 g1f3 g8f6 f3e5", "c7c5 g1f3"])
    );

    // 1… e5: 2. Nf3 comes at once, in the same commit.
    play(&mut black, 1, "e7e5").await;
    let s = black
        .state(WAIT, |s| s["ply"] == 3)
        .await
        .expect("the answer");
    assert_eq!(s["last_move"], "g1f3");
    let left = conditional(&mut white).await;
    assert_eq!(left["lines"], json!(["b8c6 f1b5", "g8f6 f3e5"]));

    // 2… d6 was not foreseen: the tree is dropped, White is on move.
    play(&mut black, 3, "d7d6").await;
    let s = white.state(WAIT, |s| s["ply"] == 4).await.expect("d6");
    assert_eq!(s["turn"], "white");
    assert_eq!(conditional(&mut white).await["lines"], json!([]));
    server.stop().await;
}

#[tokio::test]
async fn only_the_owner_sees_them_and_bad_trees_are_refused() {
    let server = TestServer::start().await;
    let (mut white, mut black) = sockets(&server).await;
    // On move: make your own move first.
    support::refused_saying(
        &mut white,
        &json!({"t": "conditional", "lines": ["e5 Nf3"]}),
        "your own move first",
    )
    .await;

    play(&mut white, 0, "e2e4").await;
    black.state(WAIT, |s| s["ply"] == 1).await.expect("e4");
    for (lines, says) in [
        (json!(["e5 Ke3"]), "line 1, move 2"),
        (json!(["e5 Nf3", "e5 Nc3"]), "line 2 answers"),
        (json!(["e5 Nf3 Nc6"]), "add your answer"),
        (json!(["Nc6 Nf3 Nb8 Ng1 ".repeat(150)]), "more than the 400"),
    ] {
        support::refused_saying(
            &mut white,
            &json!({"t": "conditional", "lines": lines}),
            says,
        )
        .await;
    }
    // Black, the opponent, never hears of White's tree; a spectator neither.
    white
        .send(&json!({"t": "conditional", "lines": ["e5 Nf3"]}))
        .await
        .expect("sends");
    conditional(&mut white).await;
    play(&mut black, 1, "c7c5").await;
    white.state(WAIT, |s| s["ply"] == 2).await.expect("c5");
    let mut seen = Vec::new();
    while let Ok(message) = black.recv(std::time::Duration::from_millis(300)).await {
        seen.push(message);
    }
    assert!(seen.iter().all(|m| m["t"] != "conditional"), "{seen:?}");
    server.stop().await;
}
