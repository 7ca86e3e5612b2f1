//! A database that does not answer (issue 20, point 8): a move waits for
//! its commit at most `store_wait`, then its player is answered `busy`
//! ("try again") instead of a socket that hangs; nothing is told before it
//! is stored; a commit that lands late is stored once, and the same move
//! sent again is refused as stale, never applied twice. Runs on SQLite and,
//! under `scripts/with-postgres`, on PostgreSQL.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use rochade_loadtest::client::GameSocket;
use rochade_server::ServeConfig;
use rochade_server::event::Event;
use rochade_server::storage::{Storage, is_postgres};
use serde_json::json;
use support::{TestServer, WAIT, stored_moves};

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

/// A local game after 1. e4 on a server whose moves wait `store_wait`
/// for their commit.
struct Opened {
    db: std::path::PathBuf,
    server: TestServer,
    game: serde_json::Value,
    id: String,
    token: String,
    socket: GameSocket,
}

async fn after_e4(store_wait: Duration) -> Opened {
    let db = support::temp_db();
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), db.clone());
    config.limits.store_wait = store_wait;
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
    Opened {
        db,
        server,
        game,
        id,
        token,
        socket,
    }
}

/// After 1. e4 e5, 2. Nf3 on `socket` is stored after them; the server
/// stops.
async fn goes_on(mut socket: GameSocket, server: TestServer, db: &Path, id: &str) {
    support::play(&mut socket, 2, "g1f3").await;
    socket
        .state(WAIT, |s| s["ply"] == 3)
        .await
        .expect("the game goes on");
    assert_eq!(stored_moves(db, id), ["e2e4", "e7e5", "g1f3"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_database_does_not_take_in_time_is_answered_busy_and_stored_once() {
    let Opened {
        db,
        server,
        game,
        id,
        token,
        mut socket,
    } = after_e4(Duration::from_millis(400)).await;

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
    goes_on(again, server, &db, &id).await;
}

/// A friend game's seat is taken when its link is first opened. A join
/// whose seat the database does not take in time is answered `busy`, not
/// with a state showing the seat taken (held only in memory, it was lost
/// when a database crash closed the room, and the opponent's moves were
/// refused from then on); opened again, the link takes the seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_the_database_does_not_take_is_answered_busy_not_shown_taken() {
    let db = support::temp_db();
    let mut config = ServeConfig::new("127.0.0.1:0".parse().expect("addr"), db.clone());
    config.limits.store_wait = Duration::from_millis(400);
    let server = TestServer::start_config(config).await;
    let game = server
        .create(json!({"opponent": "friend", "color": "white", "time_control": "-"}))
        .await;
    let id = game["game"].as_str().expect("id").to_owned();
    let black = game["links"]["black"]
        .as_str()
        .and_then(|l| l.split_once('#'))
        .map(|(_, t)| t.to_owned())
        .expect("Black's link");

    let lock = WriteLock::take(&db).await;
    let mut socket = GameSocket::connect(&server.host, &id, &black)
        .await
        .expect("connects");
    let first = socket.recv(WAIT).await.expect("answered");
    assert_eq!(first["t"], "error", "{first}");
    assert_eq!(first["code"], "busy", "{first}");
    drop(socket);
    lock.release().await;

    // The seat's write that waited behind the lock lands, and the link
    // opened again (as a page does after `busy`, until it is answered with
    // a state) finds the seat taken: Black is seated, once.
    let deadline = Instant::now() + WAIT;
    let state = loop {
        let mut socket = GameSocket::connect(&server.host, &id, &black)
            .await
            .expect("connects");
        let first = socket.recv(WAIT).await.expect("answered");
        if first["t"] == "state" {
            break first;
        }
        assert_eq!(first["code"], "busy", "{first}");
        assert!(Instant::now() < deadline, "never seated");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(state["state"]["ply"], 0, "{state}");
    let seats = || {
        support::open(&db)
            .load(&id)
            .expect("reads")
            .expect("stored")
            .events
            .iter()
            .filter(|e| matches!(e.event, Event::Seat { .. }))
            .count()
    };
    let deadline = Instant::now() + WAIT;
    while seats() == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(seats(), 1);
    server.stop().await;
}

/// A game at a glance as stored: the start position of `setup`, then
/// `ply` half-moves on with `last` as the last of them.
fn glance(setup: &rochade_server::setup::GameSetup, ply: usize, last: &str) -> String {
    let record = rochade_server::record::Record::new(setup.clone()).expect("a record");
    let mut glance = rochade_server::glance::Glance::of(&record, 0);
    glance.ply = ply;
    glance.last_move = Some(last.to_owned());
    glance.to_json()
}

/// A move's write rewrites its game's now row (beside the move's event)
/// instead of the game's row: what the last commit changed (its time, the
/// next deadline, the game at a glance) is read back from there, and the
/// game's events are its own, in order, without it.
#[test]
fn a_games_last_commit_is_read_back_from_its_now_row() {
    use rochade_server::event::Timed;
    use rochade_server::setup::{GameSetup, NewGame, Player};
    use rochade_server::storage::{AccountStore, NewUser, WriteOp};

    let storage = support::open(&support::temp_db());
    let user = storage
        .add_user(&NewUser {
            name: "Steinitz".into(),
            password: None,
            email: None,
            bot: false,
            created: 1,
        })
        .expect("an account");
    let req: NewGame =
        serde_json::from_value(json!({"opponent": "local", "time_control": "5+3"})).expect("terms");
    let mut setup = GameSetup::from_request(&req, &Default::default()).expect("a setup");
    setup.white_player = Some(Player {
        id: user.id,
        name: user.name.clone(),
        bot: false,
        rating: None,
    });
    let id = setup.id.clone();
    let start = glance(&setup, 0, "-");
    storage
        .write(
            &[WriteOp::Create {
                setup: Box::new(setup.clone()),
                epoch: 1_000,
                wake_at: Some(300_000),
                glance: Some(start.clone()),
            }],
            1_000,
        )
        .expect("stores the game");
    let shown = |storage: &rochade_server::SqlStorage| {
        let unfinished = storage.unfinished().expect("reads");
        let game = unfinished.iter().find(|g| g.id == id).expect("unfinished");
        let list = storage.playing_glances(user.id).expect("reads");
        let glance = list[0].glance.as_ref().map(|g| g.last_move.clone());
        (game.last_at, game.wake_at, glance)
    };
    assert_eq!(shown(&storage), (0, Some(300_000), Some(Some("-".into()))));

    let moved = |seq: usize, at: u64, uci: &str, wake_at: Option<u64>, glance: Option<String>| {
        WriteOp::Append {
            game: id.clone(),
            seq,
            event: Timed {
                at,
                event: Event::Move { uci: uci.into() },
            },
            ended: None,
            result: None,
            wake_at,
            glance,
        }
    };
    // One commit of two events: the glance comes with its last.
    let after = glance(&setup, 2, "e7e5");
    storage
        .write(
            &[
                moved(0, 1_500, "e2e4", Some(301_500), None),
                moved(1, 2_500, "e7e5", Some(302_500), Some(after)),
            ],
            3_500,
        )
        .expect("stores the moves");
    assert_eq!(
        shown(&storage),
        (2_500, Some(302_500), Some(Some("e7e5".into())))
    );
    // A commit without a glance keeps the last one; no deadline is none.
    storage
        .write(&[moved(2, 4_000, "g1f3", None, None)], 5_000)
        .expect("stores the move");
    assert_eq!(shown(&storage), (4_000, None, Some(Some("e7e5".into()))));
    let stored = storage.load(&id).expect("reads").expect("stored");
    let moves: Vec<_> = stored
        .events
        .iter()
        .map(|e| match &e.event {
            Event::Move { uci } => uci.as_str(),
            other => panic!("not a move: {other:?}"),
        })
        .collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3"]);
}

/// A room that finds, when its write is refused, that the game moved on
/// without it (another node serves it: its lease lapsed, or a takeover
/// raced it) does not go on serving what it remembers: it closes, its
/// sockets come back and find the game as stored, and the move they
/// sent again is played there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_whose_game_moved_on_elsewhere_closes_and_its_pages_come_back() {
    let db = support::temp_db();
    let here = TestServer::start_with(db.clone()).await;
    let elsewhere = TestServer::start_with(db.clone()).await;
    let game = here
        .create(json!({"opponent": "local", "time_control": "5+3"}))
        .await;
    let id = game["game"].as_str().expect("id").to_owned();
    let token = game["token"].as_str().expect("token").to_owned();
    let (mut stale, _) = elsewhere.connect(&game, &token).await;
    let (mut live, _) = here.connect(&game, &token).await;
    support::play(&mut live, 0, "e2e4").await;
    live.state(WAIT, |s| s["ply"] == 1)
        .await
        .expect("1. e4 stored and told");

    // The other room still shows the start: its move is refused by the
    // database (1. e4 holds that place), answered busy, and the room
    // closes instead of serving its old game.
    support::play(&mut stale, 0, "d2d4").await;
    let busy = stale
        .until("error", WAIT, |_| true)
        .await
        .expect("answered");
    assert_eq!(busy["code"], "busy", "{busy}");
    let closed = loop {
        match stale.recv(WAIT).await {
            Ok(message) => assert_ne!(message["t"], "state", "no stale state is told: {message}"),
            Err(e) => break e,
        }
    };
    assert!(
        matches!(closed, rochade_loadtest::client::ClientError::Closed),
        "the socket closes: {closed}"
    );

    // The page comes back to the same server: it finds 1. e4, and the
    // game goes on there.
    let (mut back, state) = elsewhere.connect(&game, &token).await;
    assert_eq!(state["ply"], 1, "{state}");
    support::play(&mut back, 1, "e7e5").await;
    back.state(WAIT, |s| s["ply"] == 2)
        .await
        .expect("1... e5 stored and told");
    assert_eq!(stored_moves(&db, &id), ["e2e4", "e7e5"]);
    elsewhere.stop().await;
    here.stop().await;
}

/// Rooms closed while a commit of theirs waits (a node whose lease
/// lapsed closes its rooms) end before their games are loaded again: a
/// room loaded from the database meanwhile was behind the move the closed
/// room then stored and told, and its sockets never saw that move (the
/// fault test of 29 November, `docs/deploy.md`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_room_ends_before_its_game_is_loaded_again() {
    let opened = after_e4(Duration::from_secs(8)).await;
    let (db, server, id, token) = (opened.db, opened.server, opened.id, opened.token);
    let mut socket = opened.socket;

    let lock = WriteLock::take(&db).await;
    support::play(&mut socket, 1, "e7e5").await;
    // The room waits for its commit; then the node closes its rooms.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.shared.close_rooms(), 1);
    // A page comes back meanwhile.
    let host = server.host.clone();
    let (again_id, again_token) = (id.clone(), token.clone());
    let again = tokio::spawn(async move {
        let mut again = GameSocket::connect(&host, &again_id, &again_token)
            .await
            .expect("connects");
        let state = again.state(WAIT, |_| true).await.expect("first state");
        (again, state)
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    lock.release().await;

    socket
        .state(WAIT, |s| s["ply"] == 2)
        .await
        .expect("1... e5 stored and told");
    let (again, state) = again.await.expect("joins");
    assert_eq!(state["ply"], 2, "the room loaded again is behind: {state}");
    goes_on(again, server, &db, &id).await;
}
