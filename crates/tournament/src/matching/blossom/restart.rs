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
        for (v, b) in self.base.iter_mut().enumerate() {
            *b = v;
        }
        for b in std::mem::take(&mut self.live) {
            self.childs[b].clear();
            self.edges[b].clear();
        }
        self.my_best_edges.fill(None);
        self.free = (n..2 * n).rev().collect();
        for v in 0..n {
            let list = &self.adjacency[v];
            let later = list.partition_point(|&u| u <= v);
            let row = &self.twice[v * n..(v + 1) * n];
            let best = list[later..]
                .iter()
                .map(|&u| row[u])
                .fold(zero, |m, place| {
                    let x = self.values[place as usize];
                    if x > m { x } else { m }
                });
            self.dual[v] = best;
        }
        self.dual_epoch += 1;
    }
}
