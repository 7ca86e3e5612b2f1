//! Commands from the GUI to the engine.

use std::fmt;
use std::str::FromStr;

use crate::tokens::{Token, Tokens};
use crate::{GoParams, Parsed, PositionSpec, Registration, UciParseError};

/// One line the GUI sends to the engine.
///
/// Parsing skips unknown tokens before the first known command, as the UCI
/// spec asks (`joho debug on` is `debug on`); see
/// [`parse_with_skipped`](Self::parse_with_skipped) to learn what was
/// skipped. Printing gives the canonical line, and parsing it gives the same
/// value back.
///
/// # Examples
///
/// ```
/// use rochade_uci::GuiCommand;
///
/// let cmd: GuiCommand = "setoption name Skill Level value 5".parse().unwrap();
/// assert_eq!(
///     cmd,
///     GuiCommand::SetOption { name: "Skill Level".into(), value: Some("5".into()) }
/// );
/// assert_eq!(cmd.to_string(), "setoption name Skill Level value 5");
/// assert_eq!(GuiCommand::parse("  isready "), Ok(GuiCommand::IsReady));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GuiCommand {
    /// `uci`: switch to UCI mode.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: ping; the engine answers `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    ///
    /// The name may contain spaces but not the word `value`; the value is
    /// the rest of the line. Names and values are kept as written, inner
    /// whitespace included, trimmed at both ends.
    SetOption {
        /// The option's name.
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `register later` or `register name <name> code <code>`.
    Register(Registration),
    /// `ucinewgame`: the next position is from a new game.
    UciNewGame,
    /// `position startpos|fen <fen> [moves <m>…]`.
    Position(PositionSpec),
    /// `go …`: start searching.
    Go(GoParams),
    /// `stop`: stop searching and answer `bestmove`.
    Stop,
    /// `ponderhit`: the expected move was played.
    PonderHit,
    /// `quit`: exit.
    Quit,
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

impl GuiCommand {
    /// Parses one line, skipping unknown leading tokens.
    ///
    /// # Errors
    ///
    /// [`UciParseError`] says what was wrong and at which token;
    /// [`UciParseError::Empty`] for a blank line.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_uci::{GuiCommand, UciParseError};
    ///
    /// assert_eq!(GuiCommand::parse("joho debug on"), Ok(GuiCommand::Debug(true)));
    /// assert_eq!(
    ///     GuiCommand::parse("hello"),
    ///     Err(UciParseError::UnknownCommand { token: "hello".into() })
    /// );
    /// ```
    pub fn parse(line: &str) -> Result<Self, UciParseError> {
        Self::parse_with_skipped(line).map(|parsed| parsed.value)
    }

    /// Parses one line and also returns the unknown leading tokens skipped.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_uci::GuiCommand;
    ///
    /// let parsed = GuiCommand::parse_with_skipped("xboard uci").unwrap();
    /// assert_eq!(parsed.value, GuiCommand::Uci);
    /// assert_eq!(parsed.skipped, ["xboard"]);
    /// ```
    pub fn parse_with_skipped(line: &str) -> Result<Parsed<Self>, UciParseError> {
        let mut tokens = Tokens::new(line);
        let skipped = tokens.skip_to_command(COMMANDS)?;
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        let value = Self::read(&mut tokens, keyword)?;
        Ok(Parsed { value, skipped })
    }

    fn read(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Self, UciParseError> {
        let command = match keyword.text {
            "debug" => Self::Debug(read_debug(tokens, keyword)?),
            "setoption" => read_setoption(tokens, keyword)?,
            "register" => Self::Register(Registration::read(tokens, keyword)?),
            "position" => Self::Position(PositionSpec::read(tokens, keyword)?),
            "go" => Self::Go(GoParams::read(tokens)?),
            "uci" => Self::Uci,
            "isready" => Self::IsReady,
            "ucinewgame" => Self::UciNewGame,
            "stop" => Self::Stop,
            "ponderhit" => Self::PonderHit,
            "quit" => Self::Quit,
            _ => {
                return Err(UciParseError::UnknownCommand {
                    token: keyword.text.to_owned(),
                });
            }
        };
        tokens.expect_end(crate::tokens::keyword_name(keyword.text))?;
        Ok(command)
    }
}

fn read_debug(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<bool, UciParseError> {
    let token = tokens.value_token(keyword)?;
    match token.text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(UciParseError::InvalidValue {
            keyword: "debug",
            token: token.text.to_owned(),
            index: token.index,
            expected: "`on` or `off`",
        }),
    }
}

fn read_setoption(
    tokens: &mut Tokens<'_>,
    keyword: Token<'_>,
) -> Result<GuiCommand, UciParseError> {
    let name_keyword = tokens.value_token(keyword)?;
    if name_keyword.text != "name" {
        return Err(crate::tokens::unexpected("setoption", name_keyword));
    }
    let (name, _) = tokens
        .until(&["value"])
        .ok_or(UciParseError::MissingValue {
            keyword: "name",
            index: name_keyword.index,
        })?;
    let value = tokens.next_token().map(|_| tokens.rest().to_owned());
    Ok(GuiCommand::SetOption {
        name: name.to_owned(),
        value,
    })
}

impl FromStr for GuiCommand {
    type Err = UciParseError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        Self::parse(line)
    }
}

impl fmt::Display for GuiCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Uci => f.write_str("uci"),
            Self::Debug(true) => f.write_str("debug on"),
            Self::Debug(false) => f.write_str("debug off"),
            Self::IsReady => f.write_str("isready"),
            Self::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            Self::Register(registration) => registration.fmt(f),
            Self::UciNewGame => f.write_str("ucinewgame"),
            Self::Position(spec) => spec.fmt(f),
            Self::Go(go) => go.fmt(f),
            Self::Stop => f.write_str("stop"),
            Self::PonderHit => f.write_str("ponderhit"),
            Self::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands_round_trip() {
        for line in [
            "uci",
            "debug on",
            "debug off",
            "isready",
            "ucinewgame",
            "stop",
            "ponderhit",
            "quit",
        ] {
            let cmd = GuiCommand::parse(line).unwrap();
            assert_eq!(cmd.to_string(), line);
        }
    }

    #[test]
    fn setoption_keeps_spaces_and_empty_value() {
        assert_eq!(
            GuiCommand::parse("setoption name Debug Log File value /tmp/a  b.log "),
            Ok(GuiCommand::SetOption {
                name: "Debug Log File".into(),
                value: Some("/tmp/a  b.log".into())
            })
        );
        assert_eq!(
            GuiCommand::parse("setoption name Clear Hash"),
            Ok(GuiCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        let empty = GuiCommand::SetOption {
            name: "x".into(),
            value: Some(String::new()),
        };
        assert_eq!(GuiCommand::parse(&empty.to_string()), Ok(empty));
    }

    #[test]
    fn setoption_errors() {
        assert!(matches!(
            GuiCommand::parse("setoption value 3"),
            Err(UciParseError::UnexpectedToken { index: 1, .. })
        ));
        assert!(matches!(
            GuiCommand::parse("setoption name value 3"),
            Err(UciParseError::MissingValue {
                keyword: "name",
                ..
            })
        ));
        assert!(matches!(
            GuiCommand::parse("setoption"),
            Err(UciParseError::MissingValue {
                keyword: "setoption",
                ..
            })
        ));
    }

    #[test]
    fn junk_is_skipped_and_reported() {
        let parsed = GuiCommand::parse_with_skipped("a b  stop").unwrap();
        assert_eq!(parsed.value, GuiCommand::Stop);
        assert_eq!(parsed.skipped, ["a", "b"]);
    }

    #[test]
    fn trailing_tokens_are_errors() {
        assert_eq!(
            GuiCommand::parse("isready now"),
            Err(UciParseError::UnexpectedToken {
                command: "isready",
                token: "now".into(),
                index: 1
            })
        );
        assert!(matches!(
            GuiCommand::parse("debug maybe"),
            Err(UciParseError::InvalidValue { index: 1, .. })
        ));
        assert_eq!(GuiCommand::parse(" \t"), Err(UciParseError::Empty));
    }
}
