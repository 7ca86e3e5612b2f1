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
        let (_, mut fast, mut plain) = self.filled(next, 1);
        for step in 0..steps {
            same_mates(&mut fast, &mut plain, case, step);
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

    /// The round's weights times `scale`, in a matcher and a plain one.
    fn filled(&self, next: Next<'_>, scale: i64) -> (Vec<i64>, Matcher<i64>, Matcher<i64>) {
        let n = self.n;
        let mut w = vec![0i64; n * n];
        for v in 0..n {
            for u in v + 1..n {
                let x = scale * self.draw(v, u, next);
                w[v * n + u] = x;
                w[u * n + v] = x;
            }
        }
        let mut fast = Matcher::<i64>::new(n);
        let mut plain = Matcher::<i64>::new(n);
        plain.set_plain();
        fast.fill(|v, u| w[v * n + u]);
        plain.fill(|v, u| w[v * n + u]);
        (w, fast, plain)
    }

    /// Phase 8 of a bracket in small: the players in order, each offered
    /// its later opponents not yet paired (each weight raised by an
    /// addend, the most for the earliest), solved by both matchers (the
    /// same mates, the optimality conditions), then paired with its mate
    /// (the two keep one edge of weight one) for at most `steps` players.
    /// Returns both matchers.
    pub(super) fn fixing_pairs(
        &self,
        next: Next<'_>,
        steps: usize,
        case: usize,
    ) -> (Matcher<i64>, Matcher<i64>) {
        let n = self.n;
        // Room below each weight for the addends.
        let scale = 1 << 12;
        let (w, mut fast, mut plain) = self.filled(next, scale);
        let mut fixed = vec![false; n];
        let mut players = 0..n;
        for step in 0..steps {
            let Some(p) = players.by_ref().find(|&p| !fixed[p]) else {
                break;
            };
            let offers: Vec<usize> = (p + 1..n)
                .filter(|&u| !fixed[u] && w[p * n + u] != 0)
                .collect();
            for (addend, &u) in (1..).zip(offers.iter().rev()) {
                fast.set_weight(p, u, w[p * n + u] + addend);
                plain.set_weight(p, u, w[p * n + u] + addend);
            }
            let mate = same_mates(&mut fast, &mut plain, case, step);
            if let Some(m) = mate[p] {
                for matcher in [&mut fast, &mut plain] {
                    matcher.clear_edges(p);
                    matcher.clear_edges(m);
                    matcher.set_weight(p, m, 1);
                }
                fixed[p] = true;
                fixed[m] = true;
            }
        }
        same_mates(&mut fast, &mut plain, case, steps);
        (fast, plain)
    }
}

/// Solves both matchers: the same mates, and the optimality conditions.
fn same_mates(
    fast: &mut Matcher<i64>,
    plain: &mut Matcher<i64>,
    case: usize,
    step: usize,
) -> Vec<Option<usize>> {
    let mate = fast.solve();
    assert_eq!(mate, plain.solve(), "case {case} step {step}");
    if let Err(e) = fast.check() {
        panic!("case {case} step {step}: {e}");
    }
    mate
}
