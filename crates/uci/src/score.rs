//! The `score` of an `info` message.

use std::fmt;

use crate::UciParseError;
use crate::tokens::{Token, Tokens};

/// What a score measures.
///
/// # Examples
///
/// ```
/// use rochade_uci::ScoreKind;
///
/// assert_eq!(ScoreKind::Cp(-35).to_string(), "cp -35");
/// assert_eq!(ScoreKind::Mate(-2).to_string(), "mate -2");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreKind {
    /// `cp <x>`: centipawns from the engine's point of view.
    Cp(i32),
    /// `mate <y>`: mate in `y` moves; negative if the engine is mated.
    Mate(i32),
}

/// Whether a score is exact or only a bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ScoreBound {
    /// The score is exact.
    #[default]
    Exact,
    /// `lowerbound`: the score is at least this.
    Lower,
    /// `upperbound`: the score is at most this.
    Upper,
}

/// A score: `cp <x>` or `mate <y>`, optionally followed by `lowerbound` or
/// `upperbound`.
///
/// In `info` lines the bound may come later than the score (Stockfish
/// writes `score cp -45 wdl 1 924 75 upperbound`); it is printed right after
/// the value.
///
/// # Examples
///
/// ```
/// use rochade_uci::{Score, ScoreBound, ScoreKind};
///
/// let score = Score { kind: ScoreKind::Cp(20), bound: ScoreBound::Lower };
/// assert_eq!(score.to_string(), "cp 20 lowerbound");
/// assert_eq!(Score::exact(ScoreKind::Mate(3)).to_string(), "mate 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    /// Centipawns or mate distance.
    pub kind: ScoreKind,
    /// Exact or a bound.
    pub bound: ScoreBound,
}

impl Score {
    /// An exact score.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_uci::{Score, ScoreBound, ScoreKind};
    ///
    /// assert_eq!(Score::exact(ScoreKind::Cp(0)).bound, ScoreBound::Exact);
    /// ```
    pub fn exact(kind: ScoreKind) -> Self {
        Self {
            kind,
            bound: ScoreBound::Exact,
        }
    }

    /// Reads `cp <x>` or `mate <y>` after `score`.
    pub(crate) fn read(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Self, UciParseError> {
        let unit = tokens.value_token(keyword)?;
        let kind = match unit.text {
            "cp" => ScoreKind::Cp(tokens.number(unit)?),
            "mate" => ScoreKind::Mate(tokens.number(unit)?),
            _ => {
                return Err(UciParseError::InvalidValue {
                    keyword: "score",
                    token: unit.text.to_owned(),
                    index: unit.index,
                    expected: "`cp` or `mate`",
                });
            }
        };
        Ok(Self::exact(kind))
    }
}

impl fmt::Display for ScoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cp(cp) => write!(f, "cp {cp}"),
            Self::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)?;
        match self.bound {
            ScoreBound::Exact => Ok(()),
            ScoreBound::Lower => f.write_str(" lowerbound"),
            ScoreBound::Upper => f.write_str(" upperbound"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<Score, UciParseError> {
        let mut tokens = Tokens::new(line);
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        Score::read(&mut tokens, keyword)
    }

    #[test]
    fn reads_cp_and_mate() {
        assert_eq!(read("score cp -23"), Ok(Score::exact(ScoreKind::Cp(-23))));
        assert_eq!(read("score mate 2"), Ok(Score::exact(ScoreKind::Mate(2))));
    }

    #[test]
    fn reports_bad_scores() {
        assert!(matches!(
            read("score pawns 3"),
            Err(UciParseError::InvalidValue { index: 1, .. })
        ));
        assert_eq!(
            read("score cp"),
            Err(UciParseError::MissingValue {
                keyword: "cp",
                index: 1
            })
        );
        assert!(matches!(
            read("score mate x"),
            Err(UciParseError::InvalidNumber {
                keyword: "mate",
                index: 2,
                ..
            })
        ));
    }

    #[test]
    fn prints_bounds() {
        let upper = Score {
            kind: ScoreKind::Mate(-1),
            bound: ScoreBound::Upper,
        };
        assert_eq!(upper.to_string(), "mate -1 upperbound");
    }
}
