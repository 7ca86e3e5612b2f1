//! A database that does not answer (issue 20, point 8): a move waits for
//! its commit at most `store_wait`, then its player is answered `busy`
//! ("try again") instead of a socket that hangs; nothing is told before it
//! is stored; a commit that lands late is stored once, and the same move
//! sent again is refused as stale, never applied twice. Runs on SQLite and,
//! under `scripts/with-postgres`, on PostgreSQL.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use rochade_server::ServeConfig;
use rochade_server::event::Event;
use rochade_server::storage::{Storage, is_postgres};
use serde_json::json;
use support::{TestServer, WAIT};

/// Another client holding the database's write lock until released.
enum WriteLock {
    /// `BEGIN EXCLUSIVE` on the SQLite file.
    Sqlite(rusqlite::Connection),
    /// `LOCK TABLE events` in an open PostgreSQL transaction.
    Postgres(tokio_postgres::Client),
}

impl WriteLock {
    /// Takes the lock: from now on no move can be stored.
    async fn take(db: &Path) -> WriteLock {
        let db = db.to_string_lossy();
        if is_postgres(&db) {
            let (client, connection) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
                .await
                .expect("connects");
            tokio::spawn(connection);
            client
                .batch_execute("BEGIN; LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
                .await
                .expect("locks");
            WriteLock::Postgres(client)
        } else {
            let conn = rusqlite::Connection::open(db.as_ref()).expect("opens");
            conn.execute_batch("BEGIN EXCLUSIVE").expect("locks");
            WriteLock::Sqlite(conn)
        }
    }

    /// Lets the waiting commit through.
    async fn release(self) {
        match self {
            WriteLock::Sqlite(conn) => conn.execute_batch("COMMIT").expect("unlocks"),
            WriteLock::Postgres(client) => client.batch_execute("COMMIT").await.expect("unlocks"),
        }
    }
}

/// The moves stored for `game`, in order.
fn stored_moves(db: &Path, game: &str) -> Vec<String> {
    support::open(db)
        .load(game)
        .expect("reads")
        .expect("stored")
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Move { uci, .. } => Some(uci.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_database_does_not_take_in_time_is_answered_busy_and_stored_once() {
    let db = support::temp_db();
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), db.clone());
    config.limits.store_wait = Duration::from_millis(400);
    let server = TestServer::start_config(config).await;
    let game = server
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let id = game["game"].as_str().expect("id").to_owned();
    let token = game["token"].as_str().expect("token").to_owned();
    let (mut socket, _) = server.connect(&game, &token).await;
    support::play(&mut socket, 0, "e2e4").await;
    socket
        .state(WAIT, |s| s["ply"] == 1)
        .await
        .expect("1. e4 stored and told");

    let lock = WriteLock::take(&db).await;
    let sent = Instant::now();
    socket
        .send(&json!({"t": "move", "uci": "e7e5", "ply": 1}))
        .await
        .expect("sends");
    let busy = socket
        .until("error", WAIT, |_| true)
        .await
        .expect("answered, not left hanging");
    let waited = sent.elapsed();
    assert_eq!(busy["code"], "busy", "{busy}");
    assert!(
        busy["message"]
            .as_str()
            .is_some_and(|m| m.contains("try again")),
        "{busy}"
    );
    assert!(waited < Duration::from_secs(4), "answered after {waited:?}");
    // Nothing was told: the lock still holds, and the game as stored has
    // only the first move.
    drop(socket);
    lock.release().await;

    // The commit that waited behind the lock lands: once.
    let deadline = Instant::now() + WAIT;
    let mut moves = stored_moves(&db, &id);
    while moves.len() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        moves = stored_moves(&db, &id);
    }
    assert_eq!(moves, ["e2e4", "e7e5"], "stored once, in order");

    // The page comes back and sees it; the same move sent again is stale.
    let (mut again, state) = server.connect(&game, &token).await;
    assert_eq!(state["ply"], 2, "{state}");
    let stale = support::refused_saying(
        &mut again,
        &json!({"t": "move", "uci": "e7e5", "ply": 1}),
        "",
    )
    .await;
    assert_eq!(stale["code"], "stale_ply", "{stale}");
    support::play(&mut again, 2, "g1f3").await;
    again
        .state(WAIT, |s| s["ply"] == 3)
        .await
        .expect("the game goes on");
    assert_eq!(stored_moves(&db, &id), ["e2e4", "e7e5", "g1f3"]);
    server.stop().await;
}
