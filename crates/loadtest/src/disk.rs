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

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Instant;

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
    let path = dir.join(format!(".rochade-disk-probe-{}", std::process::id()));
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(true)
        .read(true)
        .write(true)
        .open(&path)?;
    let mut took = Vec::with_capacity(samples);
    let result = (|| -> std::io::Result<()> {
        for i in 0..samples {
            // A few pages in turn, as a database's log advances.
            file.seek(SeekFrom::Start(((i % 16) * PAGE.len()) as u64))?;
            let began = Instant::now();
            file.write_all(&PAGE)?;
            file.sync_data()?;
            took.push(began.elapsed().as_secs_f64() * 1000.0);
        }
        Ok(())
    })();
    let _ = std::fs::remove_file(&path);
    result?;
    took.sort_by(f64::total_cmp);
    let at = |q: f64| {
        took.get(((took.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    };
    Ok(DiskSync {
        samples,
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: took.last().copied().unwrap_or(0.0),
    })
}
