//! Times in UCI are whole milliseconds; this module maps them to
//! [`Duration`].
//!
//! Negative times occur in the wild (a GUI sending `wtime -12` after a flag
//! fall); they are clamped to zero and nothing else is recorded. Durations
//! are printed as whole milliseconds, so sub-millisecond parts are dropped
//! when printing.

use std::fmt;
use std::time::Duration;

use crate::UciParseError;
use crate::tokens::{Token, Tokens, keyword_name};

/// Reads the millisecond value after `keyword`, clamping negatives to zero.
pub(crate) fn read(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Duration, UciParseError> {
    let token = tokens.value_token(keyword)?;
    let invalid = || UciParseError::InvalidNumber {
        keyword: keyword_name(keyword.text),
        token: token.text.to_owned(),
        index: token.index,
    };
    let ms: i128 = token.text.parse().map_err(|_| invalid())?;
    let ms = u128::try_from(ms).unwrap_or(0);
    let secs = u64::try_from(ms / 1000).map_err(|_| invalid())?;
    // `ms % 1000` is below 1000, so the nanoseconds fit in a u32.
    let nanos = u32::try_from((ms % 1000) * 1_000_000).map_err(|_| invalid())?;
    Ok(Duration::new(secs, nanos))
}

/// Writes ` keyword <ms>` for a duration.
pub(crate) fn write(f: &mut fmt::Formatter<'_>, keyword: &str, value: Duration) -> fmt::Result {
    write!(f, " {keyword} {}", value.as_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_line(line: &str) -> Result<Duration, UciParseError> {
        let mut tokens = Tokens::new(line);
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        read(&mut tokens, keyword)
    }

    #[test]
    fn reads_milliseconds() {
        assert_eq!(read_line("wtime 1500"), Ok(Duration::from_millis(1500)));
    }

    #[test]
    fn clamps_negative_to_zero() {
        assert_eq!(read_line("wtime -12"), Ok(Duration::ZERO));
        assert_eq!(
            read_line("wtime -99999999999999999999999999"),
            Ok(Duration::ZERO)
        );
    }

    #[test]
    fn rejects_garbage_and_overflow() {
        assert!(matches!(
            read_line("btime 1.5"),
            Err(UciParseError::InvalidNumber {
                keyword: "btime",
                index: 1,
                ..
            })
        ));
        assert!(read_line("btime 999999999999999999999999999").is_err());
        assert_eq!(
            read_line("btime"),
            Err(UciParseError::MissingValue {
                keyword: "btime",
                index: 0
            })
        );
    }

    #[test]
    fn largest_duration_in_millis_reads_back() {
        let max = Duration::new(u64::MAX, 999_000_000);
        assert_eq!(read_line(&format!("time {}", max.as_millis())), Ok(max));
    }
}
