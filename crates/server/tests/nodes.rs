//! Which node owns which game (issue 20, points 4 and 5): the lease as
//! the database keeps it, on SQLite and, under `scripts/with-postgres`,
//! on PostgreSQL. A claim takes a game nobody owns, one the claimer owns
//! already, or one whose owner's heartbeat is stale; never one a live
//! node owns. A takeover moves a dead node's unfinished games, and those
//! a single server stored, once, with the dead node's last heartbeat.

mod support;

use rochade_server::storage::{Claim, NodeStore, Storage, WriteOp};
use serde_json::json;
use support::TestServer;

/// Three games stored by a single server (so owned by no node); their ids.
async fn three_games(db: &std::path::Path) -> Vec<String> {
    let server = TestServer::start_with(db.to_path_buf()).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let game = server
            .create(json!({"opponent": "local", "time_control": "5+0"}))
            .await;
        ids.push(game["game"].as_str().expect("id").to_owned());
    }
    server.stop().await;
    ids
}

/// Records node `node`'s heartbeat at `at` (Unix ms).
fn beat(storage: &dyn Storage, node: &str, at: u64) {
    storage
        .write(
            &[WriteOp::Heartbeat {
                node: node.to_owned(),
            }],
            at,
        )
        .expect("heartbeat");
}

#[tokio::test]
async fn a_game_is_claimed_by_one_live_node_at_a_time() {
    let db = support::temp_db();
    let ids = three_games(&db).await;
    let storage = support::open(&db);
    let now = 1_000_000;
    let stale = now - 3_000;
    beat(&storage, "a", now);
    beat(&storage, "b", now);
    assert_eq!(
        storage
            .claim(&ids[0], "a", stale, stale + 3_000)
            .expect("claims"),
        Claim::Mine
    );
    assert_eq!(
        storage
            .claim(&ids[0], "a", stale, stale + 3_000)
            .expect("claims"),
        Claim::Mine
    );
    assert_eq!(
        storage
            .claim(&ids[0], "b", stale, stale + 3_000)
            .expect("claims"),
        Claim::Owner("a".into())
    );
    assert_eq!(
        storage
            .claim("no-such-game", "b", stale, stale + 3_000)
            .expect("claims"),
        Claim::Missing
    );
    // Five seconds later only b has beaten: a's lease ran out.
    let later = now + 5_000;
    beat(&storage, "b", later);
    assert_eq!(
        storage
            .claim(&ids[0], "b", later - 3_000, later)
            .expect("claims"),
        Claim::Mine
    );
    assert_eq!(
        storage
            .claim(&ids[0], "a", later - 3_000, later)
            .expect("claims"),
        Claim::Owner("b".into())
    );
}

#[tokio::test]
async fn art_6_12_a_dead_nodes_games_are_taken_over_once_with_its_last_heartbeat() {
    let db = support::temp_db();
    let ids = three_games(&db).await;
    let storage = support::open(&db);
    let now = 2_000_000;
    beat(&storage, "a", now);
    beat(&storage, "b", now);
    for id in &ids[..2] {
        assert_eq!(
            storage.claim(id, "a", now - 3_000, now).expect("claims"),
            Claim::Mine
        );
    }
    // b, while a lives, takes only the game a single server left.
    let adopted = storage.adopt("b", now - 3_000, 100, now).expect("adopts");
    assert_eq!(adopted.len(), 1);
    assert_eq!(adopted[0].from, "");
    assert_eq!(
        adopted[0].games.iter().map(|g| &g.id).collect::<Vec<_>>(),
        vec![&ids[2]]
    );
    assert_eq!(storage.owned("a").expect("reads").len(), 2);

    // a falls silent; b and c beat on. b takes a's two games, c none.
    let later = now + 4_000;
    beat(&storage, "b", later);
    beat(&storage, "c", later);
    let adopted = storage
        .adopt("b", later - 3_000, 100, later)
        .expect("adopts");
    assert_eq!(adopted.len(), 1);
    assert_eq!(adopted[0].from, "a");
    // 6.12: the clocks of a's games stopped at its last heartbeat.
    assert_eq!(adopted[0].alive_at, now);
    let mut taken: Vec<_> = adopted[0].games.iter().map(|g| g.id.clone()).collect();
    taken.sort();
    let mut expected = ids[..2].to_vec();
    expected.sort();
    assert_eq!(taken, expected);
    assert!(
        storage
            .adopt("c", later - 3_000, 100, later)
            .expect("adopts")
            .is_empty()
    );
    assert!(storage.owned("a").expect("reads").is_empty());
    assert_eq!(storage.owned("b").expect("reads").len(), 3);
    let beats = storage.heartbeats().expect("reads");
    assert_eq!(
        beats,
        vec![("a".into(), now), ("b".into(), later), ("c".into(), later)]
    );
}

