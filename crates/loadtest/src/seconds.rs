//! The round trips of a run second by second: a p99 over a whole run says
//! how long the tail is, not when it came. A tail made in a few seconds
//! (a stall in the writer, the log starting over, the ramp) reads
//! differently from one spread evenly (a full core).

use serde::Serialize;

/// One second of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Second {
    /// Seconds after the measuring began.
    pub second: u32,
    /// Moves sent in that second and acknowledged.
    pub moves: u64,
    /// Median round trip, ms.
    pub p50_ms: f64,
    /// 99th percentile round trip, ms.
    pub p99_ms: f64,
    /// Slowest round trip, ms.
    pub max_ms: f64,
    /// The slowest of the disk's syncs begun in that second, ms, when the
    /// disk was probed during the run ([`crate::disk::Probe`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disk_max_ms: Option<f64>,
}

/// Groups `timed` round trips, each `(ms after the measuring began when
/// the move was sent, round trip in µs)`, by the second they were sent
/// in; seconds in which no move was sent are left out. `disk` holds the
/// disk's syncs during the run, each `(ms after the measuring began, ms
/// taken)`: each second gets the slowest begun in it.
///
/// ```
/// use rochade_loadtest::seconds::by_second;
/// let seconds = by_second(&[(10, 1_000), (900, 3_000), (1_500, 40_000)], &[(1_200, 35.0)]);
/// assert_eq!(seconds.len(), 2);
/// assert_eq!((seconds[0].second, seconds[0].moves), (0, 2));
/// assert_eq!((seconds[0].max_ms, seconds[0].disk_max_ms), (3.0, None));
/// assert_eq!((seconds[1].second, seconds[1].p99_ms), (1, 40.0));
/// assert_eq!(seconds[1].disk_max_ms, Some(35.0));
/// ```
pub fn by_second(timed: &[(u32, u32)], disk: &[(u32, f64)]) -> Vec<Second> {
    // The slowest sync of each second, in one pass over the syncs.
    let mut disk_max: std::collections::HashMap<u32, f64> = std::collections::HashMap::new();
    for &(at, ms) in disk {
        let slowest = disk_max.entry(at / 1000).or_insert(ms);
        *slowest = slowest.max(ms);
    }
    let mut sorted = timed.to_vec();
    sorted.sort_unstable();
    sorted
        .chunk_by(|a, b| a.0 / 1000 == b.0 / 1000)
        .map(|chunk| {
            let mut rtts: Vec<u32> = chunk.iter().map(|&(_, us)| us).collect();
            rtts.sort_unstable();
            let second = chunk[0].0 / 1000;
            Second {
                second,
                moves: rtts.len() as u64,
                p50_ms: quantile_ms(&rtts, 0.5),
                p99_ms: quantile_ms(&rtts, 0.99),
                max_ms: quantile_ms(&rtts, 1.0),
                disk_max_ms: disk_max.get(&second).copied(),
            }
        })
        .collect()
}

/// The `q` quantile (0 to 1) of `sorted` round trips in µs, in ms (the
/// nearest rank); 0 for none.
///
/// ```
/// use rochade_loadtest::seconds::quantile_ms;
/// assert_eq!(quantile_ms(&[1_000, 2_000, 9_000], 0.5), 2.0);
/// assert_eq!(quantile_ms(&[1_000, 2_000, 9_000], 1.0), 9.0);
/// assert_eq!(quantile_ms(&[], 0.99), 0.0);
/// ```
pub fn quantile_ms(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    f64::from(sorted[i.min(sorted.len() - 1)]) / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stall_shows_in_its_own_second_only() {
        let mut timed: Vec<(u32, u32)> = (0..3000).map(|i| (i, 2_000)).collect();
        // The third second: a hundred moves wait 400 ms.
        timed.extend((2000..2100).map(|i| (i, 400_000)));
        let seconds = by_second(&timed, &[]);
        assert_eq!(seconds.len(), 3);
        assert_eq!(seconds[0].p99_ms, 2.0);
        assert_eq!(seconds[1].max_ms, 2.0);
        assert_eq!(seconds[2].moves, 1100);
        assert_eq!(seconds[2].p50_ms, 2.0);
        assert_eq!(seconds[2].p99_ms, 400.0);
    }

    #[test]
    fn no_moves_no_seconds() {
        assert!(by_second(&[], &[(10, 1.0)]).is_empty());
    }
}
