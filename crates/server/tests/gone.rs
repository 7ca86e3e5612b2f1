//! A player who leaves: once both sides have moved and the opponent (a
//! person) has had no connection for the server's `gone_claim` time, the
//! player may claim the win (lichess's `opponentGone` and
//! `claim-victory`); the game ends as a forfeit of the one who left, and
//! lichess's status is `timeout`. Not before the time, not against the
//! robot, not before both sides have moved.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{TestServer, WAIT};

/// A server whose players may claim after 1 s.
async fn server() -> TestServer {
    let mut config =
        rochade_server::ServeConfig::new("127.0.0.1:0".parse().expect("addr"), support::temp_db());
    config.limits.gone_claim = Duration::from_secs(1);
    TestServer::start_config(config).await
}

#[tokio::test]
async fn the_win_is_claimed_once_the_opponent_has_been_gone_long_enough() {
    let server = server().await;
    let (game, white, black, _) = support::account_game(&server).await;
    let id = json!({"game": game});
    let (mut w, _) = server.connect(&id, &white).await;
    let (mut b, _) = server.connect(&id, &black).await;
    // Before both sides have moved: abort, not win.
    w.send(&json!({"t": "claim_victory"})).await.expect("sends");
    let early = w.until("error", WAIT, |_| true).await.expect("refused");
    assert!(
        early["message"]
            .as_str()
            .expect("message")
            .contains("aborted"),
        "{early}"
    );
    support::play(&mut w, 0, "e2e4").await;
    b.state(WAIT, |s| s["ply"] == 1).await.expect("seen");
    support::play(&mut b, 1, "e7e5").await;
    w.state(WAIT, |s| s["ply"] == 2).await.expect("seen");
    // Black is here: no claim.
    w.send(&json!({"t": "claim_victory"})).await.expect("sends");
    let here = w.until("error", WAIT, |_| true).await.expect("refused");
    assert_eq!(here["code"], "not_allowed");
    b.close().await;
    w.state(WAIT, |s| s["players"]["black"]["connected"] == false)
        .await
        .expect("Black gone");
    // Too soon.
    w.send(&json!({"t": "claim_victory"})).await.expect("sends");
    let soon = w.until("error", WAIT, |_| true).await.expect("refused");
    assert!(
        soon["message"]
            .as_str()
            .expect("message")
            .contains("after 1 s"),
        "{soon}"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    w.send(&json!({"t": "claim_victory"})).await.expect("sends");
    let over = w
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("won");
    assert_eq!(over["outcome"]["winner"], "white");
    assert_eq!(over["outcome"]["reason"], "forfeit");
    assert_eq!(over["left"], "black");
    let (_, list) = rochade_loadtest::client::get_json(&server.host, &format!("/api/games/{game}"))
        .await
        .expect("answers");
    assert_eq!(list["left"], "black");
    server.stop().await;
}

#[tokio::test]
async fn the_board_api_hears_opponent_gone_and_claims_victory() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let server = server().await;
    let (game, _, black, api) = support::account_game(&server).await;
    let mut stream = tokio::net::TcpStream::connect(&server.host)
        .await
        .expect("connects");
    let head = format!(
        "GET /api/board/game/stream/{game} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {api}\r\n\r\n",
        server.host
    );
    stream.write_all(head.as_bytes()).await.expect("sends");
    let mut lines = BufReader::new(stream).lines();
    let (mut b, _) = server.connect(&json!({"game": game}), &black).await;
    let form = "application/x-www-form-urlencoded";
    let path = format!("/api/board/game/{game}/move/e2e4");
    assert_eq!(
        support::bearer_raw(&server.host, "POST", &path, form, "", &api)
            .await
            .0,
        200
    );
    b.state(WAIT, |s| s["ply"] == 1).await.expect("seen");
    support::play(&mut b, 1, "e7e5").await;
    b.state(WAIT, |s| s["ply"] == 2).await.expect("seen");
    b.close().await;
    let mut gone = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("opponentGone") {
                let news: Value = serde_json::from_str(&line).expect("json");
                gone.push(news["claimWinInSeconds"].clone());
                if news["claimWinInSeconds"] == 0 {
                    return;
                }
            }
        }
    })
    .await
    .expect("told in time");
    assert_eq!(gone, [json!(1), json!(0)]);
    let claim = format!("/api/board/game/{game}/claim-victory");
    let (status, body) = support::bearer_raw(&server.host, "POST", &claim, form, "", &api).await;
    assert_eq!(status, 200, "{body}");
    let request = "/api/games/user/fischer?ongoing=true";
    let mut export = tokio::net::TcpStream::connect(&server.host)
        .await
        .expect("connects");
    let head = format!(
        "GET {request} HTTP/1.1\r\nHost: {}\r\nAccept: application/x-ndjson\r\nConnection: close\r\n\r\n",
        server.host
    );
    export.write_all(head.as_bytes()).await.expect("sends");
    let mut text = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut export, &mut text)
        .await
        .expect("reads");
    assert!(text.contains("\"status\":\"timeout\""), "{text}");
    assert!(text.contains("\"winner\":\"white\""), "{text}");
    server.stop().await;
}
