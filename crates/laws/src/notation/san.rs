//! Standard algebraic notation (FIDE Laws, Appendix C), in any language.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role};

use super::{
    error::NotationError,
    language::Language,
    resolve::{Pattern, PiecePattern, resolve},
    style::SanStyle,
    text::{
        castling, castling_text, last_square_index, push_promotion, push_square, read_promotion,
        strip_marks, strip_square, strip_with, suffix_text,
    },
};

/// [`SanPlus::from_move`], the same SAN and suffix, with the position
/// after the move searched for a legal move only when it is check (a
/// checkmate needs a check): shakmaty's suffix asks for the position's
/// whole outcome, all its legal moves, after every move written.
fn san_plus(pos: &Chess, m: Move) -> SanPlus {
    let moves = match m {
        Move::Normal { role, to, .. } | Move::Put { role, to } => pos.san_candidates(role, to),
        Move::EnPassant { to, .. } => pos.san_candidates(Role::Pawn, to),
        Move::Castle { king, rook } if king.file() < rook.file() => {
            pos.castling_moves(CastlingSide::KingSide)
        }
        Move::Castle { .. } => pos.castling_moves(CastlingSide::QueenSide),
    };
    let suffix = moves.contains(&m).then(|| {
        let mut after = pos.clone();
        after.play_unchecked(m);
        if !after.checkers().any() {
            None
        } else if after.legal_moves().is_empty() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        }
    });
    SanPlus {
        san: San::disambiguate(m, &moves),
        suffix: suffix.flatten(),
    }
}

/// Writes a move in short algebraic notation, with `+` or `#` if it gives
/// check or mate.
///
/// Disambiguation is by file first, then rank, then both, as in the FIDE
/// Laws, Appendix C. The move should be legal in `pos`; for an illegal move
/// the text is a best effort and never panics.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, SanStyle, read_san, write_san};
/// use shakmaty::Chess;
///
/// let pos = Chess::default();
/// let m = read_san(&pos, "Nf3", Language::English)?;
/// assert_eq!(write_san(&pos, m, &SanStyle::default()), "Nf3");
/// assert_eq!(write_san(&pos, m, &SanStyle::in_language(Language::German)), "Sf3");
/// assert_eq!(write_san(&pos, m, &SanStyle::in_language(Language::Figurine)), "♘f3");
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn write_san(pos: &Chess, m: Move, style: &SanStyle) -> String {
    let color = pos.turn();
    let plus = san_plus(pos, m);
    let mut out = String::new();
    match plus.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            out.push_str(style.language.letter(role, color));
            if let Some(file) = file {
                out.push(file.char());
            }
            if let Some(rank) = rank {
                out.push(rank.char());
            }
            if capture {
                out.push('x');
            }
            push_square(&mut out, to);
            if let Some(promotion) = promotion {
                push_promotion(&mut out, promotion, color, style);
            }
        }
        San::Castle(side) => out.push_str(castling_text(side)),
        San::Put { role, to } => {
            out.push_str(style.language.letter(role, color));
            out.push('@');
            push_square(&mut out, to);
        }
        San::Null => out.push_str("--"),
    }
    if style.en_passant_suffix && m.is_en_passant() {
        out.push_str(" e.p.");
    }
    out.push_str(suffix_text(plus.suffix));
    out
}

/// Reads a move in short algebraic notation as people write it, with piece
/// letters of `language`.
///
/// Accepted: `Nf3`, `Nxf3`, `N1f3`, `Ng1f3`, `exd6`, `exd6 e.p.`, `e8=Q`,
/// `e8Q`, `e8/Q`, `e8(Q)`, `O-O`, `0-0`, `O-O-O`, `0-0-0` (also in Chess960),
/// `:` for `x`, and trailing `+ # ! ? !! ?? !? ?!`. Check marks are not
/// verified. A capture must be marked with `x` (or `:`), and a pawn capture
/// such as `ed6` without it is not accepted.
///
/// # Errors
///
/// [`NotationError`] if the text is not SAN, names no legal move, names
/// several, or names a move of the side not to move.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, read_san};
/// use shakmaty::{Chess, Square};
///
/// let pos = Chess::default();
/// let m = read_san(&pos, "Jf3", Language::Slovak)?;
/// assert_eq!(m.from(), Some(Square::G1));
/// assert!(read_san(&pos, "Jf3", Language::English).is_err());
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn read_san(pos: &Chess, text: &str, language: Language) -> Result<Move, NotationError> {
    let text = text.trim();
    let pattern = parse_san(text, language)?;
    resolve(pos, text, &pattern)
}

