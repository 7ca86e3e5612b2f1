//! Reading a move in whatever notation it was written.

use shakmaty::{CastlingMode, Chess, Move};

use super::{
    error::NotationError, lan::read_lan, language::Language, numeric::read_numeric, san::read_san,
    uci::parse_uci, uci::read_uci,
};

/// Reads a move written in UCI, ICCF numeric, SAN or long algebraic
/// notation. Piece letters must be those of `language` (UCI and numeric
/// notation have none). Surrounding whitespace is ignored.
///
/// Text that looks like UCI (`e2e4`, `e7e8q`) is read as UCI with castling
/// in `mode`; text of only digits as ICCF numeric; anything else as SAN, and
/// if it is not SAN, as long algebraic notation.
///
/// # Errors
///
/// [`NotationError`] from the notation the text was read in; when it is
/// neither SAN nor long algebraic notation, the SAN error.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, read_move};
/// use shakmaty::{CastlingMode, Chess, Square};
///
/// let pos = Chess::default();
/// for text in ["Nf3", "Ng1-f3", "g1f3", "7163", " Sf3 "] {
///     let language = if text.contains('S') { Language::German } else { Language::English };
///     let m = read_move(&pos, text, language, CastlingMode::Standard)?;
///     assert_eq!(m.to(), Square::F3);
/// }
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn read_move(
    pos: &Chess,
    text: &str,
    language: Language,
    mode: CastlingMode,
) -> Result<Move, NotationError> {
    let text = text.trim();
    if parse_uci(text).is_ok() {
        return read_uci(pos, text, mode);
    }
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        return read_numeric(pos, text);
    }
    match read_san(pos, text, language) {
        Err(san_error @ NotationError::Unparseable { .. }) => match read_lan(pos, text, language) {
            Err(NotationError::Unparseable { .. }) => Err(san_error),
            lan => lan,
        },
        san => san,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Square, fen::Fen};

    fn pos(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(mode)
            .expect("legal position")
    }

    #[test]
    fn every_notation() {
        let start = Chess::default();
        let read = |text, language| read_move(&start, text, language, CastlingMode::Standard);
        for text in ["e4", "e2-e4", "e2e4", "5254", "  e4!  "] {
            assert_eq!(
                read(text, Language::English).map(|m| m.to()),
                Ok(Square::E4)
            );
        }
        assert_eq!(
            read("Jf3", Language::Slovak).map(|m| m.to()),
            Ok(Square::F3)
        );
        assert_eq!(
            read("Jg1-f3", Language::Czech).map(|m| m.to()),
            Ok(Square::F3)
        );
        // Exactly the given language: no English fallback.
        assert!(read("Nf3", Language::German).is_err());
        assert!(matches!(
            read("xyz", Language::English),
            Err(NotationError::Unparseable { .. })
        ));
        assert!(matches!(
            read("", Language::English),
            Err(NotationError::Unparseable { .. })
        ));
        assert!(matches!(
            read("Ng1-e2", Language::English),
            Err(NotationError::Illegal { .. })
        ));
        assert_eq!(
            read("e7e5", Language::English),
            Err(NotationError::wrong_side("e7e5"))
        );
    }

    #[test]
    fn chess960_castling_everywhere() {
        let c960 = pos(
            "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
            CastlingMode::Chess960,
        );
        let long = Move::Castle {
            king: Square::G1,
            rook: Square::B1,
        };
        for text in ["O-O-O", "0-0-0", "g1b1", "g1c1", "7131"] {
            assert_eq!(
                read_move(&c960, text, Language::English, CastlingMode::Chess960),
                Ok(long),
                "{text}"
            );
        }
    }
}
