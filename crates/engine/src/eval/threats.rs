//! Threats: enemy pieces attacked by pawns, by minor pieces and by rooks,
//! hanging pieces, and pieces a pawn push would attack.

use shakmaty::{Color, Role};

use super::features::{HANGING, PAWN_PUSH_THREAT, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK};
use super::pawns;
use super::{Attacks, Context, Terms, side};

/// Counts the threats of each side against the other's pieces.
///
/// A square defended by a pawn, or defended twice and not attacked twice,
/// is strongly protected; pawns there are no targets for minor pieces and
/// rooks.
/// A target is hanging if it is attacked and not defended, or, for a piece
/// other than a pawn, attacked twice and defended only once.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, attacks: &Attacks, terms: &mut impl Terms) {
    let board = ctx.board;
    for color in Color::ALL {
        let (us, them) = (side(color), side(!color));
        let enemies = board.by_color(!color) & !board.kings();
        push_threats(ctx, attacks, color, enemies & !board.pawns(), terms);
        let by_pawn = ctx.pawn_attacks[us] & enemies;
        if by_pawn.any() {
            for (index, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
                .into_iter()
                .enumerate()
            {
                let n = (by_pawn & board.by_role(role)).count() as i32;
                if n > 0 {
                    terms.add(color, THREAT_BY_PAWN + index, n);
                }
            }
        }
        let strongly_protected =
            ctx.pawn_attacks[them] | (attacks.twice[them] & !attacks.twice[us]);
        let pieces = enemies & !board.pawns();
        let targets = (pieces | (enemies & !strongly_protected)) & attacks.all[us];
        if targets.is_empty() {
            continue;
        }
        let by_minor =
            targets & (attacks.by(color, Role::Knight) | attacks.by(color, Role::Bishop));
        let by_rook = targets & attacks.by(color, Role::Rook);
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let index = role as usize - 1;
            let of_role = board.by_role(role);
            let n = (by_minor & of_role).count() as i32;
            if n > 0 {
                terms.add(color, THREAT_BY_MINOR + index, n);
            }
            let n = (by_rook & of_role).count() as i32;
            if n > 0 {
                terms.add(color, THREAT_BY_ROOK + index, n);
            }
        }
        let weak = targets & !strongly_protected;
        let hanging = (weak & !attacks.all[them]) | (weak & pieces & attacks.twice[us]);
        if hanging.any() {
            terms.add(color, HANGING, hanging.count() as i32);
        }
    }
}

/// Counts the enemy pieces (`targets`) that a pawn of `color` would attack
/// after a push, single or double, to a square that no enemy pawn attacks
/// and that is not attacked by the enemy or defended by us.
#[inline(always)]
fn push_threats(
    ctx: &Context<'_>,
    attacks: &Attacks,
    color: Color,
    targets: shakmaty::Bitboard,
    terms: &mut impl Terms,
) {
    let (us, them) = (side(color), side(!color));
    let empty = !ctx.occupied.0;
    let pawns = ctx.pawns[us].0;
    // The third rank seen from `color`: single pushes landing there may go on.
    let (single, double) = match color {
        Color::White => {
            let one = (pawns << 8) & empty;
            (one, ((one & 0x0000_0000_00ff_0000) << 8) & empty)
        }
        Color::Black => {
            let one = (pawns >> 8) & empty;
            (one, ((one & 0x0000_ff00_0000_0000) >> 8) & empty)
        }
    };
    let safe = !attacks.all[them].0 | attacks.all[us].0;
    let landing = (single | double) & !ctx.pawn_attacks[them].0 & safe;
    let n = (pawns::attacks(color, shakmaty::Bitboard(landing)) & targets).count() as i32;
    if n > 0 {
        terms.add(color, PAWN_PUSH_THREAT, n);
    }
}
