//! The short names of the tie-breaks as C.07 writes them in its tables
//! (`BH-C1`, `SB`, `DE`, …): how an organiser names an order, and the
//! headings of the standings' columns.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{Cut, TieBreak};

/// A name that is not one of C.07's tie-breaks.
///
/// # Examples
///
/// ```
/// use rochade_tournament::tiebreak::TieBreak;
///
/// let e = "XYZ".parse::<TieBreak>().unwrap_err();
/// assert!(e.to_string().contains("XYZ"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "`{0}` is not a tie-break: DE, WIN, WON, BPG, BWG, PS, BH, BH-C1, BH-C2, BH-M1, BH-M2, SB, KS, ARO or TPR"
)]
pub struct ParseTieBreakError(pub String);

/// Every tie-break with its name, in the order of C.07's articles.
const NAMES: [(TieBreak, &str); 15] = [
    (TieBreak::DirectEncounter, "DE"),
    (TieBreak::Wins, "WIN"),
    (TieBreak::GamesWon, "WON"),
    (TieBreak::BlackGames, "BPG"),
    (TieBreak::BlackWins, "BWG"),
    (TieBreak::ProgressiveScore, "PS"),
    (TieBreak::Buchholz(Cut::None), "BH"),
    (TieBreak::Buchholz(Cut::Cut1), "BH-C1"),
    (TieBreak::Buchholz(Cut::Cut2), "BH-C2"),
    (TieBreak::Buchholz(Cut::Median1), "BH-M1"),
    (TieBreak::Buchholz(Cut::Median2), "BH-M2"),
    (TieBreak::SonnebornBerger, "SB"),
    (TieBreak::Koya, "KS"),
    (TieBreak::AverageRatingOfOpponents, "ARO"),
    (TieBreak::PerformanceRating, "TPR"),
];

impl TieBreak {
    /// C.07's short name of the tie-break.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::tiebreak::{Cut, TieBreak};
    ///
    /// assert_eq!(TieBreak::Buchholz(Cut::Cut1).code(), "BH-C1");
    /// assert_eq!(TieBreak::SonnebornBerger.code(), "SB");
    /// ```
    #[must_use]
    pub fn code(self) -> &'static str {
        NAMES
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("?", |(_, name)| name)
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for TieBreak {
    type Err = ParseTieBreakError;

    /// A tie-break by its short name, in any case (`bh-c1` is `BH-C1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::tiebreak::{Cut, TieBreak};
    ///
    /// assert_eq!("bh-m1".parse(), Ok(TieBreak::Buchholz(Cut::Median1)));
    /// assert_eq!("DE".parse(), Ok(TieBreak::DirectEncounter));
    /// ```
    fn from_str(s: &str) -> Result<TieBreak, ParseTieBreakError> {
        let wanted = s.trim();
        NAMES
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(wanted))
            .map(|(t, _)| *t)
            .ok_or_else(|| ParseTieBreakError(wanted.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c07_every_name_reads_back_as_its_tie_break() {
        for (tie, name) in NAMES {
            assert_eq!(tie.code(), name);
            assert_eq!(name.parse::<TieBreak>(), Ok(tie));
            assert_eq!(name.to_lowercase().parse::<TieBreak>(), Ok(tie));
            assert_eq!(tie.to_string(), name);
        }
    }

    #[test]
    fn c07_unknown_names_are_refused_with_the_name() {
        for bad in ["", "BH-C3", "Buchholz", "S B"] {
            let e = bad.parse::<TieBreak>().unwrap_err();
            assert_eq!(e.0, bad.trim());
        }
    }
}
