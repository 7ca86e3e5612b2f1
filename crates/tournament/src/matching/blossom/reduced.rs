//! What an edge lacks of being tight at the duals the last solve left:
//! its reduced cost, which shows, without another solve, that the edge is
//! in no maximum weight matching, and by how much any matching through
//! it falls short of the maximum.
//!
//! At the end of a solve the vertex duals `y` and the blossom duals `z`
//! are an optimal solution of the matching's dual program (Edmonds): for
//! every edge `v`–`u`, `y(v) + y(u) + 2·Σ z(B) - 2·w(v, u) >= 0`, the sum
//! over the blossoms holding both ends, and the matching meets every
//! condition of complementary slackness. So a matching `N` through an
//! edge of reduced cost `r` (doubled, as the duals are) weighs at most
//! the maximum less `r / 2`.
//!
//! That stays a bound when vertices of a pair of the matching leave the
//! graph without another solve (`Graph::keep`): a blossom holding both
//! keeps its dual, and one holding only one of them is, for the graph
//! left, an even set whose dual the remaining leaves may share, which
//! only adds to the reduced costs of edges leaving it. Reduced costs read
//! from the duals as they are are therefore never above the true ones.

use super::{Matcher, Weight};

/// Not one of the vertex's blossoms.
const APART: u32 = u32::MAX;

impl<W: Weight> Matcher<W> {
    /// The reduced cost, doubled, of each edge `v`–`u` for `u` in `us`
    /// at the duals the last solve left (the weights as they are now).
    ///
    /// The blossoms holding both ends are those around `v` from the
    /// first one met going out from `u`: `v`'s blossoms are marked with
    /// the sum of their duals and of those around them, then each `u`
    /// walks out to the first marked one.
    pub(crate) fn reduced_costs(&mut self, v: usize, us: &[usize]) -> Vec<W> {
        let st = &self.st;
        let nodes = st.parent.len();
        self.marks.resize(nodes, APART);
        let mut around: Vec<(usize, W)> = Vec::new();
        let mut b = st.parent[v];
        while let Some(x) = b {
            around.push((x, st.blossom_dual[x]));
            b = st.parent[x];
        }
        let mut sum = W::zero();
        for (k, entry) in around.iter_mut().enumerate().rev() {
            sum = sum + entry.1;
            entry.1 = sum;
            self.marks[entry.0] = u32::try_from(k).expect("fewer than 2^32 blossoms");
        }
        let marks = &self.marks;
        let costs = us
            .iter()
            .map(|&u| {
                let mut common = W::zero();
                if !around.is_empty() && st.in_blossom[u] == st.in_blossom[v] {
                    let mut b = st.parent[u];
                    while let Some(x) = b {
                        if marks[x] != APART {
                            common = around[marks[x] as usize].1;
                            break;
                        }
                        b = st.parent[x];
                    }
                }
                st.slack(v, u) + common + common
            })
            .collect();
        for &(x, _) in &around {
            self.marks[x] = APART;
        }
        costs
    }
}

#[cfg(test)]
mod tests {
    use super::super::lcg;
    use crate::matching::few_weights;

    #[test]
    fn an_edge_of_positive_reduced_cost_is_in_no_maximum_matching_and_bounds_its_loss() {
        // Random graphs of a few values (many equal-weight optima, many
        // blossoms): after each solve, for every edge, the heaviest
        // matching through it (brute force) weighs at most the maximum
        // less half its reduced cost, and exactly the maximum only if
        // the cost is zero; the same after pairs of the matching are
        // kept (their vertices keep only their one edge, not solved).
        let mut next = lcg(41);
        let mut positive = 0;
        for case in 0..300 {
            let n = 4 + next(7) as usize;
            let (w, mut m) = few_weights(&mut next, n, 2);
            let mate = m.solve();
            let mut gone = vec![false; n];
            for round in 0..2 {
                let best = heaviest(n, &w, &gone, None);
                for v in (0..n).filter(|&v| !gone[v]) {
                    let us: Vec<usize> = (0..n)
                        .filter(|&u| u != v && !gone[u] && w[v * n + u] != 0)
                        .collect();
                    let costs = m.reduced_costs(v, &us);
                    for (&u, &cost) in us.iter().zip(&costs) {
                        assert!(cost >= 0, "case {case} round {round}: {v}-{u} costs {cost}");
                        let through = heaviest(n, &w, &gone, Some((v, u)));
                        assert!(
                            2 * through <= 2 * best - cost,
                            "case {case} round {round}: {v}-{u} costs {cost}, \
                             {through} through it against {best}"
                        );
                        positive += usize::from(cost > 0);
                    }
                }
                // Keep a pair of the matching: its vertices leave the
                // graph (the bounds hold without another solve).
                let Some(v) = (0..n).find(|&v| !gone[v] && mate[v].is_some()) else {
                    break;
                };
                let u = mate[v].expect("matched");
                for x in [v, u] {
                    gone[x] = true;
                    m.clear_edges(x);
                }
                m.set_weight(v, u, 1);
            }
        }
        assert!(positive > 1000, "{positive} edges of positive cost");
    }

    /// The heaviest matching of the vertices not `gone`, through `edge`
    /// when given (brute force; `i64::MIN / 4` if none).
    fn heaviest(n: usize, w: &[i64], gone: &[bool], edge: Option<(usize, usize)>) -> i64 {
        let mut used = gone.to_vec();
        let mut start = 0;
        if let Some((v, u)) = edge {
            used[v] = true;
            used[u] = true;
            start = w[v * n + u];
        }
        start + crate::matching::heaviest(n, w, &mut used)
    }
}
