//! The `position` command: a start position and the moves played from it.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;

use crate::UciParseError;
use crate::tokens::{Tokens, parse_move, unexpected};

/// Where the moves of a `position` command start.
///
/// # Examples
///
/// ```
/// use rochade_uci::PositionBase;
/// use shakmaty::fen::Fen;
///
/// let fen: Fen = "8/8/8/8/8/8/8/K6k w - - 0 1".parse().unwrap();
/// assert_eq!(PositionBase::Fen(fen).to_string(), "fen 8/8/8/8/8/8/8/K6k w - - 0 1");
/// assert_eq!(PositionBase::StartPos.to_string(), "startpos");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PositionBase {
    /// `startpos`: the standard initial position.
    StartPos,
    /// `fen <fen>`: any position.
    Fen(Fen),
}

impl fmt::Display for PositionBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::StartPos => f.write_str("startpos"),
            Self::Fen(fen) => write!(f, "fen {fen}"),
        }
    }
}

/// The arguments of `position startpos|fen <fen> [moves <m>…]`.
///
/// `moves` with no move after it reads as no moves, and no moves print
/// without the `moves` keyword. The FEN is checked by shakmaty; an invalid
/// one is [`UciParseError::InvalidFen`].
///
/// # Examples
///
/// ```
/// use rochade_uci::{GuiCommand, PositionBase, PositionSpec};
///
/// let cmd = GuiCommand::parse("position startpos moves e2e4 e7e5").unwrap();
/// let GuiCommand::Position(spec) = &cmd else { panic!() };
/// assert_eq!(spec.base, PositionBase::StartPos);
/// assert_eq!(spec.moves.len(), 2);
/// assert_eq!(cmd.to_string(), "position startpos moves e2e4 e7e5");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PositionSpec {
    /// The position the moves start from.
    pub base: PositionBase,
    /// The moves played from it, in order.
    pub moves: Vec<UciMove>,
}

impl PositionSpec {
    /// Reads the tokens after `position`.
    pub(crate) fn read(
        tokens: &mut Tokens<'_>,
        keyword: crate::tokens::Token<'_>,
    ) -> Result<Self, UciParseError> {
        let kind = tokens.value_token(keyword)?;
        let base = match kind.text {
            "startpos" => PositionBase::StartPos,
            "fen" => PositionBase::Fen(read_fen(tokens, kind)?),
            _ => {
                return Err(UciParseError::InvalidValue {
                    keyword: "position",
                    token: kind.text.to_owned(),
                    index: kind.index,
                    expected: "`startpos` or `fen`",
                });
            }
        };
        let mut moves = Vec::new();
        if let Some(token) = tokens.next_token() {
            if token.text != "moves" {
                return Err(unexpected("position", token));
            }
            while let Some(token) = tokens.next_token() {
                moves.push(parse_move(token)?);
            }
        }
        Ok(Self { base, moves })
    }
}

fn read_fen(
    tokens: &mut Tokens<'_>,
    keyword: crate::tokens::Token<'_>,
) -> Result<Fen, UciParseError> {
    let mut parts = Vec::new();
    let mut index = None;
    while let Some(token) = tokens.peek().filter(|t| t.text != "moves") {
        index.get_or_insert(token.index);
        parts.push(token.text);
        tokens.next_token();
    }
    let index = index.ok_or(UciParseError::MissingValue {
        keyword: "fen",
        index: keyword.index,
    })?;
    let text = parts.join(" ");
    Fen::from_ascii(text.as_bytes()).map_err(|reason| UciParseError::InvalidFen {
        fen: text,
        index,
        reason,
    })
}

impl fmt::Display for PositionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {}", self.base)?;
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for m in &self.moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::ParseFenError;

    fn read(line: &str) -> Result<PositionSpec, UciParseError> {
        let mut tokens = Tokens::new(line);
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        PositionSpec::read(&mut tokens, keyword)
    }

    #[test]
    fn startpos_without_moves() {
        let spec = read("position startpos").unwrap();
        assert_eq!(spec.base, PositionBase::StartPos);
        assert!(spec.moves.is_empty());
        assert_eq!(read("position startpos moves").unwrap(), spec);
    }

    #[test]
    fn fen_with_moves_and_null_move() {
        let spec = read("position fen 7k/8/6K1/8/8/8/8/6R1 w - - 0 1 moves g1e1 0000").unwrap();
        assert_eq!(
            spec.moves,
            ["g1e1".parse::<UciMove>().unwrap(), UciMove::Null]
        );
        assert_eq!(
            spec.to_string(),
            "position fen 7k/8/6K1/8/8/8/8/6R1 w - - 0 1 moves g1e1 0000"
        );
    }

    #[test]
    fn invalid_fen_is_typed() {
        assert_eq!(
            read("position fen 9/8 w - - 0 1"),
            Err(UciParseError::InvalidFen {
                fen: "9/8 w - - 0 1".into(),
                index: 2,
                reason: ParseFenError::InvalidBoard
            })
        );
        assert_eq!(
            read("position fen moves e2e4"),
            Err(UciParseError::MissingValue {
                keyword: "fen",
                index: 1
            })
        );
    }

    #[test]
    fn bad_moves_and_tokens_are_reported() {
        assert_eq!(
            read("position startpos moves e2e4 e9e5"),
            Err(UciParseError::InvalidMove {
                token: "e9e5".into(),
                index: 4
            })
        );
        assert!(matches!(
            read("position startpos e2e4"),
            Err(UciParseError::UnexpectedToken { index: 2, .. })
        ));
        assert!(matches!(
            read("position somewhere"),
            Err(UciParseError::InvalidValue { index: 1, .. })
        ));
        assert!(matches!(
            read("position"),
            Err(UciParseError::MissingValue { .. })
        ));
    }
}
