//! Time controls: periods, per-move bonuses, fixed time per move, no clock.
//!
//! A [`TimeControl`] is always valid; it is built either from checked
//! [`Period`]s or by validating a [`RawTimeControl`], the unchecked form a
//! parser produces.

use std::num::NonZeroU32;
use std::time::Duration;

use super::error::TimeControlError;

/// The longest base time (or per-move budget, or bonus) a control may give: 366 days.
pub const MAX_TIME: Duration = Duration::from_secs(366 * 86_400);

/// One day, the unit of correspondence time controls.
pub const DAY: Duration = Duration::from_secs(86_400);

/// The bonus a player gets with each move of a period (FIDE 6.3.1, 6.3.2).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::Bonus;
///
/// let bonus = Bonus::Increment(Duration::from_secs(30));
/// assert_eq!(bonus.amount(), Duration::from_secs(30));
/// assert_eq!(Bonus::None.amount(), Duration::ZERO);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bonus {
    /// No bonus.
    #[default]
    None,
    /// Fischer increment: added to the player's time after each move.
    Increment(Duration),
    /// Bronstein delay: the time used on a move, up to the delay, is given back.
    Bronstein(Duration),
    /// Simple delay ("time delay mode", FIDE 6.3.2): the main time does not run
    /// until the delay has passed.
    Delay(Duration),
}

impl Bonus {
    /// The amount of the bonus (zero for [`Bonus::None`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::Bonus;
    ///
    /// assert_eq!(Bonus::Delay(Duration::from_secs(5)).amount(), Duration::from_secs(5));
    /// ```
    pub const fn amount(self) -> Duration {
        match self {
            Bonus::None => Duration::ZERO,
            Bonus::Increment(d) | Bonus::Bronstein(d) | Bonus::Delay(d) => d,
        }
    }
}

/// One period of a time control: an optional number of moves, the time for
/// them and the per-move bonus.
///
/// A period without a move count lasts for the rest of the game. A period with
/// a move count is followed by the next one; if it is the last period, it
/// repeats (PGN `40/9000`, ICCF "10 moves in 50 days").
///
/// # Examples
///
/// ```
/// use std::num::NonZeroU32;
/// use std::time::Duration;
/// use rochade_laws::clock::{Bonus, Period};
///
/// let first = Period::new(NonZeroU32::new(40), Duration::from_secs(90 * 60), Bonus::Increment(Duration::from_secs(30)));
/// assert_eq!(first.moves.map(NonZeroU32::get), Some(40));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// How many moves must be completed in this period; `None`: all the rest.
    pub moves: Option<NonZeroU32>,
    /// The time added to the player's clock when the period begins.
    pub base: Duration,
    /// The bonus for each move made in this period.
    pub bonus: Bonus,
}

impl Period {
    /// A period.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Bonus, Period};
    ///
    /// let rest = Period::new(None, Duration::from_secs(1800), Bonus::None);
    /// assert!(rest.moves.is_none());
    /// ```
    pub const fn new(moves: Option<NonZeroU32>, base: Duration, bonus: Bonus) -> Self {
        Period { moves, base, bonus }
    }
}

/// The shape of a time control.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{Limit, TimeControl};
///
/// assert_eq!(TimeControl::no_clock().limit(), &Limit::NoClock);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Limit {
    /// One or more periods; time saved in one carries to the next (FIDE 6.3.2).
    Periods(Vec<Period>),
    /// The same budget for every move; unused time is not carried.
    PerMove(Duration),
    /// No clock: nobody's flag ever falls.
    NoClock,
    /// A sandclock (hourglass) holding this much time in all (PGN `*secs`):
    /// it starts with half on each side, and the time one player uses flows
    /// to the other; the flag falls when a player's side runs empty.
    Sandclock(Duration),
}

/// The unit a control is counted in: clock time, or days (correspondence).
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{Scale, TimeControl};
///
/// let tc: TimeControl = "30d+1d".parse()?;
/// assert_eq!(tc.scale(), Scale::Days);
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Scale {
    /// Hours, minutes and seconds: over-the-board play.
    #[default]
    Clock,
    /// Whole days: correspondence play (ICCF). Every time in the control is a
    /// whole number of days.
    Days,
}

/// A valid time control.
///
/// Invariants (checked by every constructor): at least one period; move
/// counts at least 1 (by type); every time a whole number of milliseconds; base
/// times and per-move budgets positive and at most [`MAX_TIME`]; bonuses at
/// most [`MAX_TIME`]; with [`Scale::Days`], every time a whole number of days.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{Bonus, TimeControl};
///
/// let tc = TimeControl::sudden_death(Duration::from_secs(300), Bonus::Increment(Duration::from_secs(3)))?;
/// assert_eq!(tc.to_string(), "5+3");
/// assert_eq!(tc.to_pgn().as_deref(), Some("300+3"));
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TimeControl {
    limit: Limit,
    scale: Scale,
}

