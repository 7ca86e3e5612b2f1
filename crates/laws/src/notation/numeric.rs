//! ICCF numeric notation (ICCF rules, Appendix A.14–A.20).
//!
//! Files a..h and ranks 1..8 are the digits 1..8; a move is the from-square
//! then the destination, e.g. `5254` for 1. e4. Castling is the king's move
//! (`5171`, `5131`, `5878`, `5838`); a promotion adds a fifth digit, 1 = queen,
//! 2 = rook, 3 = bishop, 4 = knight.

use shakmaty::{Chess, File, Move, Position, Rank, Role, Square};

use super::{
    error::NotationError,
    resolve::{by_promotion, check_from_square},
    text::{king_destination, role_name},
};

/// Writes a move in ICCF numeric notation.
///
/// Castling is written as the king's from-square and the square it lands on
/// (in Chess960 too). Only in the rare Chess960 position where an ordinary
/// king move joins the same two squares (king on f1, castling to g1) is
/// castling written as the king's square and its rook's square, so that
/// the text stays unambiguous. A drop (not part of chess) gives an empty
/// string.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, read_san, write_numeric};
/// use shakmaty::Chess;
///
/// let pos = Chess::default();
/// let m = read_san(&pos, "Nf3", Language::English)?;
/// assert_eq!(write_numeric(&pos, m), "7163");
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn write_numeric(pos: &Chess, m: Move) -> String {
    let mut out = String::new();
    match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => {
            push(&mut out, from);
            push(&mut out, to);
            if let Some(digit) = promotion.and_then(promotion_digit) {
                out.push(digit);
            }
        }
        Move::EnPassant { from, to } => {
            push(&mut out, from);
            push(&mut out, to);
        }
        Move::Castle { king, rook } => {
            let landing = king_destination(king, rook);
            let clash = pos
                .legal_moves()
                .iter()
                .any(|&n| !n.is_castle() && n.from() == Some(king) && n.to() == landing);
            push(&mut out, king);
            push(&mut out, if clash { rook } else { landing });
        }
        Move::Put { .. } => {}
    }
    out
}

/// Reads a move in ICCF numeric notation: four digits, or five for a
/// promotion. Castling may also be written king onto rook (as
/// [`write_numeric`] does when needed in Chess960).
///
/// # Errors
///
/// [`NotationError`] if the text is not numeric notation or does not name
/// exactly one legal move of the side to move.
///
/// # Examples
///
/// ```
/// use rochade_laws::read_numeric;
/// use shakmaty::{Chess, Square};
///
/// let m = read_numeric(&Chess::default(), "5254")?;
/// assert_eq!((m.from(), m.to()), (Some(Square::E2), Square::E4));
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn read_numeric(pos: &Chess, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    let (from, to, promotion) = parse_numeric(text)?;
    check_from_square(pos, text, from, None)?;
    let legal = pos.legal_moves();
    let onto_rook: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            m == Move::Castle {
                king: from,
                rook: to,
            }
        })
        .collect();
    let ordinary: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| !m.is_castle() && m.from() == Some(from) && m.to() == to)
        .collect();
    let landing: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| match m {
            Move::Castle { king, rook } => king == from && king_destination(king, rook) == to,
            _ => false,
        })
        .collect();
    let moves = [onto_rook, ordinary, landing]
        .into_iter()
        .find(|moves| !moves.is_empty())
        .ok_or_else(|| {
            let role = pos.board().role_at(from).map_or("piece", role_name);
            NotationError::illegal(text, format!("the {role} on {from} cannot move to {to}"))
        })?;
    by_promotion(pos, text, (from, to), promotion, moves)
}

/// Parses four or five digits into from, to and promotion.
fn parse_numeric(text: &str) -> Result<(Square, Square, Option<Role>), NotationError> {
    let bad = |reason: &str| NotationError::unparseable(text, reason);
    let digits: Vec<u32> = text
        .chars()
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("numeric notation has only digits, such as '5254'"))?;
    let (squares, promotion) = match digits.as_slice() {
        [a, b, c, d] => ([*a, *b, *c, *d], None),
        [a, b, c, d, p] => ([*a, *b, *c, *d], Some(*p)),
        _ => {
            return Err(bad(
                "numeric notation has four digits, or five for a promotion",
            ));
        }
    };
    if squares.iter().any(|d| !(1..=8).contains(d)) {
        return Err(bad("files and ranks are the digits 1 to 8"));
    }
    let square = |f: u32, r: u32| Square::from_coords(File::new(f - 1), Rank::new(r - 1));
    let promotion = match promotion {
        None => None,
        Some(1) => Some(Role::Queen),
        Some(2) => Some(Role::Rook),
        Some(3) => Some(Role::Bishop),
        Some(4) => Some(Role::Knight),
        Some(_) => {
            return Err(bad(
                "the promotion digit is 1 (queen), 2 (rook), 3 (bishop) or 4 (knight)",
            ));
        }
    };
    Ok((
        square(squares[0], squares[1]),
        square(squares[2], squares[3]),
        promotion,
    ))
}

