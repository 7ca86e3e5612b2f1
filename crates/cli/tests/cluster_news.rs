//! What crosses nodes besides a game's moves and chat (issue 20, point
//! 4): two real `rochade serve` nodes, A and B, sharing one database and
//! one Redis. A challenge made on A reaches the challenged player's lobby
//! socket on B, and the game she starts by accepting it on B reaches the
//! challenger's lobby socket on A (account news, Redis channel
//! `rochade:news`); a tournament joined on A is told to its page watching
//! on B (tournament changes, `rochade:tournaments`); a seek opened on A is
//! listed, taken and withdrawn on B, and leaves B's lobby when its socket
//! closes or its node dies (`rochade:seeks`).
//!
//! Each socket is opened before the thing it should hear of happens, and
//! waits for a message that only the news sends (not the lists a socket
//! reads when it opens): without the message crossing, it times out.

mod support;
mod support_cluster;

use std::process::Command;

use rochade_loadtest::client::{Answer, GameSocket, get_text, request};
use serde_json::{Value, json};
use support_cluster::{Node, WAIT, database, logs, redis, temp_dir};

/// Nodes A and B sharing one database and one Redis, in a directory of
/// their own.
struct Two {
    dir: std::path::PathBuf,
    db: String,
    /// Redis's URL.
    redis: String,
    a: Node,
    b: Node,
    /// Stopped when the test ends.
    _redis: support_cluster::Killed,
}

/// Starts [`Two`] for the test `label` (its directory) on the database
/// `db_label`; none without `redis-server` (the test is skipped, as
/// `cluster.rs` is).
async fn two_nodes(label: &str, db_label: &str) -> Option<Two> {
    let dir = temp_dir(label);
    let (redis_process, redis) = redis(&dir)?;
    let db = database(&dir, db_label);
    let a = Node::start("a", &db, &redis, &dir).await;
    let b = Node::start("b", &db, &redis, &dir).await;
    Some(Two {
        dir,
        db,
        redis,
        a,
        b,
        _redis: redis_process,
    })
}

/// `method path` at `node` with a JSON `body` as the holder of the page
/// session `session`.
async fn ask(node: &Node, method: &str, path: &str, body: Option<Value>, session: &str) -> Answer {
    request(&node.host, method, path, body.as_ref(), Some(session))
        .await
        .expect("answers")
}

/// Signs `name` up on `node`; the page's session.
async fn sign_up(node: &Node, name: &str) -> String {
    let body = json!({"name": name, "password": "a long secret 1"});
    let answer = request(&node.host, "POST", "/api/auth/signup", Some(&body), None)
        .await
        .expect("answers");
    assert_eq!(answer.status, 201, "{}", answer.json);
    answer.session.expect("a session")
}

/// The lobby socket of `session` on `node`, past its hello (by then the
/// socket listens for the account's news).
async fn lobby(node: &Node, session: &str) -> GameSocket {
    let mut socket = GameSocket::open_path(&node.host, "/ws/lobby", Some(session))
        .await
        .expect("opens");
    socket.until("hello", WAIT, |_| true).await.expect("hello");
    socket
}

/// Alice signed up on `b` and Bob on `a`, each with a lobby socket there:
/// her session and socket, his session and socket.
async fn alice_on_b_bob_on_a(a: &Node, b: &Node) -> (String, GameSocket, String, GameSocket) {
    let alice = sign_up(b, "Alice").await;
    let bob = sign_up(a, "Bob").await;
    let alices = lobby(b, &alice).await;
    let bobs = lobby(a, &bob).await;
    (alice, alices, bob, bobs)
}

/// Reads `socket` until a message of type `t` that `wanted` accepts; a
/// failure says `what` was not heard and shows the nodes' logs.
async fn heard(
    socket: &mut GameSocket,
    t: &str,
    wanted: impl Fn(&Value) -> bool,
    what: &str,
    nodes: &[&Node],
) -> Value {
    match socket.until(t, WAIT, wanted).await {
        Ok(message) => message,
        Err(e) => panic!(
            "{what} was not heard (no such {t:?} message): {e}\n{}",
            logs(nodes)
        ),
    }
}

