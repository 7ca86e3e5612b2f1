//! Reading time controls: human forms, the PGN `TimeControl` tag and
//! correspondence (ICCF) forms.
//!
//! Human and correspondence forms share one grammar:
//!
//! ```text
//! control  := "-" | time "/move" | period ("," period)*
//! period   := [count "/"] time [bonus]
//! bonus    := "+" time            Fischer increment
//!           | " d" time           simple delay (FIDE 6.3.2)
//!           | " b" time           Bronstein delay
//! time     := ["-"] digits [unit]  unit: s, m, h, d (days)
//! ```
//!
//! A base time without a unit is in minutes, a bonus without a unit in
//! seconds. A control written in days (`10/50d`, `30d+1d`, `3d/move`) is a
//! correspondence control; days may not be mixed with clock units.
//!
//! The PGN tag (PGN standard 9.6.1) is `-` (no clock), `?` (unknown),
//! `*secs` (a sandclock holding `secs` in all) or periods
//! `[moves/]secs[+secs]` joined by `:`. The human form of a sandclock is
//! `sandclock TIME` (or `hourglass TIME`), the time in minutes by default.

use std::str::FromStr;

use super::control::{BonusKind, RawPeriod, RawTimeControl, Scale, TimeControl};
use super::error::TimeControlError;

/// Which syntax a time control is written in.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{Syntax, TimeControl};
///
/// // The same text means 5 minutes in human form and 5 seconds in PGN.
/// let human = TimeControl::parse_as("5+3", Syntax::Human)?;
/// let pgn = TimeControl::parse_as("5+3", Syntax::Pgn)?;
/// assert_eq!(human.to_string(), "5+3");
/// assert_eq!(pgn.to_string(), "5s+3");
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Syntax {
    /// Guess: see [`TimeControl::parse`].
    #[default]
    Auto,
    /// Human and correspondence forms: `5+3`, `40/90+30, 30+30`, `5 d3`, `10/50d`.
    Human,
    /// The PGN `TimeControl` tag: `300+3`, `40/5400+30:1800+30`, `-`.
    Pgn,
}

impl TimeControl {
    /// Read a time control, guessing the syntax.
    ///
    /// The text is read as PGN if it is `-`, `?`, starts with `*`, contains
    /// `:`, or is made only of digits, `/` and `+` with a first base time of
    /// 180 or more (`300+3`, `5400+30`: 180 minutes and more are not
    /// human-written bases, 180 seconds and more are common PGN ones).
    /// Everything else is read as a human or correspondence form. The
    /// normalized form printed by [`Display`](std::fmt::Display) is always
    /// read back as itself.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] saying what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::TimeControl;
    ///
    /// assert_eq!(TimeControl::parse("300+3")?, TimeControl::parse("5+3")?);
    /// assert_eq!(TimeControl::parse("40/5400+30:1800+30")?.to_string(), "40/90+30, 30+30");
    /// assert!(TimeControl::parse("5+").is_err());
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn parse(s: &str) -> Result<Self, TimeControlError> {
        TimeControl::parse_as(s, Syntax::Auto)
    }

    /// Read a time control in the given syntax.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] saying what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::{Syntax, TimeControl};
    ///
    /// let tc = TimeControl::parse_as("60+1", Syntax::Pgn)?;
    /// assert_eq!(tc.to_string(), "1+1");
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn parse_as(s: &str, syntax: Syntax) -> Result<Self, TimeControlError> {
        parse_raw(s, syntax)?.validate()
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Same as [`TimeControl::parse`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TimeControl::parse(s)
    }
}

/// Read a time control without checking it.
///
/// # Errors
///
/// [`TimeControlError::Syntax`] (and the other syntax-level errors) when the
/// text cannot be read at all.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{parse_raw, RawTimeControl, Syntax};
///
/// // Readable, though not a valid control: validation will reject it.
/// let raw = parse_raw("40/0", Syntax::Human)?;
/// assert!(matches!(raw, RawTimeControl::Periods { .. }));
/// assert!(raw.validate().is_err());
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
pub fn parse_raw(s: &str, syntax: Syntax) -> Result<RawTimeControl, TimeControlError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(TimeControlError::Empty);
    }
    let syntax = match syntax {
        Syntax::Auto if looks_like_pgn(s) => Syntax::Pgn,
        Syntax::Auto => Syntax::Human,
        other => other,
    };
    match syntax {
        Syntax::Pgn => parse_pgn(s),
        Syntax::Human | Syntax::Auto => parse_human(s),
    }
}

