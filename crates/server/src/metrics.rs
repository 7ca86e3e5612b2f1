//! What the server does, counted, for `GET /metrics` in the Prometheus
//! text format (version 0.0.4): moves and players' acts with the time each
//! took from reaching its room to its answer (stored, then told), the
//! group commit's batch sizes and sync times, write failures, open
//! sockets, loaded rooms, the robot's queue and the lobby's seeks.
//!
//! The counters are the process's ([`METRICS`]): one server a process.
//! Counting is a relaxed atomic add, cheap on the move path.
//!
//! ```
//! use rochade_server::metrics::{Histogram, MOVE_BOUNDS};
//! use std::time::Duration;
//!
//! static H: Histogram = Histogram::new(&MOVE_BOUNDS);
//! H.observe(Duration::from_micros(1_500));
//! let mut text = String::new();
//! H.render(&mut text, "act_seconds", "Acts.");
//! assert!(text.contains("act_seconds_bucket{le=\"0.002\"} 1"));
//! assert!(text.contains("act_seconds_count 1"));
//! ```

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Buckets of the acts' times, seconds.
pub const MOVE_BOUNDS: [f64; 12] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// Buckets of the sync times, seconds.
pub const SYNC_BOUNDS: [f64; 12] = [
    0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0,
];

/// Buckets of the batch sizes, writes.
pub const BATCH_BOUNDS: [f64; 12] = [
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 4096.0,
];

/// A histogram of fixed buckets (each counts the values up to its bound;
/// the last, `+Inf`, all of them).
#[derive(Debug)]
pub struct Histogram {
    /// The upper bounds.
    bounds: &'static [f64; 12],
    /// How many values fell at or under each bound (not cumulative).
    counts: [AtomicU64; 13],
    /// The sum of the values, in millionths.
    sum_millionths: AtomicU64,
}

impl Histogram {
    /// An empty histogram with `bounds`.
    pub const fn new(bounds: &'static [f64; 12]) -> Histogram {
        Histogram {
            bounds,
            counts: [const { AtomicU64::new(0) }; 13],
            sum_millionths: AtomicU64::new(0),
        }
    }

    /// Counts a value.
    pub fn record(&self, value: f64) {
        let at = self
            .bounds
            .iter()
            .position(|b| value <= *b)
            .unwrap_or(self.bounds.len());
        self.counts[at].fetch_add(1, Ordering::Relaxed);
        // Whole millionths: a value is never negative here.
        let millionths = (value * 1e6).round().max(0.0) as u64;
        self.sum_millionths.fetch_add(millionths, Ordering::Relaxed);
    }

    /// Counts a duration, in seconds.
    pub fn observe(&self, took: Duration) {
        self.record(took.as_secs_f64());
    }

    /// Writes the histogram named `name` (after the `rochade_` prefix
    /// the caller adds) with its help line.
    pub fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut total = 0;
        for (i, bound) in self.bounds.iter().enumerate() {
            total += self.counts[i].load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {total}");
        }
        total += self.counts[self.bounds.len()].load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {total}");
        let sum = self.sum_millionths.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {total}");
    }
}

/// The server's counters.
#[derive(Debug)]
pub struct Metrics {
    /// Moves stored and told.
    pub moves: AtomicU64,
    /// Players' acts (moves, offers, claims, …) from reaching the room to
    /// the answer.
    pub act_seconds: Histogram,
    /// Writes in each group commit.
    pub batch_writes: Histogram,
    /// Each group commit's transaction, sync included.
    pub sync_seconds: Histogram,
    /// Group commits that failed.
    pub write_failures: AtomicU64,
    /// Open WebSockets (games, the lobby, tournaments).
    pub sockets: AtomicI64,
    /// Whether the last group commit failed.
    pub failing: AtomicBool,
}

