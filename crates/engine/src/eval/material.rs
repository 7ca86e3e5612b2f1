//! Material and piece-square tables.

use super::features::{MATERIAL, PSQT};
use super::{Context, Terms, relative};
use shakmaty::{Color, Role};

/// Counts every piece's material and its square.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, terms: &mut impl Terms) {
    for color in Color::ALL {
        let ours = ctx.board.by_color(color);
        for role in Role::ALL {
            let index = role as usize - 1;
            let pieces = ctx.board.by_role(role) & ours;
            if role != Role::King && pieces.any() {
                terms.add(color, MATERIAL + index, pieces.count() as i32);
            }
            for square in pieces {
                terms.add(color, PSQT + 64 * index + relative(color, square), 1);
            }
        }
    }
}
