//! Splitting a line into whitespace-separated tokens, and reading typed
//! values from them.
//!
//! Tokens remember where they are in the line, so that free text (option
//! names, `info string`, `setoption … value`) is taken from the line as it
//! was written, inner whitespace included.

use std::str::FromStr;

use shakmaty::uci::UciMove;

use crate::UciParseError;

/// One whitespace-separated word of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// The word itself.
    pub(crate) text: &'a str,
    /// Byte offset of the first byte in the line.
    pub(crate) start: usize,
    /// Byte offset one past the last byte in the line.
    pub(crate) end: usize,
    /// Position of the token in the line, counting from zero.
    pub(crate) index: usize,
}

/// A cursor over the tokens of one line.
#[derive(Debug, Clone)]
pub(crate) struct Tokens<'a> {
    line: &'a str,
    tokens: Vec<Token<'a>>,
    pos: usize,
}

impl<'a> Tokens<'a> {
    /// Splits `line` at any run of whitespace.
    pub(crate) fn new(line: &'a str) -> Self {
        let mut tokens = Vec::new();
        let mut start = None;
        for (offset, ch) in line.char_indices() {
            match (ch.is_whitespace(), start) {
                (true, Some(s)) => {
                    tokens.push(make_token(line, s, offset, tokens.len()));
                    start = None;
                }
                (false, None) => start = Some(offset),
                _ => {}
            }
        }
        if let Some(s) = start {
            tokens.push(make_token(line, s, line.len(), tokens.len()));
        }
        Self {
            line,
            tokens,
            pos: 0,
        }
    }

    /// The next token, without consuming it.
    pub(crate) fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.pos).copied()
    }

    /// Consumes and returns the next token.
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        let token = self.peek();
        if token.is_some() {
            self.pos += 1;
        }
        token
    }

    /// Skips tokens until one of `known`, returning the skipped words.
    ///
    /// Errors with [`UciParseError::Empty`] on an empty line and with
    /// [`UciParseError::UnknownCommand`] when no token is known.
    pub(crate) fn skip_to_command(&mut self, known: &[&str]) -> Result<Vec<String>, UciParseError> {
        let first = self.peek().ok_or(UciParseError::Empty)?;
        let mut skipped = Vec::new();
        while let Some(token) = self.peek() {
            if known.contains(&token.text) {
                return Ok(skipped);
            }
            skipped.push(token.text.to_owned());
            self.pos += 1;
        }
        Err(UciParseError::UnknownCommand {
            token: first.text.to_owned(),
        })
    }

    /// Consumes every remaining token and returns the text they span,
    /// trimmed; empty if no token remains.
    pub(crate) fn rest(&mut self) -> &'a str {
        let text = match (self.peek(), self.tokens.last()) {
            (Some(first), Some(last)) => self.span(first, *last),
            _ => "",
        };
        self.pos = self.tokens.len();
        text
    }

    /// Consumes tokens up to (not including) the first one in `stop` and
    /// returns the text they span with the first token's index; `None` if
    /// that would be no token at all.
    pub(crate) fn until(&mut self, stop: &[&str]) -> Option<(&'a str, usize)> {
        let first = self.peek()?;
        let mut last = None;
        while let Some(token) = self.peek() {
            if stop.contains(&token.text) {
                break;
            }
            last = Some(token);
            self.pos += 1;
        }
        last.map(|last| (self.span(first, last), first.index))
    }

    /// Reads the value after `keyword` with `FromStr`.
    pub(crate) fn number<T: FromStr>(&mut self, keyword: Token<'_>) -> Result<T, UciParseError> {
        let name = keyword_name(keyword.text);
        let token = self.value_token(keyword)?;
        token
            .text
            .parse()
            .map_err(|_| UciParseError::InvalidNumber {
                keyword: name,
                token: token.text.to_owned(),
                index: token.index,
            })
    }

    /// The token after `keyword`, or [`UciParseError::MissingValue`].
    pub(crate) fn value_token(&mut self, keyword: Token<'_>) -> Result<Token<'a>, UciParseError> {
        self.next_token().ok_or(UciParseError::MissingValue {
            keyword: keyword_name(keyword.text),
            index: keyword.index,
        })
    }

    /// Reads one move after `keyword`.
    pub(crate) fn one_move(&mut self, keyword: Token<'_>) -> Result<UciMove, UciParseError> {
        let token = self.value_token(keyword)?;
        parse_move(token)
    }

    /// Consumes tokens for as long as they are moves.
    pub(crate) fn moves(&mut self) -> Vec<UciMove> {
        let mut moves = Vec::new();
        while let Some(m) = self.peek().and_then(|t| t.text.parse::<UciMove>().ok()) {
            moves.push(m);
            self.pos += 1;
        }
        moves
    }

    /// Errors with [`UciParseError::UnexpectedToken`] if a token is left.
    pub(crate) fn expect_end(&self, command: &'static str) -> Result<(), UciParseError> {
        match self.peek() {
            None => Ok(()),
            Some(token) => Err(unexpected(command, token)),
        }
    }

    fn span(&self, first: Token<'_>, last: Token<'_>) -> &'a str {
        self.line.get(first.start..last.end).unwrap_or("")
    }
}