fn push(out: &mut String, square: Square) {
    for n in [square.file().to_u32(), square.rank().to_u32()] {
        if let Some(digit) = char::from_digit(n + 1, 10) {
            out.push(digit);
        }
    }
}

const fn promotion_digit(role: Role) -> Option<char> {
    match role {
        Role::Queen => Some('1'),
        Role::Rook => Some('2'),
        Role::Bishop => Some('3'),
        Role::Knight => Some('4'),
        Role::Pawn | Role::King => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(mode)
            .expect("legal position")
    }

    fn round(pos: &Chess, text: &str) -> (Move, String) {
        let m = read_numeric(pos, text).expect(text);
        (m, write_numeric(pos, m))
    }

    #[test]
    fn ordinary_moves() {
        let start = Chess::default();
        assert_eq!(round(&start, "5254").1, "5254");
        let (m, text) = round(&start, "7163");
        assert_eq!(text, "7163");
        assert_eq!(m.role(), Role::Knight);
    }

    #[test]
    fn castling() {
        let white = pos(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        );
        let (m, text) = round(&white, "5171");
        assert_eq!((m.castling_side().is_some(), text.as_str()), (true, "5171"));
        assert_eq!(round(&white, "5131").1, "5131");
        let black = pos(
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            CastlingMode::Standard,
        );
        assert_eq!(round(&black, "5878").1, "5878");
        assert_eq!(round(&black, "5838").1, "5838");
        assert!(round(&black, "5838").0.is_castle());
    }

    #[test]
    fn promotion_to_each_piece() {
        let promo = pos("8/5P1k/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard);
        for (text, role) in [
            ("67681", Role::Queen),
            ("67682", Role::Rook),
            ("67683", Role::Bishop),
            ("67684", Role::Knight),
        ] {
            let (m, written) = round(&promo, text);
            assert_eq!(m.promotion(), Some(role));
            assert_eq!(written, text);
        }
        assert!(matches!(
            read_numeric(&promo, "6768"),
            Err(NotationError::Ambiguous { ref candidates, .. }) if candidates.len() == 4
        ));
    }

    #[test]
    fn chess960_castling() {
        // King g1, rooks b1 and h1: O-O leaves the king on g1, O-O-O lands on c1.
        let c960 = pos(
            "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
            CastlingMode::Chess960,
        );
        let (m, text) = round(&c960, "7171");
        assert_eq!(
            (m, text.as_str()),
            (
                Move::Castle {
                    king: Square::G1,
                    rook: Square::H1
                },
                "7171"
            )
        );
        let (m, text) = round(&c960, "7131");
        assert_eq!(
            (m, text.as_str()),
            (
                Move::Castle {
                    king: Square::G1,
                    rook: Square::B1
                },
                "7131"
            )
        );
        // King f1: 6171 is the ordinary king move, so O-O is written 6181.
        let f1 = pos(
            "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1",
            CastlingMode::Chess960,
        );
        let (m, _) = round(&f1, "6171");
        assert!(!m.is_castle());
        let short = Move::Castle {
            king: Square::F1,
            rook: Square::H1,
        };
        assert_eq!(write_numeric(&f1, short), "6181");
        assert_eq!(read_numeric(&f1, "6181"), Ok(short));
        assert_eq!(round(&f1, "6131").1, "6131");
    }

    #[test]
    fn errors() {
        let start = Chess::default();
        assert_eq!(
            read_numeric(&start, "5755"),
            Err(NotationError::wrong_side("5755"))
        );
        assert_eq!(
            read_numeric(&start, "5255").map_err(|e| e.to_string()),
            Err("illegal move '5255': the pawn on e2 cannot move to e5".to_owned())
        );
        assert!(matches!(
            read_numeric(&start, "52541"),
            Err(NotationError::Illegal { .. })
        ));
        for text in [
            "",
            "525",
            "525412",
            "5294",
            "0254",
            "52545",
            "e2e4",
            "５２５４",
        ] {
            assert!(
                matches!(
                    read_numeric(&start, text),
                    Err(NotationError::Unparseable { .. })
                ),
                "{text}"
            );
        }
    }
}
