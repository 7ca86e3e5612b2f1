//! Turning a parsed move pattern into the one legal move it names.

use shakmaty::{
    CastlingSide, Chess, EnPassantMode, File, Move, Piece, Position, Rank, Role, Square, attacks,
    uci::UciMove,
};

use super::{error::NotationError, text::role_name};

/// A move as written in algebraic notation, before it is matched against
/// the legal moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// Any other move.
    Piece(PiecePattern),
}

/// A non-castling move as written: the piece, what is known of its
/// from-square, capture, destination and promotion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PiecePattern {
    pub role: Role,
    pub file: Option<File>,
    pub rank: Option<Rank>,
    pub capture: bool,
    pub to: Square,
    pub promotion: Option<Role>,
    pub en_passant: bool,
}

impl PiecePattern {
    /// Whether `m` moves the right piece from a fitting square to the
    /// destination, ignoring capture and promotion.
    fn reaches(&self, m: Move) -> bool {
        !m.is_castle() && m.role() == self.role && m.to() == self.to && self.fits_from(m)
    }

    fn fits_from(&self, m: Move) -> bool {
        m.from().is_some_and(|from| {
            self.file.is_none_or(|f| f == from.file()) && self.rank.is_none_or(|r| r == from.rank())
        })
    }

    /// `the g-file`, `rank 1` or `g1`, for messages.
    fn origin(&self) -> String {
        match (self.file, self.rank) {
            (Some(f), Some(r)) => Square::from_coords(f, r).to_string(),
            (Some(f), None) => format!("the {}-file", f.char()),
            (None, Some(r)) => format!("rank {}", r.char()),
            (None, None) => String::new(),
        }
    }
}

/// Finds the one legal move named by `pattern`.
pub(crate) fn resolve(pos: &Chess, text: &str, pattern: &Pattern) -> Result<Move, NotationError> {
    match pattern {
        Pattern::Castle(side) => pos.castling_moves(*side).first().copied().ok_or_else(|| {
            let side = match side {
                CastlingSide::KingSide => "kingside",
                CastlingSide::QueenSide => "queenside",
            };
            NotationError::illegal(text, format!("castling {side} is not legal here"))
        }),
        Pattern::Piece(p) => resolve_piece(pos, text, p),
    }
}

fn resolve_piece(pos: &Chess, text: &str, p: &PiecePattern) -> Result<Move, NotationError> {
    if let (Some(file), Some(rank)) = (p.file, p.rank) {
        check_from_square(pos, text, Square::from_coords(file, rank), Some(p.role))?;
    }
    let role = role_name(p.role);
    let to = p.to;
    let legal = pos.legal_moves();
    let reaching: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| !m.is_castle() && m.role() == p.role && m.to() == to)
        .collect();
    if reaching.is_empty() {
        if names_other_side(pos, p) {
            return Err(NotationError::wrong_side(text));
        }
        if let Some(from) = held_by_check(pos, p) {
            let reason = if pos.is_check() {
                format!("the king is in check: the {role} on {from} cannot go to {to}")
            } else {
                format!(
                    "the {role} on {from} cannot go to {to}: that would leave the king in check"
                )
            };
            return Err(NotationError::illegal(text, reason));
        }
        return Err(NotationError::illegal(
            text,
            format!("no {role} can reach {to}"),
        ));
    }
    let moves = narrow(
        reaching,
        |&m| p.fits_from(m),
        || format!("no {role} on {} can reach {to}", p.origin()),
    )
    .map_err(|reason| NotationError::illegal(text, reason))?;
    let moves = narrow(
        moves,
        |m| m.is_capture() == p.capture,
        || {
            if p.capture {
                format!("the move to {to} is not a capture")
            } else {
                format!("the move to {to} is a capture and needs an 'x'")
            }
        },
    )
    .map_err(|reason| NotationError::illegal(text, reason))?;
    let moves = if p.en_passant {
        narrow(
            moves,
            |m| m.is_en_passant(),
            || format!("the capture on {to} is not en passant"),
        )
        .map_err(|reason| NotationError::illegal(text, reason))?
    } else {
        moves
    };
    let moves = match p.promotion {
        Some(promotion) => narrow(
            moves,
            |m| m.promotion() == Some(promotion),
            || format!("the move to {to} is not a promotion"),
        )
        .map_err(|reason| NotationError::illegal(text, reason))?,
        None => prefer_plain(moves),
    };
    unique(pos, text, moves)
}