/// Issue 20, point 4: a challenge and the game it starts cross nodes.
/// Bob, on node A, challenges Alice over A's API; Alice's lobby socket on
/// node B hears the challenge (the `challenge` news, then her list with
/// it). She accepts it over B's API; Bob's lobby socket on A hears the
/// game start (the `gameStart` news and the link to his seat, White), and
/// the seat's link opens his game from A.
#[tokio::test]
async fn issue_20_point_4_a_challenge_made_on_one_node_is_heard_and_accepted_on_another() {
    let Some(Two {
        _redis, dir, a, b, ..
    }) = two_nodes("cluster-news-challenge", "news_challenge").await
    else {
        return;
    };
    let nodes = [&a, &b];
    let (alice, mut alices, bob, mut bobs) = alice_on_b_bob_on_a(&a, &b).await;

    let terms = json!({"time_control": "5+3", "color": "white"});
    let made = ask(
        &a,
        "POST",
        "/api/account/challenge/alice",
        Some(terms),
        &bob,
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.json);
    let id = made.json["id"].as_str().expect("id").to_owned();
    // Told on A, heard on B.
    let news = heard(
        &mut alices,
        "news",
        |m| m["news"]["type"] == "challenge" && m["news"]["challenge"]["id"] == id.as_str(),
        "on B, the challenge made on A",
        &nodes,
    )
    .await;
    assert_eq!(news["news"]["challenge"]["challenger"]["name"], "Bob");
    let list = heard(
        &mut alices,
        "challenges",
        |m| m["in"].as_array().is_some_and(|a| !a.is_empty()),
        "on B, Alice's list with the challenge",
        &nodes,
    )
    .await;
    assert_eq!(list["in"][0]["id"], id.as_str());

    // Accepted on B: the game is made there; Bob hears of it on A.
    let accept = format!("/api/account/challenge/{id}/accept");
    let accepted = ask(&b, "POST", &accept, None, &alice).await;
    assert_eq!(accepted.status, 200, "{}", accepted.json);
    let game = accepted.json["game"].as_str().expect("game").to_owned();
    let start = heard(
        &mut bobs,
        "news",
        |m| m["news"]["type"] == "gameStart" && m["news"]["game"]["gameId"] == game.as_str(),
        "on A, the start of the game made on B",
        &nodes,
    )
    .await;
    assert_eq!(start["news"]["game"]["color"], "white", "{start}");
    let link = heard(
        &mut bobs,
        "game",
        |m| m["game"] == game.as_str(),
        "on A, the link to Bob's seat",
        &nodes,
    )
    .await;
    assert_eq!(link["color"], "white");
    let token = link["url"]
        .as_str()
        .and_then(|url| url.split_once('#'))
        .map(|(_, token)| token.to_owned())
        .expect("a token in the link");
    let mut seat = GameSocket::connect(&a.host, &game, &token)
        .await
        .expect("Bob's seat");
    let state = seat
        .state(WAIT, |_| true)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", logs(&nodes)));
    assert_eq!(
        (state["you"].clone(), state["ply"].clone()),
        (json!("white"), json!(0))
    );
    seat.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20, point 4: a tournament's change crosses nodes. A director
/// creates an open Swiss on node A; its page watches it from node B
/// (`/ws/tournaments/{id}`); Carol joins it over A's API, and the page
/// on B is told `changed` and then reads her among the players on B.
#[tokio::test]
async fn issue_20_point_4_a_tournament_changed_on_one_node_is_told_to_its_page_on_another() {
    let Some(Two {
        _redis,
        dir,
        db,
        a,
        b,
        ..
    }) = two_nodes("cluster-news-tournament", "news_tournament").await
    else {
        return;
    };
    let nodes = [&a, &b];
    let arbiter = sign_up(&a, "Arbiter").await;
    let carol = sign_up(&a, "Carol").await;
    // A site director, made from the command line on the shared database.
    let appointed = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(["user", "director", "Arbiter", "--db", &db])
        .output()
        .expect("rochade user runs");
    assert!(appointed.status.success(), "{appointed:?}");

    let swiss = json!({
        "name": "Two Nodes Open",
        "time_control": "5+3",
        "system": "swiss",
        "rounds": 3,
        "entry": {"open": true},
    });
    let made = ask(&a, "POST", "/api/tournaments", Some(swiss), &arbiter).await;
    assert_eq!(made.status, 200, "{}", made.json);
    let id = made.json["id"].as_str().expect("id").to_owned();
    let mut page = GameSocket::open_path(&b.host, &format!("/ws/tournaments/{id}"), None)
        .await
        .expect("the page's socket on B");
    // The socket listens once it is open: a ping answered says so.
    page.send(&json!({"t": "ping"})).await.expect("sends");
    heard(&mut page, "pong", |_| true, "the pong", &nodes).await;

    let joined = ask(
        &a,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        None,
        &carol,
    )
    .await;
    assert_eq!(joined.status, 200, "{}", joined.json);
    heard(
        &mut page,
        "changed",
        |_| true,
        "on B, the change made on A",
        &nodes,
    )
    .await;
    let shown = ask(&b, "GET", &format!("/api/tournaments/{id}"), None, &carol).await;
    assert_eq!(shown.status, 200, "{}", shown.json);
    let players = shown.json["players"].as_array().expect("players");
    assert!(
        players.iter().any(|p| p["name"] == "Carol"),
        "{}",
        shown.json
    );
    page.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The seeks of a lobby socket's `seeks` message, by id.
fn seek_ids(message: &Value) -> Vec<String> {
    message["seeks"]
        .as_array()
        .map(|seeks| {
            seeks
                .iter()
                .filter_map(|s| s["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads `node`'s `GET /api/lobby` until `wanted` accepts it; a failure
/// says `what` was not seen.
async fn lists(node: &Node, wanted: impl Fn(&Value) -> bool, what: &str, nodes: &[&Node]) {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let answer = request(&node.host, "GET", "/api/lobby", None, None)
            .await
            .expect("answers");
        if answer.status == 200 && wanted(&answer.json) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what} was not seen: {}\n{}",
            answer.json,
            logs(nodes)
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Fails if a node's log says its database refused it as locked: nodes
/// sharing one SQLite file wait for each other's writes (an immediate
/// transaction, with the busy timeout) rather than fail.
fn never_locked(nodes: &[&Node]) {
    let logs = logs(nodes);
    assert!(!logs.contains("database is locked"), "{logs}");
}

/// Opens a seek on `socket` with `terms`; its id.
async fn open_seek(socket: &mut GameSocket, terms: Value, nodes: &[&Node]) -> String {
    socket.send(&terms).await.expect("sends");
    let ok = heard(socket, "seek_ok", |_| true, "the seek's answer", nodes).await;
    ok["id"].as_str().expect("the seek's id").to_owned()
}

/// Issue 20, point 4: the lobby's seeks cross nodes. Bob opens two seeks
/// on node A's lobby socket; Alice's lobby socket on B lists both, and so
/// does B's `GET /api/lobby`. She takes the 5+3 one on B: the game starts
/// (on A, which holds the seek) and each hears the link to their seat,
/// Bob White as he asked. Bob withdraws the other from a socket of his on
/// B; a third seek leaves B's list when Bob's socket on A closes.
#[tokio::test]
async fn issue_20_point_4_a_seek_opened_on_one_node_is_listed_taken_and_withdrawn_on_another() {
    let Some(Two {
        _redis, dir, a, b, ..
    }) = two_nodes("cluster-news-seeks", "news_seeks").await
    else {
        return;
    };
    let nodes = [&a, &b];
    let (alice, mut alices, bob, mut bobs) = alice_on_b_bob_on_a(&a, &b).await;

    let blitz = json!({"t": "seek", "time_control": "5+3", "color": "white"});
    let blitz = open_seek(&mut bobs, blitz, &nodes).await;
    let rapid = json!({"t": "seek", "time_control": "10+0"});
    let rapid = open_seek(&mut bobs, rapid, &nodes).await;
    let both = |m: &Value| {
        let ids = seek_ids(m);
        ids.contains(&blitz) && ids.contains(&rapid)
    };
    let listed = heard(
        &mut alices,
        "seeks",
        both,
        "on B, Bob's seeks opened on A",
        &nodes,
    )
    .await;
    let shown = listed["seeks"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["id"] == blitz.as_str()))
        .expect("the 5+3 seek");
    assert_eq!(
        (shown["user"]["name"].clone(), shown["time_control"].clone()),
        (json!("Bob"), json!("5+3"))
    );
    let api = ask(&b, "GET", "/api/lobby", None, &alice).await;
    assert_eq!(api.status, 200, "{}", api.json);
    assert!(both(&api.json), "B's /api/lobby: {}", api.json);
    let (status, metrics) = get_text(&b.host, "/metrics").await.expect("answers");
    assert_eq!(status, 200);
    assert!(
        metrics.contains("\nrochade_seeks 2\n"),
        "B's /metrics: {metrics}"
    );

    // Taken on B, started by A.
    alices
        .send(&json!({"t": "accept", "id": blitz}))
        .await
        .expect("sends");
    let hers = heard(&mut alices, "game", |_| true, "on B, Alice's seat", &nodes).await;
    let his = heard(&mut bobs, "game", |_| true, "on A, Bob's seat", &nodes).await;
    assert_eq!(hers["game"], his["game"]);
    assert_eq!(
        (hers["color"].clone(), his["color"].clone()),
        (json!("black"), json!("white"))
    );
    // The list without it may have come before the links: B's lobby.
    let left = |m: &Value| seek_ids(m) == [rapid.clone()];
    lists(&b, left, "on B, the taken seek gone", &nodes).await;

    // Withdrawn from B, where Bob has a socket too.
    let mut bobs_on_b = lobby(&b, &bob).await;
    bobs_on_b
        .send(&json!({"t": "cancel", "id": rapid}))
        .await
        .expect("sends");
    let none = |m: &Value| seek_ids(m).is_empty();
    heard(
        &mut alices,
        "seeks",
        none,
        "on B, the withdrawn seek gone",
        &nodes,
    )
    .await;
    heard(
        &mut bobs,
        "seeks",
        none,
        "on A, the withdrawn seek gone",
        &nodes,
    )
    .await;

    // Released on A when its socket closes.
    let classical = json!({"t": "seek", "time_control": "30+0"});
    let classical = open_seek(&mut bobs, classical, &nodes).await;
    let one = |m: &Value| seek_ids(m) == [classical.clone()];
    heard(&mut alices, "seeks", one, "on B, the third seek", &nodes).await;
    bobs.close().await;
    heard(
        &mut alices,
        "seeks",
        none,
        "on B, the seek of a closed socket gone",
        &nodes,
    )
    .await;
    bobs_on_b.close().await;
    alices.close().await;
    never_locked(&nodes);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 20, point 4: a node started later hears the seeks open already,
/// and a node that dies takes its seeks with it. Bob's seek is opened on
/// A; node C, started after it, lists it; A is killed (SIGKILL), and the
/// seek leaves C's lobby once A's heartbeat goes stale.
#[tokio::test]
async fn issue_20_point_4_a_later_node_hears_the_open_seeks_and_a_dead_nodes_seeks_go() {
    let Some(Two {
        _redis,
        dir,
        db,
        redis,
        mut a,
        b,
    }) = two_nodes("cluster-news-seeks-dead", "news_seeks_dead").await
    else {
        return;
    };
    let bob = sign_up(&a, "Bob").await;
    let mut bobs = lobby(&a, &bob).await;
    let id = open_seek(
        &mut bobs,
        json!({"t": "seek", "time_control": "3+2"}),
        &[&a, &b],
    )
    .await;
    let c = Node::start("c", &db, &redis, &dir).await;
    let nodes = [&a, &b, &c];
    let mut watching = GameSocket::open_path(&c.host, "/ws/lobby", None)
        .await
        .expect("opens");
    let listed = |m: &Value| seek_ids(m) == [id.clone()];
    heard(
        &mut watching,
        "seeks",
        listed,
        "on C, the seek opened on A before C started",
        &nodes,
    )
    .await;
    a.kill();
    let none = |m: &Value| seek_ids(m).is_empty();
    heard(
        &mut watching,
        "seeks",
        none,
        "on C, the dead node's seek gone",
        &[&b, &c],
    )
    .await;
    watching.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
