//! The network's inputs: one feature per (piece colour, role, square),
//! seen from each side's perspective, and the feature changes of a move.

use shakmaty::{Board, Chess, Color, Move, Piece, Position, Role, Square};

/// Input features per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Output buckets, chosen by the number of pieces on the board.
pub const OUTPUT_BUCKETS: usize = 8;

/// The input feature of `piece` on `square` seen from `perspective`: the
/// perspective's own pieces come first, and Black sees the board flipped
/// vertically, so both sides see their own pieces the way White does.
///
/// # Examples
///
/// ```
/// use rochade_engine::nnue::feature;
/// use shakmaty::{Color, Piece, Role, Square};
/// let white_pawn = Piece { color: Color::White, role: Role::Pawn };
/// let black_pawn = Piece { color: Color::Black, role: Role::Pawn };
/// // White's pawn on e2 is what Black's pawn on e7 is to Black.
/// assert_eq!(
///     feature(Color::White, white_pawn, Square::E2),
///     feature(Color::Black, black_pawn, Square::E7),
/// );
/// assert_eq!(feature(Color::White, black_pawn, Square::A1), 384);
/// ```
#[must_use]
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let (theirs, square) = match perspective {
        Color::White => (piece.color.is_black(), square.to_usize()),
        Color::Black => (piece.color.is_white(), square.to_usize() ^ 56),
    };
    usize::from(theirs) * 384 + (piece.role as usize - 1) * 64 + square
}

/// The output bucket of `board`: pieces on the board (kings included)
/// minus two, in fours.
///
/// # Examples
///
/// ```
/// use rochade_engine::nnue::output_bucket;
/// use shakmaty::{Chess, Position};
/// assert_eq!(output_bucket(Chess::default().board()), 7);
/// ```
#[must_use]
#[inline(always)]
pub fn output_bucket(board: &Board) -> usize {
    ((board.occupied().count() - 2) / 4).min(OUTPUT_BUCKETS - 1)
}

/// The active features of `board` from `perspective`.
///
/// # Examples
///
/// ```
/// use rochade_engine::nnue::active_features;
/// use shakmaty::{Chess, Color, Position};
/// assert_eq!(active_features(Chess::default().board(), Color::Black).count(), 32);
/// ```
pub fn active_features(board: &Board, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    board
        .iter()
        .map(move |(square, piece)| feature(perspective, piece, square))
}

/// A piece put on or taken off a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The piece.
    pub piece: Piece,
    /// Its square.
    pub square: Square,
}

/// What a move changes on the board: at most two pieces leave a square and
/// at most two arrive (castling moves two pieces, a capture takes one off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Delta {
    /// Pieces taken off.
    removed: [Option<Placement>; 2],
    /// Pieces put on.
    added: [Option<Placement>; 2],
}

impl Delta {
    /// The changes of `m` played in `pos` (a null move changes nothing).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::nnue::Delta;
    /// use shakmaty::{Chess, Position};
    /// let pos = Chess::default();
    /// let m = pos.legal_moves()[0];
    /// let delta = Delta::of(&pos, m);
    /// assert_eq!((delta.removed().count(), delta.added().count()), (1, 1));
    /// ```
    #[must_use]
    pub fn of(pos: &Chess, m: Move) -> Self {
        let us = pos.turn();
        let piece = |color, role| Piece { color, role };
        let at = |p, square| Some(Placement { piece: p, square });
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => Self {
                removed: [
                    at(piece(us, role), from),
                    capture.and_then(|c| at(piece(!us, c), to)),
                ],
                added: [at(piece(us, promotion.unwrap_or(role)), to), None],
            },
            Move::EnPassant { from, to } => Self {
                removed: [
                    at(piece(us, Role::Pawn), from),
                    at(
                        piece(!us, Role::Pawn),
                        Square::from_coords(to.file(), from.rank()),
                    ),
                ],
                added: [at(piece(us, Role::Pawn), to), None],
            },
            Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_king_side(king < rook);
                Self {
                    removed: [
                        at(piece(us, Role::King), king),
                        at(piece(us, Role::Rook), rook),
                    ],
                    added: [
                        at(piece(us, Role::King), side.king_to(us)),
                        at(piece(us, Role::Rook), side.rook_to(us)),
                    ],
                }
            }
            Move::Put { role, to } => Self {
                removed: [None, None],
                added: [at(piece(us, role), to), None],
            },
        }
    }

    /// The pieces taken off.
    pub fn removed(&self) -> impl Iterator<Item = Placement> + '_ {
        self.removed.iter().flatten().copied()
    }

    /// The pieces put on.
    pub fn added(&self) -> impl Iterator<Item = Placement> + '_ {
        self.added.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    fn position(fen: &str, mode: CastlingMode) -> Chess {
        let fen: Fen = fen.parse().expect("valid FEN");
        fen.into_position(mode).expect("legal position")
    }

    /// The features of `board` from `perspective`, sorted.
    fn sorted(board: &Board, perspective: Color) -> Vec<usize> {
        let mut f: Vec<usize> = active_features(board, perspective).collect();
        f.sort_unstable();
        f
    }

    /// Every legal move's delta, applied to the parent's features, gives
    /// the child's features, for both perspectives.
    fn check_every_move(pos: &Chess) {
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let delta = Delta::of(pos, m);
            for perspective in Color::ALL {
                let mut features = sorted(pos.board(), perspective);
                for p in delta.removed() {
                    let f = feature(perspective, p.piece, p.square);
                    let i = features
                        .iter()
                        .position(|&x| x == f)
                        .expect("removed piece present");
                    features.remove(i);
                }
                features.extend(
                    delta
                        .added()
                        .map(|p| feature(perspective, p.piece, p.square)),
                );
                features.sort_unstable();
                assert_eq!(
                    features,
                    sorted(child.board(), perspective),
                    "{m} in {}",
                    Fen::from_position(pos, EnPassantMode::Legal)
                );
            }
        }
    }

    #[test]
    fn deltas_match_the_board_after_every_kind_of_move() {
        // Castling both ways, en passant, promotions with and without capture.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            check_every_move(&position(fen, CastlingMode::Standard));
        }
    }

    #[test]
    fn chess960_castling_moves_king_and_rook() {
        // King on b1 with rooks on a1 and h1: castling long swaps nothing
        // into place the standard way.
        let pos = position("1r4kr/8/8/8/8/8/8/RK5R w KQ - 0 1", CastlingMode::Chess960);
        check_every_move(&pos);
    }
}
