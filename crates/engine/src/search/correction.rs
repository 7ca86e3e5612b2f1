//! Correction history: how far the static evaluation has been from the
//! search's score in positions with the same pawns, learnt during the
//! search and added to later static evaluations of such positions.
//!
//! A linear evaluation misjudges whole families of positions the same way
//! (a blocked centre, an advanced pawn chain, a pawn storm); the search
//! finds out, and the correction carries that over to the positions it has
//! not searched yet. It sharpens the pruning that trusts the static
//! evaluation (reverse futility, null move, futility, quiescence's stand
//! pat).

use shakmaty::{Chess, Color, Position};

use crate::params::{CORRECTION_LIMIT, CORRECTION_MAX_WEIGHT};

/// Entries per side; a power of two.
const SIZE: usize = 16_384;
/// Fixed-point scale of the stored corrections.
const GRAIN: i32 = 256;
/// The weights of an update are out of this.
const WEIGHT_SCALE: i32 = 256;

/// The correction table, one per side to move, indexed by a hash of the
/// pawns.
///
/// # Examples
///
/// ```
/// use rochade_engine::search::correction::Correction;
/// use shakmaty::Chess;
/// let mut c = Correction::default();
/// let pos = Chess::default();
/// assert_eq!(c.correct(&pos, 30), 30);
/// // Deep searches keep finding this pawn structure 100 cp better.
/// for _ in 0..50 {
///     c.update(&pos, 10, 30, 130);
/// }
/// assert!(c.correct(&pos, 30) > 100);
/// ```
#[derive(Debug, Clone)]
pub struct Correction {
    table: Vec<[i32; 2]>,
}

impl Default for Correction {
    fn default() -> Self {
        Self {
            table: vec![[0; 2]; SIZE],
        }
    }
}

impl Correction {
    /// `eval`, the static evaluation of `pos`, corrected.
    #[must_use]
    pub fn correct(&self, pos: &Chess, eval: i32) -> i32 {
        eval + self.table[index(pos)][side(pos)] / GRAIN
    }

    /// Moves the correction of `pos`'s pawns towards `score - eval`, the
    /// more the deeper the search that found `score`.
    pub fn update(&mut self, pos: &Chess, depth: i32, eval: i32, score: i32) {
        let slot = &mut self.table[index(pos)][side(pos)];
        let weight = (depth + 1).clamp(1, CORRECTION_MAX_WEIGHT);
        let target = (score - eval).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * GRAIN;
        *slot = (*slot * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
    }
}

/// The side to move's column.
fn side(pos: &Chess) -> usize {
    usize::from(pos.turn() == Color::White)
}

/// A hash of both sides' pawns onto the table.
fn index(pos: &Chess) -> usize {
    let board = pos.board();
    let pawns = board.pawns();
    let white = (pawns & board.white()).0;
    let black = (pawns & board.black()).0;
    let mixed = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    (mixed >> (64 - SIZE.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn corrections_follow_the_pawns_and_the_side_to_move() {
        let mut c = Correction::default();
        let a = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        // Same pawns, pieces elsewhere: the same correction.
        let a2 = pos("3k4/pp6/8/8/8/8/PP6/3K4 w - - 0 1");
        // Same pawns, Black to move: its own column.
        let b = pos("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
        for _ in 0..100 {
            c.update(&a, 12, 0, 80);
        }
        assert!(
            (70..=80).contains(&c.correct(&a, 0)),
            "{}",
            c.correct(&a, 0)
        );
        assert_eq!(c.correct(&a2, 0), c.correct(&a, 0));
        assert_eq!(c.correct(&b, 0), 0);
    }

    #[test]
    fn one_shallow_search_moves_it_little_and_wild_scores_are_capped() {
        let mut c = Correction::default();
        let p = Chess::default();
        c.update(&p, 1, 0, 100);
        assert!(c.correct(&p, 0) <= 1);
        for _ in 0..500 {
            c.update(&p, 20, 0, 30_000);
        }
        assert!(c.correct(&p, 0) <= CORRECTION_LIMIT);
    }
}
