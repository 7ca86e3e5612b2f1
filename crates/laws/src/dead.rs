//! Dead positions (5.2.2) and unwinnability for timeouts (6.9), decided with
//! Miguel Ambrona's Chess Unwinnability Analyzer (`chasolver`).
//!
//! A position is dead when neither player can checkmate by any series of
//! legal moves, which is much more than "insufficient material": locked
//! pawn walls, bishops all on one colour and kings that can never get
//! through count too.
//!
//! ```
//! use rochade_laws::dead::{self, Winnability};
//! use rochade_laws::fen;
//! use shakmaty::Color;
//!
//! // A locked pawn wall with bishops that cannot break it (lichess ijyj0mHa).
//! let pos = fen::read("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 60")?.position;
//! assert_eq!(dead::can_checkmate(&pos, Color::Black), Winnability::Unwinnable);
//! assert_eq!(dead::can_checkmate(&pos, Color::White), Winnability::Winnable);
//! # Ok::<_, rochade_laws::fen::FenError>(())
//! ```

use shakmaty::{Chess, Color, EnPassantMode, File, Position, Rank, Role, Square};

/// Whether a player can still checkmate the opponent by some series of
/// legal moves (the opponent cooperating).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winnability {
    /// A helpmate exists.
    Winnable,
    /// No series of legal moves ends in checkmate by this player.
    Unwinnable,
    /// The analysis ran out of its node budget. Callers treat this as
    /// winnable: a game is never ended on an unproven claim.
    Unknown,
}

/// The position converted for chasolver, and whether castling rights had to
/// be dropped (Chess960 rights that the `chess` crate cannot express).
struct Converted {
    board: chess::Board,
    lossy: bool,
}

/// Converts a shakmaty position to the `chess` crate's board, square by
/// square (no FEN text in between: this runs after every move).
fn convert(pos: &Chess) -> Option<Converted> {
    let rights = pos.castles().castling_rights();
    let standard = rights.into_iter().all(|rook| {
        let back = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        matches!(rook.file(), File::A | File::H)
            && pos
                .board()
                .king_of(back)
                .is_some_and(|k| k.file() == File::E && k.rank() == rook.rank())
    });
    let mut builder = chess::BoardBuilder::new();
    for (square, piece) in pos.board() {
        builder[chess::ALL_SQUARES[square.to_usize()]] =
            Some((role(piece.role), color(piece.color)));
    }
    builder.side_to_move(color(pos.turn()));
    if standard {
        for side in Color::ALL {
            let back = side.backrank();
            let king_side = rights.contains(Square::from_coords(File::H, back));
            let queen_side = rights.contains(Square::from_coords(File::A, back));
            let castle = match (king_side, queen_side) {
                (true, true) => chess::CastleRights::Both,
                (true, false) => chess::CastleRights::KingSide,
                (false, true) => chess::CastleRights::QueenSide,
                (false, false) => chess::CastleRights::NoRights,
            };
            builder.castle_rights(color(side), castle);
        }
    }
    builder.en_passant(
        pos.ep_square(EnPassantMode::Legal)
            .map(|square| chess::File::from_index(square.file().to_usize())),
    );
    let board = chess::Board::try_from(&builder).ok()?;
    Some(Converted {
        board,
        lossy: !standard,
    })
}

/// The chess crate's piece for a shakmaty role.
fn role(role: Role) -> chess::Piece {
    match role {
        Role::Pawn => chess::Piece::Pawn,
        Role::Knight => chess::Piece::Knight,
        Role::Bishop => chess::Piece::Bishop,
        Role::Rook => chess::Piece::Rook,
        Role::Queen => chess::Piece::Queen,
        Role::King => chess::Piece::King,
    }
}

/// The chess crate's colour for a shakmaty colour.
fn color(c: Color) -> chess::Color {
    c.fold_wb(chess::Color::White, chess::Color::Black)
}

/// Whether `winner` can checkmate by any series of legal moves: the full
/// analysis, for a fallen flag (6.9). Bounded by chasolver's node budget.
pub fn can_checkmate(pos: &Chess, winner: Color) -> Winnability {
    let Some(converted) = convert(pos) else {
        return Winnability::Unknown;
    };
    match chasolver::winnability(&converted.board, color(winner)) {
        Some(chasolver::Winnability::Winnable { .. }) => Winnability::Winnable,
        Some(chasolver::Winnability::Unwinnable) if !converted.lossy => Winnability::Unwinnable,
        _ => Winnability::Unknown,
    }
}

