//! The `register` command.

use std::fmt;

use crate::UciParseError;
use crate::tokens::{Token, Tokens, unexpected};

/// The arguments of `register`.
///
/// The name may contain spaces but not the word `code`; the code is the
/// rest of the line.
///
/// # Examples
///
/// ```
/// use rochade_uci::{GuiCommand, Registration};
///
/// let cmd = GuiCommand::parse("register name Stefan MK code 4359874324").unwrap();
/// assert_eq!(
///     cmd,
///     GuiCommand::Register(Registration::Now {
///         name: "Stefan MK".into(),
///         code: "4359874324".into(),
///     })
/// );
/// assert_eq!(GuiCommand::Register(Registration::Later).to_string(), "register later");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Registration {
    /// `register later`: the user will register later.
    Later,
    /// `register name <name> code <code>`.
    Now {
        /// The registered user's name.
        name: String,
        /// The registration code.
        code: String,
    },
}

impl Registration {
    /// Reads the tokens after `register`.
    pub(crate) fn read(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Self, UciParseError> {
        let first = tokens.value_token(keyword)?;
        match first.text {
            "later" => {
                tokens.expect_end("register")?;
                Ok(Self::Later)
            }
            "name" => {
                let (name, _) = tokens.until(&["code"]).ok_or(UciParseError::MissingValue {
                    keyword: "name",
                    index: first.index,
                })?;
                let code_keyword = tokens.next_token().ok_or(UciParseError::MissingField {
                    command: "register",
                    keyword: "code",
                })?;
                let code = tokens.rest();
                if code.is_empty() {
                    return Err(UciParseError::MissingValue {
                        keyword: "code",
                        index: code_keyword.index,
                    });
                }
                Ok(Self::Now {
                    name: name.to_owned(),
                    code: code.to_owned(),
                })
            }
            _ => Err(unexpected("register", first)),
        }
    }
}

impl fmt::Display for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Later => f.write_str("register later"),
            Self::Now { name, code } => write!(f, "register name {name} code {code}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<Registration, UciParseError> {
        let mut tokens = Tokens::new(line);
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        Registration::read(&mut tokens, keyword)
    }

    #[test]
    fn later_and_now() {
        assert_eq!(read("register later"), Ok(Registration::Later));
        assert_eq!(
            read("register name A  B code x y"),
            Ok(Registration::Now {
                name: "A  B".into(),
                code: "x y".into()
            })
        );
    }

    #[test]
    fn incomplete_registrations() {
        assert!(matches!(
            read("register"),
            Err(UciParseError::MissingValue { .. })
        ));
        assert!(matches!(
            read("register name A"),
            Err(UciParseError::MissingField {
                keyword: "code",
                ..
            })
        ));
        assert!(matches!(
            read("register name A code"),
            Err(UciParseError::MissingValue {
                keyword: "code",
                index: 3
            })
        ));
        assert!(matches!(
            read("register name code 1"),
            Err(UciParseError::MissingValue {
                keyword: "name",
                ..
            })
        ));
        assert!(matches!(
            read("register later now"),
            Err(UciParseError::UnexpectedToken { index: 2, .. })
        ));
        assert!(matches!(
            read("register soon"),
            Err(UciParseError::UnexpectedToken { index: 1, .. })
        ));
    }
}
