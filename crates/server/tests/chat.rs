//! The players' chat: a line from the Board API reaches the other
//! player's socket, a line from the page reaches the Board API's stream
//! as lichess's `chatLine`; lines are short, one a second, from players
//! only, and kept with the game.

mod support;

use rochade_server::Storage;
use serde_json::json;
use support::{TestServer, WAIT};
use tokio::io::{AsyncBufRead, Lines};

/// The stream's first line that `wanted` holds of, waiting at most
/// [`WAIT`] (`Err`); `None` if the stream ends before it.
async fn first_line(
    lines: &mut Lines<impl AsyncBufRead + Unpin>,
    wanted: impl Fn(&str) -> bool,
) -> Result<Option<String>, tokio::time::error::Elapsed> {
    tokio::time::timeout(WAIT, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if wanted(&line) {
                return Some(line);
            }
        }
        None
    })
    .await
}

#[tokio::test]
async fn players_chat_between_the_board_api_and_the_page() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let server = TestServer::start().await;
    let storage = support::open(&server.db);
    // Fischer (White, Board API) and Spassky (Black, the page).
    let (game, _, black, token) = support::account_game(&server).await;
    let (mut page, _) = server.connect(&json!({"game": game}), &black).await;

    // Fischer's stream, read line by line.
    let mut stream = tokio::net::TcpStream::connect(&server.host)
        .await
        .expect("connects");
    let head = format!(
        "GET /api/board/game/stream/{game} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\n\r\n",
        server.host
    );
    stream.write_all(head.as_bytes()).await.expect("sends");
    let mut lines = BufReader::new(stream).lines();
    // The stream is open once its first event, the whole game, has come:
    // a line said before that is not the stream's (as on lichess).
    first_line(&mut lines, |line| line.contains("gameFull"))
        .await
        .expect("the stream opens in time")
        .expect("the stream's gameFull");

    let chat = format!("/api/board/game/{game}/chat");
    let form = "application/x-www-form-urlencoded";
    let (status, body) = support::bearer_raw(
        &server.host,
        "POST",
        &chat,
        form,
        "room=player&text=Good+luck",
        &token,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let heard = page.until("chat", WAIT, |_| true).await.expect("the line");
    assert_eq!(
        (heard["name"].clone(), heard["text"].clone()),
        (json!("Fischer"), json!("Good luck"))
    );
    assert_eq!(heard["color"], "white");

    page.send(&json!({"t": "chat", "text": "Thank you"}))
        .await
        .expect("sends");
    let line = first_line(&mut lines, |line| {
        line.contains("chatLine") && line.contains("Spassky")
    })
    .await
    .expect("in time")
    .expect("a chatLine");
    let line: serde_json::Value = serde_json::from_str(&line).expect("json");
    assert_eq!(
        line,
        json!({"type": "chatLine", "room": "player", "username": "Spassky", "text": "Thank you"})
    );

    // One line a second: a line right after an accepted one is refused.
    let post =
        |text: &'static str| support::bearer_raw(&server.host, "POST", &chat, form, text, &token);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(post("room=player&text=Quick").await.0, 200);
    let (status, body) = post("room=player&text=Again").await;
    assert_eq!(status, 429, "{body}");
    assert!(body.to_string().contains("second"), "{body}");
    // Too long, the spectators' room, an empty line: refused.
    for (text, why) in [
        (format!("room=player&text={}", "x".repeat(141)), "141"),
        ("room=spectator&text=Hello".to_owned(), "spectators"),
        ("room=player&text=".to_owned(), "characters"),
    ] {
        let (status, body) =
            support::bearer_raw(&server.host, "POST", &chat, form, &text, &token).await;
        assert!(status == 400 || status == 429, "{text}: {status} {body}");
        assert!(body.to_string().contains(why), "{text}: {body}");
    }
    // A spectator cannot chat.
    let (mut spectator, _) = server.connect(&json!({"game": game}), "").await;
    spectator
        .send(&json!({"t": "chat", "text": "Hi"}))
        .await
        .expect("sends");
    let error = spectator
        .until("error", WAIT, |_| true)
        .await
        .expect("refused");
    assert_eq!(error["code"], "spectator");
    // Kept with the game: a restart replays the chat (and its limits).
    let stored = storage.load(&game).expect("loads").expect("a game");
    let said: Vec<_> = stored
        .events
        .iter()
        .filter_map(|e| match &e.event {
            rochade_server::event::Event::Chat { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(said, ["Good luck", "Thank you", "Quick"]);
    server.stop().await;
}
