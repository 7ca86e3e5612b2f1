//! Three real `rochade serve` nodes sharing one database and one Redis
//! (issue 20, points 4 and 5): a game created on one node is played from
//! sockets on the two others; the owner is killed (SIGKILL) mid-game and
//! another node takes the game over within five seconds, with the clocks
//! stopped for the gap (6.12); the pages' sockets come back and the game
//! goes on; the killed node starts again and serves its share. And a
//! node that dies takes its sockets out of the games it relayed; one
//! that stalls past its lease brings them back when it runs again.
//!
//! The database is a SQLite file the three processes share, or with
//! `ROCHADE_TEST_POSTGRES` (scripts/with-postgres) a fresh PostgreSQL
//! database. Redis is Debian's `redis-server`, started here on a free
//! port; without it the test is skipped, except under CI, where it fails.

mod support;
mod support_cluster;

use std::time::{Duration, Instant};

use rochade_loadtest::client::{GameSocket, post_json};
use serde_json::{Value, json};
use support_cluster::{Node, WAIT, database, logs, redis};

/// Reads `socket` until a state that `want` accepts.
async fn state(socket: &mut GameSocket, want: impl Fn(&Value) -> bool, nodes: &[&Node]) -> Value {
    match socket.state(WAIT, want).await {
        Ok(state) => state,
        Err(e) => panic!("{e}\n{}", logs(nodes)),
    }
}

/// The clocks of a state, in ms.
fn clocks(state: &Value) -> (i64, i64) {
    let ms = |c: &str| state["clock"][c].as_i64().expect("ms");
    (ms("white"), ms("black"))
}

