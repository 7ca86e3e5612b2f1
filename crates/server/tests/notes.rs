//! A player's private notes on a game through the running server
//! (issue 17 point 14): kept per player and game, read back on any device
//! and after a restart, refused to anyone who does not play the game and
//! past 10,000 characters, with nothing stored.

mod support;

use rochade_loadtest::client::{GameSocket, request};
use rochade_server::Storage;
use rochade_server::storage::WriteOp;
use serde_json::{Value, json};
use support::{TestServer, WAIT, account_game_of, ask_page, sign_up};

/// Signs `name` in again (as from a second device); the new session.
async fn sign_in(server: &TestServer, name: &str) -> String {
    let body = json!({"name": name, "password": "a long secret 1"});
    let answer = request(&server.host, "POST", "/api/auth/signin", Some(&body), None)
        .await
        .expect("answers");
    answer.session.expect("a session")
}

/// A server with a `3d/move` game between Fischer (White) and Spassky:
/// the server, the game, White's seat token and a session of Fischer's.
async fn fischers_game() -> (TestServer, String, String, String) {
    let server = TestServer::start().await;
    let (game, white, _, _) = account_game_of(&server, "3d/move").await;
    let fischer = sign_in(&server, "Fischer").await;
    (server, game, white, fischer)
}

/// The notes path of `game`.
fn path(game: &str) -> String {
    format!("/api/account/notes/{game}")
}

/// Saves `text` as the notes of the holder of `session` on `game`.
async fn save(server: &TestServer, session: &str, game: &str, text: &str) -> (u16, Value) {
    let body = json!({ "text": text });
    ask_page(server, session, "POST", &path(game), Some(body)).await
}

#[tokio::test]
async fn notes_are_each_players_own_and_follow_them_to_another_device() {
    let (server, game, _, fischer) = fischers_game().await;
    let spassky = sign_in(&server, "Spassky").await;

    let (status, empty) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty, json!({"text": "", "at": null}));

    let (status, saved) = save(&server, &fischer, &game, "Plan: c4, Nc3, a queenside push").await;
    assert_eq!(status, 200, "{saved}");
    assert!(saved["at"].as_u64().is_some(), "{saved}");

    // Another device of Fischer's reads them; Spassky's are his own.
    let elsewhere = sign_in(&server, "Fischer").await;
    let (_, read) = ask_page(&server, &elsewhere, "GET", &path(&game), None).await;
    assert_eq!(read["text"], "Plan: c4, Nc3, a queenside push");
    assert_eq!(read["at"], saved["at"]);
    let (_, his) = ask_page(&server, &spassky, "GET", &path(&game), None).await;
    assert_eq!(his["text"], "", "{his}");
    let (status, _) = save(&server, &spassky, &game, "He likes the queenside").await;
    assert_eq!(status, 200);
    let (_, read) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(read["text"], "Plan: c4, Nc3, a queenside push", "untouched");

    // A save replaces the text; an empty one clears it.
    save(&server, &elsewhere, &game, "Second thoughts").await;
    let (_, read) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(read["text"], "Second thoughts");
    save(&server, &fischer, &game, "").await;
    let (_, read) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(read["text"], "");

    // Kept across a restart.
    save(&server, &fischer, &game, "Still here").await;
    let db = server.db.clone();
    server.stop().await;
    let server = TestServer::start_with(db).await;
    let (_, read) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(read["text"], "Still here");
    server.stop().await;
}

#[tokio::test]
async fn notes_are_refused_past_ten_thousand_characters_and_to_non_players() {
    let (server, game, _, fischer) = fischers_game().await;
    let carol = sign_up(&server, "Carol").await;

    // Characters, not bytes: 10,000 of "č" (two bytes each) are allowed.
    let most = "č".repeat(10_000);
    let (status, saved) = save(&server, &fischer, &game, &most).await;
    assert_eq!(status, 200, "{saved}");
    let (status, refused) = save(&server, &fischer, &game, &format!("{most}x")).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"]["code"], "bad_request");
    let says = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(says.contains("10000 allowed"), "{says}");
    let (_, read) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(read["text"], most, "the refused text was not stored");

    // Another player, nobody, a game that does not exist, a bad body.
    let (status, answer) = save(&server, &carol, &game, "spying").await;
    assert_eq!(status, 404, "{answer}");
    assert_eq!(answer["error"]["code"], "not_found");
    let (status, _) = ask_page(&server, &carol, "GET", &path(&game), None).await;
    assert_eq!(status, 404);
    let anonymous = request(&server.host, "GET", &path(&game), None, None)
        .await
        .expect("answers");
    assert_eq!(anonymous.status, 401);
    let body = json!({"text": "x"});
    let anonymous = request(&server.host, "POST", &path(&game), Some(&body), None)
        .await
        .expect("answers");
    assert_eq!(anonymous.status, 401);
    let (status, _) = save(&server, &fischer, "nosuchgame", "x").await;
    assert_eq!(status, 404);
    let (status, answer) = ask_page(
        &server,
        &fischer,
        "POST",
        &path(&game),
        Some(json!({"txt": "typo"})),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("notes: ")),
        "{answer}"
    );
    let (_, read) = ask_page(&server, &fischer, "GET", &path(&game), None).await;
    assert_eq!(read["text"], most, "none of the refusals changed it");
    server.stop().await;
}

#[tokio::test]
async fn an_aborted_games_notes_go_with_it_when_it_is_purged() {
    let (server, game, white, fischer) = fischers_game().await;
    let (status, _) = save(&server, &fischer, &game, "Never played").await;
    assert_eq!(status, 200);
    let mut socket = GameSocket::connect(&server.host, &game, &white)
        .await
        .expect("connects");
    socket.send(&json!({"t": "abort"})).await.expect("sends");
    socket
        .state(WAIT, |s| s["aborted"] == true)
        .await
        .expect("aborted");
    drop(socket);
    let db = server.db.clone();
    server.stop().await;

    // The purge deletes the game; its notes must not hold it back.
    let storage = support::open(&db);
    let purge = WriteOp::Purge {
        aborted_before: u64::MAX / 2,
        finished_before: None,
        most: 100,
    };
    storage.write(&[purge], 0).expect("the purge commits");
    assert!(storage.load(&game).expect("reads").is_none(), "purged");
}
