//! Typed errors for reading moves in any notation.

use thiserror::Error;

/// Why a move written in some notation could not be turned into a legal move.
///
/// Every variant carries the text as it was given (with surrounding
/// whitespace trimmed), so the message can point at what was wrong.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, NotationError, read_san};
/// use shakmaty::Chess;
///
/// let err = read_san(&Chess::default(), "Nd4", Language::English).unwrap_err();
/// assert_eq!(err.to_string(), "illegal move 'Nd4': no knight can reach d4");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    /// The text is not a move in the expected notation at all.
    #[error("cannot read '{text}' as a move: {reason}")]
    Unparseable {
        /// The text that was read.
        text: String,
        /// What was wrong with it, in plain English.
        reason: String,
    },
    /// The text is well formed but names no legal move in the position.
    #[error("illegal move '{text}': {reason}")]
    Illegal {
        /// The text that was read.
        text: String,
        /// Why no legal move matches, in plain English.
        reason: String,
    },
    /// The text matches more than one legal move.
    #[error("ambiguous move '{text}': it could be any of {}", .candidates.join(", "))]
    Ambiguous {
        /// The text that was read.
        text: String,
        /// The matching legal moves, in UCI notation.
        candidates: Vec<String>,
    },
    /// The text names a piece of the side that is not to move.
    #[error("wrong side: '{text}' moves a piece of the side that is not to move")]
    WrongSide {
        /// The text that was read.
        text: String,
    },
}

impl NotationError {
    /// The text that could not be read, as it was given (trimmed).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::{Language, read_san};
    /// use shakmaty::Chess;
    ///
    /// let err = read_san(&Chess::default(), " Zz9 ", Language::English).unwrap_err();
    /// assert_eq!(err.text(), "Zz9");
    /// ```
    pub fn text(&self) -> &str {
        match self {
            Self::Unparseable { text, .. }
            | Self::Illegal { text, .. }
            | Self::Ambiguous { text, .. }
            | Self::WrongSide { text } => text,
        }
    }

    pub(crate) fn unparseable(text: &str, reason: impl Into<String>) -> Self {
        Self::Unparseable {
            text: text.to_owned(),
            reason: reason.into(),
        }
    }

    pub(crate) fn illegal(text: &str, reason: impl Into<String>) -> Self {
        Self::Illegal {
            text: text.to_owned(),
            reason: reason.into(),
        }
    }

    pub(crate) fn wrong_side(text: &str) -> Self {
        Self::WrongSide {
            text: text.to_owned(),
        }
    }
}

/// A language code that [`Language`](super::Language) does not know.
///
/// # Examples
///
/// ```
/// use rochade_laws::Language;
///
/// let err = "xx".parse::<Language>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown notation language 'xx'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown notation language '{code}'")]
pub struct ParseLanguageError {
    /// The code that was given.
    pub code: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_text() {
        let e = NotationError::Ambiguous {
            text: "Nd2".into(),
            candidates: vec!["b1d2".into(), "f3d2".into()],
        };
        assert_eq!(
            e.to_string(),
            "ambiguous move 'Nd2': it could be any of b1d2, f3d2"
        );
        assert_eq!(e.text(), "Nd2");
        let e = NotationError::wrong_side("e7e5");
        assert_eq!(
            e.to_string(),
            "wrong side: 'e7e5' moves a piece of the side that is not to move"
        );
        let e = NotationError::unparseable("zz", "no square");
        assert_eq!(e.to_string(), "cannot read 'zz' as a move: no square");
    }
}
