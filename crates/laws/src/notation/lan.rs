//! Long algebraic notation: `e2-e4`, `Ng1-f3`, `Bf1xb5+`, `e7-e8=Q`, `O-O`.

use shakmaty::{Chess, Move, Position};

use super::{
    error::NotationError,
    language::Language,
    resolve::{Pattern, PiecePattern, resolve},
    san::castle_pattern,
    style::SanStyle,
    text::{
        castling, castling_text, check_mark, push_promotion, push_square, read_promotion,
        strip_marks, strip_square,
    },
};

/// Writes a move in long algebraic notation: piece letter, from-square,
/// `-` or `x`, destination, promotion, then `+` or `#`.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, SanStyle, read_san, write_lan};
/// use shakmaty::Chess;
///
/// let pos = Chess::default();
/// let m = read_san(&pos, "Nf3", Language::English)?;
/// assert_eq!(write_lan(&pos, m, &SanStyle::default()), "Ng1-f3");
/// assert_eq!(write_lan(&pos, m, &SanStyle::in_language(Language::Polish)), "Sg1-f3");
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn write_lan(pos: &Chess, m: Move, style: &SanStyle) -> String {
    let color = pos.turn();
    let mut out = String::new();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            out.push_str(style.language.letter(role, color));
            push_square(&mut out, from);
            out.push(if capture.is_some() { 'x' } else { '-' });
            push_square(&mut out, to);
            if let Some(promotion) = promotion {
                push_promotion(&mut out, promotion, color, style);
            }
        }
        Move::EnPassant { from, to } => {
            push_square(&mut out, from);
            out.push('x');
            push_square(&mut out, to);
            if style.en_passant_suffix {
                out.push_str(" e.p.");
            }
        }
        Move::Castle { king, rook } => {
            if let Some(side) = (Move::Castle { king, rook }).castling_side() {
                out.push_str(castling_text(side));
            }
        }
        Move::Put { role, to } => {
            out.push_str(style.language.letter(role, color));
            out.push('@');
            push_square(&mut out, to);
        }
    }
    out.push_str(check_mark(pos, m));
    out
}

/// Reads a move in long algebraic notation with piece letters of
/// `language`: `e2-e4`, `Ng1-f3`, `Bf1xb5+`, `e5xd6 e.p.`, `e7-e8=Q` (or
/// `e7-e8Q`, `e7-e8/Q`, `e7-e8(Q)`), `O-O`, `0-0-0`. `:` is accepted for `x`.
///
/// # Errors
///
/// [`NotationError`] if the text is not long algebraic notation or does not
/// name exactly one legal move of the side to move.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, read_lan};
/// use shakmaty::{Chess, Square};
///
/// let pos = Chess::default();
/// assert_eq!(read_lan(&pos, "Sg1-f3", Language::German)?.to(), Square::F3);
/// assert!(read_lan(&pos, "Ng1-f3", Language::German).is_err());
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn read_lan(pos: &Chess, text: &str, language: Language) -> Result<Move, NotationError> {
    let text = text.trim();
    let pattern = parse_lan(text, language)?;
    resolve(pos, text, &pattern)
}