/// The process's counters.
pub static METRICS: Metrics = Metrics {
    moves: AtomicU64::new(0),
    act_seconds: Histogram::new(&MOVE_BOUNDS),
    batch_writes: Histogram::new(&BATCH_BOUNDS),
    sync_seconds: Histogram::new(&SYNC_BOUNDS),
    write_failures: AtomicU64::new(0),
    sockets: AtomicI64::new(0),
    failing: AtomicBool::new(false),
};

/// An open socket, counted while it lives.
#[derive(Debug)]
pub struct SocketOpen(());

impl SocketOpen {
    /// Counts a socket until the value is dropped.
    pub fn count() -> SocketOpen {
        METRICS.sockets.fetch_add(1, Ordering::Relaxed);
        SocketOpen(())
    }
}

impl Drop for SocketOpen {
    fn drop(&mut self) {
        METRICS.sockets.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Writes one counter or gauge.
fn single(out: &mut String, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
    let _ = writeln!(out, "{name} {value}");
}

/// The text of `GET /metrics`, with the gauges read now: `rooms` loaded,
/// `robot` searches waiting or running, `seeks` open in the lobby.
pub fn render(rooms: usize, robot: usize, seeks: usize) -> String {
    let m = &METRICS;
    let mut out = String::with_capacity(4096);
    single(
        &mut out,
        "rochade_moves_total",
        "counter",
        "Moves stored and told.",
        m.moves.load(Ordering::Relaxed),
    );
    m.act_seconds.render(
        &mut out,
        "rochade_act_seconds",
        "A player's act from reaching its game's room to the answer (stored, then told).",
    );
    m.batch_writes.render(
        &mut out,
        "rochade_write_batch_writes",
        "Writes committed together in one transaction (group commit).",
    );
    m.sync_seconds.render(
        &mut out,
        "rochade_write_sync_seconds",
        "Each group commit's transaction, the disk's sync included.",
    );
    single(
        &mut out,
        "rochade_write_failures_total",
        "counter",
        "Group commits that failed.",
        m.write_failures.load(Ordering::Relaxed),
    );
    single(
        &mut out,
        "rochade_sockets",
        "gauge",
        "Open WebSockets (games, the lobby, tournaments).",
        m.sockets.load(Ordering::Relaxed),
    );
    single(
        &mut out,
        "rochade_rooms",
        "gauge",
        "Games loaded in rooms.",
        rooms,
    );
    single(
        &mut out,
        "rochade_robot_queue",
        "gauge",
        "The robot's searches waiting or running.",
        robot,
    );
    single(
        &mut out,
        "rochade_seeks",
        "gauge",
        "Open seeks in the lobby, held here or on another node.",
        seeks,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cumulative_and_the_count_is_the_last() {
        static H: Histogram = Histogram::new(&BATCH_BOUNDS);
        for v in [1.0, 1.0, 3.0, 5000.0] {
            H.record(v);
        }
        let mut text = String::new();
        H.render(&mut text, "b", "B.");
        assert!(text.contains("b_bucket{le=\"1\"} 2\n"), "{text}");
        assert!(text.contains("b_bucket{le=\"2\"} 2\n"), "{text}");
        assert!(text.contains("b_bucket{le=\"4\"} 3\n"), "{text}");
        assert!(text.contains("b_bucket{le=\"4096\"} 3\n"), "{text}");
        assert!(text.contains("b_bucket{le=\"+Inf\"} 4\n"), "{text}");
        assert!(text.contains("b_sum 5005\n"), "{text}");
        assert!(text.contains("b_count 4\n"), "{text}");
    }

    #[test]
    fn the_gauges_read_now_are_written_as_gauges() {
        let text = render(3, 1, 2);
        assert!(
            text.contains("# TYPE rochade_rooms gauge\nrochade_rooms 3\n"),
            "{text}"
        );
        assert!(text.contains("rochade_robot_queue 1\n"), "{text}");
        assert!(
            text.contains("# TYPE rochade_seeks gauge\nrochade_seeks 2\n"),
            "{text}"
        );
    }
}
