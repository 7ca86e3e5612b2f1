//! When each correspondence player wants to hear that their time runs low:
//! up to [`MOST`] thresholds of their own (`"low_time_hours": [72, 24]` in
//! their notification settings), else the server's `low_time`. Kept in
//! memory for the rooms, loaded at start and changed with the settings.

use std::collections::HashMap;
use std::sync::RwLock;

/// Most thresholds a player may set.
pub const MOST: usize = 3;

/// Longest threshold, in hours (30 days).
pub const LONGEST_HOURS: u64 = 720;

/// An hour, ms.
const HOUR_MS: u64 = 3_600_000;

/// Every player's thresholds.
#[derive(Debug)]
pub struct Thresholds {
    /// The server's, for players who set none (ms).
    default: Vec<u64>,
    /// Those players set, longest first (ms).
    by_user: RwLock<HashMap<i64, Vec<u64>>>,
}

impl Thresholds {
    /// The server's `default` (ms) for everyone, until players set theirs.
    ///
    /// ```
    /// use rochade_server::notify::thresholds::Thresholds;
    /// let t = Thresholds::new(86_400_000);
    /// t.set(7, Some(vec![24 * 3_600_000, 72 * 3_600_000]));
    /// assert_eq!(t.of(Some(7)), vec![72 * 3_600_000, 24 * 3_600_000]);
    /// assert_eq!(t.of(Some(8)), vec![86_400_000]);
    /// t.set(7, None);
    /// assert_eq!(t.of(Some(7)), vec![86_400_000]);
    /// ```
    pub fn new(default: u64) -> Thresholds {
        Thresholds {
            default: vec![default],
            by_user: RwLock::new(HashMap::new()),
        }
    }

    /// The thresholds of account `user` (none: the robot's or a guest's
    /// seat: the server's), longest first, ms.
    pub fn of(&self, user: Option<i64>) -> Vec<u64> {
        user.and_then(|u| {
            self.by_user
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .get(&u)
                .cloned()
        })
        .unwrap_or_else(|| self.default.clone())
    }

    /// Whether `user` set thresholds of their own.
    pub fn is_set(&self, user: i64) -> bool {
        self.by_user
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&user)
    }

    /// Sets the thresholds (ms) of `user`; none or empty: the server's.
    pub fn set(&self, user: i64, thresholds: Option<Vec<u64>>) {
        let mut by_user = self.by_user.write().unwrap_or_else(|e| e.into_inner());
        match thresholds {
            Some(mut t) if !t.is_empty() => {
                t.sort_unstable_by(|a, b| b.cmp(a));
                t.dedup();
                by_user.insert(user, t);
            }
            _ => {
                by_user.remove(&user);
            }
        }
    }
}

/// Hours as a player gives them, checked: 1 to [`LONGEST_HOURS`] each,
/// at most [`MOST`]; in ms, longest first.
///
/// ```
/// use rochade_server::notify::thresholds::checked_hours;
/// assert_eq!(checked_hours(&[24, 72]), Ok(vec![72 * 3_600_000, 24 * 3_600_000]));
/// assert!(checked_hours(&[0]).is_err());
/// assert!(checked_hours(&[1, 2, 3, 4]).is_err());
/// ```
///
/// # Errors
///
/// What is wrong, in words.
pub fn checked_hours(hours: &[u64]) -> Result<Vec<u64>, String> {
    if hours.len() > MOST {
        return Err(format!("{} thresholds, at most {MOST}", hours.len()));
    }
    if let Some(h) = hours.iter().find(|h| !(1..=LONGEST_HOURS).contains(*h)) {
        return Err(format!(
            "{h} hours: a threshold is 1 to {LONGEST_HOURS} hours"
        ));
    }
    let mut ms: Vec<u64> = hours.iter().map(|h| h * HOUR_MS).collect();
    ms.sort_unstable_by(|a, b| b.cmp(a));
    ms.dedup();
    Ok(ms)
}

/// Milliseconds as whole hours, for the settings' answer.
pub fn hours(ms: &[u64]) -> Vec<u64> {
    ms.iter().map(|m| m / HOUR_MS).collect()
}
