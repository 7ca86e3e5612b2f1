//! The real `rochade serve` process killed mid-game (SIGKILL) and started
//! again: same position, same clocks (stopped while it was down, 6.12),
//! and the game goes on. Then SIGTERM stops it cleanly.

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rochade_loadtest::client::{GameSocket, post_json};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(20);

/// Starts `rochade serve` and waits until it answers.
async fn start(host: &str, db: &Path) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(["serve", "--addr", host, "--db"])
        .arg(db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("rochade serve starts");
    support::listening(host, WAIT).await;
    child
}

/// The clocks of a state, in ms.
fn clocks(state: &Value) -> (i64, i64) {
    let ms = |c: &str| state["clock"][c].as_i64().expect("ms");
    (ms("white"), ms("black"))
}

#[tokio::test]
async fn art_6_12_a_killed_server_resumes_its_games_with_clocks_stopped() {
    let dir = std::env::temp_dir().join(format!("rochade-recovery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("games.sqlite");
    let host = support::free_host();

    let mut server = start(&host, &db).await;
    let (status, game) = post_json(
        &host,
        "/api/games",
        &json!({"opponent": "local", "time_control": "5+0"}),
    )
    .await
    .expect("creates");
    assert_eq!(status, 201);
    let id = game["game"].as_str().expect("id");
    let token = game["token"].as_str().expect("token");
    let mut socket = GameSocket::connect(&host, id, token)
        .await
        .expect("connects");
    let mut before = Value::Null;
    for (ply, uci) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        socket
            .send(&json!({"t": "move", "ply": ply, "uci": uci}))
            .await
            .expect("sends");
        before = socket
            .state(WAIT, |s| s["ply"] == ply + 1)
            .await
            .expect("acknowledged");
    }
    // Black's clock runs for a second, then the server dies without warning.
    tokio::time::sleep(Duration::from_secs(1)).await;
    server.kill().expect("SIGKILL");
    let _ = server.wait();
    let down = Duration::from_secs(3);
    tokio::time::sleep(down).await;

    let mut server = start(&host, &db).await;
    let mut socket = GameSocket::connect(&host, id, token)
        .await
        .expect("reconnects");
    let after = socket.state(WAIT, |_| true).await.expect("state");
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["ply"], 3);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["clock"]["running"], "black");
    let (white0, black0) = clocks(&before);
    let (white1, black1) = clocks(&after);
    assert_eq!(white1, white0, "White's clock did not run");
    // FIDE 6.12: Black's clock ran while the server did (about a second,
    // known to the second) and stood still for the three seconds it was down.
    let used = black0 - black1;
    assert!(used >= 0, "Black gained time: {before} -> {after}");
    assert!(
        used < 2_500,
        "Black was charged {used} ms: the {down:?} of downtime counted"
    );

    // The game goes on.
    socket
        .send(&json!({"t": "move", "ply": 3, "uci": "b8c6"}))
        .await
        .expect("sends");
    let next = socket
        .state(WAIT, |s| s["ply"] == 4)
        .await
        .expect("the move after the restart is accepted");
    assert_eq!(next["last_move"], "b8c6");

    // SIGTERM: drains and exits cleanly.
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = server.try_wait().expect("waits") {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(Instant::now() < deadline, "SIGTERM did not stop the server");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