/// Keeps the moves that pass `keep`; if none do, returns `reason()`.
fn narrow(
    moves: Vec<Move>,
    keep: impl Fn(&Move) -> bool,
    reason: impl FnOnce() -> String,
) -> Result<Vec<Move>, String> {
    let kept: Vec<Move> = moves.into_iter().filter(keep).collect();
    if kept.is_empty() {
        Err(reason())
    } else {
        Ok(kept)
    }
}

/// When no promotion piece was written, keeps the moves without promotion;
/// if there are none, all the promotions remain, so the move is ambiguous.
pub(crate) fn prefer_plain(moves: Vec<Move>) -> Vec<Move> {
    if moves.iter().any(|m| m.promotion().is_none()) {
        moves
            .into_iter()
            .filter(|m| m.promotion().is_none())
            .collect()
    } else {
        moves
    }
}

/// The one move of `moves` (all from `from` to `to`) that carries the
/// written `promotion`; without one, the move that promotes nothing.
pub(crate) fn by_promotion(
    pos: &Chess,
    text: &str,
    (from, to): (Square, Square),
    promotion: Option<Role>,
    moves: Vec<Move>,
) -> Result<Move, NotationError> {
    let moves = match promotion {
        Some(role) => {
            let kept: Vec<Move> = moves
                .into_iter()
                .filter(|m| m.promotion() == Some(role))
                .collect();
            if kept.is_empty() {
                return Err(NotationError::illegal(
                    text,
                    format!("the move from {from} to {to} is not a promotion"),
                ));
            }
            kept
        }
        None => prefer_plain(moves),
    };
    unique(pos, text, moves)
}

/// The one move of `moves`, or an ambiguity error listing them in UCI.
pub(crate) fn unique(pos: &Chess, text: &str, moves: Vec<Move>) -> Result<Move, NotationError> {
    match moves.as_slice() {
        [m] => Ok(*m),
        [] => Err(NotationError::illegal(text, "no legal move matches")),
        _ => {
            let mode = pos.castles().mode();
            Err(NotationError::Ambiguous {
                text: text.to_owned(),
                candidates: moves
                    .iter()
                    .map(|&m| UciMove::from_move(m, mode).to_string())
                    .collect(),
            })
        }
    }
}

/// Checks that `from` holds a piece of the side to move (of `role`, if given).
pub(crate) fn check_from_square(
    pos: &Chess,
    text: &str,
    from: Square,
    role: Option<Role>,
) -> Result<(), NotationError> {
    match pos.board().piece_at(from) {
        None => Err(NotationError::illegal(
            text,
            format!("there is no piece on {from}"),
        )),
        Some(piece) if piece.color != pos.turn() => Err(NotationError::wrong_side(text)),
        Some(piece) => match role {
            Some(role) if role != piece.role => Err(NotationError::illegal(
                text,
                format!(
                    "the piece on {from} is a {}, not a {}",
                    role_name(piece.role),
                    role_name(role)
                ),
            )),
            _ => Ok(()),
        },
    }
}

/// A square of the mover's pieces named by `p` that could go to `p.to` by
/// the way it moves, were its own king not left in check (FIDE 3.9): the
/// piece a player meant when the move is illegal only because of check.
fn held_by_check(pos: &Chess, p: &PiecePattern) -> Option<Square> {
    let board = pos.board();
    let us = pos.turn();
    if board.by_color(us).contains(p.to) {
        return None;
    }
    let piece = Piece {
        color: us,
        role: p.role,
    };
    (board.by_color(us) & board.by_role(p.role))
        .into_iter()
        .filter(|&from| {
            p.file.is_none_or(|f| f == from.file()) && p.rank.is_none_or(|r| r == from.rank())
        })
        .find(|&from| {
            if p.role != Role::Pawn {
                return attacks::attacks(from, piece, board.occupied()).contains(p.to);
            }
            let takes = board.by_color(!us).contains(p.to)
                || pos.ep_square(EnPassantMode::Legal) == Some(p.to)
                || pos.ep_square(EnPassantMode::Always) == Some(p.to);
            if attacks::pawn_attacks(us, from).contains(p.to) {
                return takes;
            }
            let step = if us.is_white() { 8 } else { -8 };
            let free = |sq: Option<Square>| sq.is_some_and(|sq| !board.occupied().contains(sq));
            let one = from.offset(step);
            if one == Some(p.to) {
                return free(one);
            }
            let home = if us.is_white() {
                Rank::Second
            } else {
                Rank::Seventh
            };
            from.rank() == home
                && free(one)
                && from.offset(2 * step) == Some(p.to)
                && free(Some(p.to))
        })
}

