//! Maximum weight matching, the engine under the Dutch system.
//!
//! bbpPairings pairs a bracket by finding a maximum weight matching
//! whose edge weights encode the criteria of C.04.3 one above the other;
//! [`max_weight_matching`] is that matching (Edmonds' blossom algorithm)
//! and [`Wide`] the integers wide enough to hold such weights.
//!
//! ```
//! use rochade_tournament::matching::max_weight_matching;
//!
//! // A triangle 0-1-2 with weights 1, 2, 3 (on 1-2): the heaviest edge wins.
//! let w = vec![0i64, 1, 2, 1, 0, 3, 2, 3, 0];
//! assert_eq!(max_weight_matching(3, &w, true), vec![None, Some(2), Some(1)]);
//! ```

mod blossom;
mod wide;

#[cfg(test)]
pub(crate) use blossom::lcg;
pub use blossom::{Matcher, max_weight_matching};
pub use wide::Wide;

use std::ops::{Add, Sub};

/// The integers a matching can weigh edges with: exact, ordered, and
/// halved without loss on even values.
pub trait Weight: Copy + Ord + std::hash::Hash + Add<Output = Self> + Sub<Output = Self> {
    /// Zero (no edge).
    fn zero() -> Self;
    /// This value divided by two, rounded down.
    #[must_use]
    fn half(self) -> Self;

    /// The number of zero bits below the lowest one (at least the
    /// type's width for zero).
    fn trailing_zeros(self) -> u32;

    /// Two to the power `k`, where it is below the largest value.
    fn bit(k: u32) -> Option<Self>;

    /// `self + plus - minus` (the matching's slack: two duals less
    /// twice a weight), in one pass where that is faster.
    #[must_use]
    fn add_sub(self, plus: Self, minus: Self) -> Self {
        self + plus - minus
    }
}

impl Weight for i64 {
    fn zero() -> i64 {
        0
    }

    fn half(self) -> i64 {
        self.div_euclid(2)
    }

    fn trailing_zeros(self) -> u32 {
        i64::trailing_zeros(self)
    }

    fn bit(k: u32) -> Option<i64> {
        (k < 62).then(|| 1 << k)
    }
}

/// Tests: the heaviest matching of the vertices not `used` (`w` an
/// n × n table, zero for no edge), by trying every matching.
#[cfg(test)]
pub(crate) fn heaviest(n: usize, w: &[i64], used: &mut [bool]) -> i64 {
    let Some(v) = (0..n).find(|&v| !used[v]) else {
        return 0;
    };
    used[v] = true;
    let mut best = heaviest(n, w, used);
    for u in v + 1..n {
        if !used[u] && w[v * n + u] != 0 {
            used[u] = true;
            best = best.max(w[v * n + u] + heaviest(n, w, used));
            used[u] = false;
        }
    }
    used[v] = false;
    best
}

