//! The grain of the weights: the largest power of two that divides the
//! weight of every edge.
//!
//! Every matching then weighs a multiple of it, and so does the
//! difference between any two: a matching that is not a maximum one
//! weighs at least a grain less. The Dutch system raises a player's
//! edges by small addends below the grain of the criteria's fields
//! (`dutch/graph/shown.rs`), which that bound shows cannot outweigh a
//! positive reduced cost, where the reduced cost alone (a bound of half
//! itself) may not.
//!
//! The matcher counts its edges by the trailing zero bits of their
//! weights as they are set, so the grain is read without a scan.

use super::{Matcher, Weight};

impl<W: Weight> Matcher<W> {
    /// Counts `edges` edges of weight place `place` in (`add`) or out
    /// (place zero, no edge, is not counted).
    pub(super) fn count_edges(&mut self, place: u32, edges: usize, add: bool) {
        if place == 0 {
            return;
        }
        // The place holds the weight doubled: one more zero bit.
        let zeros = self.st.values[place as usize].trailing_zeros() as usize - 1;
        if self.by_zeros.len() <= zeros {
            self.by_zeros.resize(zeros + 1, 0);
        }
        if add {
            self.by_zeros[zeros] += edges;
        } else {
            self.by_zeros[zeros] -= edges;
        }
    }

    /// A power of two that divides the weight of every edge but `ones`
    /// edges of weight one ([`Matcher::grain`]): every matching that
    /// holds those edges weighs a multiple of it. `None` where the
    /// weights show none below the largest value (no other edge).
    pub(crate) fn unit(&self, ones: usize) -> Option<W> {
        W::bit(self.grain(ones))
    }

    /// The most trailing zero bits that the weight of every edge has,
    /// not counting `ones` edges of weight one among them (isolated
    /// pairs, which every maximum weight matching holds): `2^grain`
    /// divides the weight of every other edge. `u32::MAX` when no other
    /// edge is left.
    ///
    /// # Panics
    ///
    /// If fewer than `ones` edges have an odd weight.
    fn grain(&self, ones: usize) -> u32 {
        let mut counts = self.by_zeros.iter().copied();
        let odd = counts.next().unwrap_or(0);
        assert!(
            odd >= ones,
            "{ones} edges of weight one, {odd} of odd weight"
        );
        if odd > ones {
            return 0;
        }
        counts.position(|c| c > 0).map_or(u32::MAX, |k| {
            u32::try_from(k + 1).expect("fewer bits than 2^32")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Matcher, lcg};

    /// The grain by a scan of every edge, not counting `ones` edges of
    /// weight one.
    fn scanned(m: &Matcher<i64>, ones: usize) -> u32 {
        let n = m.len();
        let mut left = ones;
        let mut grain = u32::MAX;
        for v in 0..n {
            for u in v + 1..n {
                let w = m.weight(v, u);
                if w == 1 && left > 0 {
                    left -= 1;
                } else if w != 0 {
                    grain = grain.min(w.trailing_zeros());
                }
            }
        }
        grain
    }

    #[test]
    fn the_grain_counted_as_edges_are_set_is_the_one_a_scan_finds() {
        let mut next = lcg(29);
        for case in 0..300 {
            let n = 2 + next(12) as usize;
            let mut m = Matcher::<i64>::new(n);
            let shift = next(5);
            if next(2) == 0 {
                m.fill(|v, u| (((v * 7 + u * 3) % 5) as i64 * 16) << shift);
            }
            for _ in 0..next(3 * n as u64) {
                let (v, u) = (next(n as u64) as usize, next(n as u64) as usize);
                if v == u {
                    continue;
                }
                // Mostly multiples of 16, now and then another weight.
                let w = match next(8) {
                    0 => 0,
                    1 => next(40) as i64,
                    _ => (next(6) as i64) << (4 + shift),
                };
                m.set_weight(v, u, w);
            }
            if next(3) == 0 {
                m.clear_edges(next(n as u64) as usize);
            }
            let ones = (0..n)
                .flat_map(|v| (v + 1..n).map(move |u| (v, u)))
                .filter(|&(v, u)| m.weight(v, u) == 1)
                .count();
            // Every edge of weight one may be left out, or only some.
            for kept in 0..=ones {
                assert_eq!(
                    m.grain(kept),
                    scanned(&m, kept),
                    "case {case}, {kept} of {ones}"
                );
            }
            m.solve();
        }
    }
}
