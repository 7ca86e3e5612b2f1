//! Small reading and writing helpers shared by the notations.

use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square, san::Suffix};

use super::{
    language::Language,
    style::{PromotionStyle, SanStyle},
};

/// The en passant mark of the FIDE Laws, Appendix C.
pub(crate) const EN_PASSANT_MARK: &str = "e.p.";

/// A move text with its check, mate and annotation marks removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Body<'a> {
    /// What is left of the move.
    pub text: &'a str,
    /// Whether an `e.p.` mark was present.
    pub en_passant: bool,
}

/// Removes trailing `+`, `#`, `!`, `?` marks and one `e.p.` mark (before or
/// after the check mark, with or without a space).
pub(crate) fn strip_marks(text: &str) -> Body<'_> {
    const MARKS: [char; 4] = ['+', '#', '!', '?'];
    let text = text.trim().trim_end_matches(MARKS).trim_end();
    match text.strip_suffix(EN_PASSANT_MARK) {
        Some(rest) => Body {
            text: rest.trim_end().trim_end_matches(['+', '#']).trim_end(),
            en_passant: true,
        },
        None => Body {
            text,
            en_passant: false,
        },
    }
}

/// Reads castling written with letter O or digit zero.
pub(crate) fn castling(text: &str) -> Option<CastlingSide> {
    match text {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Writes castling the FIDE way.
pub(crate) const fn castling_text(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "O-O",
        CastlingSide::QueenSide => "O-O-O",
    }
}

/// Reads one character with `f`, returning the value and the rest.
pub(crate) fn strip_with<T>(text: &str, f: impl Fn(char) -> Option<T>) -> Option<(T, &str)> {
    let mut chars = text.chars();
    let value = chars.next().and_then(f)?;
    Some((value, chars.as_str()))
}

/// Reads a square such as `e4` at the start of `text`.
pub(crate) fn strip_square(text: &str) -> Option<(Square, &str)> {
    let (file, rest) = strip_with(text, File::from_char)?;
    let (rank, rest) = strip_with(rest, Rank::from_char)?;
    Some((Square::from_coords(file, rank), rest))
}

/// The byte index of the last square (such as `e4`) in `text`.
pub(crate) fn last_square_index(text: &str) -> Option<usize> {
    text.char_indices()
        .filter(|&(i, _)| strip_square(&text[i..]).is_some())
        .map(|(i, _)| i)
        .next_back()
}

/// Reads what follows the destination square: nothing, or a promotion piece
/// written `=Q`, `Q`, `/Q` or `(Q)` in the given language.
///
/// The error is a reason in plain English.
pub(crate) fn read_promotion(rest: &str, language: Language) -> Result<Option<Role>, String> {
    if rest.is_empty() {
        return Ok(None);
    }
    let unexpected = || format!("unexpected '{rest}' after the destination square");
    let (inner, bracketed) = match rest.strip_prefix('(') {
        Some(inner) => (inner, true),
        None => (rest.strip_prefix(['=', '/']).unwrap_or(rest), false),
    };
    let (role, after) = language.strip_piece(inner).ok_or_else(unexpected)?;
    let after = if bracketed {
        after.strip_prefix(')').ok_or_else(unexpected)?
    } else {
        after
    };
    if !after.is_empty() {
        return Err(unexpected());
    }
    if role == Role::King {
        return Err("a pawn cannot promote to a king".to_owned());
    }
    Ok(Some(role))
}

/// Appends a promotion in the given style.
pub(crate) fn push_promotion(out: &mut String, role: Role, color: Color, style: &SanStyle) {
    if style.promotion == PromotionStyle::Equals {
        out.push('=');
    }
    out.push_str(style.language.letter(role, color));
}

/// Appends a square such as `e4`.
pub(crate) fn push_square(out: &mut String, square: Square) {
    out.push(square.file().char());
    out.push(square.rank().char());
}

/// `+` if the move gives check, `#` if it mates, else nothing.
pub(crate) fn check_mark(pos: &Chess, m: Move) -> &'static str {
    match pos.clone().play(m) {
        Ok(after) => suffix_text(Suffix::from_position(&after)),
        Err(_) => "",
    }
}

/// The text of a check or mate suffix.
pub(crate) const fn suffix_text(suffix: Option<Suffix>) -> &'static str {
    match suffix {
        Some(Suffix::Check) => "+",
        Some(Suffix::Checkmate) => "#",
        None => "",
    }
}

/// The English name of a piece, for messages.
pub(crate) const fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The square the king lands on when castling.
pub(crate) fn king_destination(king: Square, rook: Square) -> Square {
    let side = CastlingSide::from_king_side(king < rook);
    Square::from_coords(side.king_to_file(), king.rank())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_stripped() {
        let plain = |text| Body {
            text,
            en_passant: false,
        };
        let ep = |text| Body {
            text,
            en_passant: true,
        };
        assert_eq!(strip_marks("Nf3"), plain("Nf3"));
        assert_eq!(strip_marks(" Nf3+!? "), plain("Nf3"));
        assert_eq!(strip_marks("Qh7#"), plain("Qh7"));
        assert_eq!(strip_marks("e4??"), plain("e4"));
        assert_eq!(strip_marks("exd6 e.p."), ep("exd6"));
        assert_eq!(strip_marks("exd6e.p.+"), ep("exd6"));
        assert_eq!(strip_marks("exd6+ e.p."), ep("exd6"));
        assert_eq!(strip_marks(""), plain(""));
    }

    #[test]
    fn promotions_in_every_form() {
        for text in ["=Q", "Q", "/Q", "(Q)"] {
            assert_eq!(
                read_promotion(text, Language::English),
                Ok(Some(Role::Queen))
            );
        }
        assert_eq!(read_promotion("", Language::English), Ok(None));
        assert_eq!(
            read_promotion("=D", Language::German),
            Ok(Some(Role::Queen))
        );
        assert!(read_promotion("=K", Language::English).is_err());
        assert!(read_promotion("(Q", Language::English).is_err());
        assert!(read_promotion("=Qx", Language::English).is_err());
        assert!(read_promotion("=D", Language::English).is_err());
    }

    #[test]
    fn squares() {
        assert_eq!(strip_square("e4x"), Some((Square::E4, "x")));
        assert_eq!(strip_square("i4"), None);
        assert_eq!(last_square_index("Ng1f3"), Some(3));
        assert_eq!(last_square_index("Кр"), None);
        assert_eq!(king_destination(Square::G1, Square::H1), Square::G1);
        assert_eq!(king_destination(Square::B8, Square::A8), Square::C8);
    }
}
