//! UCI notation: `e2e4`, `e7e8q`, castling as `e1g1` or king onto rook.

use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square, uci::UciMove};

use super::{
    error::NotationError,
    resolve::{by_promotion, check_from_square},
    text::{king_destination, role_name, strip_square, strip_with},
};

/// Writes a move in UCI notation. In [`CastlingMode::Standard`] castling is
/// the king's move (`e1g1`); in [`CastlingMode::Chess960`] it is the king
/// onto its own rook (`e1h1`).
///
/// # Examples
///
/// ```
/// use rochade_laws::write_uci;
/// use shakmaty::{CastlingMode, Move, Square};
///
/// let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
/// assert_eq!(write_uci(castle, CastlingMode::Standard), "e1g1");
/// assert_eq!(write_uci(castle, CastlingMode::Chess960), "e1h1");
/// ```
pub fn write_uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

/// Reads a move in UCI notation.
///
/// Castling is read as written by [`write_uci`] in `mode`. The king onto its
/// own rook (`e1h1`) is accepted in both modes. In Chess960 mode the king
/// onto its castling destination (`e1g1`) is also accepted when that is
/// unambiguous: a castling move lands the king there and no ordinary king
/// move goes from the same square to the same square.
///
/// # Errors
///
/// [`NotationError`] if the text is not UCI or does not name exactly one
/// legal move of the side to move (`e7e5` with White to move is
/// [`NotationError::WrongSide`]).
///
/// # Examples
///
/// ```
/// use rochade_laws::read_uci;
/// use shakmaty::{CastlingMode, Chess, Square};
///
/// let m = read_uci(&Chess::default(), "g1f3", CastlingMode::Standard)?;
/// assert_eq!(m.to(), Square::F3);
/// # Ok::<_, rochade_laws::NotationError>(())
/// ```
pub fn read_uci(pos: &Chess, text: &str, mode: CastlingMode) -> Result<Move, NotationError> {
    let text = text.trim();
    let (from, to, promotion) = parse_uci(text)?;
    check_from_square(pos, text, from, None)?;
    // A move that is not castling: only the moves of the piece on `from`
    // to `to` (a live game reads one a move; all legal moves were most
    // of it). Castling, written either way, is looked for among them all.
    let mut moves: Vec<Move> = match pos.board().role_at(from) {
        Some(role) => pos
            .san_candidates(role, to)
            .iter()
            .copied()
            .filter(|m| m.from() == Some(from))
            .collect(),
        None => Vec::new(),
    };
    if moves.is_empty() {
        // Castling as `mode` writes it first, then the other ways.
        let legal = pos.legal_moves();
        let written = |m: &Move| match UciMove::from_move(*m, mode) {
            UciMove::Normal { from: f, to: t, .. } => f == from && t == to,
            _ => false,
        };
        moves = legal.iter().copied().filter(written).collect();
        if moves.is_empty() {
            moves = legal
                .iter()
                .copied()
                .filter(|&m| match m {
                    Move::Castle { king, rook } if king == from => {
                        rook == to
                            || (mode == CastlingMode::Chess960
                                && from != to
                                && king_destination(king, rook) == to)
                    }
                    _ => false,
                })
                .collect();
        }
    }
    if moves.is_empty() {
        let role = pos.board().role_at(from).map_or("piece", role_name);
        return Err(NotationError::illegal(
            text,
            format!("the {role} on {from} cannot move to {to}"),
        ));
    }
    by_promotion(pos, text, (from, to), promotion, moves)
}

/// Parses `e2e4` or `e7e8q` into from, to and promotion.
pub(crate) fn parse_uci(text: &str) -> Result<(Square, Square, Option<Role>), NotationError> {
    let bad = || NotationError::unparseable(text, "expected UCI such as 'e2e4' or 'e7e8q'");
    let (from, rest) = strip_square(text).ok_or_else(bad)?;
    let (to, rest) = strip_square(rest).ok_or_else(bad)?;
    let (promotion, rest) = match strip_with(rest, promotion_role) {
        Some((role, rest)) => (Some(role), rest),
        None => (None, rest),
    };
    if rest.is_empty() {
        Ok((from, to, promotion))
    } else {
        Err(bad())
    }
}

