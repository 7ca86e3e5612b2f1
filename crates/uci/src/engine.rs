//! Messages from the engine to the GUI.

use std::fmt;
use std::str::FromStr;

use shakmaty::uci::UciMove;

use crate::tokens::{Token, Tokens, keyword_name, parse_move, unexpected};
use crate::{Info, OptionDecl, Parsed, UciParseError};

/// `id name <text>` or `id author <text>`; the text is the rest of the line.
///
/// # Examples
///
/// ```
/// use rochade_uci::{EngineMessage, Id};
///
/// assert_eq!(
///     EngineMessage::parse("id name Stockfish 15.1"),
///     Ok(EngineMessage::Id(Id::Name("Stockfish 15.1".into())))
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// The engine's name and version.
    Name(String),
    /// The engine's author(s).
    Author(String),
}

/// The state of a `copyprotection` or `registration` check.
///
/// # Examples
///
/// ```
/// use rochade_uci::{CheckStatus, EngineMessage};
///
/// assert_eq!(
///     EngineMessage::parse("registration error"),
///     Ok(EngineMessage::Registration(CheckStatus::Error))
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckStatus {
    /// `checking`: the engine is checking.
    Checking,
    /// `ok`: the check passed.
    Ok,
    /// `error`: the check failed.
    Error,
}

impl fmt::Display for CheckStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Checking => "checking",
            Self::Ok => "ok",
            Self::Error => "error",
        })
    }
}

/// One line the engine sends to the GUI.
///
/// Parsing skips unknown tokens before the first known message (see
/// [`parse_with_skipped`](Self::parse_with_skipped)). Printing gives the
/// canonical line, and parsing it gives the same value back.
///
/// `bestmove (none)`, which Stockfish sends when there is no legal move,
/// reads as the null move [`UciMove::Null`] and prints as `0000`.
///
/// # Examples
///
/// ```
/// use rochade_uci::EngineMessage;
/// use shakmaty::uci::UciMove;
///
/// let msg: EngineMessage = "bestmove e2e4 ponder e7e5".parse().unwrap();
/// assert_eq!(
///     msg,
///     EngineMessage::BestMove {
///         best: "e2e4".parse().unwrap(),
///         ponder: Some("e7e5".parse().unwrap()),
///     }
/// );
/// assert_eq!(msg.to_string(), "bestmove e2e4 ponder e7e5");
/// assert_eq!(
///     EngineMessage::parse("bestmove (none)"),
///     Ok(EngineMessage::BestMove { best: UciMove::Null, ponder: None })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EngineMessage {
    /// `id name|author <text>`.
    Id(Id),
    /// `uciok`: all `id` and `option` lines were sent.
    UciOk,
    /// `readyok`: answer to `isready`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move the engine plays.
        best: UciMove,
        /// The reply it would like to ponder on.
        ponder: Option<UciMove>,
    },
    /// `copyprotection checking|ok|error`.
    CopyProtection(CheckStatus),
    /// `registration checking|ok|error`.
    Registration(CheckStatus),
    /// `info …`: search information.
    Info(Box<Info>),
    /// `option name … type …`: a setting the engine supports.
    Option(OptionDecl),
}

const MESSAGES: &[&str] = &[
    "id",
    "uciok",
    "readyok",
    "bestmove",
    "copyprotection",
    "registration",
    "info",
    "option",
];

impl EngineMessage {
    /// Parses one line, skipping unknown leading tokens.
    ///
    /// # Errors
    ///
    /// [`UciParseError`] says what was wrong and at which token;
    /// [`UciParseError::Empty`] for a blank line (Stockfish sends one after
    /// `id author`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_uci::{EngineMessage, UciParseError};
    ///
    /// assert_eq!(EngineMessage::parse("readyok"), Ok(EngineMessage::ReadyOk));
    /// assert_eq!(EngineMessage::parse(""), Err(UciParseError::Empty));
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
    /// use rochade_uci::EngineMessage;
    ///
    /// let parsed = EngineMessage::parse_with_skipped("> uciok").unwrap();
    /// assert_eq!(parsed.value, EngineMessage::UciOk);
    /// assert_eq!(parsed.skipped, [">"]);
    /// ```
    pub fn parse_with_skipped(line: &str) -> Result<Parsed<Self>, UciParseError> {
        let mut tokens = Tokens::new(line);
        let skipped = tokens.skip_to_command(MESSAGES)?;
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        let value = Self::read(&mut tokens, keyword)?;
        tokens.expect_end(keyword_name(keyword.text))?;
        Ok(Parsed { value, skipped })
    }