/// Connects to game `id` at `host` again and again until the game's
/// state comes (a node just taking the game over answers `busy` or not at
/// all for a moment); returns the socket, its first state and how long
/// it took.
async fn reconnect(host: &str, id: &str, token: &str, nodes: &[&Node]) -> (GameSocket, Value) {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Ok(mut socket) = GameSocket::connect(host, id, token).await
            && let Ok(state) = socket.state(Duration::from_secs(2), |_| true).await
        {
            return (socket, state);
        }
        assert!(
            Instant::now() < deadline,
            "never came back\n{}",
            logs(nodes)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A 5+0 game between friends created on `node`, which owns it: its id,
/// White's token and Black's.
async fn friend_game(node: &Node) -> (String, String, String) {
    let (status, game) = post_json(
        &node.host,
        "/api/games",
        &json!({"opponent": "friend", "color": "white", "time_control": "5+0"}),
    )
    .await
    .expect("creates");
    assert_eq!(status, 201, "{game}");
    let id = game["game"].as_str().expect("id").to_owned();
    let white = game["token"].as_str().expect("token").to_owned();
    let black = game["links"]["black"]
        .as_str()
        .and_then(|l| l.split_once('#'))
        .map(|(_, t)| t.to_owned())
        .expect("black's token");
    (id, white, black)
}

#[tokio::test]
async fn art_6_12_a_game_survives_the_death_of_the_node_that_owns_it() {
    let dir = std::env::temp_dir().join(format!("rochade-cluster-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let Some((_redis, redis)) = redis(&dir) else {
        return;
    };
    let db = database(&dir, "cluster");
    let mut n1 = Node::start("n1", &db, &redis, &dir).await;
    // One node runs all its sockets and rooms on one thread, as a node
    // pinned to one core does (`--threads 1`).
    let n2 = Node::start_with("n2", &db, &redis, &dir, &["--threads", "1"]).await;
    let n3 = Node::start("n3", &db, &redis, &dir).await;

    // Created on n1, which owns it; White plays from n2, Black from n3.
    let (id, white, black) = friend_game(&n1).await;
    let mut sockets = [
        GameSocket::connect(&n2.host, &id, &white)
            .await
            .expect("white on n2"),
        GameSocket::connect(&n3.host, &id, &black)
            .await
            .expect("black on n3"),
    ];
    let all = [&n1, &n2, &n3];
    // Each sees the other there, though neither is on the owner's node
    // (whichever joined first hears of the other in a later state).
    let firsts = [
        state(&mut sockets[0], |s| s["ply"] == 0, &all).await,
        state(&mut sockets[1], |s| s["ply"] == 0, &all).await,
    ];
    for (i, other) in [(0, "black"), (1, "white")] {
        if firsts[i]["players"][other]["connected"] != true {
            state(
                &mut sockets[i],
                |s| s["players"][other]["connected"] == true,
                &all,
            )
            .await;
        }
    }
    // A line of chat crosses from n3 through n1 to n2.
    sockets[1]
        .send(&json!({"t": "chat", "text": "Good luck"}))
        .await
        .expect("sends");
    let heard = sockets[0]
        .until("chat", WAIT, |_| true)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", logs(&all)));
    assert_eq!(
        (heard["text"].clone(), heard["color"].clone()),
        (json!("Good luck"), json!("black"))
    );
    let mut last = Value::Null;
    for (ply, uci) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        let mover = ply % 2;
        sockets[mover]
            .send(&json!({"t": "move", "ply": ply, "uci": uci}))
            .await
            .expect("sends");
        last = state(&mut sockets[mover], |s| s["ply"] == ply + 1, &all).await;
        // The other side sees it too, through its own node.
        state(&mut sockets[1 - mover], |s| s["ply"] == ply + 1, &all).await;
    }
    assert_eq!(last["clock"]["running"], "black");

    // Black's clock runs a second; then n1 dies without a word.
    tokio::time::sleep(Duration::from_secs(1)).await;
    n1.kill();
    let killed = Instant::now();

    // Both pages' sockets close (their relay saw the owner go silent) and
    // come back; n2 or n3 has taken the game over from its stored events.
    let [white_socket, black_socket] = sockets;
    drop((white_socket, black_socket));
    let alive = [&n2, &n3];
    let (mut white_socket, back) = reconnect(&n2.host, &id, &white, &alive).await;
    let (mut black_socket, _) = reconnect(&n3.host, &id, &black, &alive).await;
    assert_eq!(back["ply"], 3);
    assert_eq!(back["moves"], last["moves"]);
    black_socket
        .send(&json!({"t": "move", "ply": 3, "uci": "b8c6"}))
        .await
        .expect("sends");
    let next = state(&mut black_socket, |s| s["ply"] == 4, &alive).await;
    // How soon is a figure `scripts/fault-test` measures (issue 20 point
    // 5), not asserted here on a shared machine; the game going on at all
    // is.
    let took = killed.elapsed();
    eprintln!("the game went on {took:?} after its node was killed");
    state(&mut white_socket, |s| s["ply"] == 4, &alive).await;
    // 6.12: Black's clock stood still while nobody owned the game.
    let (_, black_before) = clocks(&last);
    let (_, black_after) = clocks(&next);
    let used = black_before - black_after;
    assert!(
        (0..2_500).contains(&used),
        "Black was charged {used} ms for a second's thought over a {took:?} takeover"
    );
    let logs_now = logs(&alive);
    assert!(
        logs_now.contains("taking over the games of a node that stopped"),
        "{logs_now}"
    );

    // n1 comes back and serves: a game created there is played from n2.
    n1.restart(&db, &redis).await;
    let (status, game) = post_json(
        &n1.host,
        "/api/games",
        &json!({"opponent": "local", "time_control": "-"}),
    )
    .await
    .expect("creates");
    assert_eq!(status, 201, "{game}");
    let second = game["game"].as_str().expect("id");
    let mut socket = GameSocket::connect(&n2.host, second, game["token"].as_str().expect("token"))
        .await
        .expect("connects");
    socket
        .send(&json!({"t": "move", "ply": 0, "uci": "d2d4"}))
        .await
        .expect("sends");
    state(&mut socket, |s| s["ply"] == 1, &[&n1, &n2, &n3]).await;
    // And the first game still answers through n1.
    let (watcher, seen) = reconnect(&n1.host, &id, "", &[&n1, &n2, &n3]).await;
    assert_eq!(seen["ply"], 4);
    watcher.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game owned by n1, White playing from n2 and Black from n1, Black
/// having seen White there.
struct Split {
    dir: std::path::PathBuf,
    /// Stopped when the test ends.
    _redis: support_cluster::Killed,
    n1: Node,
    n2: Node,
    id: String,
    /// White's token.
    white: String,
    white_socket: GameSocket,
    black: GameSocket,
}

/// Starts [`Split`] for the test `label` (its directory and database);
/// none without `redis-server`.
async fn white_on_n2_black_on_n1(label: &str) -> Option<Split> {
    let dir = support_cluster::temp_dir(&format!("cluster-{label}"));
    let (redis_process, redis) = redis(&dir)?;
    let db = database(&dir, &label.replace('-', "_"));
    let n1 = Node::start("n1", &db, &redis, &dir).await;
    let n2 = Node::start("n2", &db, &redis, &dir).await;
    let (id, white, black) = friend_game(&n1).await;
    let white_socket = GameSocket::connect(&n2.host, &id, &white)
        .await
        .expect("white on n2");
    let mut black = GameSocket::connect(&n1.host, &id, &black)
        .await
        .expect("black on n1");
    state(
        &mut black,
        |s| s["players"]["white"]["connected"] == true,
        &[&n1, &n2],
    )
    .await;
    Some(Split {
        dir,
        _redis: redis_process,
        n1,
        n2,
        id,
        white,
        white_socket,
        black,
    })
}

/// A node that dies takes its sockets out of the games it relayed: the
/// owner counts them gone once its heartbeat is stale. A game is created
/// on n1, which owns it; Black plays from n1, White from n2. n2 is killed
/// (SIGKILL): Black's page is told that White is no longer connected
/// (without it, White's seat would stay taken by a socket that no longer
/// exists, on the page and against the seat's cap of sockets).
#[tokio::test]
async fn a_dead_nodes_sockets_leave_the_games_it_relayed() {
    let Some(Split {
        dir,
        _redis,
        n1,
        mut n2,
        // Kept open until n2 dies with it.
        white_socket: _white,
        mut black,
        ..
    }) = white_on_n2_black_on_n1("dead-sockets").await
    else {
        return;
    };
    n2.kill();
    state(
        &mut black,
        |s| s["players"]["white"]["connected"] == false,
        &[&n1],
    )
    .await;
    black.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A node that stalls past its lease (SIGSTOP, then SIGCONT) closes the
/// sockets it relayed when it runs again: the owner counted them gone
/// meanwhile, and a socket kept open would play on unseen by the room
/// (its seat shown empty to the opponent). The game is owned by n1; White
/// plays from n2, Black from n1. n2 stops for a few seconds: Black is told
/// White is gone. n2 runs again: White's socket closes, White comes back
/// through n2, and Black is told White is there.
#[tokio::test]
async fn a_stalled_nodes_sockets_come_back_and_are_seen_again() {
    let Some(Split {
        dir,
        _redis,
        n1,
        n2,
        id,
        white,
        mut white_socket,
        black: mut black_socket,
    }) = white_on_n2_black_on_n1("stalled-sockets").await
    else {
        return;
    };
    let both = [&n1, &n2];
    let there = |s: &Value| s["players"]["white"]["connected"] == true;
    state(&mut white_socket, |_| true, &both).await;

    n2.signal("STOP");
    let gone = |s: &Value| s["players"]["white"]["connected"] == false;
    state(&mut black_socket, gone, &[&n1]).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    n2.signal("CONT");
    // White's socket closes ...
    let deadline = Instant::now() + WAIT;
    loop {
        match white_socket.recv(deadline - Instant::now()).await {
            Ok(_) => continue,
            Err(rochade_loadtest::client::ClientError::Timeout(_)) => {
                panic!("White's socket on n2 stayed open\n{}", logs(&both))
            }
            Err(_) => break,
        }
    }
    // ... and comes back: the room sees it again.
    let (_white_again, _) = reconnect(&n2.host, &id, &white, &both).await;
    state(&mut black_socket, there, &both).await;
    black_socket.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
