//! The vertices outside a large top-level blossom, so that a scan of one
//! of its leaves reads only the neighbours it may have outside it.
//!
//! In phase 8 of a bracket (each S1 player's opponent, one warm solve a
//! player), the players not yet paired make one blossom of most of the
//! bracket: each solve frees a vertex inside it, labels the blossom S
//! and scans every leaf, n entries each, almost all of them inside the
//! blossom. The runs (`runs.rs`) pass over those a run at a time, but
//! the pairs already fixed break the blossom into short runs (at 3,001
//! players, seed 1, a binary search every few entries was a fifth of
//! the round). A leaf's neighbours outside its blossom are among the
//! vertices outside it, a few hundred of a bracket's thousand and more:
//! a scan reads that list instead, in the same increasing order.

use super::{State, Weight};

/// A blossom of fewer leaves is scanned through its leaves' own lists.
pub(super) const OUTSIDE_FROM: usize = 64;

impl<W: Weight> State<W> {
    /// Whether a scan of `v` reads [`State::outside`] instead of `v`'s
    /// list: `v` lies in a blossom of at least [`OUTSIDE_FROM`] leaves
    /// and the vertices outside it, which the list is made of at the
    /// first such scan of the stage, are fewer than `v`'s neighbours.
    pub(super) fn reads_outside(&mut self, v: usize) -> bool {
        let b = self.in_blossom[v];
        if self.plain || !self.is_blossom(b) || self.leaf_count[b] < OUTSIDE_FROM {
            return false;
        }
        if self.outside_of != Some((b, self.born[b])) {
            self.find_outside(b);
        }
        self.outside.len() < self.adjacency[v].len()
    }

    /// Lists, in increasing order, the vertices outside blossom `b` that
    /// may have an edge to one of its leaves: not those without a live
    /// edge, nor those whose one live edge leads outside `b` (a pair
    /// already fixed).
    fn find_outside(&mut self, b: usize) {
        let n = self.n;
        let mut list = std::mem::take(&mut self.outside);
        list.clear();
        for u in 0..n {
            if self.in_blossom[u] == b {
                continue;
            }
            let live = self.adjacency[u].len() - self.dead[u];
            if live == 0 {
                continue;
            }
            if live == 1 {
                let row = &self.twice[u * n..(u + 1) * n];
                let only = self.adjacency[u]
                    .iter()
                    .map(|&x| x as usize)
                    .find(|&x| row[x] != 0);
                if only.is_some_and(|x| self.in_blossom[x] != b) {
                    continue;
                }
            }
            list.push(super::vertex(u));
        }
        self.outside = list;
        self.outside_of = Some((b, self.born[b]));
    }
}

#[cfg(test)]
mod tests {
    use super::super::beside::{Next, SmallRound};
    use super::super::lcg;

    #[test]
    fn leaves_scanned_through_the_vertices_outside_their_blossom_change_nothing() {
        // Phase 8 in small: a block of players whose pairs nearly all
        // weigh the same (one blossom once a mate inside it is freed),
        // and decisions that each fix one pair (its two vertices keep
        // one edge) and change another player's edges. The stages then
        // scan large blossoms through the vertices outside them: the
        // same mates at every solve as a matcher that reads every entry
        // of every list, the optimality conditions, and fewer entries
        // than a quarter of its (the runs alone read more than a third).
        let mut next = lcg(29);
        let (mut fast_visits, mut plain_visits) = (0, 0);
        for case in 0..16 {
            let head = 2 + next(6) as usize;
            let n = head + 80 + next(90) as usize;
            let far = 2 * (10 + next(10) as i64);
            let far_pair = |next: Next<'_>| if next(30) == 0 { 0 } else { far };
            let round = SmallRound {
                head,
                n,
                far,
                far_pair: &far_pair,
            };
            let (fast, plain) = round.fixing_pairs(&mut next, 24, case);
            fast_visits += fast.st.visits;
            plain_visits += plain.st.visits;
        }
        assert!(
            fast_visits * 4 < plain_visits,
            "{fast_visits} entries looked at against {plain_visits}"
        );
    }
}
