//! Every edge of a matcher without edges set in one pass.
//!
//! The Dutch system starts a round by weighing all n²/2 pairs. Set one
//! by one, each pair writes its mirror place `w * n + v` (a column of
//! the n × n table: a cache miss an edge), appends to the far end's
//! adjacency list (another) and records the change (16 bytes an edge,
//! 800 MB at 10,000 players). [`Matcher::fill`] writes the rows, mirrors
//! them tile by tile, builds each list from its row, and records one
//! change a row with a bit an edge.

use super::{Matcher, Weight, vertex};

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
    pub fn fill(&mut self, weight: impl FnMut(usize, usize) -> W) {
        self.fill_keyed(weight, |x| x);
    }

    /// [`Matcher::fill`] with each weight `weight(key(v, u))`, where
    /// equal keys give equal weights: a key equal to the one before it
    /// in the table's order takes that one's place without its weight
    /// being worked out, doubled or looked up (a round's far pairs
    /// nearly all weigh one value; their keys are small).
    pub fn fill_keyed<K: Copy + Eq>(
        &mut self,
        mut key: impl FnMut(usize, usize) -> K,
        mut weight: impl FnMut(K) -> W,
    ) {
        let n = self.st.n;
        if !self.is_edgeless() {
            for v in 0..n {
                for u in v + 1..n {
                    self.set_weight(v, u, weight(key(v, u)));
                }
            }
            return;
        }
        let mut filled = vec![0u64; (n * n).div_ceil(64)];
        let mut last: Option<(K, u32)> = None;
        // The edges of each place, counted for the grain (`grain.rs`).
        let mut uses: Vec<usize> = Vec::new();
        for v in 0..n {
            for u in v + 1..n {
                let k = key(v, u);
                let place = match last {
                    Some((was, place)) if was == k => place,
                    _ => {
                        let x = weight(k);
                        let place = self.st.place(x + x);
                        last = Some((k, place));
                        if uses.len() <= place as usize {
                            uses.resize(place as usize + 1, 0);
                        }
                        place
                    }
                };
                let i = v * n + u;
                self.st.twice[i] = place;
                uses[place as usize] += 1;
                if place != 0 {
                    filled[i / 64] |= 1 << (i % 64);
                }
            }
            self.changed.push(Change::Row(vertex(v)));
        }
        for (place, &edges) in uses.iter().enumerate() {
            self.count_edges(u32::try_from(place).expect("a place"), edges, true);
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

    #[test]
    fn an_edge_set_by_its_known_place_is_set_by_its_weight() {
        // Places looked up before the edges are set (as a bracket's
        // table looks them up as it fills), the edges then set by place
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
