//! Every edge of a matcher without edges set in one pass.
//!
//! The Dutch system starts a round by weighing all n²/2 pairs. Set one
//! by one, each pair writes its mirror place `w * n + v` (a column of
//! the n × n table: a cache miss an edge), appends to the far end's
//! adjacency list (another) and records the change (16 bytes an edge,
//! 800 MB at 10,000 players). [`Matcher::fill`] writes the rows, mirrors
//! them tile by tile, builds each list from its row, and records one
//! change a row with a bit an edge. From [`PARALLEL_FROM`] edges on,
//! the rows' weights are found on two threads (the later rows on the
//! second, with places of their own, renumbered after it ends as one
//! thread would have numbered them).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::{LimbHasher, Matcher, Weight, vertex};

/// A change of the weights since the last solve, as
/// [`Matcher::solve`] goes through them in order.
#[derive(Clone, Copy)]
pub(super) enum Change {
    /// Edge `v`–`w` (`v` first, as given).
    Edge(u32, u32),
    /// Every edge `v`–`u`, `u > v`, that [`Matcher::fill`] made
    /// (its bit in `filled`), in increasing `u`: what one change each
    /// in that order would be.
    Row(u32),
}

impl Change {
    /// The vertex whose edges changed (the first one given).
    pub(super) fn vertex(self) -> usize {
        match self {
            Change::Edge(v, _) | Change::Row(v) => v as usize,
        }
    }
}

/// The side of the square tiles the mirror half is copied in.
const TILE: usize = 64;

/// [`Matcher::fill`] weighs its rows on two threads from this many
/// edges on (about 360 vertices): below it the second thread costs more
/// than it saves.
pub(super) const PARALLEL_FROM: usize = 1 << 16;

/// The first row of the later half of an `n`-vertex table's upper
/// triangle: rows `0..split` hold at least half of its edges.
fn split_row(n: usize) -> usize {
    let half = n * n.saturating_sub(1) / 4;
    let mut cells = 0;
    for v in 0..n {
        if cells >= half {
            return v;
        }
        cells += n - 1 - v;
    }
    n
}

/// Weighs rows `first..n` of the upper triangle into `rows` (row `v`
/// at `(v - first) * n`), each doubled weight as its place in the
/// returned list of values: zero first, then each value in the order it
/// first appears (the order [`super::State::place`] would number them
/// in after the earlier rows).
fn weigh_rows<W: Weight>(
    n: usize,
    first: usize,
    rows: &mut [u32],
    weight: &impl Fn(usize, usize) -> W,
) -> Vec<W> {
    let zero = W::zero();
    let mut values = vec![zero];
    let mut places: HashMap<W, u32, BuildHasherDefault<LimbHasher>> = HashMap::default();
    places.insert(zero, 0);
    let mut last = (zero, 0u32);
    for (row, v) in rows.chunks_exact_mut(n).zip(first..n) {
        for (u, cell) in row.iter_mut().enumerate().skip(v + 1) {
            let x = weight(v, u);
            let x = x + x;
            if last.0 != x {
                let next = u32::try_from(values.len()).expect("fewer than 2^32 distinct weights");
                let place = *places.entry(x).or_insert_with(|| {
                    values.push(x);
                    next
                });
                last = (x, place);
            }
            *cell = last.1;
        }
    }
    values
}

