//! Points as TRF16 writes them: one decimal (`11.5`).
//!
//! Scores are kept in tenths of a point, so that sums are exact and a
//! score system of 3/1/0 or 1/½/0 both fit.
//!
//! ```
//! use rochade_tournament::Points;
//!
//! let p: Points = "11.5".parse().unwrap();
//! assert_eq!(p.tenths(), 115);
//! assert_eq!((p + Points::HALF).to_string(), "12.0");
//! ```

use std::fmt;
use std::ops::{Add, AddAssign};
use std::str::FromStr;

use thiserror::Error;

/// A score in tenths of a point.
///
/// # Examples
///
/// ```
/// use rochade_tournament::Points;
///
/// assert_eq!(Points::ONE.to_string(), "1.0");
/// assert_eq!(Points::from_tenths(25).to_string(), "2.5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points(u32);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// Half a point (a draw).
    pub const HALF: Points = Points(5);
    /// One point (a win).
    pub const ONE: Points = Points(10);

    /// The score of `tenths` tenths of a point.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::Points;
    ///
    /// assert_eq!(Points::from_tenths(10), Points::ONE);
    /// ```
    #[must_use]
    pub const fn from_tenths(tenths: u32) -> Points {
        Points(tenths)
    }

    /// The score in tenths of a point.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::Points;
    ///
    /// assert_eq!(Points::HALF.tenths(), 5);
    /// ```
    #[must_use]
    pub const fn tenths(self) -> u32 {
        self.0
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0 + rhs.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 += rhs.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{}.{}", self.0 / 10, self.0 % 10);
        f.pad(&text)
    }
}

/// Why a text is not a score like `11.5`.
///
/// # Examples
///
/// ```
/// use rochade_tournament::{ParsePointsError, Points};
///
/// assert_eq!("1.25".parse::<Points>(), Err(ParsePointsError));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("not a score with at most one decimal, such as 3.5")]
pub struct ParsePointsError;

impl FromStr for Points {
    type Err = ParsePointsError;

    /// Reads `3`, `3.5` or `.5` (surrounding spaces allowed).
    fn from_str(s: &str) -> Result<Points, ParsePointsError> {
        let s = s.trim();
        let (whole, tenth) = match s.split_once('.') {
            Some((w, t)) => (w, t),
            None => (s, ""),
        };
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && tenth.is_empty())
            || !digits(whole)
            || !digits(tenth)
            || tenth.len() > 1
            || whole.len() > 6
        {
            return Err(ParsePointsError);
        }
        let whole: u32 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| ParsePointsError)?
        };
        let tenth: u32 = if tenth.is_empty() {
            0
        } else {
            tenth.parse().map_err(|_| ParsePointsError)?
        };
        Ok(Points(whole * 10 + tenth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_trf_scores() {
        assert_eq!(" 3.5".parse::<Points>(), Ok(Points(35)));
        assert_eq!("10".parse::<Points>(), Ok(Points(100)));
        assert_eq!(".5".parse::<Points>(), Ok(Points(5)));
        assert_eq!("".parse::<Points>(), Err(ParsePointsError));
        assert_eq!(".".parse::<Points>(), Err(ParsePointsError));
        assert_eq!("1.x".parse::<Points>(), Err(ParsePointsError));
        assert_eq!("-1".parse::<Points>(), Err(ParsePointsError));
    }

    #[test]
    fn pads_like_trf() {
        assert_eq!(format!("{:>4}", Points(35)), " 3.5");
    }
}
