//! Static exchange evaluation: the material balance of the capture
//! sequence on one square, each side recapturing with its least valuable
//! piece and free to stop.

use shakmaty::{Bitboard, Chess, Move, Position, Role};

use crate::params::piece_value as value;

/// The exchange value of `m`; exact in sign, which is what pruning needs.
/// Promotions and en passant count as winning.
#[must_use]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return value(Role::Pawn);
    };
    let board = pos.board();
    let mut occupied = board.occupied();
    let mut gain = [0i32; 32];
    gain[0] = capture.map_or(0, value);
    let mut depth = 0;
    let mut from = from;
    let mut attacker = role;
    let mut side = pos.turn();
    loop {
        depth += 1;
        gain[depth] = value(attacker) - gain[depth - 1];
        if (-gain[depth - 1]).max(gain[depth]) < 0 || depth == gain.len() - 1 {
            break;
        }
        occupied &= !Bitboard::from(from);
        side = !side;
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let next = Role::ALL
            .into_iter()
            .find_map(|r| (attackers & board.by_role(r)).first().map(|sq| (sq, r)));
        match next {
            Some((sq, r)) => {
                from = sq;
                attacker = r;
            }
            None => break,
        }
    }
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let fen: Fen = fen.parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    #[test]
    fn signs() {
        // Queen takes a pawn defended by a pawn: loses.
        assert!(see_of("4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6") < 0);
        // Pawn takes an undefended knight: wins.
        assert!(see_of("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5") > 0);
        // Rook takes a rook defended by a rook, backed by our rook: wins a rook.
        assert!(see_of("3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5") > 0);
    }
}