impl<W: Weight> Matcher<W> {
    /// Sets the weight of every edge `v`–`u`, `v < u`, to `weight(v, u)`,
    /// as [`Matcher::set_weight`] would in increasing `v`, then `u` (the
    /// same matchings follow). On a matcher whose edges all weigh zero
    /// (a new one, or one whose edges were all removed) since its last
    /// solve, in one pass over the n × n table.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::matching::Matcher;
    ///
    /// let mut m = Matcher::<i64>::new(4);
    /// m.fill(|v, u| if u == v + 1 { [5, 11, 5][v] } else { 0 });
    /// assert_eq!(m.solve(), vec![None, Some(2), Some(1), None]);
    /// ```
    pub fn fill(&mut self, weight: impl Fn(usize, usize) -> W + Sync) {
        let n = self.st.n;
        let edgeless =
            self.filled.is_empty() && (0..n).all(|v| self.st.adjacency[v].len() == self.st.dead[v]);
        if !edgeless {
            for v in 0..n {
                for u in v + 1..n {
                    self.set_weight(v, u, weight(v, u));
                }
            }
            return;
        }
        let mut filled = vec![0u64; (n * n).div_ceil(64)];
        let split = if self.two_threads() { split_row(n) } else { n };
        // Rows `split..` on a second thread, with places of their own.
        let mut twice = std::mem::take(&mut self.st.twice);
        let (head, tail) = twice.split_at_mut(split * n);
        let weight = &weight;
        let st = &mut self.st;
        let filled_head = &mut filled;
        let mut head_rows = move || {
            for v in 0..split {
                for u in v + 1..n {
                    let x = weight(v, u);
                    let place = st.place(x + x);
                    let i = v * n + u;
                    head[i] = place;
                    if place != 0 {
                        filled_head[i / 64] |= 1 << (i % 64);
                    }
                }
            }
        };
        let tail_values = if split < n {
            let ((), values) = crate::both::both(head_rows, || weigh_rows(n, split, tail, weight));
            Some(values)
        } else {
            head_rows();
            None
        };
        // The second thread's places as one thread would have numbered
        // them: its values in the order they first appear, after the
        // earlier rows' values.
        if let Some(values) = tail_values {
            let places: Vec<u32> = values.into_iter().map(|x| self.st.place(x)).collect();
            for v in split..n {
                for i in v * n + v + 1..(v + 1) * n {
                    let local = twice[i];
                    if local != 0 {
                        twice[i] = places[local as usize];
                        filled[i / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        self.st.twice = twice;
        for v in 0..n {
            self.changed.push(Change::Row(vertex(v)));
        }
        let twice = &mut self.st.twice;
        for i0 in (0..n).step_by(TILE) {
            for j0 in (i0..n).step_by(TILE) {
                for i in i0..(i0 + TILE).min(n) {
                    for j in j0.max(i + 1)..(j0 + TILE).min(n) {
                        twice[j * n + i] = twice[i * n + j];
                    }
                }
            }
        }
        // Each list: its old entries (all removed edges, kept until the
        // next compaction, as `set_weight` keeps them) and the new edges,
        // ascending.
        for v in 0..n {
            let old = std::mem::take(&mut self.st.adjacency[v]);
            let row = &self.st.twice[v * n..(v + 1) * n];
            let mut list = Vec::with_capacity(row.iter().filter(|&&p| p != 0).count() + old.len());
            let mut k = 0;
            let mut dead = 0;
            for (u, &place) in row.iter().enumerate() {
                let was = old.get(k).is_some_and(|&x| x as usize == u);
                if was {
                    k += 1;
                }
                if place != 0 || was {
                    list.push(vertex(u));
                    dead += usize::from(place == 0);
                }
            }
            self.st.adjacency[v] = list;
            self.st.dead[v] = dead;
        }
        self.filled = filled;
    }

    /// Whether `change` breaks the optimality conditions (for a row: any
    /// of its edges, the first one in order that does).
    pub(super) fn breaks_optimality(&self, change: Change) -> bool {
        match change {
            Change::Edge(v, w) => self.st.breaks_optimality(v as usize, w as usize),
            Change::Row(v) => {
                let (v, n) = (v as usize, self.st.n);
                let (start, end) = (v * n + v + 1, (v + 1) * n);
                let mut i = start;
                while i < end {
                    let mut bits = self.filled[i / 64] >> (i % 64);
                    while bits != 0 {
                        let k = i + bits.trailing_zeros() as usize;
                        if k >= end {
                            return false;
                        }
                        if self.st.breaks_optimality(v, k - v * n) {
                            return true;
                        }
                        bits &= bits - 1;
                    }
                    i = (i / 64 + 1) * 64;
                }
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Matcher;
    use crate::matching::Wide;

    #[test]
    fn a_fill_on_two_threads_is_the_fill_on_one() {
        // The same places in the same order, the same table and lists,
        // and the same mates: on small graphs forced onto two threads,
        // and on one of 400 vertices, which takes them by itself. The
        // weights repeat (few distinct ones, set in no order of value)
        // and many first appear in the later rows.
        let mut next = super::super::lcg(9);
        for case in 0..60 {
            let n = if case == 0 {
                400
            } else {
                1 + next(80) as usize
            };
            let spread = [2, 7, 40, 5000][case % 4];
            let mut w = vec![Wide::<2>::ZERO; n * n];
            for v in 0..n {
                for u in v + 1..n {
                    if next(5) > 0 {
                        // Later rows draw from more values.
                        let x = Wide([next(spread + (v * 3 / n) as u64), next(2)]);
                        w[v * n + u] = x;
                    }
                }
            }
            let mut two = Matcher::<Wide<2>>::new(n);
            let mut one = Matcher::<Wide<2>>::new(n);
            if case > 0 {
                two.set_parallel_from(0);
            }
            one.set_parallel_from(usize::MAX);
            two.fill(|v, u| w[v * n + u]);
            one.fill(|v, u| w[v * n + u]);
            assert_eq!(two.st.values, one.st.values, "case {case}: places");
            assert!(two.st.twice == one.st.twice, "case {case}: table");
            assert_eq!(two.st.adjacency, one.st.adjacency, "case {case}: lists");
            assert_eq!(two.filled, one.filled, "case {case}: rows' bits");
            assert_eq!(two.solve(), one.solve(), "case {case}: mates");
        }
    }

    #[test]
    fn an_edge_set_by_its_known_place_is_set_by_its_weight() {
        // Places looked up before the edges are set (as a bracket's
        // filling threads look them up), the edges then set by place
        // where one was known and by weight where not: the same places,
        // weights and mates as setting every edge by weight.
        let mut next = super::super::lcg(13);
        for case in 0..200 {
            let n = 2 + next(30) as usize;
            let mut by_weight = Matcher::<i64>::new(n);
            let mut by_place = Matcher::<i64>::new(n);
            for _ in 0..4 {
                let edges: Vec<(usize, usize, i64)> = (0..n * 2)
                    .map(|_| {
                        (
                            next(n as u64) as usize,
                            next(n as u64) as usize,
                            next(9) as i64,
                        )
                    })
                    .filter(|&(v, w, _)| v != w)
                    .collect();
                let known: Vec<Option<u32>> = edges
                    .iter()
                    .map(|&(_, _, x)| by_place.known_place(x))
                    .collect();
                for (&(v, w, x), place) in edges.iter().zip(known) {
                    by_weight.set_weight(v, w, x);
                    match place {
                        Some(place) => by_place.set_place(v, w, place),
                        None => by_place.set_weight(v, w, x),
                    }
                }
                assert_eq!(by_place.st.values, by_weight.st.values, "case {case}");
                assert_eq!(by_place.solve(), by_weight.solve(), "case {case}");
            }
        }
    }
}
