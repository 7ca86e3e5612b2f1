//! Heavy trees: roots whose trees grew large without an augmentation
//! are labelled first in the next stages of a solve, so that they sit
//! at the bottom of the stack and are scanned last.
//!
//! The far players' pairs are all tight (every far dual is half the far
//! weight). A free far player left by the jump start (the far block has
//! an odd number of players, or its last one has no compatible partner
//! left) is a root whose tree takes in every far player: at 10,000
//! players, seed 42, the round's first solve scanned all 9,271 far
//! players in each of its first twelve stages, 120,523 of its 128,910
//! scanned vertices (docs/pairing.md, twentieth pass). The roots are
//! labelled in increasing order and the queue is a stack, so the last
//! root, that far player, was scanned first, although each of those
//! stages augmented between two other roots. Any order of the queue
//! finds a maximum weight matching; the order only chooses among
//! matchings of equal weight. [`max_weight_matching`](super::super::max_weight_matching)
//! keeps networkx's order: only the kept matcher ([`State::warm`])
//! reorders.

use super::{State, Weight};

/// A root whose tree had more than this many vertices scanned in a
/// stage that augmented elsewhere is heavy for the rest of the solve.
pub(super) const HEAVY_TREE: u32 = 32;

impl<W: Weight> State<W> {
    /// Forgets the heavy roots (a new solve).
    pub(super) fn forget_heavy(&mut self) {
        for r in self.trees.drain(..) {
            self.tree_pops[r] = 0;
        }
        if self.any_heavy {
            self.heavy.fill(false);
            self.any_heavy = false;
        }
        self.tree_root = usize::MAX;
    }

    /// Counts the scan of S-vertex `v` for the tree it belongs to: a
    /// vertex whose top-level blossom has no label edge is (in) a root,
    /// and the scans that follow it, until the next root's, are of its
    /// tree (the queue is a stack).
    pub(super) fn count_scan(&mut self, v: usize) {
        if !self.warm || !self.order_heavy {
            return;
        }
        let top = self.in_blossom[v];
        if self.label_edge[top].is_none() {
            self.tree_root = self.base[top];
        }
        let r = self.tree_root;
        if r < self.n {
            if self.tree_pops[r] == 0 {
                self.trees.push(r);
            }
            self.tree_pops[r] += 1;
        }
    }

    /// After a stage that augmented: the roots still free whose trees
    /// had more than [`HEAVY_TREE`] vertices scanned become heavy.
    pub(super) fn mark_heavy(&mut self) {
        for r in self.trees.drain(..) {
            if self.tree_pops[r] > HEAVY_TREE && self.mate[r].is_none() {
                self.heavy[r] = true;
                self.any_heavy = true;
                #[cfg(test)]
                {
                    self.heavy_marks += 1;
                }
            }
            self.tree_pops[r] = 0;
        }
        self.tree_root = usize::MAX;
    }

    /// Whether vertex `v`, a root, is labelled in the pass `heavy_pass`
    /// (heavy roots first, then the others).
    pub(super) fn in_pass(&self, v: usize, heavy_pass: bool) -> bool {
        self.heavy[v] == heavy_pass
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Matcher, lcg};
    use crate::matching::max_weight_matching;

    /// The weight of `mate` in `w` (`n` by `n`).
    fn weight(w: &[i64], n: usize, mate: &[Option<usize>]) -> i64 {
        (0..n)
            .filter_map(|v| mate[v].filter(|&u| v < u).map(|u| w[v * n + u]))
            .sum()
    }

    #[test]
    fn heavy_roots_scanned_last_keep_the_matching_maximum() {
        // Rounds in small as a bracket's first solve sees them: head
        // players whose pairs weigh more than the far weight, far
        // players (an odd number of them, more than a heavy tree) whose
        // pairs nearly all weigh the far weight (all tight: a far player
        // left free has a tree that takes in the block), and lighter
        // pairs between the two. Through fresh and warm solves, the
        // matcher that labels heavy roots first against one that does
        // not (the mates may differ among matchings of equal weight):
        // the same weight at every solve, that of a fresh matching, and
        // the optimality conditions.
        let mut next = lcg(83);
        let mut marks = 0;
        for case in 0..30 {
            let head = 4 + next(16) as usize;
            let far_count = 2 * (super::HEAVY_TREE as usize + next(12) as usize) + 1;
            let n = head + far_count;
            let far = 4 * (1 + next(20) as i64);
            let draw =
                |v: usize, u: usize, next: &mut dyn FnMut(u64) -> u64| match (v < head, u < head) {
                    (true, true) if next(4) > 0 => far + 1 + next(2 * far as u64) as i64,
                    (false, false) if next(16) > 0 => far,
                    (true, false) | (false, true) if next(2) > 0 => 1 + next(far as u64 - 1) as i64,
                    _ => 0,
                };
            let mut w = vec![0i64; n * n];
            let mut ordered = Matcher::<i64>::new(n);
            let mut unordered = Matcher::<i64>::new(n);
            unordered.set_unordered();
            for step in 0..6 {
                // Everyone at first, then a few head players (a warm
                // solve) or the head (fresh, as a bracket's start).
                let changed: Vec<usize> = match step {
                    0 => (0..n).collect(),
                    _ if step % 2 == 0 => (0..head).collect(),
                    _ => vec![next(head as u64) as usize, next(head as u64) as usize],
                };
                for v in changed {
                    for u in (0..n).filter(|&u| u != v) {
                        let x = draw(v, u, &mut next);
                        w[v * n + u] = x;
                        w[u * n + v] = x;
                        ordered.set_weight(v, u, x);
                        unordered.set_weight(v, u, x);
                    }
                }
                let a = ordered.solve();
                let b = unordered.solve();
                if let Err(e) = ordered.check() {
                    panic!("case {case} step {step}: {e}");
                }
                let want = weight(&w, n, &max_weight_matching(n, &w, false));
                assert_eq!(weight(&w, n, &a), want, "case {case} step {step}");
                assert_eq!(weight(&w, n, &b), want, "case {case} step {step}");
            }
            marks += ordered.st.heavy_marks;
            assert_eq!(unordered.st.heavy_marks, 0);
        }
        // Heavy roots were found, and labelled first.
        assert!(marks > 20, "{marks} heavy roots");
    }
}
