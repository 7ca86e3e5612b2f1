//! Threads for work that must never slow the game rooms: password hashing
//! (Argon2id takes tens of milliseconds of a core). On Linux they run under
//! `SCHED_IDLE`, below even nice 19: the kernel gives them only the time
//! that rooms, sockets and the writer leave over, and takes the core back
//! the moment one of those wakes. Under load, sign-ins wait, moves do not.
//! Elsewhere they run at the lowest priority the system offers.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, OnceLock};

use thread_priority::{ThreadPriority, set_current_thread_priority};

/// Puts the calling thread under `SCHED_IDLE` (Linux), else at the lowest
/// priority; a refusal leaves it as it was.
fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle).is_ok() {
            return;
        }
    }
    let _ = set_current_thread_priority(ThreadPriority::Min);
}

/// One piece of work.
type Job = Box<dyn FnOnce() + Send>;

/// The process's low-priority threads, one for every two cores (at least
/// one), started on first use: however many sign-ins come, half the cores
/// never see a hash, and its 19 MiB never crowd the rooms out of every
/// core's cache.
fn pool() -> &'static SyncSender<Job> {
    static POOL: OnceLock<SyncSender<Job>> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (cores / 2).max(1);
        let (tx, rx) = mpsc::sync_channel::<Job>(threads * 64);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = rx.clone();
            let _ = std::thread::Builder::new()
                .name(format!("low-priority-{i}"))
                .spawn(move || work(&rx));
        }
        tx
    })
}

/// A thread's loop: lower its own priority, then run jobs until the
/// process ends.
fn work(jobs: &Mutex<Receiver<Job>>) {
    lower_this_thread();
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Runs `work` on a low-priority thread; its result.
///
/// # Errors
///
/// When the pool is gone (the process is ending).
///
/// # Examples
///
/// ```
/// # async fn demo() {
/// let answer = rochade_server::accounts::low_priority::run(|| 6 * 7).await;
/// assert_eq!(answer.ok(), Some(42));
/// # }
/// ```
pub async fn run<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = tx.send(work());
    });
    let sender = pool().clone();
    // The queue is bounded: wait for room off the async threads.
    tokio::task::spawn_blocking(move || sender.send(job))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|_| "the low-priority threads have stopped".to_owned())?;
    rx.await
        .map_err(|_| "the low-priority work was dropped".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calling thread's scheduling policy, from `/proc` (Linux):
    /// field 41 of its `stat` (0 normal, 5 idle).
    fn policy() -> Option<i64> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        // After the command name in parentheses the state is field 3.
        let rest = stat.rsplit_once(')')?.1;
        rest.split_whitespace().nth(38)?.parse().ok()
    }

    #[tokio::test]
    async fn work_runs_only_when_nothing_else_would() {
        if cfg!(target_os = "linux") {
            assert_eq!(policy(), Some(0), "this test's own thread: SCHED_OTHER");
            assert_eq!(run(policy).await.expect("runs"), Some(5), "SCHED_IDLE");
        }
        let name = run(|| std::thread::current().name().map(str::to_owned))
            .await
            .expect("runs");
        assert!(name.is_some_and(|n| n.starts_with("low-priority-")));
    }
}
