//! The real `rochade serve --log json` writes its log as one JSON object
//! a line on standard error (issue 20, point 7): a game's end is logged
//! with the game, its result, the article that ended it and its length,
//! for a log collector to read.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rochade_loadtest::client::{GameSocket, post_json};
use serde_json::{Value, json};
use support::{free_host, listening};

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn a_game_over_is_logged_as_json_with_its_fields() {
    let dir = std::env::temp_dir().join(format!("rochade-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log = dir.join("stderr.log");
    let host = free_host();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(["serve", "--log", "json", "--addr", &host, "--db"])
        .arg(dir.join("games.sqlite"))
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("rochade serve starts");
    listening(&host, WAIT).await;

    let (status, game) = post_json(
        &host,
        "/api/games",
        &json!({"opponent": "local", "time_control": "5+0"}),
    )
    .await
    .expect("creates");
    assert_eq!(status, 201);
    let id = game["game"].as_str().expect("id").to_owned();
    let mut socket = GameSocket::connect(&host, &id, game["token"].as_str().expect("token"))
        .await
        .expect("connects");
    // Fool's mate: 5.1.1.
    for (ply, uci) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        socket
            .send(&json!({"t": "move", "ply": ply, "uci": uci}))
            .await
            .expect("sends");
        socket
            .state(WAIT, |s| s["ply"] == ply + 1)
            .await
            .expect("acknowledged");
    }

    let give_up = Instant::now() + WAIT;
    let line = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let found = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["fields"]["message"] == "game over");
        if let Some(line) = found {
            break line;
        }
        assert!(Instant::now() < give_up, "no game over logged:\n{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(line["level"], "INFO", "{line}");
    assert_eq!(line["fields"]["game"], id.as_str(), "{line}");
    assert_eq!(line["fields"]["result"], "0-1", "{line}");
    assert_eq!(line["fields"]["plies"], 4, "{line}");
    assert!(
        line["fields"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("5.1.1") || r.contains("checkmate")),
        "{line}"
    );
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