fn looks_like_pgn(s: &str) -> bool {
    if s == "-" || s == "?" || s.starts_with('*') || s.contains(':') {
        return true;
    }
    if !s
        .chars()
        .all(|c| c.is_ascii_digit() || c == '/' || c == '+' || c == '.')
    {
        return false;
    }
    let after_count = s.split_once('/').map_or(s, |(_, rest)| rest);
    let base = after_count.split('+').next().unwrap_or("");
    match base.parse::<f64>() {
        Ok(n) => n >= 180.0,
        Err(_) => false,
    }
}

fn syntax(input: &str, reason: impl Into<String>) -> TimeControlError {
    TimeControlError::Syntax {
        input: input.to_owned(),
        reason: reason.into(),
    }
}

/// A whole number with an optional minus sign.
fn parse_int(s: &str, what: &str) -> Result<i64, TimeControlError> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(syntax(s, format!("expected {what}")));
    }
    let n: i64 = digits
        .parse()
        .map_err(|_| syntax(s, "the number is too large"))?;
    Ok(if negative { -n } else { n })
}

/// Units of a human time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Seconds,
    Minutes,
    Hours,
    Days,
}

impl Unit {
    const fn seconds(self) -> i64 {
        match self {
            Unit::Seconds => 1,
            Unit::Minutes => 60,
            Unit::Hours => 3600,
            Unit::Days => 86_400,
        }
    }
}

/// What units a control used, to find its scale and reject mixtures.
#[derive(Debug, Default, Clone, Copy)]
struct UnitsSeen {
    days: bool,
    clock: bool,
}

impl UnitsSeen {
    fn note(&mut self, unit: Unit, value: i64) {
        // A zero says nothing about the unit: `30d+0` is fine.
        if value != 0 {
            if unit == Unit::Days {
                self.days = true;
            } else {
                self.clock = true;
            }
        }
    }

    fn scale(self, input: &str) -> Result<Scale, TimeControlError> {
        match (self.days, self.clock) {
            (true, true) => Err(TimeControlError::MixedUnits {
                input: input.to_owned(),
            }),
            (true, false) => Ok(Scale::Days),
            (false, _) => Ok(Scale::Clock),
        }
    }
}

/// A number of `unit`s with up to three decimals (`10`, `-5`, `0.1`,
/// `1.25`), in milliseconds.
fn parse_millis(s: &str, unit: Unit, what: &str) -> Result<i64, TimeControlError> {
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    if s.contains('.') && (fraction.is_empty() || fraction.len() > 3) {
        return Err(syntax(
            s,
            format!("expected {what} with at most three decimals"),
        ));
    }
    let whole = parse_int(whole, what)?;
    let mut frac = 0i64;
    for digit in fraction.bytes().chain(std::iter::repeat(b'0')).take(3) {
        if !digit.is_ascii_digit() {
            return Err(syntax(s, format!("expected {what}")));
        }
        frac = frac * 10 + i64::from(digit - b'0');
    }
    let unit_ms = unit.seconds() * 1000;
    let frac_ms = frac * unit_ms / 1000;
    if frac * unit_ms % 1000 != 0 {
        return Err(syntax(s, "the time is finer than a millisecond"));
    }
    let frac_ms = if whole < 0 || s.starts_with('-') {
        -frac_ms
    } else {
        frac_ms
    };
    whole
        .checked_mul(unit_ms)
        .and_then(|ms| ms.checked_add(frac_ms))
        .ok_or_else(|| syntax(s, "the number is too large"))
}

/// A human time: number and optional unit, in milliseconds.
fn parse_time(s: &str, default: Unit, seen: &mut UnitsSeen) -> Result<i64, TimeControlError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(syntax(s, "expected a time"));
    }
    let (number, unit) = match s.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('s') => (&s[..s.len() - 1], Unit::Seconds),
        Some('m') => (&s[..s.len() - 1], Unit::Minutes),
        Some('h') => (&s[..s.len() - 1], Unit::Hours),
        Some('d') => (&s[..s.len() - 1], Unit::Days),
        _ => (s, default),
    };
    let ms = parse_millis(number.trim_end(), unit, "a number of s, m, h or d").map_err(|_| {
        syntax(
            s,
            "expected a time: a number (at most three decimals), optionally with s, m, h or d",
        )
    })?;
    seen.note(unit, ms);
    Ok(ms)
}

