//! The `option` message: an engine declaring a setting.

use std::fmt;

use crate::UciParseError;
use crate::tokens::{Token, Tokens, set_once, unexpected};

/// How an empty string value is spelled in an `option` line.
const EMPTY: &str = "<empty>";

/// The type of an option and its default, limits and choices.
///
/// # Examples
///
/// ```
/// use rochade_uci::OptionKind;
///
/// let kind = OptionKind::Spin { default: 16, min: 1, max: 33554432 };
/// assert_eq!(kind.to_string(), "type spin default 16 min 1 max 33554432");
/// assert_eq!(OptionKind::String { default: String::new() }.to_string(), "type string default <empty>");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// The default state.
        default: bool,
    },
    /// `type spin default <n> min <n> max <n>`.
    Spin {
        /// The default value.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo default <s> var <s>…`.
    Combo {
        /// The default choice.
        default: String,
        /// The choices.
        vars: Vec<String>,
    },
    /// `type button`.
    Button,
    /// `type string default <s>`; `<empty>`, a bare `default` or no
    /// `default` at all read as the empty string.
    String {
        /// The default text.
        default: String,
    },
}

/// `option name <name> type <kind> …`: an engine's setting.
///
/// The name may contain spaces but not the word `type`. String and combo
/// values are kept as written, inner whitespace included; an empty one is
/// printed as `<empty>`, so the text `<empty>` itself reads back as empty.
/// Combo values may not contain the words `default` or `var`.
///
/// # Examples
///
/// ```
/// use rochade_uci::{EngineMessage, OptionDecl, OptionKind};
///
/// let msg = EngineMessage::parse("option name Style type combo default Normal var Solid var Normal var Risky").unwrap();
/// let expected = OptionDecl {
///     name: "Style".into(),
///     kind: OptionKind::Combo {
///         default: "Normal".into(),
///         vars: vec!["Solid".into(), "Normal".into(), "Risky".into()],
///     },
/// };
/// assert_eq!(msg, EngineMessage::Option(expected));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OptionDecl {
    /// The option's name, as used in `setoption name …`.
    pub name: String,
    /// Its type, default and limits.
    pub kind: OptionKind,
}

impl OptionDecl {
    /// Reads the tokens after `option`.
    pub(crate) fn read(tokens: &mut Tokens<'_>, keyword: Token<'_>) -> Result<Self, UciParseError> {
        let name_keyword = tokens.value_token(keyword)?;
        if name_keyword.text != "name" {
            return Err(unexpected("option", name_keyword));
        }
        let (name, _) = tokens.until(&["type"]).ok_or(UciParseError::MissingValue {
            keyword: "name",
            index: name_keyword.index,
        })?;
        let type_keyword = tokens.next_token().ok_or(missing("type"))?;
        let kind_token = tokens.value_token(type_keyword)?;
        let kind = match kind_token.text {
            "check" => read_check(tokens)?,
            "spin" => read_spin(tokens)?,
            "combo" => read_combo(tokens)?,
            "button" => {
                tokens.expect_end("option")?;
                OptionKind::Button
            }
            "string" => read_string(tokens)?,
            _ => {
                return Err(UciParseError::InvalidValue {
                    keyword: "type",
                    token: kind_token.text.to_owned(),
                    index: kind_token.index,
                    expected: "`check`, `spin`, `combo`, `button` or `string`",
                });
            }
        };
        Ok(Self {
            name: name.to_owned(),
            kind,
        })
    }
}

fn missing(keyword: &'static str) -> UciParseError {
    UciParseError::MissingField {
        command: "option",
        keyword,
    }
}

fn read_check(tokens: &mut Tokens<'_>) -> Result<OptionKind, UciParseError> {
    let mut default = None;
    while let Some(keyword) = tokens.next_token() {
        if keyword.text != "default" {
            return Err(unexpected("option", keyword));
        }
        let token = tokens.value_token(keyword)?;
        let value = match token.text {
            "true" => true,
            "false" => false,
            _ => {
                return Err(UciParseError::InvalidValue {
                    keyword: "default",
                    token: token.text.to_owned(),
                    index: token.index,
                    expected: "`true` or `false`",
                });
            }
        };
        set_once(&mut default, value, keyword)?;
    }
    Ok(OptionKind::Check {
        default: default.ok_or(missing("default"))?,
    })
}

fn read_spin(tokens: &mut Tokens<'_>) -> Result<OptionKind, UciParseError> {
    let (mut default, mut min, mut max) = (None, None, None);
    while let Some(keyword) = tokens.next_token() {
        let slot = match keyword.text {
            "default" => &mut default,
            "min" => &mut min,
            "max" => &mut max,
            _ => return Err(unexpected("option", keyword)),
        };
        let value = tokens.number(keyword)?;
        set_once(slot, value, keyword)?;
    }
    Ok(OptionKind::Spin {
        default: default.ok_or(missing("default"))?,
        min: min.ok_or(missing("min"))?,
        max: max.ok_or(missing("max"))?,
    })
}