/// 6.12: a game taken from a dead node, whether by a page that comes back
/// (a claim) or by the takeover of the dead node's games, has its clocks
/// stopped from the dead node's last heartbeat in the same transaction
/// that takes it: a room opened on it at once (before anything else is
/// written) already finds the gap left out of its time line.
#[tokio::test]
async fn art_6_12_a_game_taken_from_a_dead_node_has_its_clocks_stopped_as_it_is_taken() {
    let db = support::temp_db();
    let ids = three_games(&db).await;
    let storage = support::open(&db);
    let now = 2_000_000;
    beat(&storage, "a", now);
    beat(&storage, "b", now);
    for id in &ids {
        assert_eq!(
            storage.claim(id, "a", now - 3_000, now).expect("claims"),
            Claim::Mine
        );
    }
    // Each game's time line began at 1,000,000: 1,000 s of it had run
    // when a fell silent.
    let began: Vec<_> = ids
        .iter()
        .map(|id| WriteOp::Epoch {
            game: id.clone(),
            epoch: 1_000_000,
        })
        .collect();
    storage.write(&began, now).expect("stores");
    let later = now + 4_000;
    beat(&storage, "b", later);
    // One game comes to b with a page, the others with the takeover: at
    // `later` each stands at 1,000 s again, the 4 s without a node left out.
    assert_eq!(
        storage
            .claim(&ids[0], "b", later - 3_000, later)
            .expect("claims"),
        Claim::Mine
    );
    let adopted = storage
        .adopt("b", later - 3_000, 100, later)
        .expect("adopts");
    assert_eq!(adopted.len(), 1);
    assert_eq!(adopted[0].games.len(), 2);
    assert!(adopted[0].games.iter().all(|g| g.epoch == 1_004_000));
    let owned = storage.owned("b").expect("reads");
    assert_eq!(owned.len(), 3);
    for game in &owned {
        assert_eq!(game.epoch, 1_004_000, "game {}", game.id);
    }
    // Claiming a game it owns already changes nothing.
    assert_eq!(
        storage
            .claim(&ids[0], "b", later + 7_000, later + 10_000)
            .expect("claims"),
        Claim::Mine
    );
    let again = storage.owned("b").expect("reads");
    assert!(again.iter().all(|g| g.epoch == 1_004_000));
}

#[tokio::test]
async fn a_takeover_takes_at_most_what_it_is_given() {
    let db = support::temp_db();
    let ids = three_games(&db).await;
    let storage = support::open(&db);
    let adopted = storage.adopt("b", 0, 2, 0).expect("adopts");
    assert_eq!(adopted.iter().map(|a| a.games.len()).sum::<usize>(), 2);
    let rest = storage.adopt("c", 0, 2, 0).expect("adopts");
    assert_eq!(rest.iter().map(|a| a.games.len()).sum::<usize>(), 1);
    assert_eq!(ids.len(), 3);
}

