//! One bounded queue for every robot search on the server, served by a
//! fixed number of worker threads. However many robot games are running,
//! at most `workers` searches use the processor at once, at most `queue`
//! more wait, and each is stopped at the cap: a game at `30d` cannot make
//! the robot think for a day and a half.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::{EngineChoice, RobotPlayer, Think};
use crate::error::{ActionError, ErrorCode};

/// One search waiting for a worker.
struct Job {
    /// Whose brain thinks.
    player: RobotPlayer,
    /// What to think about.
    think: Think,
    /// Set when the answer is no longer wanted, or at the cap.
    stop: Arc<AtomicBool>,
    /// Where the move goes.
    reply: oneshot::Sender<Option<String>>,
}

/// The handle to the queue; clone it freely.
#[derive(Clone)]
pub struct RobotQueue {
    /// Jobs to the workers.
    jobs: mpsc::Sender<Job>,
    /// Searches waiting or running.
    busy: Arc<AtomicUsize>,
}

impl std::fmt::Debug for RobotQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RobotQueue({} busy)", self.busy())
    }
}

impl RobotQueue {
    /// Starts `workers` threads that take searches from a queue of
    /// `capacity`, each search stopped after `cap`. Must be called within
    /// a tokio runtime (the cap's timers run on it).
    pub fn start(engine: EngineChoice, workers: usize, capacity: usize, cap: Duration) -> Self {
        let (jobs, rx) = mpsc::channel::<Job>(capacity.max(1));
        let rx = Arc::new(Mutex::new(rx));
        let busy = Arc::new(AtomicUsize::new(0));
        let timers = tokio::runtime::Handle::current();
        for n in 0..workers.max(1) {
            let (rx, busy, engine, timers) =
                (rx.clone(), busy.clone(), engine.clone(), timers.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("rochade-robot-{n}"))
                .spawn(move || work(&rx, &busy, &engine, &timers, cap));
            if let Err(e) = spawned {
                tracing::error!(worker = n, error = %e, "a robot worker did not start");
            }
        }
        RobotQueue { jobs, busy }
    }

    /// Queues a search by `player`; the receiver gets its move (`None`
    /// when it found none or was stopped before it began).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Busy`] when the queue is full: try again shortly.
    pub fn submit(
        &self,
        player: &RobotPlayer,
        think: Think,
        stop: Arc<AtomicBool>,
    ) -> Result<oneshot::Receiver<Option<String>>, ActionError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            player: player.clone(),
            think,
            stop,
            reply,
        };
        self.jobs.try_send(job).map_err(|_| {
            ActionError::new(ErrorCode::Busy, "every robot is thinking; the move waits")
        })?;
        self.busy.fetch_add(1, Ordering::Relaxed);
        Ok(answer)
    }

    /// Searches waiting or running now.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::Relaxed)
    }
}

/// A worker: takes one search at a time until the queue closes.
fn work(
    rx: &Mutex<mpsc::Receiver<Job>>,
    busy: &AtomicUsize,
    engine: &EngineChoice,
    timers: &tokio::runtime::Handle,
    cap: Duration,
) {
    loop {
        let job = {
            let mut rx = rx.lock().unwrap_or_else(|e| e.into_inner());
            rx.blocking_recv()
        };
        let Some(job) = job else { return };
        let answer = if job.stop.load(Ordering::Relaxed) || job.reply.is_closed() {
            None
        } else {
            let stop = job.stop.clone();
            let watchdog = timers.spawn(async move {
                tokio::time::sleep(cap).await;
                stop.store(true, Ordering::Relaxed);
            });
            let answer = job.player.think(engine, &job.think, &job.stop);
            watchdog.abort();
            answer
        };
        busy.fetch_sub(1, Ordering::Relaxed);
        let _ = job.reply.send(answer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rochade_engine::robot::{Level, RobotClock};
    use rochade_laws::Game;
    use rochade_laws::clock::{Clock, TimeControl};
    use std::time::Instant;

    /// A search at full strength on a correspondence clock of a day and a
    /// half a move ends at the cap.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_end_at_the_cap_whatever_the_clock() {
        let queue = RobotQueue::start(EngineChoice::Builtin, 1, 4, Duration::from_millis(300));
        let game = Game::new(rochade_laws::RuleSet::Fide);
        let control = TimeControl::parse("30d").expect("control");
        let clock = Clock::new(control, Duration::ZERO);
        let mut think = Think::new(&game, &clock, shakmaty::Color::White, Duration::ZERO);
        think.clock = Some(RobotClock {
            remaining: Duration::from_secs(30 * 86_400),
            increment: Duration::ZERO,
            moves_to_go: None,
        });
        let player = RobotPlayer::new(Level::new(8).expect("level"));
        let started = Instant::now();
        let answer = queue
            .submit(&player, think, Arc::new(AtomicBool::new(false)))
            .expect("queued")
            .await
            .expect("answered");
        assert!(
            answer.is_some(),
            "a move is played when the cap stops the search"
        );
        // Generous: the cap is 0.3 s, a day and a half would never end.
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_eq!(queue.busy(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_queue_says_busy() {
        let queue = RobotQueue::start(EngineChoice::Builtin, 1, 1, Duration::from_secs(2));
        let game = Game::new(rochade_laws::RuleSet::Fide);
        let clock = Clock::new(TimeControl::parse("-").expect("control"), Duration::ZERO);
        let think = Think::new(&game, &clock, shakmaty::Color::White, Duration::ZERO);
        let player = RobotPlayer::new(Level::new(8).expect("level"));
        let stop = Arc::new(AtomicBool::new(false));
        let mut answers = Vec::new();
        let mut refused = 0;
        for _ in 0..4 {
            match queue.submit(&player, think.clone(), stop.clone()) {
                Ok(a) => answers.push(a),
                Err(e) => {
                    assert_eq!(e.code, ErrorCode::Busy);
                    refused += 1;
                }
            }
        }
        assert!(refused >= 2, "one running and one waiting at most");
        stop.store(true, Ordering::Relaxed);
        for a in answers {
            let _ = a.await;
        }
    }
}