fn parse_human(s: &str) -> Result<RawTimeControl, TimeControlError> {
    if s == "-" {
        return Ok(RawTimeControl::NoClock);
    }
    let mut seen = UnitsSeen::default();
    let lower = s.to_ascii_lowercase();
    if let Some(time) = ["sandclock", "hourglass"]
        .iter()
        .find_map(|word| lower.strip_prefix(word))
    {
        let ms = parse_time(time, Unit::Minutes, &mut seen)?;
        if seen.scale(s)? == Scale::Days {
            return Err(syntax(s, "a sandclock is counted in clock time, not days"));
        }
        return Ok(RawTimeControl::Sandclock { ms });
    }
    if let Some(time) = lower.strip_suffix("/move") {
        let ms = parse_time(time, Unit::Minutes, &mut seen)?;
        return Ok(RawTimeControl::PerMove {
            ms,
            scale: seen.scale(s)?,
        });
    }
    let mut periods = Vec::new();
    for part in s.split(',') {
        let part = part.trim();
        if part.is_empty() {
            return Err(syntax(s, "a period is empty"));
        }
        periods.push(parse_human_period(part, &mut seen)?);
    }
    Ok(RawTimeControl::Periods {
        periods,
        scale: seen.scale(s)?,
    })
}

fn parse_human_period(s: &str, seen: &mut UnitsSeen) -> Result<RawPeriod, TimeControlError> {
    let (moves, rest) = match s.split_once('/') {
        Some((count, rest)) => (
            Some(parse_int(count.trim(), "a move count before `/`")?),
            rest.trim(),
        ),
        None => (None, s),
    };
    let (base, bonus, bonus_text) = if let Some((base, inc)) = rest.split_once('+') {
        if inc.trim().is_empty() {
            return Err(syntax(s, "expected an increment after `+`"));
        }
        (base, BonusKind::Increment, inc)
    } else if let Some((base, tail)) = rest.split_once(char::is_whitespace) {
        let tail = tail.trim();
        let mut chars = tail.chars();
        let kind = match chars.next().map(|c| c.to_ascii_lowercase()) {
            Some('d') => BonusKind::Delay,
            Some('b') => BonusKind::Bronstein,
            _ => {
                return Err(syntax(
                    s,
                    "expected `+increment`, ` dDELAY` or ` bBRONSTEIN` after the base time",
                ));
            }
        };
        let amount = chars.as_str();
        if amount.trim().is_empty() {
            return Err(syntax(s, "expected a time after the delay letter"));
        }
        (base, kind, amount)
    } else {
        (rest, BonusKind::None, "0")
    };
    let base_ms = parse_time(base, Unit::Minutes, seen)?;
    let bonus_ms = parse_time(bonus_text, Unit::Seconds, seen)?;
    Ok(RawPeriod {
        moves,
        base_ms,
        bonus,
        bonus_ms,
    })
}

fn parse_pgn(s: &str) -> Result<RawTimeControl, TimeControlError> {
    match s {
        "-" => return Ok(RawTimeControl::NoClock),
        "?" => return Err(TimeControlError::Unknown),
        _ => {}
    }
    if let Some(secs) = s.strip_prefix('*') {
        let what = "the sandclock's total seconds after `*`, as in `*180`";
        let ms = parse_millis(secs.trim(), Unit::Seconds, what)
            .map_err(|_| syntax(s, format!("expected {what}")))?;
        return Ok(RawTimeControl::Sandclock { ms });
    }
    let mut periods = Vec::new();
    for part in s.split(':') {
        let part = part.trim();
        let (moves, rest) = match part.split_once('/') {
            Some((count, rest)) => (Some(parse_int(count, "a move count before `/`")?), rest),
            None => (None, part),
        };
        let (base, bonus, bonus_ms) = match rest.split_once('+') {
            Some((base, inc)) => (
                base,
                BonusKind::Increment,
                parse_millis(inc, Unit::Seconds, "an increment in seconds after `+`")?,
            ),
            None => (rest, BonusKind::None, 0),
        };
        let base_ms = parse_millis(base, Unit::Seconds, "a base time in seconds")?;
        periods.push(RawPeriod {
            moves,
            base_ms,
            bonus,
            bonus_ms,
        });
    }
    Ok(RawTimeControl::Periods {
        periods,
        scale: Scale::Clock,
    })
}
