//! Extended Position Description: four FEN fields and `opcode operands;`
//! operations (`bm Qg6; id "WAC.001";`).

use shakmaty::fen::Fen;

/// One EPD line: the position and its operations, in order.
///
/// `hmvc` and `fmvn` operations set the FEN's move counters; without them
/// the counters are `0 1`. Operands keep their quotes stripped.
///
/// # Examples
///
/// ```
/// use rochade_arena::EpdRecord;
///
/// let rec = EpdRecord::parse(r#"8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id "WAC.002";"#).unwrap();
/// assert_eq!(rec.operands("bm"), Some(&["Rxb2".to_owned()][..]));
/// assert_eq!(rec.id(), Some("WAC.002"));
/// assert_eq!(rec.fen.to_string(), "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdRecord {
    /// The position, move counters from `hmvc`/`fmvn` or `0 1`.
    pub fen: Fen,
    /// `(opcode, operands)` in the order written.
    pub operations: Vec<(String, Vec<String>)>,
}

impl EpdRecord {
    /// Reads one line.
    ///
    /// # Errors
    ///
    /// A message saying what is wrong: fewer than four fields, a FEN that
    /// shakmaty rejects, an unterminated string.
    pub fn parse(line: &str) -> Result<Self, String> {
        let mut rest = line.trim();
        let mut fields = Vec::with_capacity(4);
        for _ in 0..4 {
            let (field, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if field.is_empty() {
                return Err("expected four FEN fields".into());
            }
            fields.push(field);
            rest = tail.trim_start();
        }
        let operations = read_operations(rest)?;
        let counter = |name: &str, default: &str| {
            operations
                .iter()
                .find(|(op, _)| op == name)
                .and_then(|(_, operands)| operands.first().cloned())
                .unwrap_or_else(|| default.to_owned())
        };
        let text = format!(
            "{} {} {}",
            fields.join(" "),
            counter("hmvc", "0"),
            counter("fmvn", "1")
        );
        let fen = text
            .parse::<Fen>()
            .map_err(|e| format!("invalid FEN `{text}`: {e}"))?;
        Ok(Self { fen, operations })
    }

    /// The operands of the first operation called `opcode`.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations
            .iter()
            .find(|(op, _)| op == opcode)
            .map(|(_, operands)| operands.as_slice())
    }

    /// The `id` operand.
    pub fn id(&self) -> Option<&str> {
        self.operands("id")
            .and_then(|o| o.first())
            .map(String::as_str)
    }
}

/// Splits `op a b; op "quoted; text";` into operations.
fn read_operations(text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut operations = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                if !words.is_empty() {
                    let opcode = words.remove(0);
                    operations.push((opcode, std::mem::take(&mut words)));
                }
            }
            '"' => {
                let mut quoted = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(c) => quoted.push(c),
                        None => return Err("unterminated string".into()),
                    }
                }
                words.push(quoted);
            }
            c if c.is_whitespace() => {}
            c => {
                let mut word = String::from(c);
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || next == ';' || next == '"' {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                words.push(word);
            }
        }
    }
    if !words.is_empty() {
        return Err(format!("operation `{}` lacks its closing `;`", words[0]));
    }
    Ok(operations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_semicolons_and_counters() {
        let rec = EpdRecord::parse(
            r#"4k3/8/8/8/8/8/8/4K3 w - - c0 "a; b" x; bm Ke2 Kd2; hmvc 12; fmvn 40;"#,
        )
        .unwrap();
        assert_eq!(rec.operands("c0").map(<[String]>::len), Some(2));
        assert_eq!(rec.operands("bm").map(<[String]>::len), Some(2));
        assert_eq!(rec.fen.to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 12 40");
    }

    #[test]
    fn errors() {
        assert!(EpdRecord::parse("").is_err());
        assert!(EpdRecord::parse("8/8/8 w").is_err());
        assert!(EpdRecord::parse("9/8/8/8/8/8/8/8 w - -").is_err());
        assert!(EpdRecord::parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "x"#).is_err());
        assert!(EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - bm Ke2").is_err());
        assert!(EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - -").is_ok());
    }
}
