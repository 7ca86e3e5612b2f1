//! Small JSON writers for the texts made with every move (the game at a
//! glance, the state's part that a move changes), byte for byte as
//! serde_json writes the same values: hand-written, they skip serde's
//! machinery where a move's cost is counted (docs/performance.md).

use crate::setup::Side;

/// A side as JSON.
///
/// ```
/// use rochade_server::{json_out::side, setup::Side};
/// assert_eq!(side(Side::Black), serde_json::to_string(&Side::Black)?);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn side(side: Side) -> &'static str {
    match side {
        Side::White => "\"white\"",
        Side::Black => "\"black\"",
    }
}

/// `side` as JSON, or `null`.
pub fn push_opt_side(out: &mut String, side: Option<Side>) {
    out.push_str(side.map_or("null", self::side));
}

/// `n` in decimal.
///
/// ```
/// let mut out = String::new();
/// rochade_server::json_out::push_number(&mut out, 18_446_744_073_709_551_615);
/// assert_eq!(out, u64::MAX.to_string());
/// ```
pub fn push_number(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if let Ok(text) = std::str::from_utf8(&digits[at..]) {
        out.push_str(text);
    }
}

/// `n` in decimal, or `null`.
pub fn push_opt_number(out: &mut String, n: Option<u64>) {
    match n {
        Some(n) => push_number(out, n),
        None => out.push_str("null"),
    }
}

/// Pairs of numbers (booked pauses, `[from, to]`) as a JSON array of
/// arrays.
///
/// ```
/// let mut out = String::new();
/// rochade_server::json_out::push_pairs(&mut out, &[[0, 5], [7, u64::MAX]]);
/// assert_eq!(out, "[[0,5],[7,18446744073709551615]]");
/// ```
pub fn push_pairs(out: &mut String, pairs: &[[u64; 2]]) {
    out.push('[');
    for (i, [from, to]) in pairs.iter().enumerate() {
        out.push_str(if i == 0 { "[" } else { ",[" });
        push_number(out, *from);
        out.push(',');
        push_number(out, *to);
        out.push(']');
    }
    out.push(']');
}

/// `b` as JSON.
pub fn push_bool(out: &mut String, b: bool) {
    out.push_str(if b { "true" } else { "false" });
}

/// `text` as a JSON string, escaped as serde_json escapes it; the runs
/// between characters to escape (all of a FEN, a move) copied whole.
///
/// ```
/// let text = "a \"quoted\"\n\u{1}tab\t\\ é";
/// let mut out = String::new();
/// rochade_server::json_out::push_text(&mut out, text);
/// assert_eq!(out, serde_json::to_string(text)?);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn push_text(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        let short = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0C => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..0x20 => "",
            _ => continue,
        };
        // `i` is an ASCII character's: a boundary of `text`'s characters.
        out.push_str(&text[start..i]);
        if short.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push_str(short);
        }
        start = i + 1;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// `text` as a JSON string, or `null`.
pub fn push_opt_text(out: &mut String, text: Option<&str>) {
    match text {
        Some(text) => push_text(out, text),
        None => out.push_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text escaped as serde_json escapes it: every ASCII character, and
    /// some beyond.
    #[test]
    fn text_is_escaped_as_serde_json_escapes_it() {
        let text: String = (0u8..128).map(char::from).chain("é♘𝄞".chars()).collect();
        let mut ours = String::new();
        push_text(&mut ours, &text);
        assert_eq!(ours, serde_json::to_string(&text).expect("JSON"));
    }
}
