//! Perft: counting the leaf nodes of the legal move tree, the standard test
//! of a move generator, with the per-move breakdown ("divide").
//!
//! ```
//! use rochade_laws::perft;
//! use shakmaty::Chess;
//!
//! assert_eq!(perft::count(&Chess::default(), 3), 8_902);
//! ```

use shakmaty::{CastlingMode, Chess, Position};

/// Leaf nodes of the legal move tree `depth` plies deep.
pub fn count(pos: &Chess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                count(&child, depth - 1)
            })
            .sum(),
    }
}

/// Leaf nodes below each legal move, the move in UCI notation (Chess960
/// castling as king onto rook in [`CastlingMode::Chess960`]), in the order
/// the moves are generated. The counts add up to [`count`].
pub fn divide(pos: &Chess, depth: u32, mode: CastlingMode) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m.to_uci(mode).to_string(), count(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_adds_up() {
        let pos = Chess::default();
        let parts = divide(&pos, 3, CastlingMode::Standard);
        assert_eq!(parts.len(), 20);
        assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), count(&pos, 3));
        assert!(parts.contains(&("e2e4".to_owned(), 600)));
    }
}
