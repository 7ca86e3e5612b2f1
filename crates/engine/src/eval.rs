//! Static evaluation: tapered middlegame/endgame material and piece-square
//! tables.

use shakmaty::{Chess, Color, Position, Square};

use crate::params::{EG_VALUE, MG_VALUE, PHASE_TOTAL, PHASE_WEIGHT, PST_EG, PST_MG, TEMPO};

/// The index into a diagram-ordered table (rank 8 first) for a piece of
/// `color` on `square`.
fn table_index(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.flip_vertical().to_usize(),
        Color::Black => square.to_usize(),
    }
}

/// The position's value in centipawns for the side to move.
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut phase = 0;
    for (square, piece) in pos.board().iter() {
        let role = piece.role as usize - 1;
        let side = usize::from(piece.color.is_white());
        let idx = table_index(piece.color, square);
        mg[side] += MG_VALUE[role] + PST_MG[role][idx];
        eg[side] += EG_VALUE[role] + PST_EG[role][idx];
        phase += PHASE_WEIGHT[role];
    }
    let phase = phase.min(PHASE_TOTAL);
    let mg_score = mg[1] - mg[0];
    let eg_score = eg[1] - eg[0];
    let white = (mg_score * phase + eg_score * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let ours = if pos.turn().is_white() { white } else { -white };
    ours + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("valid FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn symmetric_for_both_colours() {
        let white = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let black = pos("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(evaluate(&white), evaluate(&black));
        assert!(evaluate(&white) > 50);
    }
}
