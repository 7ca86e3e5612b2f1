//! Piece terms: the bishop pair and rooks on open and semi-open files.

use shakmaty::Color;

use super::features::{BISHOP_PAIR, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE};
use super::pawns::file;
use super::{Context, Terms, side};

/// Counts bishop pairs and rooks on files without pawns (open) or
/// without friendly pawns (semi-open).
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, terms: &mut impl Terms) {
    let board = ctx.board;
    for color in Color::ALL {
        let ours = board.by_color(color);
        if (board.bishops() & ours).more_than_one() {
            terms.add(color, BISHOP_PAIR, 1);
        }
        let own_pawns = ctx.pawns[side(color)].0;
        let all_pawns = board.pawns().0;
        for rook in board.rooks() & ours {
            let on_file = file(rook.file().to_usize());
            if all_pawns & on_file == 0 {
                terms.add(color, ROOK_OPEN_FILE, 1);
            } else if own_pawns & on_file == 0 {
                terms.add(color, ROOK_SEMI_OPEN_FILE, 1);
            }
        }
    }
}
