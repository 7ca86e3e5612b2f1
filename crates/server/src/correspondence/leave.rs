//! Leave (ICCF 10.1): days on which the clocks of both players stand still
//! in every correspondence game of the player on leave. Each player has a
//! yearly allowance of leave days (the organiser's setting, 45 by default;
//! counted per calendar year, refreshed on 1 January, unused days lost),
//! booked ahead in whole days (UTC), never overlapping another leave; the
//! organiser may grant extra days for one year. Pure rules: storage and the
//! games come in [`super::http`].
//!
//! ```
//! use rochade_server::correspondence::leave::{Day, Leave, check};
//! let today = Day::parse("2026-11-25")?;
//! let booked = [Leave::new(Day::parse("2026-12-01")?, Day::parse("2026-12-10")?)?];
//! let asked = Leave::new(Day::parse("2026-12-20")?, Day::parse("2027-01-05")?)?;
//! // 12 days in 2026 (10 already booked) and 5 in 2027: within 45 each.
//! check(&booked, &asked, today, |_| 45)?;
//! # Ok::<(), rochade_server::correspondence::leave::LeaveError>(())
//! ```

use std::fmt;

use rochade_laws::pgn::civil_date;

/// A calendar day (UTC): days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

/// One day in milliseconds.
const DAY_MS: i64 = 86_400_000;

impl Day {
    /// The day of `unix_ms`.
    pub fn of_ms(unix_ms: u64) -> Day {
        Day(i64::try_from(unix_ms).unwrap_or(i64::MAX) / DAY_MS)
    }

    /// Its first millisecond, Unix ms.
    pub fn start_ms(self) -> u64 {
        u64::try_from(self.0.saturating_mul(DAY_MS)).unwrap_or(0)
    }

    /// The calendar year it falls in.
    pub fn year(self) -> i64 {
        civil_date(self.0).0
    }

    /// Reads `YYYY-MM-DD`.
    ///
    /// # Errors
    ///
    /// [`LeaveError::BadDate`] when the text is not a real date.
    ///
    /// ```
    /// use rochade_server::correspondence::leave::Day;
    /// assert_eq!(Day::parse("1970-01-02")?.0, 1);
    /// assert!(Day::parse("2026-02-29").is_err());
    /// # Ok::<(), rochade_server::correspondence::leave::LeaveError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Day, LeaveError> {
        let bad = || LeaveError::BadDate(text.to_owned());
        let mut parts = text.split('-');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let (y, m, d): (i64, u32, u32) = (
            y.parse().map_err(|_| bad())?,
            m.parse().map_err(|_| bad())?,
            d.parse().map_err(|_| bad())?,
        );
        if !(1..=12).contains(&m) || d == 0 {
            return Err(bad());
        }
        let day = Day(days_from_civil(y, m, d));
        // A 31st of a 30-day month reads as the next month's first.
        if civil_date(day.0) != (y, m, d) {
            return Err(bad());
        }
        Ok(day)
    }
}

impl fmt::Display for Day {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = civil_date(self.0);
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// Days since 1970-01-01 of a date (Howard Hinnant's `days_from_civil`,
/// the inverse of [`civil_date`]).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A leave: whole days, the first and the last included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leave {
    /// The first day on leave.
    pub first: Day,
    /// The last day on leave.
    pub last: Day,
}

impl Leave {
    /// The leave from `first` to `last`, both included.
    ///
    /// # Errors
    ///
    /// [`LeaveError::Reversed`] when `last` comes before `first`.
    pub fn new(first: Day, last: Day) -> Result<Leave, LeaveError> {
        if last < first {
            return Err(LeaveError::Reversed { first, last });
        }
        Ok(Leave { first, last })
    }

    /// How many days it has.
    pub fn days(&self) -> i64 {
        self.last.0 - self.first.0 + 1
    }

    /// How many of its days fall in `year`.
    pub fn days_in(&self, year: i64) -> i64 {
        let start = Day(days_from_civil(year, 1, 1));
        let end = Day(days_from_civil(year + 1, 1, 1) - 1);
        let (from, to) = (self.first.max(start), self.last.min(end));
        (to.0 - from.0 + 1).max(0)
    }

    /// Whether it shares a day with `other`.
    pub fn overlaps(&self, other: &Leave) -> bool {
        self.first <= other.last && other.first <= self.last
    }

    /// Its span in Unix ms: from the first day's start to the end of the
    /// last day.
    pub fn span_ms(&self) -> (u64, u64) {
        (self.first.start_ms(), Day(self.last.0 + 1).start_ms())
    }
}

