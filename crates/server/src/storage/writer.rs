//! Group commit: one thread takes every write waiting, commits them in one
//! transaction, then answers each. Under load many games' moves share one
//! disk sync; when idle, the thread still records every second that the
//! server is alive, which tells a restart when the clocks stopped.
//!
//! A commit's answers go back to the async runtime together, to one task
//! that hands them out ([`answer`]): each answer sent from the thread woke
//! its room from outside the runtime, and tokio wakes a runtime from
//! outside with a write to its event file, one system call a move
//! (docs/performance.md).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::{Storage, StorageError, WriteOp, wall_ms};

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 4096;

/// Under load, the least time from one commit's start to the next: the
/// writes that come meanwhile share the next sync. At 10,000 moves a
/// second on one core this made commits of 25 writes instead of 7 and
/// took a fifth off the writer's time a move (docs/performance.md); a
/// write that comes alone (the last batch was one write) is never held.
const COMMIT_EVERY: Duration = Duration::from_millis(2);

/// How often an idle writer records that the server is alive.
const ALIVE_EVERY: Duration = Duration::from_secs(1);

/// A write waiting for its commit.
struct Pending {
    /// What to write (empty: just record that the server is alive).
    ops: Vec<WriteOp>,
    /// Where to say it is done.
    done: oneshot::Sender<Result<(), StorageError>>,
}

/// A commit's answers: each write's place to say it is done, and what.
type Answers = Vec<(
    oneshot::Sender<Result<(), StorageError>>,
    Result<(), StorageError>,
)>;

/// The handle to the writer thread; clone it freely.
#[derive(Clone)]
pub struct Writer {
    /// The queue to the thread.
    queue: mpsc::Sender<Pending>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Writer")
    }
}

impl Writer {
    /// Starts the writer thread over `storage`. The thread ends when the
    /// last handle is dropped, after committing what is queued. Within a
    /// tokio runtime, a task of that runtime hands out each commit's
    /// answers; outside one, the thread answers each write itself.
    pub fn start(storage: Arc<dyn Storage>) -> Writer {
        let (queue, rx) = mpsc::channel::<Pending>();
        let answers = tokio::runtime::Handle::try_current().ok().map(|runtime| {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            runtime.spawn(answer(rx));
            tx
        });
        let weak = Arc::downgrade(&storage);
        std::thread::Builder::new()
            .name("rochade-maintain".into())
            .spawn(move || {
                while let Some(storage) = weak.upgrade() {
                    let _ = storage.maintain();
                    drop(storage);
                    std::thread::sleep(ALIVE_EVERY);
                }
            })
            .expect("the system starts a thread");
        std::thread::Builder::new()
            .name("rochade-writer".into())
            .spawn(move || run(storage.as_ref(), &rx, answers.as_ref()))
            .expect("the system starts a thread");
        Writer { queue }
    }

    /// Commits `ops` together; returns once they are on disk.
    ///
    /// # Errors
    ///
    /// When the transaction fails (nothing of `ops` is kept):
    /// [`StorageError::NotOwner`] when another node owns a game of an
    /// [`WriteOp::Owned`], else [`StorageError::Refused`] with the
    /// database's words; [`StorageError::Closed`] when the writer has
    /// stopped.
    pub async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StorageError> {
        let (done, wait) = oneshot::channel();
        self.queue
            .send(Pending { ops, done })
            .map_err(|_| StorageError::Closed)?;
        wait.await.unwrap_or(Err(StorageError::Closed))
    }
}

/// Hands out each commit's answers, on the runtime the writes came from.
async fn answer(mut rx: tokio::sync::mpsc::UnboundedReceiver<Answers>) {
    while let Some(answers) = rx.recv().await {
        hand_out(answers);
    }
}

/// Tells each write of a commit how it went.
fn hand_out(answers: Answers) {
    for (done, result) in answers {
        let _ = done.send(result);
    }
}

/// Gives a commit's answers to the runtime's task (one wake-up for them
/// all), or, with no such task, to each write itself.
fn send_answers(answers: Answers, to: Option<&tokio::sync::mpsc::UnboundedSender<Answers>>) {
    let Some(to) = to else {
        return hand_out(answers);
    };
    // The runtime has stopped: answer here.
    if let Err(tokio::sync::mpsc::error::SendError(answers)) = to.send(answers) {
        hand_out(answers);
    }
}

