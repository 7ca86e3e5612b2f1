//! The cheap verdict that runs after every move (5.2.2).
//!
//! Three answers: dead by material alone, alive, or open (the search
//! decides). "Alive" is given only where a dead position would need what the
//! gate checks is absent:
//!
//! - a blockade, that is stuck pawns (a pawn facing an opposing pawn, a
//!   piece with nowhere to go, or a stuck pawn of its own) on files that,
//!   each with its two neighbours, span the whole board; without one, the
//!   kings and the free pieces can reach every part of the board;
//! - a forced sequence, that is a side to move whose every move captures
//!   (or which is in check while material is thin): the gate wants two
//!   free units on each side (a piece with a square to go to, a pawn with
//!   the square in front empty; three when in check, as the reply takes one
//!   at most), or else mating material for a player and a legal move that
//!   takes nothing for the side to move.
//!
//! The gate's "alive" is checked against Ambrona's full analysis on many
//! thousands of positions by `tests/dead_oracle.rs`.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Square, attacks};

use crate::safety::{attacked, first_steps, in_check};

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
    gate_knowing(pos, None)
}

/// [`gate`], told whether [`quiet_king_step`] holds when the caller has
/// found out already ([`endgame_quiet_step`] after every move).
pub(crate) fn gate_knowing(pos: &Chess, quiet_step: Option<bool>) -> Gate {
    let board = pos.board();
    let white_cannot = pos.has_insufficient_material(Color::White);
    let black_cannot = pos.has_insufficient_material(Color::Black);
    if white_cannot && black_cannot {
        return Gate::Dead;
    }
    if blockade(board) {
        return Gate::Open;
    }
    // From here on a player has mating material. The side to move is not
    // forced when it has a legal move that takes nothing; in an endgame a
    // king step usually shows one at once.
    let endgame = is_endgame(board);
    let quiet_step = || quiet_step.unwrap_or_else(|| quiet_king_step(pos));
    if endgame && quiet_step() {
        return Gate::Alive;
    }
    // Two free units on each side and no check: nothing is forced (three
    // in check: the reply takes one at most).
    let needed = if in_check(pos) { 3 } else { 2 };
    if free_units(board, Color::White, needed) && free_units(board, Color::Black, needed) {
        return Gate::Alive;
    }
    if (!endgame && quiet_step()) || pos.legal_moves().iter().any(|m| !m.is_capture()) {
        return Gate::Alive;
    }
    Gate::Open
}

/// Whether the gate counts `board` as an endgame (16 men or fewer), where
/// it looks for a quiet king step first.
fn is_endgame(board: &Board) -> bool {
    board.occupied().count() <= 16
}

/// In an endgame, whether [`quiet_king_step`] holds; `None` in a
/// middlegame, where the gate seldom needs to know. Asked once after each
/// move: the step also shows that the player has a legal move.
pub(crate) fn endgame_quiet_step(pos: &Chess) -> Option<bool> {
    is_endgame(pos.board()).then(|| quiet_king_step(pos))
}

/// Whether the side to move has a legal king step to an empty square that
/// no opposing man attacks (found without generating the moves).
fn quiet_king_step(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let without_king = board.occupied() ^ Bitboard::from_square(king);
    (attacks::king_attacks(king) & !board.occupied())
        .into_iter()
        .any(|to| !attacked(board, to, !us, without_king))
}

/// Whether stuck pawns close every file, each closing its own file and
/// both neighbours. A pawn is stuck when the square in front of it holds an
/// opposing pawn, a piece with nowhere to go (pseudo-legally: only its own
/// men around it), or a pawn of its own colour that is stuck.
fn blockade(board: &Board) -> bool {
    let occupied = board.occupied();
    let white = board.pawns() & board.white();
    let black = board.pawns() & board.black();
    let ahead_of_white = |bb: Bitboard| Bitboard(bb.0 >> 8);
    let ahead_of_black = |bb: Bitboard| Bitboard(bb.0 << 8);
    let mut stuck = (white & ahead_of_white(black)) | (black & ahead_of_black(white));
    let blockers = (Bitboard(white.0 << 8) | Bitboard(black.0 >> 8)) & occupied & !board.pawns();
    for square in blockers {
        if nowhere_to_go(board, square) {
            let here = Bitboard::from_square(square);
            stuck |= (white & ahead_of_white(here)) | (black & ahead_of_black(here));
        }
    }
    if stuck.is_empty() {
        return false;
    }
    loop {
        let more = stuck
            | (white & ahead_of_white(stuck & white))
            | (black & ahead_of_black(stuck & black));
        if more == stuck {
            break;
        }
        stuck = more;
    }
    let files = stuck
        .into_iter()
        .fold(0u8, |files, square| files | 1 << square.file().to_usize());
    files | files << 1 | files >> 1 == u8::MAX
}

/// Whether the piece on `square` has no square to go to but its own men's.
fn nowhere_to_go(board: &Board, square: Square) -> bool {
    let Some(piece) = board.piece_at(square) else {
        return false;
    };
    // A slider that cannot take its first step in any direction cannot go
    // further either.
    (first_steps(square, piece.role) & !board.by_color(piece.color)).is_empty()
}

/// Whether `color` has at least `needed` free units: pieces other than
/// the king with a square to go to (empty or the opponent's, ignoring
/// pins), and pawns whose square in front is empty. Pawns are counted
/// first, with one bitboard operation; pieces only as long as needed.
fn free_units(board: &Board, color: Color, needed: u32) -> bool {
    let ours = board.by_color(color);
    let occupied = board.occupied();
    let pawns = board.pawns() & ours;
    let free_pawns = match color {
        Color::White => pawns & !Bitboard(occupied.0 >> 8),
        Color::Black => pawns & !Bitboard(occupied.0 << 8),
    };
    let mut units = free_pawns.count() as u32;
    for square in ours & !board.kings() & !board.pawns() {
        if units >= needed {
            break;
        }
        if !nowhere_to_go(board, square) {
            units += 1;
        }
    }
    units >= needed
}
