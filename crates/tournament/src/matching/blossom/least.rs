//! The least dual a changed vertex may start a warm solve with.
//!
//! A warm solve gives each changed vertex `v` the least dual that keeps
//! every edge of `v` of nonnegative slack: the largest doubled weight
//! less the far end's dual, over `v`'s list (n entries at 10,000 players:
//! a 13-limb subtraction and comparison each). Along the list the
//! doubled weight mostly stays the same (the far players' pairs all
//! weigh one value), and for one weight the largest difference is the
//! one with the least dual: [`State::least_dual`] keeps the least dual
//! of each run of one weight and subtracts once a run.

use super::{State, Weight};

impl<W: Weight> State<W> {
    /// The least dual that keeps every edge of `v`'s list of
    /// nonnegative slack (zero if none needs more): the largest
    /// `twice(v, u) - dual[u]` over the list, found a run of one weight
    /// at a time.
    pub(super) fn least_dual(&self, v: usize) -> W {
        let row = &self.twice[v * self.n..(v + 1) * self.n];
        let mut least = W::zero();
        let mut list = self.adjacency[v].iter().map(|&u| u as usize);
        let Some(first) = list.next() else {
            return least;
        };
        let (mut place, mut lowest) = (row[first], self.dual[first]);
        for u in list {
            if row[u] == place {
                lowest = lowest.min(self.dual[u]);
            } else {
                least = least.max(self.values[place as usize] - lowest);
                (place, lowest) = (row[u], self.dual[u]);
            }
        }
        least.max(self.values[place as usize] - lowest)
    }

    /// [`State::least_dual`] an entry at a time (the tests' reference).
    #[cfg(test)]
    pub(super) fn least_dual_plain(&self, v: usize) -> W {
        let mut least = W::zero();
        for &u in &self.adjacency[v] {
            let u = u as usize;
            least = least.max(self.twice(v, u) - self.dual[u]);
        }
        least
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Matcher, lcg};
    use crate::matching::Wide;

    #[test]
    fn least_duals_by_runs_are_those_entry_by_entry() {
        let mut next = lcg(19);
        let mut compared = 0;
        for case in 0..40 {
            let n = 6 + next(30) as usize;
            let head = next(n as u64) as usize;
            let mut m = Matcher::<Wide<2>>::new(n);
            let far = Wide::from_u64(1 + next(8)).shifted(60 + next(10) as usize);
            let draw = |v: usize, u: usize, next: &mut dyn FnMut(u64) -> u64| {
                if v >= head && u >= head && next(8) != 0 {
                    far
                } else if next(4) == 0 {
                    Wide::ZERO
                } else {
                    Wide::from_u64(next(1 << 20)).shifted(next(70) as usize)
                }
            };
            for v in 0..n {
                for u in v + 1..n {
                    m.set_weight(v, u, draw(v, u, &mut next));
                }
            }
            for step in 0..6 {
                m.solve();
                for v in 0..n {
                    assert_eq!(
                        m.st.least_dual(v),
                        m.st.least_dual_plain(v),
                        "case {case} step {step} vertex {v}"
                    );
                    compared += 1;
                }
                let v = next(n as u64) as usize;
                for u in (0..n).filter(|&u| u != v) {
                    m.set_weight(v, u, draw(v, u, &mut next));
                }
            }
        }
        assert!(compared > 2_000, "{compared}");
    }
}
