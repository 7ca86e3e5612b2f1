//! Mobility (safe squares each piece reaches) and attacks on the enemy
//! king's zone, computed in one pass over the pieces, which also fills in
//! the attack maps ([`Attacks`]) later terms use.

use shakmaty::{Color, Role, attacks};

use super::features::{
    BISHOP_MOBILITY, KING_ATTACK, KNIGHT_MOBILITY, QUEEN_MOBILITY, ROOK_MOBILITY,
};
use super::{Attacks, Context, Terms, king_zone, side};

/// What a knight, bishop, rook or queen reaching the enemy king zone adds
/// to the attack units behind [`KING_DANGER`](super::features::KING_DANGER).
pub(super) const ATTACKER_UNITS: [i32; 4] = [2, 2, 3, 5];

/// Counts, for every knight, bishop, rook and queen, the squares it
/// attacks that hold no friendly piece and no enemy pawn attacks, and the
/// squares of the enemy king zone it attacks; records every attack in
/// `attacks`, with the pieces that reach the enemy king zone.
#[inline(always)]
pub(super) fn collect(ctx: &Context<'_>, attacks: &mut Attacks, terms: &mut impl Terms) {
    let board = ctx.board;
    for color in Color::ALL {
        let ours = board.by_color(color);
        let safe = !(ours | ctx.pawn_attacks[side(!color)]);
        let zone = board.king_of(!color).map(king_zone).unwrap_or_default();
        for (index, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            let table = [
                KNIGHT_MOBILITY,
                BISHOP_MOBILITY,
                ROOK_MOBILITY,
                QUEEN_MOBILITY,
            ][index];
            for square in board.by_role(role) & ours {
                let reach = match role {
                    Role::Knight => attacks::knight_attacks(square),
                    Role::Bishop => attacks::bishop_attacks(square, ctx.occupied),
                    Role::Rook => attacks::rook_attacks(square, ctx.occupied),
                    _ => attacks::queen_attacks(square, ctx.occupied),
                };
                terms.add(color, table + (reach & safe).count(), 1);
                attacks.add(color, role, reach);
                let on_zone = (reach & zone).count() as i32;
                if on_zone > 0 {
                    terms.add(color, KING_ATTACK + index, on_zone);
                    attacks.king_units[side(color)] += ATTACKER_UNITS[index];
                }
            }
        }
    }
}