/// Whether the pattern would name a move if the other side were to move.
fn names_other_side(pos: &Chess, p: &PiecePattern) -> bool {
    match pos.clone().swap_turn() {
        Ok(swapped) => swapped.legal_moves().iter().any(|&m| p.reaches(m)),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    fn knight_to(to: Square) -> PiecePattern {
        PiecePattern {
            role: Role::Knight,
            file: None,
            rank: None,
            capture: false,
            to,
            promotion: None,
            en_passant: false,
        }
    }

    #[test]
    fn finds_the_move() {
        let m = resolve(
            &Chess::default(),
            "Nf3",
            &Pattern::Piece(knight_to(Square::F3)),
        );
        assert_eq!(m.map(|m| m.from()), Ok(Some(Square::G1)));
    }

    #[test]
    fn other_side_is_reported() {
        let e = resolve(
            &Chess::default(),
            "Nf6",
            &Pattern::Piece(knight_to(Square::F6)),
        );
        assert_eq!(e, Err(NotationError::wrong_side("Nf6")));
    }

    #[test]
    fn from_square_checks() {
        let p = Chess::default();
        assert!(check_from_square(&p, "x", Square::E2, Some(Role::Pawn)).is_ok());
        assert_eq!(
            check_from_square(&p, "x", Square::E7, None),
            Err(NotationError::wrong_side("x"))
        );
        assert!(matches!(
            check_from_square(&p, "x", Square::E4, None),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            check_from_square(&p, "x", Square::E2, Some(Role::Knight)),
            Err(NotationError::Illegal { .. })
        ));
    }

    // FIDE 3.9: a move that leaves the king in check is named as such, not
    // as a piece that cannot reach the square (issue 19).
    #[test]
    fn art_3_9_a_move_into_check_says_so() {
        let in_check = pos("rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2");
        let mut pawn = knight_to(Square::A5);
        pawn.role = Role::Pawn;
        assert_eq!(
            resolve(&in_check, "a5", &Pattern::Piece(pawn)).map_err(|e| e.to_string()),
            Err(
                "illegal move 'a5': the king is in check: the pawn on a7 cannot go to a5"
                    .to_owned()
            )
        );
        let pinned = pos("4k3/8/8/8/8/8/3N4/r2K4 w - - 0 1");
        assert_eq!(
            resolve(&pinned, "Nf3", &Pattern::Piece(knight_to(Square::F3)))
                .map_err(|e| e.to_string()),
            Err(
                "illegal move 'Nf3': the king is in check: the knight on d2 cannot go to f3"
                    .to_owned()
            )
        );
        let pinned = pos("4k3/8/8/8/8/8/r2NK3/8 w - - 0 1");
        assert_eq!(
            resolve(&pinned, "Nf3", &Pattern::Piece(knight_to(Square::F3)))
                .map_err(|e| e.to_string()),
            Err(
                "illegal move 'Nf3': the knight on d2 cannot go to f3: that would leave the king in check"
                    .to_owned()
            )
        );
        // A knight that cannot go there at all is still said so.
        assert_eq!(
            resolve(
                &Chess::default(),
                "Nd4",
                &Pattern::Piece(knight_to(Square::D4))
            )
            .map_err(|e| e.to_string()),
            Err("illegal move 'Nd4': no knight can reach d4".to_owned())
        );
    }

    #[test]
    fn castling_when_not_allowed() {
        let e = resolve(
            &pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            "O-O",
            &Pattern::Castle(CastlingSide::KingSide),
        );
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("illegal move 'O-O': castling kingside is not legal here".to_owned())
        );
    }
}
