//! Threats: enemy pieces attacked by pawns, by minor pieces and by rooks,
//! and hanging pieces.

use shakmaty::{Color, Role};

use super::features::{HANGING, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK};
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
