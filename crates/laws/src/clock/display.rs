//! Showing clock times: `h:mm:ss`, with tenths of a second below ten seconds.

use std::fmt;
use std::time::Duration;

/// A clock time for display: `h:mm:ss`, and `h:mm:ss.t` (tenths, cut not
/// rounded, as clocks do) when less than ten seconds are left.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::ClockTime;
///
/// assert_eq!(ClockTime(Duration::from_secs(5400)).to_string(), "1:30:00");
/// assert_eq!(ClockTime(Duration::from_secs(65)).to_string(), "0:01:05");
/// assert_eq!(ClockTime(Duration::from_millis(9_470)).to_string(), "0:00:09.4");
/// assert_eq!(ClockTime(Duration::ZERO).to_string(), "0:00:00.0");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClockTime(pub Duration);

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.0.as_secs();
        let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
        write!(f, "{h}:{m:02}:{s:02}")?;
        if secs < 10 {
            write!(f, ".{}", self.0.subsec_millis() / 100)?;
        }
        Ok(())
    }
}

/// The PGN `[%clk]` / `[%emt]` form of a time: `h:mm:ss`, always whole
/// seconds (cut).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::pgn_clock;
///
/// assert_eq!(pgn_clock(Duration::from_millis(9_470)), "0:00:09");
/// ```
pub fn pgn_clock(t: Duration) -> String {
    let secs = t.as_secs();
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_seconds_and_more_have_no_tenths() {
        assert_eq!(
            ClockTime(Duration::from_millis(10_999)).to_string(),
            "0:00:10"
        );
        assert_eq!(
            ClockTime(Duration::from_millis(9_999)).to_string(),
            "0:00:09.9"
        );
        assert_eq!(
            ClockTime(Duration::from_secs(100 * 3600)).to_string(),
            "100:00:00"
        );
    }
}