#[tokio::test]
async fn art_6_12_a_stopping_node_hands_its_games_over_at_once() {
    let db = support::temp_db();
    let ids = three_games(&db).await;
    let storage = support::open(&db);
    let now = 3_000_000;
    let stale = now - 3_000;
    beat(&storage, "a", now);
    beat(&storage, "b", now);
    for id in &ids[..2] {
        assert_eq!(
            storage
                .claim(id, "a", stale, stale + 3_000)
                .expect("claims"),
            Claim::Mine
        );
    }
    assert_eq!(
        storage
            .claim(&ids[0], "b", stale, stale + 3_000)
            .expect("claims"),
        Claim::Owner("a".into())
    );
    // a stops (SIGTERM) a tenth of a second later, its heartbeat still
    // fresh: its games are b's to claim and to take at once.
    let stopped = now + 100;
    storage
        .write(&[WriteOp::Stopped { node: "a".into() }], stopped)
        .expect("stops");
    assert_eq!(
        storage
            .claim(&ids[0], "b", stale, stale + 3_000)
            .expect("claims"),
        Claim::Mine
    );
    let adopted = storage
        .adopt("b", stale, 100, stale + 3_000)
        .expect("adopts");
    let from_a = adopted
        .iter()
        .find(|a| a.from == "a")
        .expect("a's games are taken");
    assert!(from_a.handed_over);
    // 6.12: the clocks stopped when a stopped.
    assert_eq!(from_a.alive_at, stopped);
    assert_eq!(
        from_a.games.iter().map(|g| &g.id).collect::<Vec<_>>(),
        vec![&ids[1]]
    );
    assert!(storage.owned("a").expect("reads").is_empty());
    // Others see a as gone; it knows when it stopped.
    let beats = storage.heartbeats().expect("reads");
    assert_eq!(beats, vec![("a".into(), 0), ("b".into(), now)]);
    assert_eq!(storage.last_heartbeat("a").expect("reads"), Some(stopped));
    assert_eq!(storage.last_heartbeat("z").expect("reads"), None);
    // a starts again: its heartbeat makes it a live node, whose games
    // nobody takes; b's stay b's.
    let later = now + 5_000;
    beat(&storage, "a", later);
    beat(&storage, "b", later);
    assert_eq!(
        storage
            .claim(&ids[1], "a", later - 3_000, later)
            .expect("claims"),
        Claim::Owner("b".into())
    );
    assert_eq!(
        storage
            .claim(&ids[2], "a", later - 3_000, later)
            .expect("claims"),
        Claim::Owner("b".into())
    );
    assert!(
        storage
            .adopt("b", later - 3_000, 100, later)
            .expect("adopts")
            .is_empty()
    );
    let beats = storage.heartbeats().expect("reads");
    assert_eq!(beats, vec![("a".into(), later), ("b".into(), later)]);
}

/// The next event of game `id` as stored: a move at the end of its events.
fn next_move(storage: &rochade_server::SqlStorage, id: &str, uci: &str) -> WriteOp {
    let seq = storage
        .load(id)
        .expect("reads")
        .expect("stored")
        .events
        .len();
    WriteOp::Append {
        game: id.to_owned(),
        seq,
        event: rochade_server::event::Timed {
            at: 1_000,
            event: rochade_server::event::Event::Move {
                uci: uci.to_owned(),
            },
        },
        ended: None,
        result: None,
        wake_at: None,
        glance: None,
    }
}

#[tokio::test]
async fn a_commit_of_a_node_whose_game_was_taken_over_stores_nothing() {
    let db = support::temp_db();
    let ids = three_games(&db).await;
    let storage = support::open(&db);
    let now = 1_000_000;
    beat(&storage, "a", now);
    assert_eq!(
        storage
            .claim(&ids[0], "a", now - 3_000, now)
            .expect("claims"),
        Claim::Mine
    );
    let owned = |node: &str| WriteOp::Owned {
        game: ids[0].clone(),
        node: node.to_owned(),
    };
    let e4 = next_move(&storage, &ids[0], "e2e4");
    storage
        .write(&[owned("a"), e4], now)
        .expect("the owner stores");
    // a falls silent; b takes the game over. a's commit, waiting since
    // before, is refused whole.
    let later = now + 5_000;
    beat(&storage, "b", later);
    assert_eq!(
        storage
            .claim(&ids[0], "b", later - 3_000, later)
            .expect("claims"),
        Claim::Mine
    );
    let e5 = next_move(&storage, &ids[0], "e7e5");
    let refused = storage
        .write(&[owned("a"), e5.clone()], later)
        .expect_err("a no longer owns it");
    assert!(
        matches!(&refused, rochade_server::storage::StorageError::NotOwner { game, node }
                 if game == &ids[0] && node == "a"),
        "{refused}"
    );
    storage.write(&[owned("b"), e5], later).expect("b stores");
    assert_eq!(support::stored_moves(&db, &ids[0]), ["e2e4", "e7e5"]);
}

