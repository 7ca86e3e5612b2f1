//! The group-commit writer's cost a move on SQLite (issue 20 point 1): a
//! commit of 24 moves of 24 different games out of 5,000, as the writer
//! makes them at 10,000 moves a second (docs/performance.md), each move
//! an event row and its game's now row with the game at a glance, while
//! another thread checkpoints every second as the server's does.
//!
//! ```sh
//! cargo bench -p rochade-server --bench storage
//! ```
//!
//! The time includes the commit's sync of the write-ahead log, so it is
//! the disk's as much as ours; for the CPU alone, count instructions:
//! `cargo bench -p rochade-server --bench storage --no-run`, then
//! `STORAGE_COMMITS=2000 valgrind --tool=callgrind target/release/deps/storage-* --bench`
//! runs that many commits once, without criterion.

#![allow(missing_docs)] // criterion_group! makes an undocumented function.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rochade_server::event::{Event, Timed};
use rochade_server::glance::Glance;
use rochade_server::record::Record;
use rochade_server::setup::{GameSetup, NewGame};
use rochade_server::storage::{SqlStorage, Storage, WriteOp};

/// Games being played at once.
const GAMES: usize = 5000;

/// Moves a commit: the writer's mean at 10,000 moves a second.
const PER_COMMIT: usize = 24;

/// The games, their glance, and each game's next event number.
struct Games {
    storage: Arc<SqlStorage>,
    ids: Vec<String>,
    glance: String,
    seq: Vec<usize>,
    next: usize,
}

impl Games {
    /// A fresh database in `dir` holding [`GAMES`] new games.
    fn new(dir: &std::path::Path) -> Games {
        let storage = Arc::new(SqlStorage::open(&dir.join("bench.sqlite")).expect("opens"));
        let request: NewGame =
            serde_json::from_str(r#"{"opponent":"friend","time_control":"5+3"}"#)
                .expect("a request");
        let setup = || GameSetup::from_request(&request, &Default::default()).expect("a setup");
        // A new game at a glance: the same for every game.
        let glance = Glance::of(&Record::new(setup()).expect("a record"), 0).to_json();
        let mut ids = Vec::with_capacity(GAMES);
        let creates: Vec<WriteOp> = (0..GAMES)
            .map(|_| {
                let setup = setup();
                ids.push(setup.id.clone());
                WriteOp::Create {
                    setup: Box::new(setup),
                    epoch: 0,
                    wake_at: Some(300_000),
                    glance: Some(glance.clone()),
                }
            })
            .collect();
        for chunk in creates.chunks(500) {
            storage.write(chunk, 0).expect("creates");
        }
        Games {
            storage,
            ids,
            glance,
            seq: vec![0; GAMES],
            next: 0,
        }
    }

    /// Commits one batch of [`PER_COMMIT`] moves, each of another game
    /// (a stride prime to [`GAMES`] walks them all in turn). The moves
    /// are rows of the size a move's are, not a game: storing does not
    /// replay them.
    fn commit(&mut self) {
        let ops: Vec<WriteOp> = (0..PER_COMMIT)
            .map(|_| {
                let game = self.next % GAMES;
                self.next += 7919;
                let seq = self.seq[game];
                self.seq[game] += 1;
                let at = 500 * seq as u64;
                WriteOp::Append {
                    game: self.ids[game].clone(),
                    seq,
                    event: Timed {
                        at,
                        event: Event::Move {
                            uci: if seq.is_multiple_of(2) {
                                "g1f3"
                            } else {
                                "g8f6"
                            }
                            .into(),
                        },
                    },
                    ended: None,
                    result: None,
                    wake_at: Some(at + 300_000),
                    glance: Some(self.glance.clone()),
                }
            })
            .collect();
        self.storage.write(&ops, 1).expect("commits");
    }
}

/// Checkpoints `storage` every second until `done`, as the server does.
fn maintain(storage: Arc<SqlStorage>, done: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !done.load(Ordering::Relaxed) {
            storage.maintain().expect("checkpoints");
            std::thread::sleep(Duration::from_secs(1));
        }
    })
}

fn commits(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("rochade-bench-storage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let mut games = Games::new(&dir);
    let done = Arc::new(AtomicBool::new(false));
    let checkpoints = maintain(games.storage.clone(), done.clone());
    if let Some(n) = std::env::var("STORAGE_COMMITS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        for _ in 0..n {
            games.commit();
        }
    } else {
        let mut group = c.benchmark_group("storage");
        group.measurement_time(Duration::from_secs(10));
        group.bench_function("commit of 24 moves of 5,000 games", |b| {
            b.iter(|| games.commit())
        });
        group.finish();
    }
    done.store(true, Ordering::Relaxed);
    checkpoints.join().expect("the checkpoints end");
    drop(games);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, commits);
criterion_main!(benches);