/// Whether the position is dead (5.2.2): neither player can checkmate by
/// any series of legal moves.
///
/// Sound: `true` is always right. Bounded: chasolver's fast analysis gives
/// up on positions it cannot settle cheaply, and then this says "not dead",
/// so the game goes on.
pub fn is_dead(pos: &Chess) -> bool {
    if !may_be_dead(pos) {
        return false;
    }
    let Some(converted) = convert(pos) else {
        return false;
    };
    !converted.lossy
        && chasolver::is_unwinnable_fast(&converted.board, chess::Color::White)
        && chasolver::is_unwinnable_fast(&converted.board, chess::Color::Black)
}

/// A necessary condition for a dead position, cheap enough to run after
/// every move. Without pawns, queens and rooks, the position may lack mating
/// material. With pawns, queens or rooks, mate can only be impossible when a
/// wall of blocked pawns keeps the pieces from the kings: every one of the
/// eight files must be closed, by a pawn pair that blocks itself head-on (a
/// white pawn with a black pawn on the square in front of it) on that file,
/// or by the attacks of such a pair on a neighbouring file. Positions failing
/// both are never dead; skipping them can only leave a dead position
/// undeclared, never declare a live one dead.
pub fn may_be_dead(pos: &Chess) -> bool {
    let board = pos.board();
    let heavy_or_pawns = board.pawns() | board.rooks() | board.queens();
    if heavy_or_pawns.is_empty() {
        return true;
    }
    let white_pawns = board.pawns() & board.white();
    let black_pawns = board.pawns() & board.black();
    let blocked = white_pawns.shift(8) & black_pawns;
    let files = blocked
        .into_iter()
        .fold(0u8, |files, square| files | 1 << square.file().to_usize());
    files | files << 1 | files >> 1 == u8::MAX
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    fn pos(text: &str) -> Chess {
        fen::read(text).expect("legal FEN").position
    }

    #[test]
    fn insufficient_material_is_dead() {
        // FIDE 5.2.2: K v K, K+B v K, K+N v K, bishops all on one colour.
        for text in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",
            "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1", // c7 and e3: both dark
        ] {
            assert!(is_dead(&pos(text)), "{text}");
        }
    }

    #[test]
    fn mating_material_is_not_dead() {
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/4k3/8/8/3KN3/8/6n1 w - - 0 1", // K+N v K+N: a helpmate exists
            "8/8/4k3/8/8/3K4/7P/8 w - - 0 1",
            "8/2b5/4k3/8/8/3K1B2/8/8 w - - 0 1", // c7 dark, f3 light
        ] {
            assert!(!is_dead(&pos(text)), "{text}");
        }
    }

    #[test]
    fn the_gate_lets_every_insufficient_material_case_through() {
        for text in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KN3/8/6n1 w - - 0 1",
            "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1",
            "8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6/8 w - - 0 50",
        ] {
            assert!(may_be_dead(&pos(text)), "{text}");
        }
        assert!(!may_be_dead(&Chess::default()));
    }

    #[test]
    fn the_gate_needs_a_wall_across_all_eight_files() {
        // Three blocked pairs on the b, e and h files close every file.
        assert!(may_be_dead(&pos(
            "8/8/1k6/1p2p2p/1P2P2P/8/1K6/8 w - - 0 50"
        )));
        // A French centre: three blocked pairs, but the a, g and h files are
        // open, so the kings can reach each other's pawns.
        assert!(!may_be_dead(&pos(
            "r1bqkbnr/pp3ppp/2n1p3/2ppP3/2PP4/5N2/PP3PPP/RNBQKB1R w KQkq - 0 6"
        )));
        assert!(!may_be_dead(&pos("8/8/1k6/2ppp3/2PPP3/8/1K6/8 w - - 0 50")));
    }

    #[test]
    fn locked_pawn_wall_is_dead() {
        // FIDE 5.2.2: no series of legal moves can lead to mate.
        assert!(is_dead(&pos(
            "8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6/8 w - - 0 50"
        )));
    }

    #[test]
    fn timeout_needs_the_winner_to_be_able_to_mate() {
        // FIDE 6.9: lone king cannot mate; king and two knights can (helpmate).
        let lone = pos("8/8/4k3/8/8/3K4/8/q7 w - - 0 1");
        assert_eq!(can_checkmate(&lone, Color::White), Winnability::Unwinnable);
        assert_eq!(can_checkmate(&lone, Color::Black), Winnability::Winnable);
        let knights = pos("8/8/4k3/8/8/3K4/8/nn6 w - - 0 1");
        assert_eq!(can_checkmate(&knights, Color::Black), Winnability::Winnable);
    }
}
