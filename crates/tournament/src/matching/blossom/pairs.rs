//! Edges as the S-blossoms' lists of least-slack edges hold them.
//!
//! In a warm stage every scanned edge to another S-blossom joins the
//! scanning blossom's list (`my_best_edges`): millions of edges at
//! 10,000 players, in lists grown an edge at a time and dropped at
//! every stage. As two vertices the way adjacency lists hold them, an
//! entry takes 8 bytes where an [`Edge`] takes 16: half the bytes
//! copied as the lists grow, and half the pages the kernel clears for
//! them.

use super::{Edge, vertex};

/// An edge in a list of least-slack edges.
pub(super) type Pair = (u32, u32);

/// Edge `k` as the lists hold it.
pub(super) fn pair((v, w): Edge) -> Pair {
    (vertex(v), vertex(w))
}

/// The edge a list's entry holds.
pub(super) fn edge((v, w): Pair) -> Edge {
    (v as usize, w as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edge_is_the_edge_its_pair_holds() {
        for k in [(0, 1), (7, 3), (9_999, 10_000), (u32::MAX as usize - 1, 5)] {
            assert_eq!(edge(pair(k)), k);
        }
        assert_eq!(std::mem::size_of::<Pair>() * 2, std::mem::size_of::<Edge>());
    }
}