fn read_combo(tokens: &mut Tokens<'_>) -> Result<OptionKind, UciParseError> {
    let mut default = None;
    let mut vars = Vec::new();
    while let Some(keyword) = tokens.next_token() {
        if keyword.text != "default" && keyword.text != "var" {
            return Err(unexpected("option", keyword));
        }
        let (text, _) = tokens
            .until(&["default", "var"])
            .ok_or(UciParseError::MissingValue {
                keyword: crate::tokens::keyword_name(keyword.text),
                index: keyword.index,
            })?;
        let value = unescape(text);
        if keyword.text == "var" {
            vars.push(value);
        } else {
            set_once(&mut default, value, keyword)?;
        }
    }
    Ok(OptionKind::Combo {
        default: default.ok_or(missing("default"))?,
        vars,
    })
}

fn read_string(tokens: &mut Tokens<'_>) -> Result<OptionKind, UciParseError> {
    let default = match tokens.next_token() {
        None => String::new(),
        Some(keyword) if keyword.text == "default" => unescape(tokens.rest()),
        Some(other) => return Err(unexpected("option", other)),
    };
    Ok(OptionKind::String { default })
}

fn unescape(text: &str) -> String {
    if text == EMPTY {
        String::new()
    } else {
        text.to_owned()
    }
}

fn escape(text: &str) -> &str {
    if text.is_empty() { EMPTY } else { text }
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Check { default } => write!(f, "type check default {default}"),
            Self::Spin { default, min, max } => {
                write!(f, "type spin default {default} min {min} max {max}")
            }
            Self::Combo { default, vars } => {
                write!(f, "type combo default {}", escape(default))?;
                for var in vars {
                    write!(f, " var {}", escape(var))?;
                }
                Ok(())
            }
            Self::Button => f.write_str("type button"),
            Self::String { default } => write!(f, "type string default {}", escape(default)),
        }
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} {}", self.name, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<OptionDecl, UciParseError> {
        let mut tokens = Tokens::new(line);
        let keyword = tokens.next_token().ok_or(UciParseError::Empty)?;
        OptionDecl::read(&mut tokens, keyword)
    }

    #[test]
    fn stockfish_options() {
        let decl = read("option name Debug Log File type string default ").unwrap();
        assert_eq!(decl.name, "Debug Log File");
        assert_eq!(
            decl.kind,
            OptionKind::String {
                default: String::new()
            }
        );
        assert_eq!(
            read("option name SyzygyPath type string default <empty>").map(|d| d.kind),
            Ok(OptionKind::String {
                default: String::new()
            })
        );
        assert_eq!(
            read("option name Clear Hash type button").map(|d| d.kind),
            Ok(OptionKind::Button)
        );
        assert_eq!(
            read("option name Ponder type check default false").map(|d| d.kind),
            Ok(OptionKind::Check { default: false })
        );
        assert_eq!(
            read("option name Threads type spin default 1 min 1 max 1024").map(|d| d.kind),
            Ok(OptionKind::Spin {
                default: 1,
                min: 1,
                max: 1024
            })
        );
    }

    #[test]
    fn combo_values_with_spaces() {
        let decl = read("option name Level type combo default Very  Hard var Easy var Very  Hard")
            .unwrap();
        assert_eq!(
            decl.kind,
            OptionKind::Combo {
                default: "Very  Hard".into(),
                vars: vec!["Easy".into(), "Very  Hard".into()]
            }
        );
        assert_eq!(read(&decl.to_string()), Ok(decl));
    }

    #[test]
    fn string_default_keeps_spaces() {
        let decl = read("option name Book type string default C:\\my books\\a.bin").unwrap();
        assert_eq!(
            decl.kind,
            OptionKind::String {
                default: "C:\\my books\\a.bin".into()
            }
        );
        assert_eq!(
            read("option name X type string").map(|d| d.kind),
            Ok(OptionKind::String {
                default: String::new()
            })
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            read("option name X type spin default 1 max 3"),
            Err(missing("min"))
        );
        assert_eq!(read("option name X"), Err(missing("type")));
        assert!(matches!(
            read("option name type check default true"),
            Err(UciParseError::MissingValue {
                keyword: "name",
                ..
            })
        ));
        assert!(matches!(
            read("option name X type check default yes"),
            Err(UciParseError::InvalidValue { index: 6, .. })
        ));
        assert!(matches!(
            read("option name X type slider"),
            Err(UciParseError::InvalidValue { index: 4, .. })
        ));
        assert!(matches!(
            read("option name X type button default 1"),
            Err(UciParseError::UnexpectedToken { index: 5, .. })
        ));
        assert!(matches!(
            read("option name X type combo default var a"),
            Err(UciParseError::MissingValue {
                keyword: "default",
                index: 5
            })
        ));
        assert!(matches!(
            read("option name X type spin default 1 min 0 max 9 max 8"),
            Err(UciParseError::Duplicate { keyword: "max", .. })
        ));
        assert!(matches!(
            read("option type X"),
            Err(UciParseError::UnexpectedToken { index: 1, .. })
        ));
    }
}
