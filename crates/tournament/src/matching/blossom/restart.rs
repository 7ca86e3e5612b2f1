//! A fresh start for a solve that changed a large share of the
//! vertices: the matching, the blossoms and the duals are forgotten and
//! the duals set again from the weights alone.
//!
//! A bracket's start in the Dutch system changes the edges of every
//! player of the bracket and of the next scoregroup at once (a thousand
//! and more of ten thousand). Detached one by one, each of them is a
//! root, and every stage of the solve labels and scans all the roots
//! again to add one augmentation: O(k·n) a stage, k/2 stages. Started
//! afresh, the duals below make most stages short.
//!
//! A jump start then pairs, before the first stage, the vertices whose
//! edges nearly all weigh the same (the far players, and at a round's
//! first solve everyone), with each dual half its vertex's heaviest edge:
//! at 10,000 players the fresh solves read 0.74 G edges instead of
//! 1.23 G (docs/pairing.md, twelfth pass).

use super::{State, Weight};

/// A solve starts afresh when more than one vertex in this many changed.
pub(super) const SHARE: usize = 4;

impl<W: Weight> State<W> {
    /// Forgets the matching, every blossom and every dual, then gives
    /// each vertex `v` the dual `max(twice(v, u))` over the vertices `u`
    /// after it: what detaching the vertices one by one in increasing
    /// order from duals of zero gives (each earlier `u` already holds at
    /// least `twice(u, v)`), without the n² subtractions. Every slack is
    /// nonnegative: the earlier end of an edge holds its doubled weight.
    /// Also records each vertex's heaviest doubled edge, over all its
    /// neighbours, for [`State::jump_start`].
    pub(super) fn restart(&mut self) {
        let n = self.n;
        let zero = W::zero();
        self.mate.fill(None);
        self.label.fill(super::FREE);
        self.label_edge.fill(None);
        self.best_edge.fill(None);
        self.parent.fill(None);
        self.blossom_dual.fill(zero);
        for (v, b) in self.in_blossom.iter_mut().enumerate() {
            *b = v;
        }
        self.runs_fresh = false;
        for (v, b) in self.base.iter_mut().enumerate() {
            *b = v;
        }
        for b in std::mem::take(&mut self.live) {
            self.childs[b].clear();
            self.edges[b].clear();
        }
        self.my_best_edges.fill(None);
        self.free = (n..2 * n).rev().collect();
        // Weights compared by their rank among the distinct values: a
        // 4-byte comparison an edge instead of a wide one (n² of them).
        let (rank, by_rank) = self.ranks();
        let zero_rank = rank[0];
        self.heaviest.resize(n, 0);
        for v in 0..n {
            let list = &self.adjacency[v];
            let later = list.partition_point(|&u| u as usize <= v);
            let row = &self.twice[v * n..(v + 1) * n];
            let heaviest_of = |part: &[u32]| {
                part.iter()
                    .map(|&u| rank[row[u as usize] as usize])
                    .fold(zero_rank, u32::max)
            };
            let after = heaviest_of(&list[later..]);
            let all = after.max(heaviest_of(&list[..later]));
            self.dual[v] = self.values[by_rank[after as usize] as usize];
            self.heaviest[v] = by_rank[all as usize];
        }
        self.dual_epoch += 1;
    }

    /// Each place of `values` by the rank of its value (0 the least),
    /// and the places in increasing order of value: each value has one
    /// place, so the ranks order the values exactly.
    fn ranks(&self) -> (Vec<u32>, Vec<u32>) {
        let count = u32::try_from(self.values.len()).expect("fewer than 2^32 distinct weights");
        let mut by_rank: Vec<u32> = (0..count).collect();
        by_rank.sort_unstable_by(|&a, &b| self.values[a as usize].cmp(&self.values[b as usize]));
        let mut rank = vec![0; by_rank.len()];
        for (r, &place) in (0..count).zip(&by_rank) {
            rank[place as usize] = r;
        }
        (rank, by_rank)
    }
}

