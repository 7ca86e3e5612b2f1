//! Passed pawns in detail: blocked ones, the distance of both kings to the
//! square in front of the pawn, and a free path to promotion.

use shakmaty::{Color, Square};

use super::features::{PASSED_BLOCKED, PASSED_ENEMY_KING, PASSED_FREE, PASSED_OWN_KING};
use super::pawns::{PASSED_SPAN, file, is_passed, stop_square};
use super::{Attacks, Context, Terms, relative, side};

/// Counts, for every passed pawn by its relative rank: a piece on its stop
/// square, the distances of its own and the enemy king to that square, and
/// whether the squares up to promotion are empty and not attacked by the
/// enemy.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, attacks: &Attacks, terms: &mut impl Terms) {
    for color in Color::ALL {
        let ours = ctx.pawns[side(color)];
        let theirs = ctx.pawns[side(!color)];
        for square in ours {
            if !is_passed(color, square, theirs) {
                continue;
            }
            let rank = relative(color, square) / 8;
            let stop = Square::new(stop_square(color, square) as u32);
            if ctx.occupied.contains(stop) {
                terms.add(color, PASSED_BLOCKED + rank, 1);
            }
            if let Some(king) = ctx.board.king_of(color) {
                terms.add(color, PASSED_OWN_KING + rank, king.distance(stop) as i32);
            }
            if let Some(king) = ctx.board.king_of(!color) {
                terms.add(color, PASSED_ENEMY_KING + rank, king.distance(stop) as i32);
            }
            let path = PASSED_SPAN[side(color)][square.to_usize()] & file(square.file().to_usize());
            if path & (ctx.occupied.0 | attacks.all[side(!color)].0) == 0 {
                terms.add(color, PASSED_FREE + rank, 1);
            }
        }
    }
}