fn make_token(line: &str, start: usize, end: usize, index: usize) -> Token<'_> {
    Token {
        text: line.get(start..end).unwrap_or(""),
        start,
        end,
        index,
    }
}

/// Parses one move token.
pub(crate) fn parse_move(token: Token<'_>) -> Result<UciMove, UciParseError> {
    token.text.parse().map_err(|_| UciParseError::InvalidMove {
        token: token.text.to_owned(),
        index: token.index,
    })
}

/// An [`UciParseError::UnexpectedToken`] for `token`.
pub(crate) fn unexpected(command: &'static str, token: Token<'_>) -> UciParseError {
    UciParseError::UnexpectedToken {
        command,
        token: token.text.to_owned(),
        index: token.index,
    }
}

/// Stores `value` in `slot`, or errors if the keyword was already given.
pub(crate) fn set_once<T>(
    slot: &mut Option<T>,
    value: T,
    keyword: Token<'_>,
) -> Result<(), UciParseError> {
    if slot.is_some() {
        return Err(UciParseError::Duplicate {
            keyword: keyword_name(keyword.text),
            index: keyword.index,
        });
    }
    *slot = Some(value);
    Ok(())
}

/// The static spelling of a protocol keyword, for error values.
pub(crate) fn keyword_name(text: &str) -> &'static str {
    KEYWORDS.iter().copied().find(|k| *k == text).unwrap_or("?")
}

/// Every keyword this crate reads, so errors can name them as `&'static str`.
const KEYWORDS: &[&str] = &[
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
    "id",
    "uciok",
    "readyok",
    "bestmove",
    "copyprotection",
    "registration",
    "info",
    "option",
    "name",
    "value",
    "code",
    "later",
    "author",
    "startpos",
    "fen",
    "moves",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "seldepth",
    "time",
    "pv",
    "multipv",
    "score",
    "cp",
    "lowerbound",
    "upperbound",
    "wdl",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "type",
    "default",
    "min",
    "max",
    "var",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<&str> {
        Tokens::new(line).tokens.iter().map(|t| t.text).collect()
    }

    #[test]
    fn splits_on_any_whitespace() {
        assert_eq!(texts("  go\tdepth   5 \r\n"), ["go", "depth", "5"]);
        assert!(texts(" \t ").is_empty());
        assert_eq!(texts("é ü"), ["é", "ü"]);
    }

    #[test]
    fn rest_keeps_inner_whitespace() {
        let mut t = Tokens::new("info string  hello   world  ");
        t.next_token();
        t.next_token();
        assert_eq!(t.rest(), "hello   world");
        assert_eq!(t.rest(), "");
    }

    #[test]
    fn until_stops_at_keyword() {
        let mut t = Tokens::new("Skill  Level type spin");
        assert_eq!(t.until(&["type"]), Some(("Skill  Level", 0)));
        assert_eq!(t.peek().map(|t| t.text), Some("type"));
        assert_eq!(t.until(&["type"]), None);
    }

    #[test]
    fn skips_junk_before_command() {
        let mut t = Tokens::new("joho debug on");
        assert_eq!(t.skip_to_command(&["debug"]), Ok(vec!["joho".to_owned()]));
        assert_eq!(
            Tokens::new("joho").skip_to_command(&["debug"]),
            Err(UciParseError::UnknownCommand {
                token: "joho".into()
            })
        );
        assert_eq!(
            Tokens::new("").skip_to_command(&["debug"]),
            Err(UciParseError::Empty)
        );
    }

    #[test]
    fn moves_stop_at_non_move() {
        let mut t = Tokens::new("e2e4 0000 e7e8q depth");
        assert_eq!(t.moves().len(), 3);
        assert_eq!(t.peek().map(|t| t.index), Some(3));
    }

    #[test]
    fn keyword_names_are_static() {
        assert_eq!(keyword_name("depth"), "depth");
        assert_eq!(keyword_name("nonsense"), "?");
    }
}
