//! Engine descriptions in the style of cutechess-cli: `name=sf
//! cmd=/usr/games/stockfish option.UCI_Elo=2400 tc=10+0.1`.

use std::fmt;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use rochade_laws::clock::{Bonus, Period, Scale, TimeControl, TimeControlError};

use crate::SpecError;

/// A chess clock setting as cutechess-cli writes it: `[moves/]time[+inc]`,
/// times in seconds with up to three decimals (`10+0.1`, `40/60`,
/// `2:30+1`).
///
/// It becomes the laws' [`TimeControl`] (to the millisecond) with
/// [`to_laws`](Self::to_laws).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_arena::ClockControl;
///
/// let tc: ClockControl = "10+0.1".parse().unwrap();
/// assert_eq!(tc.base, Duration::from_secs(10));
/// assert_eq!(tc.increment, Duration::from_millis(100));
/// assert_eq!(tc.to_string(), "10+0.1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockControl {
    /// Moves per period (the period repeats), or `None` for the whole game.
    pub moves: Option<NonZeroU32>,
    /// Time per period.
    pub base: Duration,
    /// Fischer increment per move.
    pub increment: Duration,
}

/// Reads seconds with up to three decimals, or `m:ss[.fff]`.
fn read_seconds(text: &str) -> Option<Duration> {
    if let Some((minutes, seconds)) = text.split_once(':') {
        let minutes: u64 = minutes.parse().ok()?;
        let seconds = read_seconds(seconds)?;
        return Duration::from_secs(minutes.checked_mul(60)?).checked_add(seconds);
    }
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.len() > 3 {
        return None;
    }
    if !whole
        .bytes()
        .chain(fraction.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let millis: u64 = format!("{fraction:0<3}").parse().ok()?;
    Duration::from_secs(whole).checked_add(Duration::from_millis(millis))
}

/// Writes a duration as seconds with only the decimals it needs.
fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let millis = d.subsec_millis();
    if millis == 0 {
        write!(f, "{}", d.as_secs())
    } else {
        let fraction = format!("{millis:03}");
        write!(f, "{}.{}", d.as_secs(), fraction.trim_end_matches('0'))
    }
}

impl FromStr for ClockControl {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = |reason: &str| SpecError::InvalidValue {
            key: "tc",
            value: text.to_owned(),
            reason: reason.to_owned(),
        };
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves = moves
                    .parse::<NonZeroU32>()
                    .map_err(|_| invalid("the move count must be a whole number from 1"))?;
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = read_seconds(base)
            .filter(|b| !b.is_zero())
            .ok_or_else(|| invalid("expected `[moves/]seconds[+increment]`, e.g. `10+0.1`"))?;
        let increment = read_seconds(increment)
            .ok_or_else(|| invalid("the increment must be seconds, e.g. `0.1`"))?;
        Ok(Self {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for ClockControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write_seconds(f, self.base)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_seconds(f, self.increment)?;
        }
        Ok(())
    }
}

impl ClockControl {
    /// The laws' control: one period (repeating with a move count), the
    /// increment as a Fischer bonus.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if the control breaks a rule of the laws'
    /// clock (a zero base, a time over a year, or finer than a millisecond).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_arena::ClockControl;
    ///
    /// let tc: ClockControl = "40/60+0.5".parse().unwrap();
    /// assert_eq!(tc.to_laws().unwrap().to_pgn().as_deref(), Some("40/60+0.5"));
    /// ```
    pub fn to_laws(&self) -> Result<TimeControl, TimeControlError> {
        let bonus = if self.increment.is_zero() {
            Bonus::None
        } else {
            Bonus::Increment(self.increment)
        };
        TimeControl::new(
            vec![Period::new(self.moves, self.base, bonus)],
            Scale::Clock,
        )
    }
}

/// How long an engine may think on each move.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_arena::SearchLimit;
///
/// assert_eq!(SearchLimit::MoveTime(Duration::from_millis(1500)).to_string(), "st=1.5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchLimit {
    /// A chess clock (`tc=`): the game is played on the laws' clock.
    Clock(ClockControl),
    /// A fixed time per move (`st=` seconds).
    MoveTime(Duration),
    /// A fixed depth (`depth=`).
    Depth(u32),
    /// A fixed number of nodes (`nodes=`).
    Nodes(u64),
}

impl fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Clock(tc) => write!(f, "tc={tc}"),
            Self::MoveTime(t) => {
                f.write_str("st=")?;
                write_seconds(f, *t)
            }
            Self::Depth(d) => write!(f, "depth={d}"),
            Self::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// An engine to run: the program, its arguments, the UCI options to set
/// and how long it may think.
///
/// # Examples
///
/// ```
/// use rochade_arena::{EngineSpec, SearchLimit};
///
/// let sf = EngineSpec::parse([
///     "name=sf", "cmd=/usr/games/stockfish",
///     "option.UCI_LimitStrength=true", "option.UCI_Elo=2400", "tc=10+0.1",
/// ]).unwrap();
/// assert_eq!(sf.name, "sf");
/// assert_eq!(sf.options[1], ("UCI_Elo".to_owned(), "2400".to_owned()));
/// assert!(matches!(sf.limit, Some(SearchLimit::Clock(_))));
///
/// // Later fields override earlier ones, so `--each` fields go first.
/// let ours = EngineSpec::parse(["tc=1+0.01", "cmd=rochade", "arg=uci", "option.Level=3"]).unwrap();
/// assert_eq!(ours.name, "rochade");
/// assert_eq!(ours.args, ["uci"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in the PGN and the score line (default: the program's file
    /// name).
    pub name: String,
    /// The program.
    pub cmd: PathBuf,
    /// Its command-line arguments (`arg=`, repeatable).
    pub args: Vec<String>,
    /// UCI options to set after the handshake (`option.NAME=VALUE`), in
    /// order; a later value for the same name replaces an earlier one.
    pub options: Vec<(String, String)>,
    /// How long it may think (`tc=`, `st=`, `depth=` or `nodes=`).
    pub limit: Option<SearchLimit>,
}