impl TimeControl {
    /// A control made of periods.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if the periods break an invariant of [`TimeControl`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Bonus, Period, Scale, TimeControl};
    ///
    /// let inc = Bonus::Increment(Duration::from_secs(30));
    /// let tc = TimeControl::new(
    ///     vec![
    ///         Period::new(NonZeroU32::new(40), Duration::from_secs(5400), inc),
    ///         Period::new(None, Duration::from_secs(1800), inc),
    ///     ],
    ///     Scale::Clock,
    /// )?;
    /// assert_eq!(tc.to_string(), "40/90+30, 30+30");
    /// assert!(TimeControl::new(vec![], Scale::Clock).is_err());
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn new(periods: Vec<Period>, scale: Scale) -> Result<Self, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::NoPeriods);
        }
        for (index, p) in periods.iter().enumerate() {
            let number = index + 1;
            check_time(p.base, scale, TimeField::Base(number))?;
            if p.base.is_zero() {
                return Err(TimeControlError::ZeroBase { period: number });
            }
            check_time(p.bonus.amount(), scale, TimeField::Bonus(number))?;
        }
        Ok(TimeControl {
            limit: Limit::Periods(periods),
            scale,
        })
    }

    /// A single period for the whole game ("sudden death", with or without a bonus).
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if the base is zero or too long, or a time is not
    /// a whole number of milliseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Bonus, TimeControl};
    ///
    /// let tc = TimeControl::sudden_death(Duration::from_secs(3600), Bonus::Delay(Duration::from_secs(5)))?;
    /// assert_eq!(tc.to_string(), "60 d5");
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn sudden_death(base: Duration, bonus: Bonus) -> Result<Self, TimeControlError> {
        TimeControl::new(vec![Period::new(None, base, bonus)], Scale::Clock)
    }

    /// The same budget for every move; unused time is not carried.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if the budget is zero or too long, or breaks the scale.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Scale, TimeControl, DAY};
    ///
    /// let tc = TimeControl::per_move(3 * DAY, Scale::Days)?;
    /// assert_eq!(tc.to_string(), "3d/move");
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn per_move(budget: Duration, scale: Scale) -> Result<Self, TimeControlError> {
        check_time(budget, scale, TimeField::PerMove)?;
        if budget.is_zero() {
            return Err(TimeControlError::ZeroBase { period: 1 });
        }
        Ok(TimeControl {
            limit: Limit::PerMove(budget),
            scale,
        })
    }

    /// No clock: nobody's flag ever falls.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::TimeControl;
    ///
    /// assert_eq!(TimeControl::no_clock().to_pgn().as_deref(), Some("-"));
    /// ```
    pub const fn no_clock() -> Self {
        TimeControl {
            limit: Limit::NoClock,
            scale: Scale::Clock,
        }
    }

    /// A sandclock holding `total` in all: half of it for each player at the
    /// start, and the time one player uses added to the other's (PGN
    /// standard 9.6.1, `*secs`).
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if `total` is zero, over [`MAX_TIME`], or not a
    /// whole number of milliseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::TimeControl;
    ///
    /// let tc = TimeControl::sandclock(Duration::from_secs(180))?;
    /// assert_eq!(tc.to_pgn().as_deref(), Some("*180"));
    /// assert_eq!(tc.to_string(), "sandclock 3");
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn sandclock(total: Duration) -> Result<Self, TimeControlError> {
        check_time(total, Scale::Clock, TimeField::Sandclock)?;
        if total.is_zero() {
            return Err(TimeControlError::ZeroBase { period: 1 });
        }
        Ok(TimeControl {
            limit: Limit::Sandclock(total),
            scale: Scale::Clock,
        })
    }

    /// The shape of the control.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::{Limit, TimeControl};
    ///
    /// let tc: TimeControl = "3+2".parse()?;
    /// assert!(matches!(tc.limit(), Limit::Periods(p) if p.len() == 1));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn limit(&self) -> &Limit {
        &self.limit
    }

    /// The unit the control is counted in.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::{Scale, TimeControl};
    ///
    /// assert_eq!("10/50d".parse::<TimeControl>()?.scale(), Scale::Days);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn scale(&self) -> Scale {
        self.scale
    }

    /// The periods (empty for fixed time per move and for no clock).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::TimeControl;
    ///
    /// assert_eq!("40/120, 20/60, 30".parse::<TimeControl>()?.periods().len(), 3);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn periods(&self) -> &[Period] {
        match &self.limit {
            Limit::Periods(p) => p,
            Limit::PerMove(_) | Limit::NoClock | Limit::Sandclock(_) => &[],
        }
    }

    /// Whether the last period has a move count and therefore repeats.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::TimeControl;
    ///
    /// assert!("10/50d".parse::<TimeControl>()?.repeats());
    /// assert!(!"40/90+30, 30+30".parse::<TimeControl>()?.repeats());
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn repeats(&self) -> bool {
        self.periods().last().is_some_and(|p| p.moves.is_some())
    }
}

/// Which time of a control a check is about (for error messages).
#[derive(Debug, Clone, Copy)]
enum TimeField {
    Base(usize),
    Bonus(usize),
    PerMove,
    Sandclock,
}

