//! Tablebase claims (ICCF 5.1.3, 5.2.4) on a server with Syzygy tables
//! (`--syzygy`): the state tells the player on move what may be claimed; a
//! correct claim ends the game, a wrong one changes nothing (9.4.3); under
//! the FIDE Laws, or on a server without tables, no such claim is made.

mod support;

use std::path::PathBuf;

use rochade_server::ServeConfig;
use serde_json::{Value, json};
use support::{TestServer, WAIT, temp_db};

/// The pinned 3-4-piece tables (`scripts/fetch-test-data`).
fn tables() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    if dir.join("KQvK.rtbw").exists() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: no Syzygy tables in {} (run scripts/fetch-test-data)",
            dir.display()
        );
        None
    }
}

async fn server(syzygy: Vec<PathBuf>) -> TestServer {
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), temp_db());
    config.syzygy = syzygy;
    TestServer::start_config(config).await
}

/// A local correspondence game from `fen` under `rules`; its socket and
/// first state.
async fn game(
    server: &TestServer,
    fen: &str,
    rules: &str,
) -> (rochade_loadtest::client::GameSocket, Value) {
    let game = server
        .create(json!({"opponent": "local", "time_control": "3d/move", "fen": fen, "rules": rules}))
        .await;
    server
        .connect(&game, game["token"].as_str().expect("token"))
        .await
}

/// King and queen against king, White to move: a win for White.
const KQK: &str = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
/// King and rook's pawn against the king in the corner: a draw (python-chess
/// agrees: WDL 0).
const KPK_DRAW: &str = "k7/8/8/8/8/8/P7/K7 w - - 0 1";

#[tokio::test]
async fn iccf_art_5_1_3_a_correct_claim_wins_and_a_wrong_one_changes_nothing() {
    let Some(dir) = tables() else { return };
    let server = server(vec![dir]).await;
    let (mut socket, state) = game(&server, KQK, "iccf").await;
    assert_eq!(state["claimable"]["tablebase_win"], true, "{state}");
    assert_eq!(state["claimable"]["tablebase_draw"], false);

    // 9.4.3: claiming a draw in a won position is wrong; nothing changes.
    support::refused_saying(
        &mut socket,
        &json!({"t": "tablebase_claim", "claim": "draw"}),
        "9.4.3",
    )
    .await;

    socket
        .send(&json!({"t": "tablebase_claim", "claim": "win"}))
        .await
        .expect("sends");
    let over = socket
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("the game ends");
    assert_eq!(over["outcome"]["result"], "1-0", "{over}");
    assert_eq!(over["outcome"]["reason"], "tablebase_win");
    assert_eq!(over["outcome"]["article"], "ICCF 5.1.3");
    server.stop().await;
}

#[tokio::test]
async fn iccf_art_5_2_4_a_drawn_position_is_claimed_as_a_draw() {
    let Some(dir) = tables() else { return };
    let server = server(vec![dir]).await;
    let (mut socket, state) = game(&server, KPK_DRAW, "iccf").await;
    assert_eq!(state["claimable"]["tablebase_draw"], true, "{state}");
    socket
        .send(&json!({"t": "tablebase_claim", "claim": "draw"}))
        .await
        .expect("sends");
    let over = socket
        .state(WAIT, |s| !s["outcome"].is_null())
        .await
        .expect("the game ends");
    assert_eq!(over["outcome"]["result"], "1/2-1/2", "{over}");
    assert_eq!(over["outcome"]["reason"], "tablebase_draw");
    server.stop().await;
}

#[tokio::test]
async fn no_tablebase_claim_under_the_fide_laws_or_without_tables() {
    let Some(dir) = tables() else { return };
    let with = server(vec![dir]).await;
    let (mut socket, state) = game(&with, KQK, "fide").await;
    assert_eq!(state["claimable"]["tablebase_win"], false);
    support::refused_saying(
        &mut socket,
        &json!({"t": "tablebase_claim", "claim": "win"}),
        "ICCF",
    )
    .await;
    with.stop().await;

    let without = server(Vec::new()).await;
    let (mut socket, state) = game(&without, KQK, "iccf").await;
    assert_eq!(state["claimable"]["tablebase_win"], false);
    support::refused_saying(
        &mut socket,
        &json!({"t": "tablebase_claim", "claim": "win"}),
        "no tablebases",
    )
    .await;
    without.stop().await;
}
