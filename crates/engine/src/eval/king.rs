//! King safety: the pawn shield, open files beside the king, pawn storms,
//! weak squares next to the king, safe checks and the king danger table. (Attacks on the king zone are counted with
//! mobility, which has the attacks at hand.)

use shakmaty::{Color, Role, attacks as moves};

use super::features::{
    KING_DANGER, KING_OPEN_FILE, KING_SHIELD, KING_STORM, KING_WEAK_SQUARES, SAFE_CHECK,
};
use super::pawns::{adjacent_files, file};
use super::{Attacks, Context, Terms, relative, side};

/// Attack units a safe check by a knight, bishop, rook or queen adds to the
/// king danger of the checked side.
const CHECK_UNITS: [i32; 4] = [3, 2, 3, 3];

/// The last entry of the [`KING_DANGER`] table.
const MAX_DANGER: i32 = 15;

/// Counts shield pawns one and two ranks ahead of each king (on its file
/// and the neighbouring ones), the files there without a friendly pawn,
/// the enemy pawns storming each king, the weak squares next to it, the
/// safe checking squares of each piece type against the enemy king and the
/// enemy king's danger bucket.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, attacks: &Attacks, terms: &mut impl Terms) {
    for color in Color::ALL {
        let Some(king) = ctx.board.king_of(color) else {
            continue;
        };
        shield(ctx, color, king, terms);
        storm(ctx, !color, king, terms);
        weak_squares(attacks, !color, king, terms);
        checks(ctx, attacks, !color, king, terms);
    }
}

/// The pawn shield and open files of `color`'s king on `king`.
#[inline(always)]
fn shield(ctx: &Context<'_>, color: Color, king: shakmaty::Square, terms: &mut impl Terms) {
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

/// The pawns of `attacker` on the files of the enemy king on `king` and
/// beside it that have not yet passed it, by their relative rank.
#[inline(always)]
fn storm(ctx: &Context<'_>, attacker: Color, king: shakmaty::Square, terms: &mut impl Terms) {
    let f = king.file().to_usize();
    let pawns = ctx.pawns[side(attacker)].0 & (file(f) | adjacent_files(f));
    let king_rank = relative(attacker, king) / 8;
    for square in shakmaty::Bitboard(pawns) {
        let rank = relative(attacker, square) / 8;
        if rank < king_rank {
            terms.add(attacker, KING_STORM + rank, 1);
        }
    }
}

/// The squares next to the enemy king on `king` that `attacker` attacks
/// and that no enemy pawn, knight, bishop or rook defends.
#[inline(always)]
fn weak_squares(
    attacks: &Attacks,
    attacker: Color,
    king: shakmaty::Square,
    terms: &mut impl Terms,
) {
    let defender = !attacker;
    let guarded = attacks.by(defender, Role::Pawn)
        | attacks.by(defender, Role::Knight)
        | attacks.by(defender, Role::Bishop)
        | attacks.by(defender, Role::Rook);
    let weak = moves::king_attacks(king) & attacks.all[side(attacker)] & !guarded;
    if weak.any() {
        terms.add(attacker, KING_WEAK_SQUARES, weak.count() as i32);
    }
}

/// The safe checks of `attacker` against the enemy king on `king`, and the
/// king danger they and the pieces reaching the king zone add up to.
#[inline(always)]
fn checks(
    ctx: &Context<'_>,
    attacks: &Attacks,
    attacker: Color,
    king: shakmaty::Square,
    terms: &mut impl Terms,
) {
    let mut units = attacks.king_units[side(attacker)];
    let safe = !(ctx.board.by_color(attacker) | attacks.all[side(!attacker)]);
    let diagonal = moves::bishop_attacks(king, ctx.occupied);
    let straight = moves::rook_attacks(king, ctx.occupied);
    for (index, (role, from)) in [
        (Role::Knight, moves::knight_attacks(king)),
        (Role::Bishop, diagonal),
        (Role::Rook, straight),
        (Role::Queen, diagonal | straight),
    ]
    .into_iter()
    .enumerate()
    {
        let n = (from & safe & attacks.by(attacker, role)).count() as i32;
        if n > 0 {
            terms.add(attacker, SAFE_CHECK + index, n);
            units += CHECK_UNITS[index];
        }
    }
    if units > 0 {
        terms.add(attacker, KING_DANGER + units.min(MAX_DANGER) as usize, 1);
    }
}
