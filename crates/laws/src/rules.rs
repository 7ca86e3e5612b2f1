//! Which rule set a game or an event is played under.
//!
//! The current FIDE Laws are the default; the FIDE 2009 Laws are kept for
//! old games and events that still use them; the ICCF rules govern
//! correspondence chess.

use std::fmt;
use std::str::FromStr;

/// A rule set: the current FIDE Laws, the FIDE 2009 Laws, or the ICCF rules.
///
/// # Examples
///
/// ```
/// use rochade_laws::rules::RuleSet;
///
/// assert_eq!(RuleSet::default(), RuleSet::Fide);
/// assert_eq!("fide2009".parse::<RuleSet>(), Ok(RuleSet::Fide2009));
/// assert_eq!(RuleSet::Iccf.as_str(), "iccf");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// The current FIDE Laws of Chess (the default).
    #[default]
    Fide,
    /// The FIDE Laws of Chess in force from 1 July 2009.
    Fide2009,
    /// The ICCF rules for correspondence chess.
    Iccf,
}

impl RuleSet {
    /// All rule sets, in a fixed order.
    pub const ALL: [RuleSet; 3] = [RuleSet::Fide, RuleSet::Fide2009, RuleSet::Iccf];

    /// The name used on the command line and in files: `fide`, `fide2009`, `iccf`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::rules::RuleSet;
    ///
    /// assert_eq!(RuleSet::Fide.as_str(), "fide");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleSet::Fide => "fide",
            RuleSet::Fide2009 => "fide2009",
            RuleSet::Iccf => "iccf",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name given is not a rule set.
///
/// # Examples
///
/// ```
/// use rochade_laws::rules::RuleSet;
///
/// let err = "uscf".parse::<RuleSet>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown rule set `uscf` (expected fide, fide2009 or iccf)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set `{0}` (expected fide, fide2009 or iccf)")]
pub struct UnknownRuleSet(pub String);

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRuleSet(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.as_str().parse::<RuleSet>(), Ok(r));
            assert_eq!(r.to_string(), r.as_str());
        }
    }
}
