//! Runs of consecutive vertices that lie in one top-level blossom, so
//! that a scan passes over its own blossom's neighbours a run at a time.
//!
//! A stage that reaches the far players (their pairs all tight) makes
//! them one blossom of thousands of vertices and then scans each of
//! them: n edges each, most of them inside that blossom, which the scan
//! skips one by one (at 10,000 players, seed 42, 2.97 G of the round's
//! 4.74 G edge visits; docs/pairing.md, sixteenth pass). The far players
//! are consecutive vertices (the round's order is by score), and a
//! vertex's list is ascending: once a scan meets a neighbour `w` inside
//! its own blossom, every neighbour before `run_end[w]` is inside it
//! too, and the scan jumps past them by a binary search of its list.

use super::{State, Weight};

/// A blossom of fewer leaves has its runs found only if they are
/// already fresh: finding them costs a pass over every vertex.
pub(super) const RUNS_FROM: usize = 64;

/// A run that ends fewer than this many vertices on is skipped entry by
/// entry (the binary search costs more).
pub(super) const JUMP: usize = 16;

impl<W: Weight> State<W> {
    /// Finds each vertex's run anew: `run_end[w]` the first vertex after
    /// `w` outside `w`'s top-level blossom (`n` if none).
    pub(super) fn find_runs(&mut self) {
        let n = self.n;
        self.run_end.resize(n, 0);
        let mut end = n;
        for w in (0..n).rev() {
            if w + 1 < n && self.in_blossom[w + 1] != self.in_blossom[w] {
                end = w + 1;
            }
            self.run_end[w] = super::vertex(end);
        }
        self.runs_fresh = true;
    }

    /// Whether a scan of `v` should have the runs found first: `v` lies
    /// in a blossom large enough and the runs are stale.
    pub(super) fn wants_runs(&self, v: usize) -> bool {
        let b = self.in_blossom[v];
        !self.runs_fresh && !self.plain && self.is_blossom(b) && self.leaf_count[b] >= RUNS_FROM
    }

    /// The place in `v`'s list after the run of `v`'s own blossom that
    /// holds the neighbour at place `wi - 1` (`w`): `wi` itself when the
    /// runs are stale or the run is short.
    #[inline(always)]
    pub(super) fn past_run(&self, v: usize, w: usize, wi: usize) -> usize {
        if !self.runs_fresh {
            return wi;
        }
        let end = self.run_end[w] as usize;
        if end < w + JUMP {
            return wi;
        }
        let list = &self.adjacency[v];
        wi + list[wi..].partition_point(|&u| (u as usize) < end)
    }
}

#[cfg(test)]
mod tests {
    use super::super::beside::{Next, SmallRound};
    use super::super::lcg;

    #[test]
    fn runs_of_a_blossom_are_passed_over_and_change_nothing() {
        // A round in small: a few players of varied weights, then a block
        // of consecutive far players whose pairs all weigh the same (a
        // few pairs missing: already played), and decisions that change
        // the edges of one or two of the first players at a time. A freed
        // mate among the far players makes the block one blossom, whose
        // leaves the stage then scans. With the runs passed over: the same
        // mates at every solve as a matcher that looks at every entry of
        // every list, the optimality conditions, and far fewer entries
        // looked at.
        let mut next = lcg(83);
        let (mut fast_visits, mut plain_visits) = (0, 0);
        for case in 0..16 {
            let head = 4 + next(12) as usize;
            let n = head + 70 + next(100) as usize;
            let far = 2 * (10 + next(10) as i64);
            let far_pair = |next: Next<'_>| if next(40) == 0 { 0 } else { far };
            let round = SmallRound {
                head,
                n,
                far,
                far_pair: &far_pair,
            };
            let changed = |_, next: Next<'_>| {
                (0..1 + next(2))
                    .map(|_| next(head as u64) as usize)
                    .collect()
            };
            let (fast, plain) = round.beside_plain(&mut next, 12, &changed, case);
            fast_visits += fast.st.visits;
            plain_visits += plain.st.visits;
        }
        assert!(
            fast_visits * 3 < plain_visits * 2,
            "{fast_visits} entries looked at against {plain_visits}"
        );
    }
}
