//! Space: room behind the pawns for the pieces to manoeuvre, worth more
//! the more pieces there are to use it (Stockfish 11's space term).

use shakmaty::{Bitboard, Color};

use super::features::SPACE;
use super::{Attacks, Context, Terms, side};

/// The c- to f-files.
const CENTRE_FILES: u64 = 0x3c3c_3c3c_3c3c_3c3c;

/// For each colour (`[black, white]`), the c- to f-files of its 2nd to 4th
/// ranks.
const SPACE_MASK: [u64; 2] = [
    CENTRE_FILES & 0x00ff_ffff_0000_0000,
    CENTRE_FILES & 0x0000_0000_ffff_ff00,
];

/// Counts each side's space: the safe squares of its [`SPACE_MASK`] (not
/// holding its own pawn, not attacked by an enemy pawn), plus those up to
/// three squares behind its pawns and not attacked at all, times the
/// square of its piece count less one, over 64.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, attacks: &Attacks, terms: &mut impl Terms) {
    for color in Color::ALL {
        let (us, them) = (side(color), side(!color));
        let pawns = ctx.pawns[us].0;
        let safe = SPACE_MASK[us] & !pawns & !ctx.pawn_attacks[them].0;
        let behind = match color {
            Color::White => pawns >> 8 | pawns >> 16 | pawns >> 24,
            Color::Black => pawns << 8 | pawns << 16 | pawns << 24,
        };
        let bonus = Bitboard(safe).count() + Bitboard(safe & behind & !attacks.all[them].0).count();
        let pieces = ctx.board.by_color(color).count() as i32 - 1;
        let count = bonus as i32 * pieces * pieces / 64;
        if count > 0 {
            terms.add(color, SPACE, count);
        }
    }
}
