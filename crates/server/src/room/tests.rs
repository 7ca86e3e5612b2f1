//! The room without sockets: commands in, states and stored events out.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use super::*;
use crate::event::OfferAction;
use crate::protocol::ClientMessage;
use crate::setup::{GameSetup, NewGame};
use crate::storage::SqliteStorage;

/// How long a test waits for one answer.
const WAIT: Duration = Duration::from_secs(20);

/// A room's world: storage in a fresh file, the writer, a robot queue.
struct World {
    deps: RoomDeps,
    /// Keeps the shutdown channel open.
    _stop: watch::Sender<bool>,
}

fn world(limits: Limits) -> World {
    let dir = crate::storage::scratch_dir("room-test");
    let storage: Arc<dyn Storage> =
        Arc::new(SqliteStorage::open(&dir.join("games.sqlite")).expect("opens"));
    let (stop, shutdown) = watch::channel(false);
    let deps = RoomDeps {
        writer: Writer::start(storage.clone()),
        storage,
        robots: RobotQueue::start(
            crate::robot::EngineChoice::Builtin,
            1,
            8,
            limits.robot_think,
        ),
        clock: Arc::new(ServerClock::new()),
        schedule: Arc::new(Scheduler::default()),
        limits: Arc::new(limits),
        hub: Arc::default(),
        shutdown,
        tablebase: None,
        thresholds: Arc::new(crate::notify::thresholds::Thresholds::new(86_400_000)),
        tournaments: Arc::default(),
        cluster: None,
    };
    World { deps, _stop: stop }
}

/// Stores a new game of `body` and starts its room.
async fn open(world: &World, body: &str) -> (Record, mpsc::Sender<Command>, JoinHandle<()>) {
    let req: NewGame = serde_json::from_str(body).expect("request");
    let setup = GameSetup::from_request(&req, &world.deps.limits).expect("setup");
    let record = Record::new(setup.clone()).expect("record");
    let epoch = world.deps.clock.now_ms();
    world
        .deps
        .writer
        .write(vec![WriteOp::Create {
            setup: Box::new(setup),
            epoch,
            wake_at: None,
            glance: None,
        }])
        .await
        .expect("stored");
    let (tx, task) = spawn(record.clone(), epoch, world.deps.clone());
    (record, tx, task)
}

async fn join(tx: &mpsc::Sender<Command>, token: &str) -> Result<Joined, ActionError> {
    let (reply, answer) = oneshot::channel();
    tx.send(Command::Join {
        token: token.to_owned(),
        reply,
        told: None,
    })
    .await
    .expect("room open");
    answer.await.expect("answered")
}

async fn act(
    tx: &mpsc::Sender<Command>,
    seats: Seats,
    message: ClientMessage,
) -> Result<(), ActionError> {
    let (reply, answer) = oneshot::channel();
    tx.send(Command::Act {
        seats,
        message,
        reply,
    })
    .await
    .expect("room open");
    answer.await.expect("answered")
}

/// The next state whose JSON satisfies `wanted`.
async fn state_where(
    updates: &mut broadcast::Receiver<Out>,
    wanted: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    tokio::time::timeout(WAIT, async {
        loop {
            if let Some(json) = updates.recv().await.ok().as_ref().and_then(Out::state) {
                let state: serde_json::Value = serde_json::from_str(&json).expect("json");
                if wanted(&state) {
                    return state;
                }
            }
        }
    })
    .await
    .expect("a state in time")
}

