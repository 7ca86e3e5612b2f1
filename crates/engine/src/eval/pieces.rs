//! Piece terms: the bishop pair, knight and bishop outposts, bishops and
//! the pawns on their colour, knights and bishops behind pawns, rooks on
//! open and semi-open files and on the 7th rank.

use shakmaty::{Bitboard, Color};

use super::features::{
    BISHOP_PAIR, BISHOP_PAWNS, MINOR_BEHIND_PAWN, OUTPOST, ROOK_ON_SEVENTH, ROOK_OPEN_FILE,
    ROOK_SEMI_OPEN_FILE,
};
use super::pawns::{PASSED_SPAN, adjacent_files, file};
use super::{Context, Terms, relative, side};

/// Counts bishop pairs, outposts (a knight or bishop on the 4th to 6th
/// rank, defended by a pawn, that no enemy pawn can ever attack), rooks on
/// files without pawns (open) or without friendly pawns (semi-open), and
/// rooks on the 7th rank with the enemy king on the 8th or enemy pawns on
/// the 7th.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, terms: &mut impl Terms) {
    let board = ctx.board;
    for color in Color::ALL {
        let ours = board.by_color(color);
        if (board.bishops() & ours).more_than_one() {
            terms.add(color, BISHOP_PAIR, 1);
        }
        let own = ctx.pawns[side(color)];
        for bishop in board.bishops() & ours {
            let colour = if Bitboard::LIGHT_SQUARES.contains(bishop) {
                Bitboard::LIGHT_SQUARES
            } else {
                Bitboard::DARK_SQUARES
            };
            let n = (own & colour).count() as i32;
            if n > 0 {
                terms.add(color, BISHOP_PAWNS, n);
            }
        }
        let minors = (board.knights() | board.bishops()) & ours;
        let shielded = match color {
            Color::White => minors.0 << 8,
            Color::Black => minors.0 >> 8,
        } & own.0;
        if shielded != 0 {
            terms.add(color, MINOR_BEHIND_PAWN, shielded.count_ones() as i32);
        }
        let their_pawns = ctx.pawns[side(!color)].0;
        let defended = ctx.pawn_attacks[side(color)];
        for (index, pieces) in [board.knights(), board.bishops()].into_iter().enumerate() {
            for square in pieces & ours & defended {
                let rank = relative(color, square) / 8;
                let sq = square.to_usize();
                if (3..=5).contains(&rank)
                    && PASSED_SPAN[side(color)][sq]
                        & adjacent_files(square.file().to_usize())
                        & their_pawns
                        == 0
                {
                    terms.add(color, OUTPOST + index, 1);
                }
            }
        }
        // The 7th and 8th ranks seen from `color`.
        let (seventh, eighth) = match color {
            Color::White => (Bitboard(0xff << 48), Bitboard(0xff << 56)),
            Color::Black => (Bitboard(0xff << 8), Bitboard(0xff)),
        };
        let on_seventh = (board.rooks() & ours & seventh).count() as i32;
        if on_seventh > 0
            && ((board.kings() & board.by_color(!color) & eighth).any()
                || (ctx.pawns[side(!color)] & seventh).any())
        {
            terms.add(color, ROOK_ON_SEVENTH, on_seventh);
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
