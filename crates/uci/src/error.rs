//! The typed error returned when a UCI line cannot be read.

use shakmaty::fen::ParseFenError;

/// Why a line of UCI text could not be read as a command or message.
///
/// Token indices count whitespace-separated tokens of the whole line from
/// zero, including any leading junk that was skipped. A parse error is never
/// fatal: the caller logs it and reads the next line.
///
/// # Examples
///
/// ```
/// use rochade_uci::{GuiCommand, UciParseError};
///
/// let err = GuiCommand::parse("go depth deep").unwrap_err();
/// assert_eq!(
///     err,
///     UciParseError::InvalidNumber { keyword: "depth", token: "deep".into(), index: 2 }
/// );
/// assert_eq!(err.index(), Some(2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciParseError {
    /// The line is empty or only whitespace; such lines are simply ignored.
    #[error("empty line")]
    Empty,
    /// No token of the line is a known command.
    #[error("unknown command `{token}`")]
    UnknownCommand {
        /// The first token of the line.
        token: String,
    },
    /// A keyword that needs a value ends the line.
    #[error("`{keyword}` at token {index} needs a value")]
    MissingValue {
        /// The keyword missing its value.
        keyword: &'static str,
        /// Index of the keyword.
        index: usize,
    },
    /// A field the command requires is absent.
    #[error("`{command}` needs `{keyword}`")]
    MissingField {
        /// The command, e.g. `option`.
        command: &'static str,
        /// The absent keyword, e.g. `min`.
        keyword: &'static str,
    },
    /// A token that has no meaning at its place.
    #[error("unexpected token `{token}` at token {index} in `{command}`")]
    UnexpectedToken {
        /// The command being read.
        command: &'static str,
        /// The offending token.
        token: String,
        /// Index of the token.
        index: usize,
    },
    /// A keyword that may appear once appears again.
    #[error("`{keyword}` given twice (token {index})")]
    Duplicate {
        /// The repeated keyword.
        keyword: &'static str,
        /// Index of the second occurrence.
        index: usize,
    },
    /// A number that does not parse or does not fit its field.
    #[error("invalid number `{token}` for `{keyword}` at token {index}")]
    InvalidNumber {
        /// The keyword the number belongs to.
        keyword: &'static str,
        /// The offending token.
        token: String,
        /// Index of the token.
        index: usize,
    },
    /// A value outside the words the keyword allows.
    #[error("invalid value `{token}` for `{keyword}` at token {index}, expected {expected}")]
    InvalidValue {
        /// The keyword the value belongs to.
        keyword: &'static str,
        /// The offending token.
        token: String,
        /// Index of the token.
        index: usize,
        /// What would have been accepted.
        expected: &'static str,
    },
    /// A move that is not in UCI notation.
    #[error("invalid move `{token}` at token {index}")]
    InvalidMove {
        /// The offending token.
        token: String,
        /// Index of the token.
        index: usize,
    },
    /// A FEN that shakmaty rejects.
    #[error("invalid FEN `{fen}` at token {index}: {reason}")]
    InvalidFen {
        /// The FEN text as given.
        fen: String,
        /// Index of the first FEN token.
        index: usize,
        /// What was wrong with it.
        reason: ParseFenError,
    },
}

impl UciParseError {
    /// The index of the token the error points at, if it points at one.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_uci::EngineMessage;
    ///
    /// assert_eq!(EngineMessage::parse("bestmove e2").unwrap_err().index(), Some(1));
    /// assert_eq!(EngineMessage::parse("").unwrap_err().index(), None);
    /// ```
    pub fn index(&self) -> Option<usize> {
        match self {
            Self::Empty | Self::UnknownCommand { .. } | Self::MissingField { .. } => None,
            Self::MissingValue { index, .. }
            | Self::UnexpectedToken { index, .. }
            | Self::Duplicate { index, .. }
            | Self::InvalidNumber { index, .. }
            | Self::InvalidValue { index, .. }
            | Self::InvalidMove { index, .. }
            | Self::InvalidFen { index, .. } => Some(*index),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_token() {
        let err = UciParseError::InvalidMove {
            token: "e9e4".into(),
            index: 3,
        };
        assert_eq!(err.to_string(), "invalid move `e9e4` at token 3");
        assert_eq!(err.index(), Some(3));
    }

    #[test]
    fn missing_field_has_no_index() {
        let err = UciParseError::MissingField {
            command: "option",
            keyword: "min",
        };
        assert_eq!(err.index(), None);
        assert_eq!(err.to_string(), "`option` needs `min`");
    }
}
