//! Calendar dates (UTC) of moments, for the PGN `Date` tag and the like.

/// The date (year, month 1–12, day 1–31), in the proleptic Gregorian
/// calendar, of the day `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
///
/// # Examples
///
/// ```
/// use rochade_laws::pgn::civil_date;
/// assert_eq!(civil_date(0), (1970, 1, 1));
/// assert_eq!(civil_date(20_516), (2026, 3, 4));
/// assert_eq!(civil_date(-1), (1969, 12, 31));
/// ```
pub fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month as u32, day as u32)
}

/// The PGN date `YYYY.MM.DD` (UTC) of `unix_ms`, milliseconds since
/// 1970-01-01.
///
/// # Examples
///
/// ```
/// assert_eq!(rochade_laws::pgn::pgn_date(1_772_582_400_000), "2026.03.04");
/// ```
pub fn pgn_date(unix_ms: u64) -> String {
    let (year, month, day) = civil_date(i64::try_from(unix_ms / 86_400_000).unwrap_or(0));
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_days_and_year_ends() {
        // 2024-02-29 is day 19,782.
        assert_eq!(civil_date(19_782), (2024, 2, 29));
        assert_eq!(civil_date(19_783), (2024, 3, 1));
        assert_eq!(civil_date(10_956), (1999, 12, 31));
        assert_eq!(civil_date(10_957), (2000, 1, 1));
    }
}