    fn read(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Self, UciParseError> {
        Ok(match keyword.text {
            "id" => Self::Id(read_id(tokens, keyword)?),
            "uciok" => Self::UciOk,
            "readyok" => Self::ReadyOk,
            "bestmove" => read_bestmove(tokens, keyword)?,
            "copyprotection" => Self::CopyProtection(read_status(tokens, keyword)?),
            "registration" => Self::Registration(read_status(tokens, keyword)?),
            "info" => Self::Info(Box::new(Info::read(tokens)?)),
            "option" => Self::Option(OptionDecl::read(tokens, keyword)?),
            _ => {
                return Err(UciParseError::UnknownCommand {
                    token: keyword.text.to_owned(),
                });
            }
        })
    }
}

fn read_id(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Id, UciParseError> {
    let field = tokens.value_token(keyword)?;
    match field.text {
        "name" => Ok(Id::Name(tokens.rest().to_owned())),
        "author" => Ok(Id::Author(tokens.rest().to_owned())),
        _ => Err(UciParseError::InvalidValue {
            keyword: "id",
            token: field.text.to_owned(),
            index: field.index,
            expected: "`name` or `author`",
        }),
    }
}

/// A move, or Stockfish's `(none)` as the null move.
fn best_move(token: Token<'_>) -> Result<UciMove, UciParseError> {
    if token.text == "(none)" {
        Ok(UciMove::Null)
    } else {
        parse_move(token)
    }
}

fn read_bestmove(
    tokens: &mut Tokens<'_>,
    keyword: Token<'_>,
) -> Result<EngineMessage, UciParseError> {
    let best = best_move(tokens.value_token(keyword)?)?;
    let ponder = match tokens.next_token() {
        None => None,
        Some(p) if p.text == "ponder" => Some(best_move(tokens.value_token(p)?)?),
        Some(other) => return Err(unexpected("bestmove", other)),
    };
    Ok(EngineMessage::BestMove { best, ponder })
}

fn read_status(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<CheckStatus, UciParseError> {
    let token = tokens.value_token(keyword)?;
    match token.text {
        "checking" => Ok(CheckStatus::Checking),
        "ok" => Ok(CheckStatus::Ok),
        "error" => Ok(CheckStatus::Error),
        _ => Err(UciParseError::InvalidValue {
            keyword: keyword_name(keyword.text),
            token: token.text.to_owned(),
            index: token.index,
            expected: "`checking`, `ok` or `error`",
        }),
    }
}

impl FromStr for EngineMessage {
    type Err = UciParseError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        Self::parse(line)
    }
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Id(Id::Name(name)) => write!(f, "id name {name}"),
            Self::Id(Id::Author(author)) => write!(f, "id author {author}"),
            Self::UciOk => f.write_str("uciok"),
            Self::ReadyOk => f.write_str("readyok"),
            Self::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            Self::CopyProtection(status) => write!(f, "copyprotection {status}"),
            Self::Registration(status) => write!(f, "registration {status}"),
            Self::Info(info) => info.fmt(f),
            Self::Option(decl) => decl.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_messages_round_trip() {
        for line in [
            "uciok",
            "readyok",
            "id name Stockfish 15.1",
            "id author the Stockfish developers (see AUTHORS file)",
            "copyprotection checking",
            "copyprotection ok",
            "registration error",
            "bestmove e7e8q",
            "bestmove 0000",
            "bestmove c7c5 ponder g1f3",
        ] {
            let msg = EngineMessage::parse(line).unwrap();
            assert_eq!(msg.to_string(), line);
        }
    }

    #[test]
    fn none_is_null() {
        assert_eq!(
            EngineMessage::parse("bestmove e2e4 ponder (none)"),
            Ok(EngineMessage::BestMove {
                best: "e2e4".parse().unwrap(),
                ponder: Some(UciMove::Null)
            })
        );
    }

    #[test]
    fn errors() {
        assert!(matches!(
            EngineMessage::parse("bestmove"),
            Err(UciParseError::MissingValue {
                keyword: "bestmove",
                index: 0
            })
        ));
        assert!(matches!(
            EngineMessage::parse("bestmove e2e4 e7e5"),
            Err(UciParseError::UnexpectedToken { index: 2, .. })
        ));
        assert!(matches!(
            EngineMessage::parse("bestmove e2e4 ponder"),
            Err(UciParseError::MissingValue {
                keyword: "ponder",
                index: 2
            })
        ));
        assert!(matches!(
            EngineMessage::parse("id version 3"),
            Err(UciParseError::InvalidValue { index: 1, .. })
        ));
        assert!(matches!(
            EngineMessage::parse("copyprotection maybe"),
            Err(UciParseError::InvalidValue {
                keyword: "copyprotection",
                ..
            })
        ));
        assert!(matches!(
            EngineMessage::parse("uciok now"),
            Err(UciParseError::UnexpectedToken {
                command: "uciok",
                ..
            })
        ));
        assert_eq!(
            EngineMessage::parse("Stockfish 15.1 by the Stockfish developers"),
            Err(UciParseError::UnknownCommand {
                token: "Stockfish".into()
            })
        );
    }

    #[test]
    fn junk_before_message() {
        let parsed = EngineMessage::parse_with_skipped("<< readyok").unwrap();
        assert_eq!(parsed.skipped, ["<<"]);
        assert_eq!(parsed.value, EngineMessage::ReadyOk);
    }
}