/// Tests: a graph of `n` vertices where three pairs in four have an
/// edge, weighing `unit` times 1, 2 or 3 (many optima, many blossoms),
/// as an n × n table and a matcher.
#[cfg(test)]
pub(crate) fn few_weights(
    next: &mut impl FnMut(u64) -> u64,
    n: usize,
    unit: i64,
) -> (Vec<i64>, Matcher<i64>) {
    let mut w = vec![0i64; n * n];
    let mut m = Matcher::<i64>::new(n);
    for v in 0..n {
        for u in v + 1..n {
            if next(4) > 0 {
                let x = unit * (1 + next(3) as i64);
                w[v * n + u] = x;
                w[u * n + v] = x;
                m.set_weight(v, u, x);
            }
        }
    }
    (w, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (64-bit LCG).
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, bound: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % bound
        }
    }

    /// The best (cardinality, weight) of any matching, by trying them all.
    fn brute(n: usize, w: &[i64], max_cardinality: bool, used: &mut Vec<bool>) -> (usize, i64) {
        let Some(v) = (0..n).find(|&v| !used[v]) else {
            return (0, 0);
        };
        used[v] = true;
        let mut best = brute(n, w, max_cardinality, used);
        for u in v + 1..n {
            if !used[u] && w[v * n + u] > 0 {
                used[u] = true;
                let (c, x) = brute(n, w, max_cardinality, used);
                let cand = (c + 1, x + w[v * n + u]);
                let better = if max_cardinality {
                    cand > best
                } else {
                    cand.1 > best.1
                };
                if better {
                    best = cand;
                }
                used[u] = false;
            }
        }
        used[v] = false;
        best
    }

    /// Checks a mate vector: symmetric, along edges; its (size, weight).
    fn value(n: usize, w: &[i64], mate: &[Option<usize>]) -> (usize, i64) {
        let mut size = 0;
        let mut total = 0;
        for v in 0..n {
            if let Some(u) = mate[v] {
                assert_eq!(mate[u], Some(v), "symmetric");
                assert!(w[v * n + u] > 0, "along an edge");
                if v < u {
                    size += 1;
                    total += w[v * n + u];
                }
            }
        }
        (size, total)
    }

    #[test]
    fn equals_brute_force_on_random_graphs() {
        let mut rng = Lcg(7);
        for case in 0..3000 {
            let n = 1 + rng.next(10) as usize;
            let density = 1 + rng.next(4);
            let spread = [3, 10, 1000][case % 3];
            let mut w = vec![0i64; n * n];
            for v in 0..n {
                for u in v + 1..n {
                    if rng.next(4) < density {
                        let x = 1 + rng.next(spread) as i64;
                        w[v * n + u] = x;
                        w[u * n + v] = x;
                    }
                }
            }
            for max_cardinality in [false, true] {
                let mate = max_weight_matching(n, &w, max_cardinality);
                let got = value(n, &w, &mate);
                let want = brute(n, &w, max_cardinality, &mut vec![false; n]);
                if max_cardinality {
                    assert_eq!(got, want, "case {case}: {w:?}");
                } else {
                    assert_eq!(got.1, want.1, "case {case}: {w:?}");
                }
            }
        }
    }

    /// Gives about two in three of `v`'s edges a new random weight (a
    /// third of those zero: removed), in `w` and in `m`.
    fn change_edges(rng: &mut Lcg, m: &mut Matcher<i64>, w: &mut [i64], v: usize, spread: u64) {
        let n = m.len();
        for u in 0..n {
            if u != v && rng.next(3) > 0 {
                let x = if rng.next(3) == 0 {
                    0
                } else {
                    1 + rng.next(spread) as i64
                };
                w[v * n + u] = x;
                w[u * n + v] = x;
                m.set_weight(v, u, x);
            }
        }
    }

    #[test]
    fn matcher_stays_maximum_through_changes() {
        let mut rng = Lcg(23);
        for case in 0..700 {
            // Up to 11 vertices against brute force; up to 40 by the
            // optimality conditions alone.
            let n = 1 + rng.next(if case % 2 == 0 { 11 } else { 40 }) as usize;
            let spread = [3, 10, 1000][case % 3];
            let mut m = Matcher::<i64>::new(n);
            let mut w = vec![0i64; n * n];
            for step in 0..12 {
                // Change some edges of one vertex (all of them at the start).
                let touched: Vec<usize> = if step == 0 {
                    (0..n).collect()
                } else {
                    (0..1 + rng.next(2))
                        .map(|_| rng.next(n as u64) as usize)
                        .collect()
                };
                for &v in &touched {
                    change_edges(&mut rng, &mut m, &mut w, v, spread);
                }
                let mate = m.solve();
                if let Err(e) = m.check() {
                    panic!("case {case} step {step}: {e}");
                }
                let got = value(n, &w, &mate);
                if n <= 11 {
                    let want = brute(n, &w, false, &mut vec![false; n]);
                    assert_eq!(got.1, want.1, "case {case} step {step}: {w:?}");
                }
            }
        }
    }

    #[test]
    fn matcher_stays_maximum_through_restarts() {
        // A quarter to a half of the vertices changed at once: more than
        // the share that makes a solve start afresh; every other case
        // with no budget for warm solves, which then start afresh too.
        let mut rng = Lcg(41);
        for case in 0..200 {
            let n = 16 + rng.next(40) as usize;
            let spread = [3, 10, 1000][case % 3];
            let mut m = Matcher::<i64>::new(n);
            if case % 2 == 1 {
                m.set_budget(0);
            }
            let mut w = vec![0i64; n * n];
            for step in 0..8 {
                // Few changed vertices (a warm solve) when it has no budget.
                let k = if case % 2 == 1 {
                    1 + rng.next(3) as usize
                } else {
                    n / 4 + rng.next((n / 4) as u64 + 1) as usize
                };
                let touched: Vec<usize> = (0..k).map(|_| rng.next(n as u64) as usize).collect();
                for &v in &touched {
                    change_edges(&mut rng, &mut m, &mut w, v, spread);
                }
                let mate = m.solve();
                if let Err(e) = m.check() {
                    panic!("case {case} step {step}: {e}");
                }
                let fresh = max_weight_matching(n, &w, false);
                assert_eq!(
                    value(n, &w, &mate).1,
                    value(n, &w, &fresh).1,
                    "case {case} step {step}"
                );
            }
        }
    }

    #[test]
    fn jump_started_solves_stay_maximum() {
        // Most edges weigh one even weight, as in a round's first solve:
        // the jump start (restart.rs) pairs nearly every vertex before
        // the stages. A few edges weigh more, less or nothing. Against
        // brute force (up to 11 vertices) or the weight of a fresh
        // matching, with the optimality conditions, then through warm
        // solves and fresh ones after changes.
        let mut rng = Lcg(61);
        let mut jumps = (0, 0);
        for case in 0..400 {
            let n = 2 + rng.next(if case % 2 == 0 { 10 } else { 60 }) as usize;
            let far = 2 * (1 + rng.next(40) as i64);
            let mut w = vec![0i64; n * n];
            for v in 0..n {
                for u in v + 1..n {
                    let x = match rng.next(12) {
                        0 => 0,
                        1 => far + 2 * rng.next(4) as i64,
                        2 => 1 + rng.next(far as u64 - 1) as i64,
                        _ => far,
                    };
                    w[v * n + u] = x;
                    w[u * n + v] = x;
                }
            }
            let mut m = Matcher::<i64>::new(n);
            m.fill(|v, u| w[v * n + u]);
            for step in 0..5 {
                let mate = m.solve();
                if let Err(e) = m.check() {
                    panic!("case {case} step {step}: {e}");
                }
                let want = if n <= 11 {
                    brute(n, &w, false, &mut vec![false; n]).1
                } else {
                    value(n, &w, &max_weight_matching(n, &w, false)).1
                };
                assert_eq!(value(n, &w, &mate).1, want, "case {case} step {step}");
                // One vertex changed (a warm solve), or the first half of
                // them (fresh, as a bracket's start: the jump start then
                // pairs the vertices after them).
                let changed: Vec<usize> = if step % 2 == 0 {
                    vec![rng.next(n as u64) as usize]
                } else {
                    (0..n / 2 + 1).collect()
                };
                for v in changed {
                    change_edges(&mut rng, &mut m, &mut w, v, far as u64 / 2);
                }
            }
            jumps.0 += m.jumps.0;
            jumps.1 += m.jumps.1;
        }
        // The jump start paired most first solves and most of the vertices
        // after the changed half.
        assert!(jumps.0 > 80 && jumps.1 > 60, "{jumps:?} jump starts");
    }

    #[test]
    fn edges_passed_over_by_key_change_nothing() {
        // The stages pass over an edge to a free vertex by its key
        // (blossom.rs, `State::key`) only where computing its slack
        // would change nothing: with few distinct weights (many equal
        // keys) and many, through warm solves and fresh ones, the same
        // mates at every solve as a matcher that computes every slack.
        let mut rng = Lcg(71);
        for case in 0..400 {
            let n = 2 + rng.next(if case % 2 == 0 { 12 } else { 50 }) as usize;
            let spread = [1, 2, 4, 1000][case % 4];
            let mut keyed = Matcher::<i64>::new(n);
            let mut plain = Matcher::<i64>::new(n);
            plain.set_plain();
            let mut w = vec![0i64; n * n];
            for step in 0..8 {
                let touched: Vec<usize> = match (step, rng.next(3)) {
                    (0, _) => (0..n).collect(),
                    (_, 0) => (0..n / 2 + 1).collect(),
                    _ => (0..1 + rng.next(2))
                        .map(|_| rng.next(n as u64) as usize)
                        .collect(),
                };
                for &v in &touched {
                    change_edges(&mut rng, &mut keyed, &mut w, v, spread);
                    for u in (0..n).filter(|&u| u != v) {
                        if plain.weight(v, u) != w[v * n + u] {
                            plain.set_weight(v, u, w[v * n + u]);
                        }
                    }
                }
                let mate = keyed.solve();
                assert_eq!(mate, plain.solve(), "case {case} step {step}");
                if let Err(e) = keyed.check() {
                    panic!("case {case} step {step}: {e}");
                }
                if n <= 12 {
                    let want = brute(n, &w, false, &mut vec![false; n]);
                    assert_eq!(value(n, &w, &mate).1, want.1, "case {case} step {step}");
                }
            }
        }
    }

    #[test]
    fn fill_is_set_weight_edge_by_edge() {
        // `fill` on a new matcher, on one whose edges were all removed
        // after a solve, and twice before a solve (one by one then),
        // each followed by changes of single edges: the same mates at
        // every solve as `set_weight` in the same order gives.
        let mut rng = Lcg(53);
        for case in 0..300 {
            let n = 1 + rng.next(30) as usize;
            let spread = [3, 10, 1000][case % 3];
            let mut a = Matcher::<i64>::new(n);
            let mut b = Matcher::<i64>::new(n);
            for step in 0..6 {
                let mut w = vec![0i64; n * n];
                for v in 0..n {
                    for u in v + 1..n {
                        if rng.next(4) > 0 {
                            w[v * n + u] = 1 + rng.next(spread) as i64;
                        }
                    }
                }
                let fills = if step == 3 { 2 } else { 1 };
                for _ in 0..fills {
                    for v in 0..n {
                        for u in v + 1..n {
                            a.set_weight(v, u, w[v * n + u]);
                        }
                    }
                    b.fill(|v, u| w[v * n + u]);
                }
                for _ in 0..rng.next(4) {
                    let (v, u) = (rng.next(n as u64) as usize, rng.next(n as u64) as usize);
                    if v != u {
                        let x = rng.next(spread) as i64;
                        a.set_weight(v, u, x);
                        b.set_weight(v, u, x);
                    }
                }
                assert_eq!(a.solve(), b.solve(), "case {case} step {step}");
                if let Err(e) = b.check() {
                    panic!("case {case} step {step}: {e}");
                }
                for v in 0..n {
                    for u in 0..n {
                        assert_eq!(a.weight(v, u), b.weight(v, u), "case {case}");
                    }
                }
                // Every edge removed (for the next fill), or a few only.
                for v in 0..n {
                    if step % 2 == 0 || rng.next(4) == 0 {
                        a.clear_edges(v);
                        b.clear_edges(v);
                    }
                }
            }
        }
    }

    #[test]
    fn wide_weights_match_i64_weights() {
        let mut rng = Lcg(11);
        for _ in 0..300 {
            let n = 2 + rng.next(9) as usize;
            let mut w = vec![0i64; n * n];
            for v in 0..n {
                for u in v + 1..n {
                    let x = rng.next(50) as i64;
                    w[v * n + u] = x;
                    w[u * n + v] = x;
                }
            }
            let wide: Vec<Wide<2>> = w.iter().map(|&x| Wide::from_u64(x as u64)).collect();
            assert_eq!(
                max_weight_matching(n, &w, true),
                max_weight_matching(n, &wide, true)
            );
        }
    }

    #[test]
    fn networkx_tie_break_on_a_square() {
        // All four sides of a square weigh the same: networkx matches
        // 0-3 and 1-2 (vertex 3 is found first from the stack's top).
        let n = 4;
        let mut w = vec![0i64; 16];
        for (a, b) in [(0, 1), (1, 2), (2, 3), (0, 3)] {
            w[a * n + b] = 1;
            w[b * n + a] = 1;
        }
        let mate = max_weight_matching(n, &w, true);
        assert_eq!(value(n, &w, &mate).0, 2);
    }
}
