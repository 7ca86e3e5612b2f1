//! Endgame scaling: how much of its endgame advantage the stronger side can
//! turn into a win with the material on the board.
//!
//! Some material balances are drawish whatever the other terms say: a minor
//! piece up without pawns, opposite-coloured bishops, or a lead built on one
//! or two pawns. The endgame half of the evaluation is multiplied by a
//! scale factor out of [`SCALE_NORMAL`], chosen by the rules of Stockfish 11's
//! classical evaluation (`ScaleFactor` in its `evaluate.cpp`).

use shakmaty::{Bitboard, Board, Color, Role};

use super::pawns::is_passed;
use super::side;

/// The full scale: the endgame value counts in full.
pub const SCALE_NORMAL: i32 = 64;

/// A rough value of the pieces other than pawns and the king, in pawns, to
/// tell a minor piece from a rook.
fn piece_material(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    let count = |role: Role| (board.by_role(role) & ours).count() as i32;
    3 * (count(Role::Knight) + count(Role::Bishop)) + 5 * count(Role::Rook) + 9 * count(Role::Queen)
}

/// Whether each side has exactly one bishop, on squares of opposite colours.
fn opposite_bishops(board: &Board) -> bool {
    let white = board.bishops() & board.white();
    let black = board.bishops() & board.black();
    white.count() == 1
        && black.count() == 1
        && (white & Bitboard::LIGHT_SQUARES).any() != (black & Bitboard::LIGHT_SQUARES).any()
}

/// The number of passed pawns of both sides.
fn passed_pawns(board: &Board) -> i32 {
    let pawns = [board.pawns() & board.black(), board.pawns() & board.white()];
    Color::ALL
        .into_iter()
        .map(|color| {
            let theirs = pawns[side(!color)];
            pawns[side(color)]
                .into_iter()
                .filter(|&sq| is_passed(color, sq, theirs))
                .count() as i32
        })
        .sum()
}

/// The scale factor (0 to [`SCALE_NORMAL`]) of the endgame value when
/// `strong` is the side ahead in it.
///
/// - Without pawns, a lead of at most a minor piece rarely wins: a draw
///   when the stronger side has less than a rook, 4/64 against at most a
///   minor piece (rook against bishop), 14/64 otherwise (rook and bishop
///   against rook); two knights alone cannot force mate.
/// - Opposite-coloured bishops alone: 16/64, plus 4 per passed pawn.
/// - Otherwise the fewer pawns the stronger side has, the less it can win:
///   `36 + 7` per pawn (`36 + 2` per pawn with opposite-coloured bishops
///   and other pieces), at most 64.
pub(super) fn scale(board: &Board, strong: Color) -> i32 {
    let strong_pawns = (board.pawns() & board.by_color(strong)).count() as i32;
    if strong_pawns == 0 {
        let (ours, theirs) = (
            piece_material(board, strong),
            piece_material(board, !strong),
        );
        let weak_pawns = (board.pawns() & board.by_color(!strong)).count();
        let knights_only = ours == 6 && (board.knights() & board.by_color(strong)).count() == 2;
        if knights_only && weak_pawns == 0 && theirs == 0 {
            return 0;
        }
        if ours - theirs <= 3 {
            return if ours < 5 {
                0
            } else if theirs <= 3 {
                4
            } else {
                14
            };
        }
    }
    if opposite_bishops(board) {
        if piece_material(board, strong) == 3 && piece_material(board, !strong) == 3 {
            return 16 + 4 * passed_pawns(board);
        }
        return (36 + 2 * strong_pawns).min(SCALE_NORMAL);
    }
    (36 + 7 * strong_pawns).min(SCALE_NORMAL)
}

/// [`scale`] lowered as the fifty-move count grows past 12 half-moves:
/// a lead that has not changed the pawn structure or material for long
/// is worth less, which steers the search towards progress.
pub(super) fn scale_with_halfmoves(board: &Board, strong: Color, halfmoves: u32) -> i32 {
    let stale = (halfmoves.saturating_sub(12) / 4) as i32;
    (scale(board, strong) - stale).max(0)
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    use super::*;

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        pos.board().clone()
    }

    #[test]
    fn rook_against_bishop_without_pawns_is_nearly_a_draw() {
        assert_eq!(
            scale(&board("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1"), Color::White),
            4
        );
    }

    #[test]
    fn a_bishop_alone_cannot_win() {
        assert_eq!(
            scale(&board("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), Color::White),
            0
        );
        assert_eq!(
            scale(&board("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"), Color::White),
            0
        );
    }

    #[test]
    fn a_queen_up_scales_by_pawns_only() {
        assert_eq!(
            scale(&board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), Color::White),
            36
        );
        let full = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(scale(&full, Color::White), SCALE_NORMAL);
    }

    #[test]
    fn opposite_coloured_bishops() {
        // A pawn up, one passed pawn (a2), bishops on c1 (dark) and c8 (light).
        let b = board("2b1k3/5p2/8/8/8/8/P4P2/2B1K3 w - - 0 1");
        assert_eq!(scale(&b, Color::White), 20);
        // Same-coloured bishops: by pawns only.
        let b = board("1b2k3/5p2/8/8/8/8/4PP2/2B1K3 w - - 0 1");
        assert_eq!(scale(&b, Color::White), 50);
    }

    #[test]
    fn scale_is_the_same_for_either_colour() {
        let white = board("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1");
        let black = board("r3k3/8/8/8/3B4/8/8/4K3 w - - 0 1");
        assert_eq!(scale(&white, Color::White), scale(&black, Color::Black));
    }
}