/// Why a leave cannot be booked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeaveError {
    /// Not a date.
    #[error("`{0}` is not a date (YYYY-MM-DD)")]
    BadDate(String),
    /// The last day before the first.
    #[error("the leave ends ({last}) before it begins ({first})")]
    Reversed {
        /// The first day asked.
        first: Day,
        /// The last day asked.
        last: Day,
    },
    /// Leave is booked ahead: from tomorrow at the earliest.
    #[error("leave is booked ahead: it can begin on {earliest} at the earliest, not {first}")]
    NotAhead {
        /// The first day asked.
        first: Day,
        /// Tomorrow.
        earliest: Day,
    },
    /// It shares days with a leave already booked.
    #[error("it overlaps the leave from {first} to {last}")]
    Overlaps {
        /// The booked leave's first day.
        first: Day,
        /// Its last day.
        last: Day,
    },
    /// More days in a year than are left of its allowance.
    #[error("{asked} days of leave in {year}, but only {left} of its allowance are left")]
    OverAllowance {
        /// The year.
        year: i64,
        /// Days asked in that year.
        asked: i64,
        /// Days left in that year.
        left: i64,
    },
}

/// Days of leave used in `year` by the `booked` leaves.
pub fn used_in(booked: &[Leave], year: i64) -> i64 {
    booked.iter().map(|l| l.days_in(year)).sum()
}

/// Whether `asked` may be booked on `today` beside the `booked` leaves,
/// with `allowance(year)` days in each year (the organiser's allowance
/// plus any days granted).
///
/// # Errors
///
/// The first rule it breaks: [`LeaveError::NotAhead`],
/// [`LeaveError::Overlaps`], [`LeaveError::OverAllowance`].
pub fn check(
    booked: &[Leave],
    asked: &Leave,
    today: Day,
    allowance: impl Fn(i64) -> i64,
) -> Result<(), LeaveError> {
    let earliest = Day(today.0 + 1);
    if asked.first < earliest {
        return Err(LeaveError::NotAhead {
            first: asked.first,
            earliest,
        });
    }
    if let Some(other) = booked.iter().find(|b| b.overlaps(asked)) {
        return Err(LeaveError::Overlaps {
            first: other.first,
            last: other.last,
        });
    }
    for year in asked.first.year()..=asked.last.year() {
        let want = asked.days_in(year);
        let left = (allowance(year) - used_in(booked, year)).max(0);
        if want > left {
            return Err(LeaveError::OverAllowance {
                year,
                asked: want,
                left,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        Day::parse(text).expect("a date")
    }

    fn leave(first: &str, last: &str) -> Leave {
        Leave::new(day(first), day(last)).expect("ordered")
    }

    #[test]
    fn dates_read_and_print_back() {
        for text in ["1970-01-01", "2000-02-29", "2026-12-31", "2027-01-01"] {
            assert_eq!(day(text).to_string(), text);
        }
        for bad in [
            "2026-13-01",
            "2026-04-31",
            "2026-1-01",
            "26-01-01",
            "2026-01-01-",
            "x",
        ] {
            assert!(Day::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn iccf_art_10_1_leave_is_booked_ahead() {
        let today = day("2026-11-25");
        let e = check(&[], &leave("2026-11-25", "2026-11-30"), today, |_| 45);
        assert!(matches!(e, Err(LeaveError::NotAhead { .. })));
        assert!(check(&[], &leave("2026-11-26", "2026-11-30"), today, |_| 45).is_ok());
    }

    #[test]
    fn iccf_art_10_1_no_two_leaves_share_a_day() {
        let booked = [leave("2026-12-01", "2026-12-10")];
        let e = check(
            &booked,
            &leave("2026-12-10", "2026-12-12"),
            day("2026-11-25"),
            |_| 45,
        );
        assert!(matches!(e, Err(LeaveError::Overlaps { .. })));
        assert!(
            check(
                &booked,
                &leave("2026-12-11", "2026-12-12"),
                day("2026-11-25"),
                |_| 45
            )
            .is_ok()
        );
    }

    #[test]
    fn iccf_art_10_1_the_allowance_is_counted_per_calendar_year() {
        let booked = [leave("2026-12-01", "2026-12-30")];
        let today = day("2026-11-25");
        // 30 used in 2026: 15 left, which a leave over New Year may not pass.
        let e = check(&booked, &leave("2026-12-15", "2026-12-16"), today, |_| 45);
        assert!(matches!(e, Err(LeaveError::Overlaps { .. })));
        assert!(check(&booked, &leave("2026-12-31", "2027-02-14"), today, |_| 45).is_ok());
        let e = check(&booked, &leave("2026-12-31", "2027-02-15"), today, |_| 45);
        assert_eq!(
            e,
            Err(LeaveError::OverAllowance {
                year: 2027,
                asked: 46,
                left: 45
            })
        );
        // Days granted for 2027 make room.
        let granted = |year| if year == 2027 { 50 } else { 45 };
        assert!(check(&booked, &leave("2026-12-31", "2027-02-15"), today, granted).is_ok());
    }

    #[test]
    fn a_leave_longer_than_a_year_allowance_is_refused() {
        let e = check(
            &[],
            &leave("2027-01-01", "2027-03-01"),
            day("2026-11-25"),
            |_| 45,
        );
        assert!(matches!(
            e,
            Err(LeaveError::OverAllowance { year: 2027, .. })
        ));
    }

    #[test]
    fn the_span_covers_whole_days() {
        let l = leave("1970-01-02", "1970-01-03");
        assert_eq!(l.span_ms(), (86_400_000, 3 * 86_400_000));
        assert_eq!(l.days(), 2);
    }
}
