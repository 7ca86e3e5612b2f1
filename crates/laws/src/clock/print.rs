//! Writing time controls: the normalized human (or correspondence) form and
//! the PGN `TimeControl` tag.

use std::fmt::{self, Write as _};
use std::time::Duration;

use super::control::{Bonus, DAY, Limit, Scale, TimeControl};

/// A base time (or per-move budget) in the human form.
/// Seconds with as many decimals as the milliseconds need: `10`, `0.1`, `2.25`.
fn write_seconds(f: &mut impl fmt::Write, t: Duration) -> fmt::Result {
    let secs = t.as_secs();
    let millis = t.subsec_millis();
    if millis == 0 {
        write!(f, "{secs}")
    } else {
        let digits = format!("{millis:03}");
        write!(f, "{secs}.{}", digits.trim_end_matches('0'))
    }
}

fn write_base(f: &mut impl fmt::Write, t: Duration, scale: Scale) -> fmt::Result {
    let secs = t.as_secs();
    match scale {
        Scale::Days => write!(f, "{}d", secs / DAY.as_secs()),
        Scale::Clock if t.subsec_millis() != 0 || !secs.is_multiple_of(60) => {
            write_seconds(f, t)?;
            f.write_char('s')
        }
        Scale::Clock => {
            let minutes = secs / 60;
            if minutes < 180 {
                write!(f, "{minutes}")
            } else if minutes.is_multiple_of(60) {
                write!(f, "{}h", minutes / 60)
            } else {
                write!(f, "{minutes}m")
            }
        }
    }
}

/// A bonus amount in the human form.
fn write_bonus_amount(f: &mut impl fmt::Write, t: Duration, scale: Scale) -> fmt::Result {
    match scale {
        Scale::Days => write!(f, "{}d", t.as_secs() / DAY.as_secs()),
        Scale::Clock => write_seconds(f, t),
    }
}

impl fmt::Display for TimeControl {
    /// The normalized human form: `5+3`, `40/90+30, 30+30`, `5 d3`, `60 b10`,
    /// `10/50d`, `30d+1d`, `3d/move`, `-` (no clock).
    ///
    /// Base times are in minutes (`s` for seconds when not whole minutes,
    /// `h` or `m` from 180 minutes on), bonuses in seconds, correspondence
    /// times in days.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scale = self.scale();
        match self.limit() {
            Limit::NoClock => f.write_str("-"),
            Limit::Sandclock(total) => {
                f.write_str("sandclock ")?;
                write_base(f, *total, scale)
            }
            Limit::PerMove(budget) => {
                write_base(f, *budget, scale)?;
                f.write_str("/move")
            }
            Limit::Periods(periods) => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if let Some(m) = p.moves {
                        write!(f, "{m}/")?;
                    }
                    write_base(f, p.base, scale)?;
                    match p.bonus {
                        Bonus::None => {}
                        Bonus::Increment(d) => {
                            f.write_char('+')?;
                            write_bonus_amount(f, d, scale)?;
                        }
                        Bonus::Delay(d) => {
                            f.write_str(" d")?;
                            write_bonus_amount(f, d, scale)?;
                        }
                        Bonus::Bronstein(d) => {
                            f.write_str(" b")?;
                            write_bonus_amount(f, d, scale)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag value (PGN standard 9.6.1), or `None` when
    /// the control has no PGN form: correspondence (day) controls, delays,
    /// and fixed time per move.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::TimeControl;
    ///
    /// assert_eq!("40/90+30, 30+30".parse::<TimeControl>()?.to_pgn().as_deref(), Some("40/5400+30:1800+30"));
    /// assert_eq!("5 d3".parse::<TimeControl>()?.to_pgn(), None);
    /// assert_eq!("30d+1d".parse::<TimeControl>()?.to_pgn(), None);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn to_pgn(&self) -> Option<String> {
        if self.scale() == Scale::Days {
            return None;
        }
        match self.limit() {
            Limit::NoClock => Some("-".to_owned()),
            Limit::Sandclock(total) => {
                let mut out = "*".to_owned();
                write_seconds(&mut out, *total).ok()?;
                Some(out)
            }
            Limit::PerMove(_) => None,
            Limit::Periods(periods) => {
                let mut out = String::new();
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        out.push(':');
                    }
                    if let Some(m) = p.moves {
                        write!(out, "{m}/").ok()?;
                    }
                    write_seconds(&mut out, p.base).ok()?;
                    match p.bonus {
                        Bonus::None => {}
                        Bonus::Increment(d) => {
                            out.push('+');
                            write_seconds(&mut out, d).ok()?;
                        }
                        Bonus::Delay(_) | Bonus::Bronstein(_) => return None,
                    }
                }
                Some(out)
            }
        }
    }
}
