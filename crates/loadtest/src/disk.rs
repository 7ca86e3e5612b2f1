//! The disk's own sync latency, measured beside a load run: the server
//! syncs its database before it acknowledges a move, so a round trip can
//! never be faster than the disk's sync. With this figure beside each
//! run, a slow disk is told from a slow server.
//!
//! ```
//! let dir = std::env::temp_dir();
//! let sync = rochade_loadtest::disk::sync_latency(&dir, 20).unwrap();
//! assert_eq!(sync.samples, 20);
//! assert!(sync.p50_ms <= sync.p99_ms && sync.p99_ms <= sync.max_ms);
//! ```

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Serialize;

/// A page, as the database writes one.
const PAGE: [u8; 4096] = [0x52; 4096];

/// Sync times of a disk.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DiskSync {
    /// How many writes were synced.
    pub samples: usize,
    /// Median write and sync, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Slowest, ms.
    pub max_ms: f64,
}

/// Writes a 4 KiB page and syncs it (`fdatasync`), `samples` times, in a
/// scratch file in `dir` (the server's database's directory: the same
/// disk); the file is removed after.
///
/// # Errors
///
/// When the file cannot be made, written or synced.
pub fn sync_latency(dir: &Path, samples: usize) -> std::io::Result<DiskSync> {
    let (path, mut file) = scratch(dir)?;
    let mut took = Vec::with_capacity(samples);
    let result = (|| -> std::io::Result<()> {
        for i in 0..samples {
            took.push(write_and_sync(&mut file, i)?);
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(&path);
    result?;
    Ok(summary(took))
}

/// The scratch file of a probe in `dir`, made empty.
fn scratch(dir: &Path) -> std::io::Result<(PathBuf, File)> {
    let path = dir.join(format!(".rochade-disk-probe-{}", std::process::id()));
    let file = OpenOptions::new()
        .create(true)
        .truncate(true)
        .read(true)
        .write(true)
        .open(&path)?;
    Ok((path, file))
}

/// Writes the `i`th page (a few pages in turn, as a database's log
/// advances) and syncs it; ms taken.
fn write_and_sync(file: &mut File, i: usize) -> std::io::Result<f64> {
    file.seek(SeekFrom::Start(((i % 16) * PAGE.len()) as u64))?;
    let began = Instant::now();
    file.write_all(&PAGE)?;
    file.sync_data()?;
    Ok(began.elapsed().as_secs_f64() * 1000.0)
}

/// The percentiles of sync times in ms.
fn summary(mut took: Vec<f64>) -> DiskSync {
    took.sort_by(f64::total_cmp);
    let at = |q: f64| {
        took.get(((took.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    };
    DiskSync {
        samples: took.len(),
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: took.last().copied().unwrap_or(0.0),
    }
}

/// Syncs of the disk all through a run, one every [`DURING_EVERY`], on a
/// thread of their own: a disk that stalls for a second shows in the
/// second it stalled (the syncs before and after a run miss a burst).
///
/// The thread runs above the load where the system allows it (Linux
/// `SCHED_FIFO`, the lowest real-time priority; [`During::realtime`]).
/// At a normal priority each sync's time also held the wait for the
/// thread's turn on a core that the load tool keeps busy: with the
/// server's database on a RAM disk, so that the server wrote nothing to
/// the disk probed, the syncs during a run still took up to 17 ms
/// (p99 4–9 ms) against 0.3–0.8 ms before and after.
///
/// ```
/// use std::time::{Duration, Instant};
/// let probe = rochade_loadtest::disk::Probe::start(&std::env::temp_dir(), Instant::now()).unwrap();
/// std::thread::sleep(Duration::from_millis(250));
/// let during = probe.finish();
/// assert!(!during.syncs.is_empty());
/// assert!(during.syncs.windows(2).all(|w| w[0].0 <= w[1].0));
/// ```
pub struct Probe {
    /// Set to end the probe.
    stop: Arc<AtomicBool>,
    /// The probe's thread and what it found.
    thread: JoinHandle<During>,
}

/// What a [`Probe`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct During {
    /// Each sync's start (ms after the probe's `from`) and time (ms), in
    /// order.
    pub syncs: Vec<(u32, f64)>,
    /// The probe's thread ran at a real-time priority, above the load:
    /// its times are the disk's. Without it they also hold the wait for
    /// a busy core.
    pub realtime: bool,
}

/// Puts the calling thread above every thread of normal priority (Linux
/// `SCHED_FIFO` at its lowest priority), if the system allows it (root,
/// or `CAP_SYS_NICE`); whether it did.
fn above_the_load() -> bool {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            RealtimeThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let fifo = ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo);
        set_thread_priority_and_policy(
            thread_native_id(),
            thread_priority::ThreadPriority::Min,
            fifo,
        )
        .is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// How often the probe syncs during a run (ten 4 KiB syncs a second
/// beside the server's hundreds).
pub const DURING_EVERY: Duration = Duration::from_millis(100);

impl Probe {
    /// Starts syncing a scratch file in `dir`, timing each sync from `from`.
    ///
    /// # Errors
    ///
    /// When the scratch file cannot be made.
    pub fn start(dir: &Path, from: Instant) -> std::io::Result<Probe> {
        let (path, mut file) = scratch(dir)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let realtime = above_the_load();
            let mut syncs = Vec::new();
            let mut i = 0;
            while !stopped.load(Ordering::Relaxed) {
                let at = u32::try_from(from.elapsed().as_millis()).unwrap_or(u32::MAX);
                match write_and_sync(&mut file, i) {
                    Ok(ms) => syncs.push((at, ms)),
                    Err(_) => break,
                }
                i += 1;
                std::thread::sleep(DURING_EVERY);
            }
            let _ = std::fs::remove_file(&path);
            During { syncs, realtime }
        });
        Ok(Probe { stop, thread })
    }

    /// Ends the probe: what it found.
    pub fn finish(self) -> During {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or_default()
    }
}

impl During {
    /// The percentiles of the syncs' times.
    pub fn summary(&self) -> DiskSync {
        summary(self.syncs.iter().map(|&(_, ms)| ms).collect())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use thread_priority::unix::{
        NormalThreadSchedulePolicy, RealtimeThreadSchedulePolicy, ThreadSchedulePolicy,
        thread_schedule_policy,
    };

    #[test]
    fn the_probe_thread_says_truly_whether_it_runs_above_the_load() {
        let (raised, policy) =
            std::thread::spawn(|| (above_the_load(), thread_schedule_policy().ok()))
                .join()
                .expect("the thread runs");
        let expected = if raised {
            ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo)
        } else {
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other)
        };
        assert_eq!(policy, Some(expected));
        assert_eq!(
            thread_schedule_policy().ok(),
            Some(ThreadSchedulePolicy::Normal(
                NormalThreadSchedulePolicy::Other
            )),
            "only the probe's own thread is raised"
        );
    }
}