/// The writer thread: batch, commit, answer.
fn run(
    storage: &dyn Storage,
    rx: &mpsc::Receiver<Pending>,
    answers: Option<&tokio::sync::mpsc::UnboundedSender<Answers>>,
) {
    // When the last commit began, if it was of more than one write.
    let mut busy_since: Option<Instant> = None;
    loop {
        let first = match rx.recv_timeout(ALIVE_EVERY) {
            Ok(p) => p,
            Err(RecvTimeoutError::Timeout) => {
                let alive = storage.write(&[], wall_ms());
                crate::metrics::METRICS
                    .failing
                    .store(alive.is_err(), Ordering::Relaxed);
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if let Some(began) = busy_since {
            let next = began + COMMIT_EVERY;
            let now = Instant::now();
            if now < next {
                std::thread::sleep(next - now);
            }
        }
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(p) => batch.push(p),
                Err(_) => break,
            }
        }
        busy_since = (batch.len() > 1).then(Instant::now);
        send_answers(commit(storage, batch), answers);
    }
}

/// Commits `batch` in one transaction and says how each write went: when
/// the transaction fails, each write is tried again alone, so that one bad
/// write does not sink the others.
fn commit(storage: &dyn Storage, mut batch: Vec<Pending>) -> Answers {
    // The writes' ops side by side, each write's place among them kept
    // for the retries.
    let mut ops: Vec<WriteOp> = Vec::new();
    let mut places = Vec::with_capacity(batch.len());
    for p in &mut batch {
        let from = ops.len();
        ops.append(&mut p.ops);
        places.push(from..ops.len());
    }
    let began = Instant::now();
    let result = storage.write(&ops, wall_ms());
    let m = &crate::metrics::METRICS;
    m.sync_seconds.observe(began.elapsed());
    m.batch_writes.record(ops.len() as f64);
    m.failing.store(result.is_err(), Ordering::Relaxed);
    match result {
        Ok(()) => batch.into_iter().map(|p| (p.done, Ok(()))).collect(),
        Err(_) => {
            m.write_failures.fetch_add(1, Ordering::Relaxed);
            batch
                .into_iter()
                .zip(places)
                .map(|(p, place)| {
                    let r = storage.write(&ops[place], wall_ms()).map_err(|e| match e {
                        e @ StorageError::NotOwner { .. } => e,
                        e => StorageError::Refused(e.to_string()),
                    });
                    (p.done, r)
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::SqliteStorage;

    /// A write of `ops`, and where its answer comes.
    fn pending(ops: Vec<WriteOp>) -> Pending {
        let (done, _) = oneshot::channel();
        Pending { ops, done }
    }

    /// A move of a game, its `seq`th event.
    fn a_move(game: &str, seq: usize) -> WriteOp {
        crate::storage::test_move(game, seq, "e2e4")
    }

    #[test]
    fn a_bad_write_does_not_sink_the_others_of_its_commit() {
        let dir = crate::storage::scratch_dir("writer-test");
        let storage = SqliteStorage::open(&dir.join("games.sqlite")).expect("opens");
        let (id, create) = crate::storage::test_create();
        // The game, a move of a game never stored (refused by the
        // database), and the game's move: each is answered for itself.
        let answers = commit(
            &storage,
            vec![
                pending(vec![create]),
                pending(vec![a_move("nowhere", 0)]),
                pending(vec![a_move(&id, 0)]),
            ],
        );
        assert!(answers[0].1.is_ok());
        assert!(matches!(answers[1].1, Err(StorageError::Refused(_))));
        assert!(answers[2].1.is_ok());
        let stored = storage.load(&id).expect("reads").expect("stored");
        assert_eq!(stored.events.len(), 1);
        assert!(storage.load("nowhere").expect("reads").is_none());
        // All good: one transaction, every write answered well.
        let answers = commit(&storage, vec![pending(vec![a_move(&id, 1)])]);
        assert!(answers.iter().all(|(_, r)| r.is_ok()));
        assert_eq!(
            storage
                .load(&id)
                .expect("reads")
                .expect("stored")
                .events
                .len(),
            2
        );
    }
}