fn check_time(t: Duration, scale: Scale, field: TimeField) -> Result<(), TimeControlError> {
    let what = match field {
        TimeField::Base(n) => format!("base time of period {n}"),
        TimeField::Bonus(n) => format!("bonus of period {n}"),
        TimeField::PerMove => "time per move".to_owned(),
        TimeField::Sandclock => "sandclock time".to_owned(),
    };
    if t > MAX_TIME {
        return Err(TimeControlError::TooLong { what });
    }
    if !t.subsec_nanos().is_multiple_of(1_000_000) {
        return Err(TimeControlError::NotWholeMilliseconds { what });
    }
    if scale == Scale::Days && !t.as_secs().is_multiple_of(DAY.as_secs()) {
        return Err(TimeControlError::NotWholeDays { what });
    }
    Ok(())
}

/// The kind of a bonus in a [`RawPeriod`].
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::BonusKind;
///
/// assert_ne!(BonusKind::Delay, BonusKind::Bronstein);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BonusKind {
    /// No bonus.
    #[default]
    None,
    /// Fischer increment.
    Increment,
    /// Bronstein delay.
    Bronstein,
    /// Simple delay.
    Delay,
}

/// A period as written, before any check: counts and times may be zero or negative.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{BonusKind, RawPeriod};
///
/// let p = RawPeriod { moves: Some(40), base_ms: 0, bonus: BonusKind::None, bonus_ms: 0 };
/// assert_eq!(p.moves, Some(40));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawPeriod {
    /// The move count, if written.
    pub moves: Option<i64>,
    /// The base time in milliseconds.
    pub base_ms: i64,
    /// The kind of bonus.
    pub bonus: BonusKind,
    /// The bonus in milliseconds.
    pub bonus_ms: i64,
}

/// A time control as parsed, not yet checked. [`RawTimeControl::validate`]
/// turns it into a [`TimeControl`] or says what is wrong.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{BonusKind, RawPeriod, RawTimeControl, Scale, TimeControlError};
///
/// let raw = RawTimeControl::Periods {
///     periods: vec![RawPeriod { moves: Some(0), base_ms: 60_000, bonus: BonusKind::None, bonus_ms: 0 }],
///     scale: Scale::Clock,
/// };
/// assert_eq!(raw.validate(), Err(TimeControlError::MoveCount { period: 1, count: 0 }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RawTimeControl {
    /// Periods.
    Periods {
        /// The periods as written.
        periods: Vec<RawPeriod>,
        /// The unit the control was written in.
        scale: Scale,
    },
    /// Fixed time per move.
    PerMove {
        /// The budget in milliseconds.
        ms: i64,
        /// The unit the control was written in.
        scale: Scale,
    },
    /// No clock.
    NoClock,
    /// A sandclock holding this many milliseconds in all.
    Sandclock {
        /// Total milliseconds (both sides together).
        ms: i64,
    },
}

impl RawTimeControl {
    /// Check the control.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] naming the first thing that is wrong: a move count
    /// below 1, a negative or zero time, a time over [`MAX_TIME`], no periods.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::{RawTimeControl, TimeControl};
    ///
    /// assert_eq!(RawTimeControl::NoClock.validate(), Ok(TimeControl::no_clock()));
    /// ```
    pub fn validate(self) -> Result<TimeControl, TimeControlError> {
        match self {
            RawTimeControl::NoClock => Ok(TimeControl::no_clock()),
            RawTimeControl::Sandclock { ms } => {
                TimeControl::sandclock(ms_to_duration(ms, || "sandclock time".into())?)
            }
            RawTimeControl::PerMove { ms, scale } => {
                TimeControl::per_move(ms_to_duration(ms, || "time per move".into())?, scale)
            }
            RawTimeControl::Periods { periods, scale } => {
                let mut out = Vec::with_capacity(periods.len());
                for (index, raw) in periods.into_iter().enumerate() {
                    let number = index + 1;
                    let moves = match raw.moves {
                        None => None,
                        Some(m) => {
                            let m = u32::try_from(m).ok().and_then(NonZeroU32::new).ok_or(
                                TimeControlError::MoveCount {
                                    period: number,
                                    count: m,
                                },
                            )?;
                            Some(m)
                        }
                    };
                    let base =
                        ms_to_duration(raw.base_ms, || format!("base time of period {number}"))?;
                    let amount =
                        ms_to_duration(raw.bonus_ms, || format!("bonus of period {number}"))?;
                    let bonus = match raw.bonus {
                        BonusKind::None => Bonus::None,
                        BonusKind::Increment => Bonus::Increment(amount),
                        BonusKind::Bronstein => Bonus::Bronstein(amount),
                        BonusKind::Delay => Bonus::Delay(amount),
                    };
                    out.push(Period::new(moves, base, bonus));
                }
                TimeControl::new(out, scale)
            }
        }
    }
}

fn ms_to_duration(ms: i64, what: impl FnOnce() -> String) -> Result<Duration, TimeControlError> {
    u64::try_from(ms)
        .map(Duration::from_millis)
        .map_err(|_| TimeControlError::Negative { what: what() })
}
