//! A stage's dual change: the least of the four kinds of delta, and a
//! quick way to the same choice through a run of zero-dual T-blossoms.
//!
//! A blossom built one level at a time inside a stage with no dual
//! change between its levels (a tree taking in the far players, all
//! tight to one another) holds a chain of nested blossoms of zero dual
//! under a top one of positive dual. When that blossom is later a
//! T-blossom and its dual reaches zero, each level of the chain is
//! expanded by a dual change of its own (kind 4, delta zero), each of
//! which reads every vertex's dual and least-slack edge: at 10,000
//! players, seed 1, one fresh solve made 4,278 of them (docs/pairing.md,
//! eighteenth pass). After such a change no dual has moved, and until
//! something makes a delta of another kind zero, the next change is
//! again the first zero-dual top-level T-blossom in `live`'s order.

use super::{Edge, FREE, S, State, T, Weight};

/// A dual change: its kind (networkx's `deltatype`, 1 to 4), its delta,
/// and the edge (kinds 2 and 3) or blossom (kind 4) it acts on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct DualChange<W> {
    pub(super) kind: u8,
    pub(super) delta: W,
    pub(super) edge: Option<Edge>,
    pub(super) blossom: Option<usize>,
}

impl<W: Weight> State<W> {
    /// The dual change a stage makes once its queue is empty: the least
    /// delta of the four kinds, the earlier kind and the earlier vertex
    /// or blossom on ties. Through [`State::zero_change`] when that gives
    /// it (the same choice; debug builds check).
    pub(super) fn dual_change(&mut self) -> DualChange<W> {
        if let Some(quick) = self.zero_change() {
            debug_assert!(quick == self.least_change(), "the zero run's change");
            #[cfg(test)]
            {
                self.zero_changes += 1;
            }
            return quick;
        }
        self.least_change()
    }

    /// The least delta, from every vertex's and blossom's candidates.
    fn least_change(&self) -> DualChange<W> {
        let n = self.n;
        let mut change = DualChange {
            kind: 0,
            delta: W::zero(),
            edge: None,
            blossom: None,
        };
        if self.warm {
            // No vertex dual may go below zero: the least S-vertex's.
            change.kind = 1;
            change.delta = (0..n)
                .filter(|&v| self.label[self.in_blossom[v]] == S)
                .map(|v| self.dual[v])
                .min()
                .unwrap_or(change.delta);
        } else if !self.max_cardinality {
            change.kind = 1;
            change.delta = self.dual.iter().copied().min().unwrap_or(change.delta);
        }
        for v in 0..n {
            if self.label[self.in_blossom[v]] == FREE
                && let Some((a, b)) = self.best_edge[v]
            {
                let d = self.slack(a, b);
                if change.kind == 0 || d < change.delta {
                    change = DualChange {
                        kind: 2,
                        delta: d,
                        edge: Some((a, b)),
                        blossom: None,
                    };
                }
            }
        }
        for b in (0..n).chain(self.live.iter().copied()) {
            if self.parent[b].is_none()
                && self.label[b] == S
                && let Some((x, y)) = self.best_edge[b]
            {
                let d = self.slack(x, y).half();
                if change.kind == 0 || d < change.delta {
                    change = DualChange {
                        kind: 3,
                        delta: d,
                        edge: Some((x, y)),
                        blossom: None,
                    };
                }
            }
        }
        for &b in &self.live {
            if self.parent[b].is_none()
                && self.label[b] == T
                && (change.kind == 0 || self.blossom_dual[b] < change.delta)
            {
                change = DualChange {
                    kind: 4,
                    delta: self.blossom_dual[b],
                    edge: None,
                    blossom: Some(b),
                };
            }
        }
        if change.kind == 0 {
            change.kind = 1;
            let least = self.dual.iter().copied().min().unwrap_or(change.delta);
            change.delta = least.max(W::zero());
        }
        change
    }

    /// While `zero_run` holds (the last change expanded a zero-dual
    /// T-blossom, so every candidate of kinds 1 to 3 then exceeded zero,
    /// and none has been made zero since: no S-vertex of zero dual among
    /// those scanned since, `zero_popped`), the first top-level T-blossom
    /// of zero dual in `live`'s order: the change [`State::least_change`]
    /// would choose (its delta, zero, below every other kind's; the
    /// first of the least on ties). `None` when the run is broken or no
    /// such blossom is left.
    fn zero_change(&self) -> Option<DualChange<W>> {
        // Every S-vertex is one that was S at the run's start (its dual
        // then above zero, and unchanged since) or one scanned since.
        if !self.zero_run
            || self.plain
            || self
                .zero_popped
                .iter()
                .any(|&v| self.label[self.in_blossom[v]] == S)
        {
            return None;
        }
        let zero = W::zero();
        let b = self.live.iter().copied().find(|&b| {
            self.parent[b].is_none() && self.label[b] == T && self.blossom_dual[b] == zero
        })?;
        Some(DualChange {
            kind: 4,
            delta: zero,
            edge: None,
            blossom: Some(b),
        })
    }

    /// Expands T-blossom `b` at a dual change of kind 4. A child left
    /// unlabelled makes its leaves' least-slack edges candidates of kind
    /// 2 again: the zero run ends if one of them is not above zero.
    pub(super) fn expand_at_change(&mut self, b: usize) {
        let children = if self.zero_run {
            self.childs[b].clone()
        } else {
            Vec::new()
        };
        self.expand_blossom(b, false);
        for c in children {
            if self.label[c] != FREE {
                continue;
            }
            let leaves = if self.is_blossom(c) {
                self.leaves(c)
            } else {
                vec![c]
            };
            let zero = W::zero();
            if leaves
                .iter()
                .any(|&v| self.best_slack(v).is_some_and(|s| s <= zero))
            {
                self.zero_run = false;
            }
            if self.is_blossom(c) {
                self.give_back(leaves);
            }
            if !self.zero_run {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::beside::{Next, SmallRound};
    use super::super::lcg;

    #[test]
    fn zero_dual_t_blossoms_are_expanded_without_a_full_dual_change() {
        // A round in small: a few players of varied weights, then a block
        // of far players whose pairs nearly all weigh the same, and
        // decisions that change one or two of the first players (warm
        // solves) or the first half (fresh ones). Trees that take in the
        // far players build chains of blossoms of zero dual, which later
        // stages expand as T-blossoms. Against a matcher that computes
        // every dual change in full (`set_plain`): the same mates at
        // every solve, the optimality conditions, and some changes taken
        // by the zero run (debug builds check each against the full
        // computation).
        let mut next = lcg(97);
        let (mut quick, mut full) = (0, 0);
        for case in 0..60 {
            let head = 2 + next(10) as usize;
            let n = head + 10 + next(60) as usize;
            let far = 2 * (10 + next(10) as i64);
            let far_pair = |next: Next<'_>| match next(30) {
                0 => 0,
                1 => far - 2,
                _ => far,
            };
            let round = SmallRound {
                head,
                n,
                far,
                far_pair: &far_pair,
            };
            let changed = |step, next: Next<'_>| {
                if step % 4 == 3 {
                    (0..n / 2 + 1).collect()
                } else {
                    (0..1 + next(2))
                        .map(|_| next(head as u64) as usize)
                        .collect()
                }
            };
            let (fast, plain) = round.beside_plain(&mut next, 10, &changed, case);
            quick += fast.st.zero_changes;
            full += plain.st.zero_changes;
        }
        assert_eq!(full, 0, "the plain matcher takes no quick change");
        assert!(quick > 0, "{quick} changes taken by the zero run");
    }
}
