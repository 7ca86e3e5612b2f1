//! Pawn structure: passed, isolated, doubled, supported, phalanx and
//! backward pawns.

use shakmaty::{Bitboard, Color, attacks as moves};

use super::features::{
    BACKWARD_PAWN, DOUBLED_PAWN, ISOLATED_PAWN, PASSED_PAWN, PHALANX_PAWN, SUPPORTED_PAWN,
};
use super::{Context, Terms, relative, side};

/// The a-file.
pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
const FILE_H: u64 = FILE_A << 7;

/// The squares of file `file` (0 = a).
#[inline(always)]
pub(super) const fn file(file: usize) -> u64 {
    FILE_A << file
}

/// The files beside file `f`.
#[inline(always)]
pub(super) const fn adjacent_files(f: usize) -> u64 {
    let left = if f > 0 { file(f - 1) } else { 0 };
    let right = if f < 7 { file(f + 1) } else { 0 };
    left | right
}

/// For each colour and square, the squares an enemy pawn must not occupy
/// for a pawn there to be passed: ahead on its own and adjacent files.
pub(super) const PASSED_SPAN: [[u64; 64]; 2] = passed_spans();

/// Builds [`PASSED_SPAN`].
const fn passed_spans() -> [[u64; 64]; 2] {
    let mut spans = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, rank) = (sq % 8, sq / 8);
        let files = file(f) | adjacent_files(f);
        let above = if rank < 7 {
            !0u64 << (8 * (rank + 1))
        } else {
            0
        };
        let below = if rank > 0 {
            !0u64 >> (8 * (8 - rank))
        } else {
            0
        };
        spans[0][sq] = files & below;
        spans[1][sq] = files & above;
        sq += 1;
    }
    spans
}

/// The squares attacked by `pawns` of `color`.
#[inline(always)]
pub(super) fn attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    })
}

/// The squares attacked by two of `pawns` of `color`.
#[inline(always)]
pub(super) fn double_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & !FILE_A) << 7) & ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) & ((p & !FILE_H) >> 7),
    })
}

/// The square in front of `square` for a pawn of `color` (the pawn is
/// never on its last rank).
#[inline(always)]
pub(super) fn stop_square(color: Color, square: shakmaty::Square) -> usize {
    match color {
        Color::White => square.to_usize() + 8,
        Color::Black => square.to_usize() - 8,
    }
}

/// Whether the pawn of `color` on `square` is passed, given the enemy
/// pawns.
#[inline(always)]
pub(super) fn is_passed(color: Color, square: shakmaty::Square, enemy_pawns: Bitboard) -> bool {
    PASSED_SPAN[side(color)][square.to_usize()] & enemy_pawns.0 == 0
}

/// The set of files holding any of `pawns`, as a byte (bit 0 = a-file).
#[inline(always)]
fn files_of(pawns: u64) -> u64 {
    let mut f = pawns;
    f |= f >> 32;
    f |= f >> 16;
    f |= f >> 8;
    f & 0xff
}

/// Counts passed, isolated, doubled, supported, phalanx and backward pawns
/// of both sides.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, terms: &mut impl Terms) {
    for color in Color::ALL {
        let ours = ctx.pawns[side(color)];
        if ours.is_empty() {
            continue;
        }
        let theirs = ctx.pawns[side(!color)];
        // Squares an enemy pawn holds or attacks: a pawn stopped there is
        // backward if no friendly pawn can come to its support.
        let stopped = theirs | ctx.pawn_attacks[side(!color)];
        for square in ours {
            let rank = relative(color, square) / 8;
            if is_passed(color, square, theirs) {
                terms.add(color, PASSED_PAWN + rank, 1);
            }
            let supporters = (moves::pawn_attacks(!color, square) & ours).count() as i32;
            if supporters > 0 {
                terms.add(color, SUPPORTED_PAWN + rank, supporters);
            }
            let bit = 1u64 << square.to_usize();
            if (((bit & !FILE_A) >> 1) | ((bit & !FILE_H) << 1)) & ours.0 != 0 {
                terms.add(color, PHALANX_PAWN + rank, 1);
            }
            let beside = adjacent_files(square.file().to_usize()) & ours.0;
            if beside != 0
                && beside & !PASSED_SPAN[side(color)][square.to_usize()] == 0
                && stopped.0 & (1u64 << stop_square(color, square)) != 0
            {
                terms.add(color, BACKWARD_PAWN, 1);
            }
        }
        let files = files_of(ours.0);
        // Files whose neighbours hold no friendly pawn, spread to whole files.
        let lonely = files & !((files << 1) | (files >> 1));
        let isolated = (ours.0 & (lonely * FILE_A)).count_ones() as i32;
        if isolated > 0 {
            terms.add(color, ISOLATED_PAWN, isolated);
        }
        let doubled = ours.count() as i32 - files.count_ones() as i32;
        if doubled > 0 {
            terms.add(color, DOUBLED_PAWN, doubled);
        }
    }
}
