//! A round in small for the matcher's tests, solved by a matcher beside
//! one that takes no shortcut (`set_plain`): the same mates at every
//! solve, and the optimality conditions.

use super::Matcher;

/// A generator as [`super::lcg`] makes them.
pub(super) type Next<'a> = &'a mut dyn FnMut(u64) -> u64;

/// The shape of a round in small: `head` players of varied weights (a
/// quarter of their pairs missing, the rest up to three times `far`),
/// then far players whose pairs weigh what `far_pair` draws.
pub(super) struct SmallRound<'a> {
    pub(super) head: usize,
    pub(super) n: usize,
    pub(super) far: i64,
    pub(super) far_pair: &'a dyn Fn(Next<'_>) -> i64,
}

impl SmallRound<'_> {
    /// A weight for pair `v`–`u`.
    fn draw(&self, v: usize, u: usize, next: Next<'_>) -> i64 {
        if v >= self.head && u >= self.head {
            (self.far_pair)(next)
        } else if next(4) == 0 {
            0
        } else {
            1 + next(3 * self.far as u64) as i64
        }
    }

    /// Fills a matcher and a plain one with the round, then `steps`
    /// times solves both (the same mates, the optimality conditions) and
    /// draws again the edges of the vertices `changed` gives for the
    /// step. Returns both matchers.
    pub(super) fn beside_plain(
        &self,
        next: Next<'_>,
        steps: usize,
        changed: &dyn Fn(usize, Next<'_>) -> Vec<usize>,
        case: usize,
    ) -> (Matcher<i64>, Matcher<i64>) {
        let n = self.n;
        let mut w = vec![0i64; n * n];
        for v in 0..n {
            for u in v + 1..n {
                let x = self.draw(v, u, next);
                w[v * n + u] = x;
                w[u * n + v] = x;
            }
        }
        let mut fast = Matcher::<i64>::new(n);
        let mut plain = Matcher::<i64>::new(n);
        plain.set_plain();
        fast.fill(|v, u| w[v * n + u]);
        plain.fill(|v, u| w[v * n + u]);
        for step in 0..steps {
            let mate = fast.solve();
            assert_eq!(mate, plain.solve(), "case {case} step {step}");
            if let Err(e) = fast.check() {
                panic!("case {case} step {step}: {e}");
            }
            for v in changed(step, next) {
                for u in (0..n).filter(|&u| u != v) {
                    let x = self.draw(v, u, next);
                    fast.set_weight(v, u, x);
                    plain.set_weight(v, u, x);
                }
            }
        }
        (fast, plain)
    }
}