fn promotion_role(c: char) -> Option<Role> {
    match c.to_ascii_lowercase() {
        'q' => Some(Role::Queen),
        'r' => Some(Role::Rook),
        'b' => Some(Role::Bishop),
        'n' => Some(Role::Knight),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn pos(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(mode)
            .expect("legal position")
    }

    const CASTLE: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const C960: &str = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1";

    #[test]
    fn standard_moves() {
        let start = Chess::default();
        let m = read_uci(&start, "e2e4", CastlingMode::Standard).expect("legal");
        assert_eq!(write_uci(m, CastlingMode::Standard), "e2e4");
        let promo = pos("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard);
        for (text, role) in [
            ("e7e8q", Role::Queen),
            ("e7e8r", Role::Rook),
            ("e7d8b", Role::Bishop),
            ("e7e8N", Role::Knight),
        ] {
            let m = read_uci(&promo, text, CastlingMode::Standard).expect(text);
            assert_eq!(m.promotion(), Some(role));
        }
        let m = read_uci(&promo, "e7e8q", CastlingMode::Standard).expect("legal");
        assert_eq!(write_uci(m, CastlingMode::Standard), "e7e8q");
        assert!(matches!(
            read_uci(&promo, "e7e8", CastlingMode::Standard),
            Err(NotationError::Ambiguous { ref candidates, .. }) if candidates.len() == 4
        ));
    }

    #[test]
    fn castling_in_both_modes() {
        let std = pos(CASTLE, CastlingMode::Standard);
        let short = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(read_uci(&std, "e1g1", CastlingMode::Standard), Ok(short));
        assert_eq!(read_uci(&std, "e1h1", CastlingMode::Standard), Ok(short));
        let c960 = pos(CASTLE, CastlingMode::Chess960);
        assert_eq!(read_uci(&c960, "e1h1", CastlingMode::Chess960), Ok(short));
        assert_eq!(read_uci(&c960, "e1g1", CastlingMode::Chess960), Ok(short));
        assert_eq!(write_uci(short, CastlingMode::Chess960), "e1h1");
    }

    #[test]
    fn chess960_king_onto_rook() {
        let c960 = pos(C960, CastlingMode::Chess960);
        let short = Move::Castle {
            king: Square::G1,
            rook: Square::H1,
        };
        let long = Move::Castle {
            king: Square::G1,
            rook: Square::B1,
        };
        assert_eq!(write_uci(short, CastlingMode::Chess960), "g1h1");
        assert_eq!(write_uci(long, CastlingMode::Chess960), "g1b1");
        assert_eq!(read_uci(&c960, "g1h1", CastlingMode::Chess960), Ok(short));
        assert_eq!(read_uci(&c960, "g1b1", CastlingMode::Chess960), Ok(long));
        // The king lands on c1: unambiguous, as no king move goes g1-c1.
        assert_eq!(read_uci(&c960, "g1c1", CastlingMode::Chess960), Ok(long));
        // King on f1: f1g1 is an ordinary king move, never castling.
        let f1 = pos(
            "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1",
            CastlingMode::Chess960,
        );
        let m = read_uci(&f1, "f1g1", CastlingMode::Chess960).expect("legal");
        assert!(!m.is_castle());
        let m = read_uci(&f1, "f1h1", CastlingMode::Chess960).expect("legal");
        assert!(m.is_castle());
    }

    #[test]
    fn errors() {
        let start = Chess::default();
        assert_eq!(
            read_uci(&start, "e7e5", CastlingMode::Standard),
            Err(NotationError::wrong_side("e7e5"))
        );
        assert_eq!(
            read_uci(&start, "e2e5", CastlingMode::Standard).map_err(|e| e.to_string()),
            Err("illegal move 'e2e5': the pawn on e2 cannot move to e5".to_owned())
        );
        assert!(matches!(
            read_uci(&start, "e2e4q", CastlingMode::Standard),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            read_uci(&start, "e3e4", CastlingMode::Standard),
            Err(NotationError::Illegal { .. })
        ));
        for text in ["", "e2", "e2e", "e2e4x", "e2e4qq", "i2i4", "0000"] {
            assert!(
                matches!(
                    read_uci(&start, text, CastlingMode::Standard),
                    Err(NotationError::Unparseable { .. })
                ),
                "{text}"
            );
        }
    }
}