fn parse_lan(text: &str, language: Language) -> Result<Pattern, NotationError> {
    let body = strip_marks(text);
    if body.text.is_empty() {
        return Err(NotationError::unparseable(text, "there is no move"));
    }
    if let Some(side) = castling(body.text) {
        return castle_pattern(text, side, body.en_passant);
    }
    let (role, rest) = language
        .strip_piece(body.text)
        .unwrap_or((shakmaty::Role::Pawn, body.text));
    let (from, rest) = strip_square(rest).ok_or_else(|| {
        NotationError::unparseable(text, "expected the square the piece leaves, such as 'e2'")
    })?;
    let (capture, rest) = if let Some(rest) = rest.strip_prefix('-') {
        (false, rest)
    } else if let Some(rest) = rest.strip_prefix(['x', ':']) {
        (true, rest)
    } else {
        return Err(NotationError::unparseable(
            text,
            "expected '-' or 'x' between the two squares",
        ));
    };
    let (to, rest) = strip_square(rest).ok_or_else(|| {
        NotationError::unparseable(text, "expected a destination square such as 'e4'")
    })?;
    let promotion = read_promotion(rest, language)
        .map_err(|reason| NotationError::unparseable(text, reason))?;
    Ok(Pattern::Piece(PiecePattern {
        role,
        file: Some(from.file()),
        rank: Some(from.rank()),
        capture,
        to,
        promotion,
        en_passant: body.en_passant,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::PromotionStyle;
    use shakmaty::{CastlingMode, Role, Square, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    fn round(pos: &Chess, text: &str, style: &SanStyle) -> String {
        let m = read_lan(pos, text, style.language).expect(text);
        write_lan(pos, m, style)
    }

    #[test]
    fn writes_and_reads_the_usual_forms() {
        let en = SanStyle::default();
        let start = Chess::default();
        assert_eq!(round(&start, "e2-e4", &en), "e2-e4");
        assert_eq!(round(&start, "Ng1-f3", &en), "Ng1-f3");
        let bishop = pos("r1bqkbnr/pppp1ppp/2n5/1N2p3/4P3/8/PPPP1PPP/R1BQKBNR w KQkq - 0 1");
        assert_eq!(round(&bishop, "Nb5xc7+", &en), "Nb5xc7+");
        assert_eq!(
            round(&bishop, "Sb5:c7+", &SanStyle::in_language(Language::German)),
            "Sb5xc7+"
        );
        let check = pos("rnbqkbnr/ppp2ppp/3p4/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        assert_eq!(round(&check, "Bf1-b5+", &en), "Bf1-b5+");
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(round(&castle, "O-O", &en), "O-O");
        assert_eq!(round(&castle, "0-0-0", &en), "O-O-O");
        assert_eq!(round(&castle, "Ke1-f1", &en), "Ke1-f1");
        assert_eq!(round(&castle, "Ra1xa8+", &en), "Ra1xa8+");
        assert_eq!(
            round(
                &castle,
                "Крe1-d1",
                &SanStyle::in_language(Language::Russian)
            ),
            "Крe1-d1"
        );
    }

    #[test]
    fn promotion_and_en_passant() {
        let promo = pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
        let en = SanStyle::default();
        assert_eq!(round(&promo, "e7-e8=Q+", &en), "e7-e8=Q+");
        assert_eq!(round(&promo, "e7xd8N", &en), "e7xd8=N");
        let bare = SanStyle {
            promotion: PromotionStyle::Bare,
            language: Language::French,
            en_passant_suffix: false,
        };
        assert_eq!(round(&promo, "e7-e8(T)", &bare), "e7-e8T+");
        let m = read_lan(&promo, "e7-e8/F", Language::French).expect("legal");
        assert_eq!(m.promotion(), Some(Role::Bishop));

        let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
        let m = read_lan(&ep, "e5xd6 e.p.", Language::English).expect("legal");
        assert!(m.is_en_passant());
        assert_eq!(write_lan(&ep, m, &en), "e5xd6");
        let style = SanStyle {
            en_passant_suffix: true,
            ..en
        };
        assert_eq!(write_lan(&ep, m, &style), "e5xd6 e.p.");
    }

    #[test]
    fn errors() {
        let start = Chess::default();
        let read = |text| read_lan(&start, text, Language::English);
        assert_eq!(read("e7-e5"), Err(NotationError::wrong_side("e7-e5")));
        assert_eq!(
            read("Ng1-e2").map_err(|e| e.to_string()),
            Err("illegal move 'Ng1-e2': no knight can reach e2".to_owned())
        );
        assert_eq!(
            read("Bg1-f3").map_err(|e| e.to_string()),
            Err("illegal move 'Bg1-f3': the piece on g1 is a knight, not a bishop".to_owned())
        );
        assert_eq!(
            read("e3-e4").map_err(|e| e.to_string()),
            Err("illegal move 'e3-e4': there is no piece on e3".to_owned())
        );
        assert!(matches!(read("Ng1xf3"), Err(NotationError::Illegal { .. })));
        for text in ["", "e2e4", "Ng1", "e2-", "e2-e4-", "Ng1-f3=Q="] {
            assert!(
                matches!(read(text), Err(NotationError::Unparseable { .. })),
                "{text}"
            );
        }
        assert_eq!(read("e2-e4").map(|m| m.to()), Ok(Square::E4));
    }
}
