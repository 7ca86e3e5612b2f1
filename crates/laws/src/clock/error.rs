//! Errors of the clock module.

/// What is wrong with a time control, as written or as built.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{TimeControl, TimeControlError};
///
/// let err = "40/0".parse::<TimeControl>().unwrap_err();
/// assert_eq!(err, TimeControlError::ZeroBase { period: 1 });
/// assert_eq!(err.to_string(), "period 1 has no time: a base time must be more than zero");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Nothing was written.
    #[error("the time control is empty")]
    Empty,
    /// The text does not follow any time control syntax.
    #[error("cannot read `{input}`: {reason}")]
    Syntax {
        /// The part of the text that could not be read.
        input: String,
        /// What was expected.
        reason: String,
    },
    /// A time is negative.
    #[error("the {what} is negative")]
    Negative {
        /// Which time.
        what: String,
    },
    /// A move count is below 1 or too large.
    #[error(
        "the move count of period {period} must be a whole number from 1 to 4294967295, not {count}"
    )]
    MoveCount {
        /// The period, counted from 1.
        period: usize,
        /// The count written.
        count: i64,
    },
    /// A period (or the per-move budget) gives no time.
    #[error("period {period} has no time: a base time must be more than zero")]
    ZeroBase {
        /// The period, counted from 1.
        period: usize,
    },
    /// A time is longer than 366 days.
    #[error("the {what} is longer than a year (366 days)")]
    TooLong {
        /// Which time.
        what: String,
    },
    /// A time is finer than a millisecond.
    #[error("the {what} is not a whole number of milliseconds")]
    NotWholeMilliseconds {
        /// Which time.
        what: String,
    },
    /// A correspondence control has a time that is not a whole number of days.
    #[error("the {what} is not a whole number of days, as a correspondence time must be")]
    NotWholeDays {
        /// Which time.
        what: String,
    },
    /// There are no periods.
    #[error("a time control needs at least one period")]
    NoPeriods,
    /// Days and clock units are mixed in one control.
    #[error("`{input}` mixes days with hours, minutes or seconds; write every time in days")]
    MixedUnits {
        /// The text.
        input: String,
    },
    /// The PGN value `?`: the time control is not known.
    #[error("`?` means the time control is unknown; there is nothing to set the clock to")]
    Unknown,
}

/// A clock operation that cannot be done now.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{Clock, ClockError, TimeControl};
///
/// let mut clock = Clock::new("5+3".parse()?, Duration::ZERO);
/// clock.stop(Duration::from_secs(1));
/// assert_eq!(clock.press(Duration::from_secs(2)), Err(ClockError::Stopped));
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The clocks are stopped (FIDE 6.12): nobody can press until the arbiter starts them.
    #[error("the clocks are stopped; the arbiter must start them first")]
    Stopped,
    /// A leave period ends before it starts.
    #[error("a pause must end after it starts")]
    EmptyPause,
}
