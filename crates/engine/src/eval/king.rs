//! King safety: the pawn shield and open files beside the king. (Attacks on
//! the king zone are counted with mobility, which has the attacks at hand.)

use shakmaty::Color;

use super::features::{KING_OPEN_FILE, KING_SHIELD};
use super::pawns::{adjacent_files, file};
use super::{Context, Terms, relative, side};

/// Counts shield pawns one and two ranks ahead of each king (on its file
/// and the neighbouring ones) and the files there without a friendly pawn.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, terms: &mut impl Terms) {
    for color in Color::ALL {
        let Some(king) = ctx.board.king_of(color) else {
            continue;
        };
        let ours = ctx.pawns[side(color)].0;
        let f = king.file().to_usize();
        let files = file(f) | adjacent_files(f);
        let rank = relative(color, king) / 8;
        for ahead in 1..=2 {
            if rank + ahead > 7 {
                break;
            }
            let absolute = match color {
                Color::White => rank + ahead,
                Color::Black => 7 - rank - ahead,
            };
            let shield = (ours & files & (0xff << (8 * absolute))).count_ones() as i32;
            if shield > 0 {
                terms.add(color, KING_SHIELD + ahead - 1, shield);
            }
        }
        let open = (f.saturating_sub(1)..=(f + 1).min(7))
            .filter(|&g| ours & file(g) == 0)
            .count() as i32;
        if open > 0 {
            terms.add(color, KING_OPEN_FILE, open);
        }
    }
}
