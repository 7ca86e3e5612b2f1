//! The cheap verdict that runs after every move (5.2.2).
//!
//! Three answers: dead by material alone, alive, or open (the search
//! decides). "Alive" is given only where a dead position would need what the
//! gate checks is absent:
//!
//! - a blockade, that is stuck pawns (a pawn whose square in front is
//!   occupied) on files that, each with its two neighbours, span the whole
//!   board; without one, the kings and the free pieces can reach every part
//!   of the board;
//! - a forced sequence, that is a side to move whose every move captures
//!   (or which is in check while material is thin): the gate wants the
//!   side to move either free of check with two free units on each side, or
//!   with a legal move that takes nothing;
//! - mating material: the player who can mate must have it, with a free
//!   piece (one that has a square to go to, or a pawn whose square in front
//!   is empty).
//!
//! The gate's "alive" is checked against Ambrona's full analysis on many
//! thousands of positions by `tests/dead_oracle.rs`.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, attacks};

/// The gate's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gate {
    /// Neither player has material that could ever mate (K v K, K+minor v
    /// K, bishops all on one colour, K+N v K+queens): dead wherever the
    /// pieces stand.
    Dead,
    /// A player can still mate: free mating force, no blockade, nothing
    /// forced.
    Alive,
    /// The gate cannot tell; the search decides.
    Open,
}

/// The cheap verdict on `pos`: a few bitboard operations for a middlegame,
/// one legal-move generation for an endgame.
///
/// # Examples
///
/// ```
/// use rochade_laws::dead::{Gate, gate};
/// use rochade_laws::fen;
/// use shakmaty::Chess;
///
/// assert_eq!(gate(&Chess::default()), Gate::Alive);
/// let lone_kings = fen::read("8/8/4k3/8/8/3K4/8/8 w - - 0 1")?.position;
/// assert_eq!(gate(&lone_kings), Gate::Dead);
/// // The queen must be taken: the search decides.
/// let forced = fen::read("k7/1Q6/8/8/8/8/8/6K1 b - - 0 1")?.position;
/// assert_eq!(gate(&forced), Gate::Open);
/// # Ok::<_, rochade_laws::fen::FenError>(())
/// ```
pub fn gate(pos: &Chess) -> Gate {
    let board = pos.board();
    let white_cannot = pos.has_insufficient_material(Color::White);
    let black_cannot = pos.has_insufficient_material(Color::Black);
    if white_cannot && black_cannot {
        return Gate::Dead;
    }
    if blockade(board) {
        return Gate::Open;
    }
    if !pos.is_check()
        && free_units(board, Color::White) >= 2
        && free_units(board, Color::Black) >= 2
    {
        return Gate::Alive;
    }
    let mater = |color: Color, cannot: bool| !cannot && free_units(board, color) >= 1;
    if (mater(Color::White, white_cannot) || mater(Color::Black, black_cannot))
        && pos.legal_moves().iter().any(|m| !m.is_capture())
    {
        return Gate::Alive;
    }
    Gate::Open
}

/// Whether stuck pawns (a pawn with any piece on the square in front of
/// it) close every file, each closing its own file and both neighbours.
fn blockade(board: &Board) -> bool {
    let pawns = board.pawns();
    let occupied = board.occupied();
    let stuck = (pawns & board.white() & Bitboard(occupied.0 >> 8))
        | (pawns & board.black() & Bitboard(occupied.0 << 8));
    if stuck.is_empty() {
        return false;
    }
    let files = stuck
        .into_iter()
        .fold(0u8, |files, square| files | 1 << square.file().to_usize());
    files | files << 1 | files >> 1 == u8::MAX
}

/// The free units of `color`: pieces other than the king with a square to
/// go to (empty or the opponent's, ignoring pins), and pawns whose square
/// in front is empty.
fn free_units(board: &Board, color: Color) -> u32 {
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let mut units = 0;
    for square in ours & !board.kings() & !board.pawns() {
        let Some(role) = board.role_at(square) else {
            continue;
        };
        let reach = match role {
            Role::Knight => attacks::knight_attacks(square),
            Role::Bishop => attacks::bishop_attacks(square, occupied),
            Role::Rook => attacks::rook_attacks(square, occupied),
            Role::Queen => attacks::queen_attacks(square, occupied),
            Role::Pawn | Role::King => Bitboard::EMPTY,
        };
        if (reach & !ours).any() {
            units += 1;
        }
    }
    let pawns = board.pawns() & ours;
    let free_pawns = match color {
        Color::White => pawns & !Bitboard(occupied.0 >> 8),
        Color::Black => pawns & !Bitboard(occupied.0 << 8),
    };
    units + free_pawns.count() as u32
}