/// Parses SAN text (already trimmed) into a pattern.
fn parse_san(text: &str, language: Language) -> Result<Pattern, NotationError> {
    let body = strip_marks(text);
    if body.text.is_empty() {
        return Err(NotationError::unparseable(text, "there is no move"));
    }
    if let Some(side) = castling(body.text) {
        return castle_pattern(text, side, body.en_passant);
    }
    let (role, rest) = language
        .strip_piece(body.text)
        .unwrap_or((Role::Pawn, body.text));
    let index = last_square_index(rest).ok_or_else(|| {
        NotationError::unparseable(text, "expected a destination square such as 'e4'")
    })?;
    let (before, from_to) = rest.split_at(index);
    let (to, after) = strip_square(from_to).ok_or_else(|| {
        NotationError::unparseable(text, "expected a destination square such as 'e4'")
    })?;
    let promotion = read_promotion(after, language)
        .map_err(|reason| NotationError::unparseable(text, reason))?;
    let (file, rest) = split_option(before, File::from_char);
    let (rank, rest) = split_option(rest, Rank::from_char);
    let (capture, rest) = match rest.strip_prefix(['x', ':']) {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    if !rest.is_empty() {
        return Err(NotationError::unparseable(
            text,
            format!("unexpected '{before}' before the destination square"),
        ));
    }
    Ok(Pattern::Piece(PiecePattern {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
        en_passant: body.en_passant,
    }))
}

/// A castling pattern; castling cannot carry an `e.p.` mark.
pub(crate) fn castle_pattern(
    text: &str,
    side: CastlingSide,
    en_passant: bool,
) -> Result<Pattern, NotationError> {
    if en_passant {
        Err(NotationError::unparseable(
            text,
            "castling is not an en passant capture",
        ))
    } else {
        Ok(Pattern::Castle(side))
    }
}

/// Reads an optional character with `f`.
fn split_option<T>(text: &str, f: impl Fn(char) -> Option<T>) -> (Option<T>, &str) {
    match strip_with(text, f) {
        Some((value, rest)) => (Some(value), rest),
        None => (None, text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::PromotionStyle;
    use shakmaty::{CastlingMode, Square, fen::Fen};

    /// C.10 (`+` for check, `#` for checkmate): the suffix found only in
    /// checks is shakmaty's, and so is the SAN, over every move of 300
    /// games of random legal moves (mates, stalemates, promotions,
    /// castling and en passant among them).
    #[test]
    fn art_c_10_san_and_suffix_as_shakmaty_writes_them() {
        let mut seed: u64 = 1;
        let mut mates = 0;
        for _ in 0..300 {
            let mut pos = Chess::default();
            for _ in 0..300 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for m in &legal {
                    let ours = san_plus(&pos, *m);
                    assert_eq!(ours, SanPlus::from_move(pos.clone(), *m));
                    mates += usize::from(ours.suffix == Some(Suffix::Checkmate));
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pos.play_unchecked(legal[(seed >> 33) as usize % legal.len()]);
            }
        }
        assert!(mates > 0, "some move gave mate");
    }

    fn pos(fen: &str) -> Chess {
        pos_in(fen, CastlingMode::Standard)
    }

    fn pos_in(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(mode)
            .expect("legal position")
    }

    /// Reads `text` and writes it back in the same language, default style.
    fn round(pos: &Chess, text: &str, language: Language) -> String {
        let m = read_san(pos, text, language).expect("readable move");
        write_san(pos, m, &SanStyle::in_language(language))
    }

    fn from_to(m: Result<Move, NotationError>) -> Option<(Square, Square)> {
        m.ok().and_then(|m| Some((m.from()?, m.to())))
    }

    const ITALIAN_GAME: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";

    #[test]
    fn each_language_reads_and_writes() {
        let start = Chess::default();
        assert_eq!(round(&start, "Nf3", Language::English), "Nf3");
        assert_eq!(round(&start, "Jf3", Language::Slovak), "Jf3");
        assert_eq!(round(&start, "Jf3", Language::Czech), "Jf3");
        assert_eq!(round(&start, "Sf3", Language::German), "Sf3");
        assert_eq!(round(&start, "Cf3", Language::French), "Cf3");
        assert_eq!(round(&start, "Cf3", Language::Spanish), "Cf3");
        assert_eq!(round(&start, "Cf3", Language::Italian), "Cf3");
        assert_eq!(round(&start, "Pf3", Language::Dutch), "Pf3");
        assert_eq!(round(&start, "Sf3", Language::Polish), "Sf3");
        assert_eq!(round(&start, "Hf3", Language::Hungarian), "Hf3");
        assert_eq!(round(&start, "Кf3", Language::Russian), "Кf3");
        assert_eq!(round(&start, "♘f3", Language::Figurine), "♘f3");
        assert_eq!(round(&start, "♞f3", Language::Figurine), "♘f3");

        // Queen takes queen with check on the open d-file.
        let queens = pos("rnbqkbnr/ppp2ppp/8/8/8/8/PPP2PPP/RNBQKBNR w KQkq - 0 5");
        assert_eq!(round(&queens, "Dxd8+", Language::Czech), "Dxd8+");
        assert_eq!(round(&queens, "Hxd8+", Language::Polish), "Hxd8+");
        assert_eq!(round(&queens, "Фxd8+", Language::Russian), "Фxd8+");
        assert_eq!(round(&queens, "Vxd8+", Language::Hungarian), "Vxd8+");

        let bishop = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        assert_eq!(round(&bishop, "Gb5", Language::Polish), "Gb5");
        assert_eq!(round(&bishop, "Sb5", Language::Slovak), "Sb5");
        assert_eq!(round(&bishop, "Lb5", Language::German), "Lb5");
        assert_eq!(round(&bishop, "Fb5", Language::French), "Fb5");
        assert_eq!(round(&bishop, "Ab5", Language::Spanish), "Ab5");
        assert_eq!(round(&bishop, "Fb5", Language::Hungarian), "Fb5");
        assert_eq!(round(&bishop, "Сb5", Language::Russian), "Сb5");
        assert_eq!(round(&bishop, "♗b5", Language::Figurine), "♗b5");

        let king = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(round(&king, "Крe2", Language::Russian), "Крe2");
        assert_eq!(round(&king, "Re2", Language::French), "Re2");
        assert_eq!(round(&king, "Ke2", Language::Dutch), "Ke2");

        let black = pos(ITALIAN_GAME);
        assert_eq!(round(&black, "♞f6", Language::Figurine), "♞f6");
        assert_eq!(round(&black, "♘f6", Language::Figurine), "♞f6");
    }

    #[test]
    fn letters_are_exact_to_the_language() {
        let bishop = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        // Slovak S is a bishop; Polish S is a knight.
        assert_eq!(
            from_to(read_san(&bishop, "Sb5", Language::Slovak)),
            Some((Square::F1, Square::B5))
        );
        assert!(read_san(&bishop, "Sb5", Language::Polish).is_err());
        assert!(read_san(&bishop, "Bb5", Language::Slovak).is_err());
        assert!(read_san(&bishop, "Lb5", Language::English).is_err());
    }

    #[test]
    fn disambiguation_by_file_rank_and_both() {
        // Knights on b1 and f3 both reach d2: file.
        let file = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(round(&file, "Nbd2", Language::English), "Nbd2");
        assert_eq!(round(&file, "Nfd2", Language::English), "Nfd2");
        assert!(matches!(
            read_san(&file, "Nd2", Language::English),
            Err(NotationError::Ambiguous { ref candidates, .. }) if candidates.len() == 2
        ));
        // Rooks on a1 and a5 both reach a3: rank.
        let rank = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(round(&rank, "R1a3", Language::English), "R1a3");
        assert_eq!(round(&rank, "R5a3", Language::English), "R5a3");
        assert_eq!(round(&rank, "T5a3", Language::German), "T5a3");
        // Queens on a1, a3 and c1 all reach b2: a1 needs file and rank.
        let both = pos("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        assert_eq!(round(&both, "Qa1b2", Language::English), "Qa1b2");
        assert_eq!(round(&both, "Qcb2", Language::English), "Qcb2");
        assert_eq!(round(&both, "Q3b2", Language::English), "Q3b2");
        // The knight on c3 is pinned, so Ne2 and Ne4 need no disambiguation.
        let pinned = pos("4k3/8/8/b7/8/2N3N1/8/4K3 w - - 0 1");
        assert_eq!(round(&pinned, "Ne4", Language::English), "Ne4");
        let m = read_san(&pinned, "Ne2", Language::English).expect("legal");
        assert_eq!(m.from(), Some(Square::G3));
        assert_eq!(write_san(&pinned, m, &SanStyle::default()), "Ne2");
        assert!(matches!(
            read_san(&pinned, "Nce2", Language::English),
            Err(NotationError::Illegal { .. })
        ));
    }

    #[test]
    fn en_passant_forms() {
        let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
        for text in ["exd6", "exd6 e.p.", "exd6e.p.", "e5xd6", "e:d6"] {
            let m = read_san(&ep, text, Language::English).expect(text);
            assert!(m.is_en_passant(), "{text}");
        }
        let m = read_san(&ep, "exd6", Language::English).expect("legal");
        assert_eq!(write_san(&ep, m, &SanStyle::default()), "exd6");
        let style = SanStyle {
            en_passant_suffix: true,
            ..SanStyle::default()
        };
        assert_eq!(write_san(&ep, m, &style), "exd6 e.p.");
        assert!(matches!(
            read_san(&ep, "exf6", Language::English),
            Err(NotationError::Illegal { .. })
        ));
        let not_ep = pos("4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            read_san(&not_ep, "exd6 e.p.", Language::English).map_err(|e| e.to_string()),
            Err("illegal move 'exd6 e.p.': the capture on d6 is not en passant".to_owned())
        );
        // A pawn capture must say so.
        assert!(matches!(
            read_san(&not_ep, "ed6", Language::English),
            Err(NotationError::Illegal { .. })
        ));
    }

    #[test]
    fn promotion_forms() {
        let promo = pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
        for (text, role) in [
            ("e8=Q+", Role::Queen),
            ("e8Q+", Role::Queen),
            ("e8/Q", Role::Queen),
            ("e8(Q)", Role::Queen),
            ("e8=R+", Role::Rook),
            ("e8B", Role::Bishop),
            ("e8=N", Role::Knight),
            ("exd8=N", Role::Knight),
        ] {
            let m = read_san(&promo, text, Language::English).expect(text);
            assert_eq!(m.promotion(), Some(role), "{text}");
        }
        let m = read_san(&promo, "exd8=Q", Language::English).expect("legal");
        assert_eq!(write_san(&promo, m, &SanStyle::default()), "exd8=Q+");
        let bare = SanStyle {
            promotion: PromotionStyle::Bare,
            ..SanStyle::default()
        };
        assert_eq!(write_san(&promo, m, &bare), "exd8Q+");
        let german = SanStyle {
            language: Language::German,
            promotion: PromotionStyle::Bare,
            en_passant_suffix: false,
        };
        assert_eq!(write_san(&promo, m, &german), "exd8D+");
        let figurine = SanStyle::in_language(Language::Figurine);
        assert_eq!(write_san(&promo, m, &figurine), "exd8=♕+");
        assert_eq!(read_san(&promo, "exd8=♕", Language::Figurine), Ok(m));
        // Without a piece the promotion is ambiguous.
        assert!(matches!(
            read_san(&promo, "e8", Language::English),
            Err(NotationError::Ambiguous { ref candidates, .. }) if candidates.len() == 4
        ));
        assert!(matches!(
            read_san(&promo, "e8=K", Language::English),
            Err(NotationError::Unparseable { .. })
        ));
    }

    #[test]
    fn castling_forms_and_chess960() {
        let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, side) in [
            ("O-O", CastlingSide::KingSide),
            ("0-0", CastlingSide::KingSide),
            ("O-O+", CastlingSide::KingSide),
            ("O-O-O", CastlingSide::QueenSide),
            ("0-0-0", CastlingSide::QueenSide),
        ] {
            let m = read_san(&castle, text, Language::English).expect(text);
            assert_eq!(m.castling_side(), Some(side));
        }
        let m = read_san(&castle, "0-0-0", Language::English).expect("legal");
        assert_eq!(write_san(&castle, m, &SanStyle::default()), "O-O-O");

        let c960 = pos_in(
            "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
            CastlingMode::Chess960,
        );
        let short = read_san(&c960, "O-O", Language::English).expect("legal");
        assert_eq!(
            short,
            Move::Castle {
                king: Square::G1,
                rook: Square::H1
            }
        );
        assert_eq!(write_san(&c960, short, &SanStyle::default()), "O-O");
        let long = read_san(&c960, "0-0-0", Language::English).expect("legal");
        assert_eq!(
            long,
            Move::Castle {
                king: Square::G1,
                rook: Square::B1
            }
        );
        assert_eq!(write_san(&c960, long, &SanStyle::default()), "O-O-O");
    }

    #[test]
    fn annotations_are_ignored() {
        let start = Chess::default();
        for text in ["e4!", "e4?", "e4!!", "e4??", "e4!?", "e4?!", " e4 "] {
            let m = read_san(&start, text, Language::English).expect(text);
            assert_eq!(m.to(), Square::E4);
        }
    }

    #[test]
    fn errors() {
        let start = Chess::default();
        assert_eq!(
            read_san(&start, "Nf6", Language::English),
            Err(NotationError::WrongSide { text: "Nf6".into() })
        );
        assert_eq!(
            read_san(&start, "Nd4", Language::English).map_err(|e| e.to_string()),
            Err("illegal move 'Nd4': no knight can reach d4".to_owned())
        );
        assert_eq!(
            read_san(&start, "Nxf3", Language::English).map_err(|e| e.to_string()),
            Err("illegal move 'Nxf3': the move to f3 is not a capture".to_owned())
        );
        assert!(matches!(
            read_san(&start, "Nbf3", Language::English),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            read_san(&start, "Ng1f3", Language::English),
            Ok(Move::Normal { .. })
        ));
        for text in ["", "Z", "Nf", "N?f3", "exd6x", "O-O e.p.", "Kr", "e4=Q=Q"] {
            assert!(
                matches!(
                    read_san(&start, text, Language::English),
                    Err(NotationError::Unparseable { .. })
                ),
                "{text}"
            );
        }
    }
}
