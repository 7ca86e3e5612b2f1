//! The triangular table of a bracket's base weights, kept as the
//! weights' places in the matcher.
//!
//! A bracket of thousands of players (with the next scoregroup) weighs
//! millions of pairs; held as weights (104 bytes each at 10,000
//! players) the table took more than a gigabyte, page-faulted in and
//! zeroed by the kernel. Every weight of the table is set in the
//! matcher as the table is filled, so its place there (4 bytes) names
//! it: [`Base::get`] reads the weight back from the matcher.

use crate::matching::{Matcher, Wide};

/// The table by local index (`get(li, lj)` for `lj < li`; zero
/// outside): rows `start..end`, row `li` holding `lj` in `0..li`, one
/// after another in one buffer that every bracket reuses.
pub(super) struct Base {
    start: usize,
    end: usize,
    places: Vec<u32>,
}

/// The place of weight zero in every matcher.
const ZERO: u32 = 0;

/// The cells of rows `0..x` of a [`Base`] that began at row 0.
fn triangle(x: usize) -> usize {
    x * x.saturating_sub(1) / 2
}

impl Base {
    /// An empty table.
    pub(super) fn new() -> Base {
        Base {
            start: 0,
            end: 0,
            places: Vec::new(),
        }
    }

    /// Rows `start..end` from `weight(li, lj)`, in place of the last
    /// ones; each weight is set in `m` as the edge of the local pair's
    /// players (`global`), row by row (a player has no edge to itself).
    /// Into a matcher with no edges whose vertices are the local
    /// indices, in one pass of [`Matcher::fill_keyed`] (a bracket of
    /// thousands weighs millions of pairs: set one by one, each wrote
    /// its mirror in another row).
    pub(super) fn fill<const L: usize>(
        &mut self,
        m: &mut Matcher<Wide<L>>,
        (start, end): (usize, usize),
        global: &[usize],
        mut weight: impl FnMut(usize, usize) -> Wide<L>,
    ) {
        self.start = start;
        self.end = end;
        self.places.clear();
        let local = global.iter().enumerate().all(|(l, &g)| l == g);
        if local && m.is_edgeless() {
            m.fill_keyed(
                |v, u| {
                    if (start..end).contains(&u) {
                        weight(u, v)
                    } else {
                        Wide::ZERO
                    }
                },
                |w| w,
            );
            for li in start..end {
                self.places.extend((0..li).map(|lj| m.place(li, lj)));
            }
            return;
        }
        let mut last = (Wide::ZERO, ZERO);
        for li in start..end {
            for lj in 0..li {
                let w = weight(li, lj);
                if w != last.0 {
                    last = (w, m.place_of(w));
                }
                let (gi, gj) = (global[li], global[lj]);
                if gi != gj {
                    m.set_place(gi, gj, last.1);
                }
                self.places.push(last.1);
            }
        }
    }

    /// The place of local pair (`li`, `lj`) if the table holds it.
    fn index(&self, li: usize, lj: usize) -> Option<usize> {
        (self.start <= li && li < self.end && lj < li)
            .then(|| triangle(li) - triangle(self.start) + lj)
    }

    /// Whether the table holds local pair (`li`, `lj`).
    pub(super) fn holds(&self, li: usize, lj: usize) -> bool {
        self.index(li, lj).is_some()
    }

    /// The place in `m` of local pair (`li`, `lj`)'s base weight, `lj <
    /// li` (zero's outside the table).
    pub(super) fn place(&self, li: usize, lj: usize) -> u32 {
        self.index(li, lj).map_or(ZERO, |i| self.places[i])
    }

    /// The base weight of local pair (`li`, `lj`), `lj < li`, `m` the
    /// matcher the table was filled into.
    pub(super) fn get<const L: usize>(
        &self,
        m: &Matcher<Wide<L>>,
        li: usize,
        lj: usize,
    ) -> Wide<L> {
        m.weight_at(self.place(li, lj))
    }

    /// Clears local pair (`li`, `lj`) if the table holds it.
    pub(super) fn clear(&mut self, li: usize, lj: usize) {
        if let Some(i) = self.index(li, lj) {
            self.places[i] = ZERO;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_holds_every_cell_and_sets_it() {
        // A large table, then a small one in the same buffer, then a
        // large one again: every cell where it was weighed, set in the
        // matcher as its players' edge, cleared where cleared, zero
        // outside.
        let weight = |li: usize, lj: usize| Wide::<2>::from_u64(((li * 1000 + lj) % 7000) as u64);
        let n = 100;
        let global: Vec<usize> = (0..n).map(|l| (l * 7) % n).collect();
        let mut base = Base::new();
        for (start, end) in [(20, 90), (3, 9), (0, 80)] {
            let mut m = Matcher::<Wide<2>>::new(n);
            let mut plain = Matcher::<Wide<2>>::new(n);
            base.fill(&mut m, (start, end), &global, weight);
            for li in start..end {
                for lj in 0..li {
                    plain.set_weight(global[li], global[lj], weight(li, lj));
                }
            }
            assert_eq!(m.solve(), plain.solve());
            base.clear(end - 1, 2);
            for li in 0..end + 2 {
                for lj in 0..li + 2 {
                    let held = start <= li && li < end && lj < li;
                    let want = if !held || (li, lj) == (end - 1, 2) {
                        Wide::ZERO
                    } else {
                        weight(li, lj)
                    };
                    assert_eq!(base.holds(li, lj), held, "{li}, {lj}");
                    assert_eq!(base.get(&m, li, lj), want, "{li}, {lj}");
                }
            }
        }
    }
}