impl<W: Weight> State<W> {
    /// [`State::pair_tight_free`] right after [`State::restart`], in
    /// time linear in the vertices times those of dual zero: an edge
    /// `v`–`u` with `v < u` is tight only when `u`'s dual is zero and
    /// `v`'s is the edge's doubled weight (`v`'s dual is at least that,
    /// and an earlier `u` holds at least it as well), so only vertices of
    /// dual zero can be partners. It makes the same pairs: each vertex in
    /// increasing order takes the first tight one after it still free.
    pub(super) fn pair_tight_after_restart(&mut self) {
        let n = self.n;
        let zero = W::zero();
        let zeros: Vec<usize> = (0..n).filter(|&u| self.dual[u] == zero).collect();
        for v in 0..n {
            if self.mate[v].is_some() || self.dual[v] == zero {
                continue;
            }
            let after = zeros.partition_point(|&u| u <= v);
            let partner = zeros[after..].iter().copied().find(|&u| {
                self.mate[u].is_none() && self.twice[v * n + u] != 0 && self.slack(v, u) == zero
            });
            if let Some(u) = partner {
                self.mate[v] = Some(u);
                self.mate[u] = Some(v);
            }
        }
    }
}

/// A jump start may leave at most one vertex in this many free with a
/// dual (a root of the stages); beyond that it is undone.
pub(super) const ROOTS: usize = 16;

impl<W: Weight> State<W> {
    /// A jump start right after [`State::restart`]: the vertices from
    /// `from` on take half their heaviest doubled edge (their heaviest
    /// weight), rounded up to even, as their dual, and each of them still
    /// free, in increasing order, is matched to the first free vertex
    /// after it along a tight edge. The vertices before `from` keep the
    /// restart's duals, which cover each of their edges to a later
    /// vertex alone, so every slack stays nonnegative (an edge between
    /// two later vertices: each end holds at least half of it). When
    /// more than one vertex in [`ROOTS`] from `from` on is left free
    /// with a dual, the matching and the duals go back to what
    /// [`State::restart`] left and this returns false.
    pub(super) fn jump_start(&mut self, from: usize) -> bool {
        let n = self.n;
        let zero = W::zero();
        let restarted = self.dual[from..].to_vec();
        for v in from..n {
            let heaviest = self.values[self.heaviest[v] as usize];
            let half = heaviest.half();
            let odd = half - half.half() - half.half();
            self.dual[v] = half + odd;
        }
        self.dual_epoch += 1;
        let cap = (n - from) / ROOTS;
        let mut roots = 0;
        for v in from..n {
            if self.mate[v].is_some() || self.dual[v] == zero {
                continue;
            }
            let list = &self.adjacency[v];
            let later = list.partition_point(|&u| u as usize <= v);
            let partner = list[later..].iter().map(|&u| u as usize).find(|&u| {
                self.mate[u].is_none() && self.twice[v * n + u] != 0 && self.slack(v, u) == zero
            });
            if let Some(u) = partner {
                self.mate[v] = Some(u);
                self.mate[u] = Some(v);
                continue;
            }
            roots += 1;
            if roots > cap {
                self.mate.fill(None);
                self.dual[from..].copy_from_slice(&restarted);
                self.dual_epoch += 1;
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::Matcher;
    use crate::matching::{Weight, Wide};

    #[test]
    fn restart_finds_the_heaviest_edges_by_rank() {
        // `restart` compares the weights' ranks among the distinct
        // values, not the weights: each dual must be the heaviest doubled
        // edge to a later neighbour, and `heaviest` the heaviest over all
        // of them, as wide comparisons find them. The weights differ in
        // either limb, and are set in an order unlike theirs, so that a
        // place's number says nothing of its value.
        let mut next = super::super::lcg(5);
        for case in 0..200 {
            let n = 1 + next(30) as usize;
            let mut m = Matcher::<Wide<2>>::new(n);
            let mut w = vec![Wide::<2>::ZERO; n * n];
            for v in 0..n {
                for u in v + 1..n {
                    if next(5) > 0 {
                        let x = Wide([next(4), next(3)]);
                        w[v * n + u] = x;
                        w[u * n + v] = x;
                        m.set_weight(v, u, x);
                    }
                }
            }
            let st = &mut m.st;
            st.restart();
            let zero = Wide::ZERO;
            for v in 0..n {
                let twice = |u: usize| w[v * n + u] + w[v * n + u];
                let later = (v + 1..n).map(twice).fold(zero, Ord::max);
                let all = (0..n).filter(|&u| u != v).map(twice).fold(zero, Ord::max);
                assert_eq!(st.dual[v], later, "case {case}: dual of {v}");
                let heaviest = st.values[st.heaviest[v] as usize];
                assert_eq!(heaviest, all, "case {case}: heaviest of {v}");
                assert_eq!(heaviest.half() + heaviest.half(), heaviest);
            }
        }
    }
}