impl EngineSpec {
    /// Reads `key=value` fields; a later field overrides an earlier one.
    ///
    /// # Errors
    ///
    /// [`SpecError`] for a field that is not `key=value`, an unknown key, a
    /// bad value, or no `cmd=`.
    pub fn parse<'a>(fields: impl IntoIterator<Item = &'a str>) -> Result<Self, SpecError> {
        let mut name = None;
        let mut cmd = None;
        let mut args = Vec::new();
        let mut options: Vec<(String, String)> = Vec::new();
        let mut limit = None;
        for field in fields {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue {
                    field: field.to_owned(),
                })?;
            match key {
                "name" => name = Some(value.to_owned()),
                "cmd" => cmd = Some(PathBuf::from(value)),
                "arg" => args.push(value.to_owned()),
                "tc" => limit = Some(SearchLimit::Clock(value.parse()?)),
                "st" => limit = Some(SearchLimit::MoveTime(positive_seconds("st", value)?)),
                "depth" => limit = Some(SearchLimit::Depth(number("depth", value)?)),
                "nodes" => limit = Some(SearchLimit::Nodes(number("nodes", value)?)),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.trim().is_empty() => {
                        options.retain(|(n, _)| !n.eq_ignore_ascii_case(option));
                        options.push((option.to_owned(), value.to_owned()));
                    }
                    _ => {
                        return Err(SpecError::UnknownKey {
                            key: key.to_owned(),
                        });
                    }
                },
            }
        }
        let cmd = cmd.ok_or(SpecError::MissingCommand)?;
        let name = name.unwrap_or_else(|| {
            cmd.file_name()
                .map_or_else(|| cmd.display().to_string(), |f| f.to_string_lossy().into())
        });
        Ok(Self {
            name,
            cmd,
            args,
            options,
            limit,
        })
    }
}

/// A positive whole number.
fn number<T: FromStr + Default + PartialEq>(
    key: &'static str,
    value: &str,
) -> Result<T, SpecError> {
    value
        .parse::<T>()
        .ok()
        .filter(|n| *n != T::default())
        .ok_or_else(|| SpecError::InvalidValue {
            key,
            value: value.to_owned(),
            reason: "expected a whole number from 1".into(),
        })
}

/// A positive number of seconds.
fn positive_seconds(key: &'static str, value: &str) -> Result<Duration, SpecError> {
    read_seconds(value)
        .filter(|d| !d.is_zero())
        .ok_or_else(|| SpecError::InvalidValue {
            key,
            value: value.to_owned(),
            reason: "expected seconds above zero, e.g. `1` or `0.5`".into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_controls_read_and_print() {
        for (text, moves, base_ms, inc_ms) in [
            ("10+0.1", None, 10_000, 100),
            ("40/60", Some(40), 60_000, 0),
            ("2:30+1", None, 150_000, 1000),
            ("0.5+0.005", None, 500, 5),
            (".25", None, 250, 0),
        ] {
            let tc: ClockControl = text.parse().unwrap();
            assert_eq!(tc.moves.map(NonZeroU32::get), moves, "{text}");
            assert_eq!(tc.base, Duration::from_millis(base_ms), "{text}");
            assert_eq!(tc.increment, Duration::from_millis(inc_ms), "{text}");
            let laws = tc.to_laws().unwrap();
            assert_eq!(laws.periods()[0].base, tc.base, "{text}");
            let again: ClockControl = tc.to_string().parse().unwrap();
            assert_eq!(again, tc);
        }
    }

    #[test]
    fn bad_clock_controls_are_errors() {
        for text in [
            "",
            "0",
            "+1",
            "10+",
            "x",
            "0/10",
            "10+0.0001",
            "1e3",
            "10+-1",
            "1:xx",
        ] {
            assert!(text.parse::<ClockControl>().is_err(), "{text}");
        }
    }

    #[test]
    fn spec_errors_name_the_field() {
        assert_eq!(
            EngineSpec::parse(["cmd"]),
            Err(SpecError::NotKeyValue {
                field: "cmd".into()
            })
        );
        assert_eq!(
            EngineSpec::parse(["name=a"]),
            Err(SpecError::MissingCommand)
        );
        assert!(matches!(
            EngineSpec::parse(["cmd=a", "depth=0"]),
            Err(SpecError::InvalidValue { key: "depth", .. })
        ));
        assert!(matches!(
            EngineSpec::parse(["cmd=a", "option.=1"]),
            Err(SpecError::UnknownKey { .. })
        ));
    }

    #[test]
    fn later_fields_override() {
        let spec = EngineSpec::parse([
            "tc=1+0.01",
            "option.Hash=16",
            "cmd=/bin/engine",
            "option.hash=32",
            "option.Skill Level=3",
            "st=0.5",
        ])
        .unwrap();
        assert_eq!(spec.name, "engine");
        assert_eq!(
            spec.options,
            [
                ("hash".to_owned(), "32".to_owned()),
                ("Skill Level".to_owned(), "3".to_owned())
            ]
        );
        assert_eq!(
            spec.limit,
            Some(SearchLimit::MoveTime(Duration::from_millis(500)))
        );
    }
}