#[test]
fn a_heartbeat_stored_beside_the_group_commit_keeps_the_lease() {
    let storage = support::open(&support::temp_db());
    storage.beat("a", 1_000).expect("beats");
    storage.beat("b", 1_500).expect("beats");
    storage
        .write(
            &[WriteOp::Stopped {
                node: "b".to_owned(),
            }],
            2_000,
        )
        .expect("b stops");
    assert_eq!(
        storage.heartbeats().expect("reads"),
        [("a".to_owned(), 1_000), ("b".to_owned(), 0)]
    );
    // Its next heartbeat makes a stopped node a live one again.
    storage.beat("b", 3_000).expect("beats");
    storage.beat("a", 3_500).expect("beats");
    assert_eq!(
        storage.heartbeats().expect("reads"),
        [("a".to_owned(), 3_500), ("b".to_owned(), 3_000)]
    );
    assert_eq!(storage.last_heartbeat("b").expect("reads"), Some(3_000));
}

/// PostgreSQL: a takeover does not wait for a game whose row the old
/// owner's commit in flight holds (its owner stopped in the middle of it:
/// waiting held the taker's only writing connection, its heartbeats
/// stopped, and its lease lapsed too). It takes the other games at once,
/// and that one once the commit has ended. A claim of that game gives up
/// within its lock wait instead of waiting. (SQLite: one writer at a time,
/// nothing to hold.)
#[tokio::test]
async fn a_takeover_skips_a_game_that_a_commit_in_flight_holds() {
    let db = support::temp_db();
    let url = db.to_string_lossy().into_owned();
    if !url.starts_with("postgres") {
        return;
    }
    let ids = three_games(&db).await;
    let storage = std::sync::Arc::new(support::open(&db));
    let now = 1_000_000;
    beat(&*storage, "a", now);
    assert_eq!(
        storage
            .adopt("a", now - 3_000, 100, now)
            .expect("adopts")
            .len(),
        1
    );
    assert_eq!(storage.owned("a").expect("reads").len(), 3);

    // a's commit in flight: its check of the first game's row, as the
    // writer makes it (sql_games.rs), and then nothing (a stopped).
    let (held, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    held.batch_execute(&format!(
        "BEGIN; SELECT 1 FROM games WHERE id = '{}' AND node = 'a' FOR SHARE",
        ids[0]
    ))
    .await
    .expect("holds the row");

    let later = now + 4_000;
    beat(&*storage, "b", later);
    let taker = storage.clone();
    let adopted = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        tokio::task::spawn_blocking(move || taker.adopt("b", later - 3_000, 100, later)),
    )
    .await
    .expect("the takeover does not wait for the held row")
    .expect("joins")
    .expect("adopts");
    let mut taken: Vec<_> = adopted
        .iter()
        .flat_map(|a| a.games.iter().map(|g| g.id.clone()))
        .collect();
    taken.sort();
    let mut expected = ids[1..].to_vec();
    expected.sort();
    assert_eq!(taken, expected);

    let claimer = storage.clone();
    let game = ids[0].clone();
    let claimed = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        tokio::task::spawn_blocking(move || claimer.claim(&game, "b", later - 3_000, later)),
    )
    .await
    .expect("the claim does not wait for the held row")
    .expect("joins");
    assert!(claimed.is_err(), "{claimed:?}");

    // a's commit ends: b takes the last game at its next beat.
    held.batch_execute("COMMIT").await.expect("commits");
    let adopted = storage
        .adopt("b", later - 3_000, 100, later)
        .expect("adopts");
    let taken: Vec<_> = adopted
        .iter()
        .flat_map(|a| a.games.iter().map(|g| g.id.clone()))
        .collect();
    assert_eq!(taken, vec![ids[0].clone()]);
    assert_eq!(storage.owned("b").expect("reads").len(), 3);
}