use crate::setup::Seats;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robot_answers_through_the_queue() {
    let world = world(Limits::default());
    let (record, tx, _task) = open(
        &world,
        r#"{"opponent":"robot","level":1,"color":"white","time_control":"-"}"#,
    )
    .await;
    let joined = join(&tx, &record.setup.white_token).await.expect("joins");
    let mut updates = joined.updates;
    let white = Seats::One(shakmaty::Color::White);
    let mv = ClientMessage::Move {
        ply: 0,
        uci: Some("e2e4".into()),
        san: None,
        lang: None,
        offer_draw: false,
    };
    act(&tx, white, mv).await.expect("legal");
    let answered = state_where(&mut updates, |s| s["ply"] == 2).await;
    assert_eq!(answered["turn"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offer_and_the_robots_answer_are_one_commit_and_one_per_move() {
    let world = world(Limits::default());
    let (record, tx, _task) = open(
        &world,
        r#"{"opponent":"robot","level":1,"color":"white","time_control":"-"}"#,
    )
    .await;
    let white = Seats::One(shakmaty::Color::White);
    let offer = || ClientMessage::Draw {
        action: OfferAction::Offer,
        color: None,
    };
    act(&tx, white, offer()).await.expect("first offer");
    let again = act(&tx, white, offer()).await.expect_err("second offer");
    assert_eq!(again.code, ErrorCode::NotAllowed);
    let stored = world
        .deps
        .storage
        .load(&record.setup.id)
        .expect("loads")
        .expect("stored");
    // The offer and the robot's decline: two events, nothing for the refusal.
    assert_eq!(stored.events.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn art_6_9_an_empty_room_closes_and_leaves_its_deadline() {
    let limits = Limits {
        unload_after: Duration::from_millis(200),
        ..Limits::default()
    };
    let world = world(limits);
    let (record, tx, task) = open(&world, r#"{"opponent":"local","time_control":"1+0"}"#).await;
    let joined = join(&tx, &record.setup.white_token).await.expect("joins");
    drop(joined);
    tx.send(Command::Leave { seats: Seats::Both })
        .await
        .expect("open");
    drop(tx);
    tokio::time::timeout(WAIT, task)
        .await
        .expect("the room closes by itself")
        .expect("no panic");
    // 6.9: White's flag falls a minute after the start: that is the wake.
    let next = world.deps.schedule.next().expect("scheduled");
    let epoch_ms = world.deps.clock.now_ms();
    assert!(
        next > epoch_ms && next <= epoch_ms + 60_001,
        "{next} vs {epoch_ms}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_coming_and_going_do_not_each_make_a_state() {
    let world = world(Limits::default());
    let (record, tx, _task) = open(
        &world,
        r#"{"opponent":"friend","color":"white","time_control":"-"}"#,
    )
    .await;
    let watcher = join(&tx, "").await.expect("spectator");
    let mut updates = watcher.updates;
    let mut joined = Vec::new();
    for _ in 0..8 {
        joined.push(join(&tx, &record.setup.white_token).await.expect("joins"));
    }
    let over = join(&tx, &record.setup.white_token)
        .await
        .expect_err("a ninth socket");
    assert_eq!(over.code, ErrorCode::TooManySockets);
    tokio::time::sleep(Duration::from_millis(600)).await;
    for _ in 0..8 {
        tx.send(Command::Leave {
            seats: Seats::One(shakmaty::Color::White),
        })
        .await
        .expect("open");
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut connected = Vec::new();
    while let Ok(out) = updates.try_recv() {
        if let Some(json) = out.state() {
            let state: serde_json::Value = serde_json::from_str(&json).expect("json");
            connected.push(state["players"]["white"]["connected"].clone());
        }
    }
    // Sixteen sockets came and went: the players heard twice, once when
    // White's seat was taken and once when it emptied.
    assert_eq!(connected, [true, false]);
}

#[tokio::test]
async fn a_join_told_hears_its_answer_before_anything_the_room_sends_after_it() {
    let world = world(Limits::default());
    let (record, tx, _task) = open(
        &world,
        r#"{"opponent":"friend","color":"white","time_control":"-"}"#,
    )
    .await;
    let mut watcher = join(&tx, "").await.expect("spectator").updates;
    // What the join's own news held when `told` heard the answer, and
    // whether the answer showed White there.
    let heard = Arc::new(std::sync::Mutex::new(None));
    let into = heard.clone();
    let (reply, answer) = oneshot::channel();
    tx.send(Command::Join {
        token: record.setup.white_token.clone(),
        reply,
        told: Some(JoinTold::new(move |joined| {
            let joined = joined.as_ref().expect("joins");
            let state: serde_json::Value = serde_json::from_str(&joined.state).expect("json");
            *into.lock().expect("lock") = Some((
                joined.updates.len(),
                state["players"]["white"]["connected"].clone(),
            ));
        })),
    })
    .await
    .expect("room open");
    let joined = answer.await.expect("answered").expect("joins");
    // The room then tells everyone White is there (a seat newly taken)...
    let out = tokio::time::timeout(WAIT, watcher.recv())
        .await
        .expect("in time")
        .expect("a state");
    assert!(matches!(out, Out::State(_)), "{out:?}");
    assert_eq!(joined.updates.len(), 1, "the joined socket hears it too");
    // ...but `told` had the answer before that went out: a node relaying
    // the join sends the answer ahead of it, and its socket misses nothing.
    assert_eq!(
        *heard.lock().expect("lock"),
        Some((0, serde_json::Value::Bool(true)))
    );
}
