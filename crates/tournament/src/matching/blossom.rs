//! Maximum weight matching in a general graph: Edmonds' blossom
//! algorithm with dual variables, O(n³), after Joris van Rijn's
//! `mwmatching.py` as networkx 3 writes it (`max_weight_matching`).
//!
//! The port keeps networkx's order of work (neighbours in increasing
//! number, the queue as a stack, blossoms in the order they were made),
//! so that among matchings of equal weight it finds the same one as
//! networkx does; caissify-pairings, our Dutch oracle, pairs with it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::Weight;

#[cfg(test)]
mod beside;
mod budget;
mod delta;
mod fill;
mod grain;
mod least;
mod outside;
mod pairs;
mod reduced;
mod restart;
mod runs;

use delta::DualChange;
use fill::Change;
use pairs::{Pair, edge, pair};

/// No label (networkx: the node is not in `label`).
const FREE: u8 = 0;
/// An S-vertex or S-blossom (outer).
const S: u8 = 1;
/// A T-vertex or T-blossom (inner).
const T: u8 = 2;
/// The mark `scan_blossom` leaves on the path it walks.
const BREADCRUMB: u8 = 4;

/// No place in `add_blossom`'s list yet.
const NO_SLOT: usize = usize::MAX;

/// An edge as a pair of vertices (the first is the side it was found from).
type Edge = (usize, usize);

/// Vertex `v` as an adjacency list holds it ([`State::new`] checks
/// that every vertex fits).
#[allow(clippy::cast_possible_truncation)]
fn vertex(v: usize) -> u32 {
    v as u32
}

/// A fast hash for weights (their limbs are already well mixed by the
/// criteria; no protection against chosen keys is needed).
#[derive(Default)]
struct LimbHasher(u64);

impl Hasher for LimbHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The algorithm's state: vertices are `0..n`, blossoms `n..`.
struct State<W: Weight> {
    n: usize,
    /// Twice each weight (doubled once here, not at every slack), as
    /// its place in `values`: `twice[v * n + w]`, symmetric; 0 (zero)
    /// means no edge. A round has few distinct weights: the matrix
    /// holds 4 bytes an edge, not a weight of hundreds of bits.
    twice: Vec<u32>,
    /// The distinct doubled weights, zero first.
    values: Vec<W>,
    /// Each value's place in `values`.
    places: HashMap<W, u32, BuildHasherDefault<LimbHasher>>,
    /// The value `place` found last, and its place: weights are often
    /// set many times over in a row (no hashing then).
    last_place: (W, u32),
    /// [`Matcher`]'s rules (a maximum weight matching grown from any
    /// feasible state) instead of networkx's run from scratch.
    warm: bool,
    /// Each vertex's neighbours (edges of positive weight), ascending,
    /// as 4-byte numbers: a scan reads a whole list, the round's lists
    /// hold n² entries.
    adjacency: Vec<Vec<u32>>,
    /// How many entries of each adjacency list are removed edges
    /// (weight zero), left there until the list is compacted.
    dead: Vec<usize>,
    max_cardinality: bool,
    mate: Vec<Option<usize>>,
    label: Vec<u8>,
    label_edge: Vec<Option<Edge>>,
    in_blossom: Vec<usize>,
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    best_edge: Vec<Option<Edge>>,
    dual: Vec<W>,
    blossom_dual: Vec<W>,
    childs: Vec<Vec<usize>>,
    edges: Vec<Vec<Edge>>,
    my_best_edges: Vec<Option<Vec<Pair>>>,
    /// Scratch for `add_blossom`: (S-blossom, least-slack edge to it, its slack).
    best_to_scratch: Vec<(usize, Edge, W)>,
    /// Live blossoms in the order they were made (networkx's dict order).
    live: Vec<usize>,
    /// Blossom numbers free for reuse.
    free: Vec<usize>,
    /// `allowed[v * n + w] == stamp`: the edge has zero slack this stage.
    allowed: Vec<u32>,
    stamp: u32,
    queue: Vec<usize>,
    /// Scratch for `add_blossom`: each S-blossom's place in its list of
    /// least-slack edges ([`NO_SLOT`] when it has none yet).
    best_slot: Vec<usize>,
    /// Scratch for walks down the blossom tree.
    stack_scratch: Vec<usize>,
    /// Scratch for the list [`State::leaves`] returns.
    leaves_scratch: Vec<usize>,
    /// Blossoms dissolved by the running `detach` (to leave `live`).
    retired: Vec<bool>,
    retired_list: Vec<usize>,
    /// `best_edge`'s slack as computed in dual epoch `.0` for edge `.1`.
    slack_cache: Vec<(u64, Edge, W)>,
    /// Counts the changes of the vertex duals (a cached slack of an
    /// older epoch is stale).
    dual_epoch: u64,
    /// Edges scanned by the running [`State::run`].
    scanned: u64,
    /// When set, [`State::run`] stops between stages once it has
    /// scanned more edges than this.
    budget: Option<u64>,
    /// `best_epoch[w] == dual_epoch`: the free vertex `w`'s least-slack
    /// edge (`best_edge[w]`, from an S-vertex) has a positive slack at
    /// the present duals (set where the stage records or compares it).
    best_epoch: Vec<u64>,
    /// No edge passed over by key: every slack computed (tests compare).
    plain: bool,
    /// Each vertex's heaviest doubled edge, as its place in `values`,
    /// as [`State::restart`] found it (for [`State::jump_start`]).
    heaviest: Vec<u32>,
    /// The last dual change expanded a zero-dual T-blossom, and no
    /// candidate of another kind has been made zero since
    /// (`blossom/delta.rs`).
    zero_run: bool,
    /// The vertices of zero dual scanned during the zero run.
    zero_popped: Vec<usize>,
    /// Each vertex's run: the first vertex after it outside its
    /// top-level blossom (`blossom/runs.rs`), valid while `runs_fresh`.
    run_end: Vec<u32>,
    /// No vertex changed its top-level blossom since the runs were found.
    runs_fresh: bool,
    /// The leaves of each blossom, as many as when it was made.
    leaf_count: Vec<usize>,
    /// When each blossom number was last given to a new blossom (a
    /// blossom's leaves stay the same as long as it lives).
    born: Vec<u64>,
    births: u64,
    /// The vertices outside a large blossom (`blossom/outside.rs`), and
    /// the blossom and its birth they were found for.
    outside: Vec<u32>,
    outside_of: Option<(usize, u64)>,
    /// Entries of adjacency lists the stages looked at (tests).
    #[cfg(test)]
    visits: u64,
    /// Dual changes taken through the zero run (tests).
    #[cfg(test)]
    zero_changes: u64,
}

/// A maximum weight matching of the graph on `n` vertices whose edge
/// weights are `weights[v * n + w]` (symmetric; zero means no edge).
/// With `max_cardinality`, a matching of maximum weight among those of
/// maximum size. Returns each vertex's mate.
///
/// # Examples
///
/// ```
/// use rochade_tournament::matching::max_weight_matching;
///
/// // A path 0-1-2-3 with weights 5, 11, 5: one edge of 11, or two of 5.
/// let mut w = vec![0i64; 16];
/// for (a, b, x) in [(0, 1, 5), (1, 2, 11), (2, 3, 5)] {
///     w[a * 4 + b] = x;
///     w[b * 4 + a] = x;
/// }
/// assert_eq!(max_weight_matching(4, &w, false), vec![None, Some(2), Some(1), None]);
/// assert_eq!(max_weight_matching(4, &w, true), vec![Some(1), Some(0), Some(3), Some(2)]);
/// ```
///
/// # Panics
///
/// If `weights` is not `n * n` long.
#[must_use]
pub fn max_weight_matching<W: Weight>(
    n: usize,
    weights: &[W],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    assert_eq!(weights.len(), n * n, "an n by n weight matrix");
    if n == 0 {
        return Vec::new();
    }
    let max_weight = weights.iter().copied().fold(W::zero(), |m, w| m.max(w));
    let zero = W::zero();
    let adjacency = (0..n)
        .map(|v| {
            (0..n)
                .filter(|&w| w != v && weights[v * n + w] > zero)
                .map(vertex)
                .collect()
        })
        .collect();
    let mut st = State::new(n, adjacency, max_weight, false);
    for (i, &w) in weights.iter().enumerate() {
        st.twice[i] = st.place(w + w);
    }
    st.max_cardinality = max_cardinality;
    // No budget: the run completes.
    let _ = st.run();
    st.mate
}

/// A maximum weight matching kept between changes of the weights, as
/// bbpPairings' matching computer keeps it: [`Matcher::set_weight`]
/// detaches the changed vertex (out of the matching and its blossoms,
/// its dual raised just enough), and [`Matcher::solve`] grows the
/// matching again from the previous duals. A change to the edges of k
/// vertices costs O(k·n²) instead of O(n³). When more than a quarter
/// of the vertices changed, the solve starts afresh instead
/// (`blossom/restart.rs`): the k roots of a warm start would each be
/// scanned again at every one of its k/2 stages.
///
/// Among matchings of equal weight it may find another one than
/// [`max_weight_matching`] does.
///
/// # Examples
///
/// ```
/// use rochade_tournament::matching::Matcher;
///
/// let mut m = Matcher::<i64>::new(4);
/// for (a, b, x) in [(0, 1, 5), (1, 2, 11), (2, 3, 5)] {
///     m.set_weight(a, b, x);
/// }
/// assert_eq!(m.solve(), vec![None, Some(2), Some(1), None]);
/// m.set_weight(1, 2, 9);
/// assert_eq!(m.solve(), vec![Some(1), Some(0), Some(3), Some(2)]);
/// ```
pub struct Matcher<W: Weight> {
    st: State<W>,
    /// The edges changed since the last solve (`v` first, as given).
    changed: Vec<Change>,
    /// The edges [`Matcher::fill`] set since the last solve, one bit
    /// an ordered pair (`v * n + u`, `v < u`); empty when none.
    filled: Vec<u64>,
    is_dirty: Vec<bool>,
    /// A warm solve's budget of scanned edges, in n² (restart.rs).
    budget: u64,
    /// The n that the restart's share and the budget count in: the
    /// vertices, or those of the graph this one stands for
    /// ([`Matcher::stands_for`]).
    whole: usize,
    /// How many fresh starts the jump start paired over every vertex,
    /// and over those after the changed ones (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) jumps: (usize, usize),
    /// Scratch for [`Matcher::reduced_costs`]: each blossom around the
    /// vertex asked for, by its place on the way out.
    marks: Vec<u32>,
    /// The next solve grows the kept matching however many vertices
    /// changed ([`Matcher::keep_warm`]).
    warm_next: bool,
    /// How many edges have weights of each number of trailing zero
    /// bits (`grain.rs`).
    by_zeros: Vec<usize>,
}

impl<W: Weight> Matcher<W> {
    /// A graph of `n` vertices and no edges.
    #[must_use]
    pub fn new(n: usize) -> Matcher<W> {
        Matcher {
            st: State::new(n, vec![Vec::new(); n], W::zero(), true),
            changed: Vec::new(),
            filled: Vec::new(),
            is_dirty: vec![false; n],
            budget: budget::BUDGET,
            whole: n,
            jumps: (0, 0),
            marks: Vec::new(),
            warm_next: false,
            by_zeros: Vec::new(),
        }
    }

    /// The number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.st.n
    }

    /// Whether the graph has no vertices.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.st.n == 0
    }

    /// The weight of edge `v`–`w` (zero: no edge).
    #[must_use]
    pub fn weight(&self, v: usize, w: usize) -> W {
        self.st.weight(v, w)
    }

    /// Sets the weight of edge `v`–`w` (zero removes it; weights are
    /// never negative). Changing many edges of few vertices is cheapest
    /// with those vertices as `v`.
    ///
    /// # Panics
    ///
    /// If `v == w` or either is not a vertex.
    pub fn set_weight(&mut self, v: usize, w: usize, weight: W) {
        let twice = self.st.place(weight + weight);
        self.set_place(v, w, twice);
    }

    /// The place of `weight` doubled among the matcher's distinct
    /// doubled weights, if it has one: what [`Matcher::set_weight`]
    /// would give the edge (read only, so that a bracket's table can
    /// hold the places of its weights before its edges are set).
    #[cfg(test)]
    pub(crate) fn known_place(&self, weight: W) -> Option<u32> {
        let x = weight + weight;
        if self.st.last_place.0 == x {
            return Some(self.st.last_place.1);
        }
        self.st.places.get(&x).copied()
    }

    /// The place of `weight` doubled among the matcher's distinct
    /// doubled weights, added if new: what [`Matcher::set_weight`]
    /// gives the edge (so that a bracket's table can hold places).
    pub(crate) fn place_of(&mut self, weight: W) -> u32 {
        self.st.place(weight + weight)
    }

    /// The weight whose place is `place` ([`Matcher::place_of`]).
    pub(crate) fn weight_at(&self, place: u32) -> W {
        self.st.values[place as usize].half()
    }

    /// [`Matcher::set_weight`] with the weight's place as
    /// [`Matcher::known_place`] or [`Matcher::place_of`] gave it.
    ///
    /// # Panics
    ///
    /// If `v == w` or either is not a vertex.
    pub(crate) fn set_place(&mut self, v: usize, w: usize, twice: u32) {
        assert!(v != w, "no loops");
        let n = self.st.n;
        let old = self.st.twice[v * n + w];
        if twice == old {
            return;
        }
        self.st.twice[v * n + w] = twice;
        self.st.twice[w * n + v] = twice;
        self.count_edges(old, 1, false);
        self.count_edges(twice, 1, true);
        if (old > 0) != (twice > 0) {
            for (a, b) in [(v, w), (w, v)] {
                // A removed edge stays in the list, dead, until the list
                // is compacted (`solve`): no shifting of long lists.
                let list = &mut self.st.adjacency[a];
                if twice > 0 {
                    // Edges are mostly added in increasing order.
                    let b = vertex(b);
                    if list.last().is_none_or(|&last| last < b) {
                        list.push(b);
                        continue;
                    }
                    match list.binary_search(&b) {
                        Ok(_) => self.st.dead[a] -= 1,
                        Err(i) => list.insert(i, b),
                    }
                } else {
                    self.st.dead[a] += 1;
                }
            }
        }
        self.changed.push(Change::Edge(vertex(v), vertex(w)));
    }

    /// The place of edge `v`–`w`'s weight ([`Matcher::place_of`]).
    pub(crate) fn place(&self, v: usize, w: usize) -> u32 {
        self.st.twice[v * self.st.n + w]
    }

    /// Whether every edge weighs zero since the last solve: then
    /// [`Matcher::fill_keyed`] sets them all in one pass.
    pub(crate) fn is_edgeless(&self) -> bool {
        self.filled.is_empty()
            && (0..self.st.n).all(|v| self.st.adjacency[v].len() == self.st.dead[v])
    }

    /// Removes every edge of `v` (as [`Matcher::set_weight`] to zero
    /// would, one by one), in time linear in its edges.
    pub fn clear_edges(&mut self, v: usize) {
        let list = std::mem::take(&mut self.st.adjacency[v]);
        for &u in &list {
            let u = u as usize;
            if self.st.twice[v * self.st.n + u] != 0 {
                self.set_weight(v, u, W::zero());
            }
        }
        self.st.adjacency[v] = list;
        self.st.compact(v);
    }

    /// Solves as a matcher of `whole` vertices would (`whole` at least
    /// the vertices): a solve starts afresh when more than a quarter of
    /// `whole` changed, and a warm solve scans as many edges as one of
    /// `whole` before it gives up. For a bracket's own graph, that stands
    /// for the whole round's (`dutch/graph.rs`): phase 4 changes the
    /// weights of a thousand or two players, warm in the round's graph of
    /// ten thousand; started afresh in a bracket's graph of 4,132 players
    /// it had not finished after 280 s.
    pub(crate) fn stands_for(&mut self, whole: usize) {
        self.whole = whole.max(self.st.n);
    }

    /// Makes the next [`Matcher::solve`] grow the kept matching from its
    /// duals even when many vertices changed, instead of starting
    /// afresh: for changes that leave the kept matching nearly the best
    /// (weights raised or lowered in their lowest bits only), where a
    /// fresh start would find few tight edges and match one pair a
    /// stage, each stage scanning every vertex (restart.rs); nor does
    /// it give up for the edges it scans (`budget.rs`).
    ///
    /// ```
    /// use rochade_tournament::matching::Matcher;
    ///
    /// let mut m = Matcher::<i64>::new(4);
    /// for (a, b, x) in [(0, 1, 40), (2, 3, 40), (0, 2, 40), (1, 3, 40)] {
    ///     m.set_weight(a, b, x);
    /// }
    /// assert_eq!(m.solve(), vec![Some(1), Some(0), Some(3), Some(2)]);
    /// // Every edge changes in its lowest bits: the other pairs now weigh more.
    /// for (a, b, x) in [(0, 1, 40), (2, 3, 40), (0, 2, 41), (1, 3, 41)] {
    ///     m.set_weight(a, b, x);
    /// }
    /// m.keep_warm();
    /// assert_eq!(m.solve(), vec![Some(2), Some(3), Some(0), Some(1)]);
    /// ```
    pub fn keep_warm(&mut self) {
        self.warm_next = true;
    }

    /// A maximum weight matching of the current weights: each vertex's mate.
    pub fn solve(&mut self) -> Vec<Option<usize>> {
        // Only a changed edge that breaks the optimality conditions
        // (a matched edge, an edge inside a blossom, or one of negative
        // slack) makes its first vertex leave the matching; every other
        // change leaves the matching optimal as it is.
        let mut dirty = Vec::new();
        for change in std::mem::take(&mut self.changed) {
            let v = change.vertex();
            if !self.is_dirty[v] && self.breaks_optimality(change) {
                self.is_dirty[v] = true;
                dirty.push(v);
            }
        }
        self.filled = Vec::new();
        // A list a quarter dead is compacted: every scan of it reads its
        // dead entries too (a fixed pair leaves one in every other list).
        for v in 0..self.st.n {
            if 4 * self.st.dead[v] > self.st.adjacency[v].len() {
                self.st.compact(v);
            }
        }
        let zero = W::zero();
        let kept = std::mem::take(&mut self.warm_next);
        let afresh = !kept && dirty.len() * restart::SHARE > self.whole;
        if afresh {
            // Many changed: every vertex starts again (restart.rs).
            self.st.restart();
        } else {
            for &v in &dirty {
                self.st.detach(v);
            }
        }
        for &v in &dirty {
            self.is_dirty[v] = false;
            if afresh {
                continue;
            }
            // The least dual that keeps every edge of v's slack nonnegative.
            self.st.dual[v] = self.st.least_dual(v);
        }
        // The roots of the trees (free vertices of positive dual) start
        // with even duals: then every tree's vertices share one parity,
        // the slack between two S-vertices is even, and halving it
        // (delta 3) is exact.
        // A blossom's edges stay tight only if its base keeps its dual,
        // so such a base leaves its blossoms first.
        let odd = |d: W| d - d.half() - d.half();
        for v in 0..self.st.n {
            if self.st.mate[v].is_none() && odd(self.st.dual[v]) != zero {
                if self.st.in_blossom[v] != v {
                    self.st.detach(v);
                }
                let d = self.st.dual[v];
                self.st.dual[v] = d + odd(d);
            }
        }
        self.st.expand_zero_blossoms();
        if !dirty.is_empty() {
            if afresh {
                self.pair_after_restart(&dirty);
                self.st.run();
            } else {
                self.st.pair_tight_free();
                // A warm solve that scans more edges than a fresh one
                // would (restart.rs) is given up and started afresh,
                // unless it was asked for ([`Matcher::keep_warm`]: a
                // fresh start is the dearer one there).
                let n = self.whole as u64;
                self.st.budget = (!kept).then_some(self.budget * n * n);
                let done = self.st.run();
                self.st.budget = None;
                if !done {
                    self.st.restart();
                    self.pair_after_restart(&dirty);
                    self.st.run();
                }
            }
        }
        self.st.mate.clone()
    }

    /// The matching a fresh start's stages grow, right after
    /// [`State::restart`]: the jump start's over every vertex; when that
    /// leaves too many roots, the jump start's over the vertices after
    /// the last one that changed (`dirty`) and the restart's tight pairs
    /// before them; when that fails too, the restart's tight pairs.
    ///
    /// A bracket's start changes the bracket and the next scoregroup;
    /// the vertices before them are the pairs already made (each a
    /// single edge of weight one, whose halves round up to two: not
    /// tight), those after them the far players, whose edges nearly all
    /// weigh the same: the jump start pairs those before the first stage.
    fn pair_after_restart(&mut self, dirty: &[usize]) {
        let after = dirty.iter().max().map_or(0, |&v| v + 1);
        let whole = self.st.jump_start(0);
        let tail = !whole && after < self.st.n && self.st.jump_start(after);
        if !whole {
            self.st.pair_tight_after_restart();
        }
        self.jumps.0 += usize::from(whole);
        self.jumps.1 += usize::from(tail);
    }
}

impl<W: Weight + std::fmt::Debug> Matcher<W> {
    /// Sets a warm solve's budget of scanned edges, in n² (tests: 0 gives
    /// up every warm solve after its first stage).
    #[cfg(test)]
    pub(crate) fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
    }

    /// Computes every slack the stages look at, passing over no edge by
    /// its key (tests: the same solves must follow).
    #[cfg(test)]
    pub(crate) fn set_plain(&mut self) {
        self.st.plain = true;
    }

    /// The optimality conditions of the last solve, for the tests.
    #[cfg(test)]
    pub(crate) fn check(&self) -> Result<(), String> {
        let st = &self.st;
        let n = st.n;
        let zero = W::zero();
        let ancestors = |v: usize| {
            let mut out = Vec::new();
            let mut b = st.parent[v];
            while let Some(x) = b {
                out.push(x);
                b = st.parent[x];
            }
            out
        };
        for v in 0..n {
            if st.dual[v] < zero {
                return Err(format!("dual of {v} negative"));
            }
            if st.mate[v].is_none() && st.dual[v] != zero {
                return Err(format!("free {v} with a dual"));
            }
            for u in v + 1..n {
                let w = st.weight(v, u);
                if w == zero && st.mate[v] != Some(u) {
                    continue;
                }
                let (av, au) = (ancestors(v), ancestors(u));
                let mut slack = st.dual[v] + st.dual[u] - w - w;
                for b in av.iter().filter(|b| au.contains(b)) {
                    slack = slack + st.blossom_dual[*b] + st.blossom_dual[*b];
                }
                if slack < zero {
                    return Err(format!("edge {v}-{u} negative slack"));
                }
                if st.mate[v] == Some(u) && slack != zero {
                    return Err(format!(
                        "matched {v}-{u} not tight: w {w:?} duals {:?} {:?} anc {av:?} {au:?} live {:?} bd {:?} mate {:?}",
                        st.dual[v], st.dual[u], st.live, st.blossom_dual, st.mate
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A small deterministic generator (64-bit LCG) for the tests: each
/// call draws a number below its bound.
#[cfg(test)]
pub(crate) fn lcg(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |bound| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % bound
    }
}

impl<W: Weight> State<W> {
    /// No matching, no blossoms and no weights yet over the vertices'
    /// `adjacency`; every vertex dual is `dual`.
    fn new(n: usize, adjacency: Vec<Vec<u32>>, dual: W, warm: bool) -> State<W> {
        assert!(u32::try_from(n).is_ok(), "fewer than 2^32 vertices");
        let zero = W::zero();
        let nodes = 2 * n;
        let mut places = HashMap::default();
        places.insert(zero, 0);
        State {
            n,
            twice: vec![0; n * n],
            values: vec![zero],
            places,
            last_place: (zero, 0),
            warm,
            adjacency,
            dead: vec![0; n],
            max_cardinality: false,
            mate: vec![None; n],
            label: vec![FREE; nodes],
            label_edge: vec![None; nodes],
            in_blossom: (0..n).collect(),
            parent: vec![None; nodes],
            base: (0..nodes).collect(),
            best_edge: vec![None; nodes],
            dual: vec![dual; n],
            blossom_dual: vec![zero; nodes],
            childs: vec![Vec::new(); nodes],
            edges: vec![Vec::new(); nodes],
            my_best_edges: vec![None; nodes],
            best_to_scratch: Vec::new(),
            live: Vec::new(),
            free: (n..nodes).rev().collect(),
            allowed: vec![0; n * n],
            stamp: 0,
            queue: Vec::new(),
            best_slot: vec![NO_SLOT; nodes],
            stack_scratch: Vec::new(),
            leaves_scratch: Vec::new(),
            retired: vec![false; nodes],
            retired_list: Vec::new(),
            slack_cache: vec![(0, (0, 0), zero); nodes],
            dual_epoch: 1,
            scanned: 0,
            budget: None,
            heaviest: Vec::new(),
            run_end: Vec::new(),
            runs_fresh: false,
            zero_run: false,
            zero_popped: Vec::new(),
            leaf_count: vec![1; nodes],
            born: vec![0; nodes],
            births: 0,
            outside: Vec::new(),
            outside_of: None,
            #[cfg(test)]
            visits: 0,
            #[cfg(test)]
            zero_changes: 0,
            best_epoch: vec![0; n],
            plain: false,
        }
    }

    /// The weight of edge `v`–`w` (zero: no edge).
    fn weight(&self, v: usize, w: usize) -> W {
        self.twice(v, w).half()
    }

    /// Twice the weight of edge `v`–`w`.
    fn twice(&self, v: usize, w: usize) -> W {
        self.values[self.twice[v * self.n + w] as usize]
    }

    /// The place of doubled weight `x` in `values`, added if new.
    fn place(&mut self, x: W) -> u32 {
        if self.last_place.0 == x {
            return self.last_place.1;
        }
        if let Some(&i) = self.places.get(&x) {
            self.last_place = (x, i);
            return i;
        }
        let i = u32::try_from(self.values.len()).expect("fewer than 2^32 distinct weights");
        self.values.push(x);
        self.places.insert(x, i);
        i
    }

    /// Whether edge `v`–`w`, changed, breaks the conditions that make
    /// the matching maximum: it is matched, it lies inside a blossom
    /// (whose edges must stay tight), or its slack is negative.
    fn breaks_optimality(&self, v: usize, w: usize) -> bool {
        let top = self.in_blossom[v];
        self.mate[v] == Some(w)
            || (top == self.in_blossom[w] && self.is_blossom(top))
            || self.slack(v, w) < W::zero()
    }

    /// Drops the removed edges from `v`'s adjacency list.
    fn compact(&mut self, v: usize) {
        let n = self.n;
        let twice = &self.twice;
        self.adjacency[v].retain(|&u| twice[v * n + u as usize] != 0);
        self.dead[v] = 0;
    }

    /// The slack of edge `v`–`w`: dual[v] + dual[w] − 2·weight.
    #[inline(always)]
    fn slack(&self, v: usize, w: usize) -> W {
        self.dual[v].add_sub(self.dual[w], self.twice(v, w))
    }

    /// The slack of node `b`'s least-slack edge, if it has one: from the
    /// cache while no dual has changed since it was computed.
    fn best_slack(&mut self, b: usize) -> Option<W> {
        let edge = self.best_edge[b]?;
        let (epoch, cached, slack) = self.slack_cache[b];
        if epoch == self.dual_epoch && cached == edge {
            return Some(slack);
        }
        let slack = self.slack(edge.0, edge.1);
        self.slack_cache[b] = (self.dual_epoch, edge, slack);
        Some(slack)
    }

    /// The key of edge `x`–`w` whose doubled weight has place `place`:
    /// `dual[x]` less that weight, so that the edge's slack is the key
    /// plus `dual[w]`. Two edges to one vertex `w` differ in slack by
    /// their keys' difference: keys compare their slacks without `w`'s
    /// dual.
    #[inline(always)]
    fn key(&self, x: usize, place: u32) -> W {
        self.dual[x] - self.values[place as usize]
    }

    /// Whether node `b` is a blossom (not a vertex).
    fn is_blossom(&self, b: usize) -> bool {
        b >= self.n
    }

    /// Whether edge `v`–`w` may be used in this stage.
    fn is_allowed(&self, v: usize, w: usize) -> bool {
        self.allowed[v * self.n + w] == self.stamp
    }

    /// Marks edge `v`–`w` as usable in this stage.
    fn allow(&mut self, v: usize, w: usize) {
        let n = self.n;
        self.allowed[v * n + w] = self.stamp;
        self.allowed[w * n + v] = self.stamp;
    }

    /// The vertices inside blossom `b`, in networkx's (stack) order, in
    /// a list that [`State::give_back`] returns for the next call.
    fn leaves(&mut self, b: usize) -> Vec<usize> {
        let mut out = std::mem::take(&mut self.leaves_scratch);
        out.clear();
        let mut stack = std::mem::take(&mut self.stack_scratch);
        stack.clear();
        stack.extend_from_slice(&self.childs[b]);
        while let Some(t) = stack.pop() {
            if self.is_blossom(t) {
                stack.extend_from_slice(&self.childs[t]);
            } else {
                out.push(t);
            }
        }
        self.stack_scratch = stack;
        out
    }

    /// Keeps a list of [`State::leaves`] for its next call.
    fn give_back(&mut self, leaves: Vec<usize>) {
        self.leaves_scratch = leaves;
    }

    /// Labels the top-level blossom of `w` with `t`, reached by edge `v`–`w`.
    fn assign_label(&mut self, w: usize, t: u8, v: Option<usize>) {
        let b = self.in_blossom[w];
        self.label[w] = t;
        self.label[b] = t;
        let edge = v.map(|v| (v, w));
        self.label_edge[w] = edge;
        self.label_edge[b] = edge;
        self.best_edge[w] = None;
        self.best_edge[b] = None;
        if t == S {
            if self.is_blossom(b) {
                let leaves = self.leaves(b);
                self.queue.extend_from_slice(&leaves);
                self.give_back(leaves);
            } else {
                self.queue.push(b);
            }
        } else if t == T {
            let base = self.base[b];
            let mate = self.mate[base].expect("a T-blossom's base is matched");
            self.assign_label(mate, S, Some(base));
        }
    }

    /// Follows the alternating trees back from `v` and `w`: the base of a
    /// new blossom, or `None` for an augmenting path.
    fn scan_blossom(&mut self, v: usize, w: usize) -> Option<usize> {
        let mut path = Vec::new();
        let mut base = None;
        let mut v = Some(v);
        let mut w = Some(w);
        while let Some(vv) = v {
            let b = self.in_blossom[vv];
            if self.label[b] & BREADCRUMB != 0 {
                base = Some(self.base[b]);
                break;
            }
            path.push(b);
            self.label[b] = S | BREADCRUMB;
            v = match self.label_edge[b] {
                None => None,
                Some((tv, _)) => {
                    let tb = self.in_blossom[tv];
                    self.label_edge[tb].map(|(x, _)| x)
                }
            };
            if w.is_some() {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        base
    }

    /// Makes a new blossom with base `base` through edge `v`–`w`.
    fn add_blossom(&mut self, base: usize, v: usize, w: usize) {
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let b = self.free.pop().expect("at most n/2 blossoms live at once");
        self.births += 1;
        self.born[b] = self.births;
        self.runs_fresh = false;
        self.live.push(b);
        self.base[b] = base;
        self.parent[b] = None;
        self.parent[bb] = Some(b);
        let mut path = Vec::new();
        let mut edgs = vec![(v, w)];
        while bv != bb {
            self.parent[bv] = Some(b);
            path.push(bv);
            let le = self.label_edge[bv].expect("a labelled blossom");
            edgs.push(le);
            bv = self.in_blossom[le.0];
        }
        path.push(bb);
        path.reverse();
        edgs.reverse();
        while bw != bb {
            self.parent[bw] = Some(b);
            path.push(bw);
            let le = self.label_edge[bw].expect("a labelled blossom");
            edgs.push((le.1, le.0));
            bw = self.in_blossom[le.0];
        }
        self.label[b] = S;
        self.label_edge[b] = self.label_edge[bb];
        self.blossom_dual[b] = W::zero();
        self.childs[b] = path.clone();
        self.edges[b] = edgs;
        let leaves = self.leaves(b);
        self.leaf_count[b] = leaves.len();
        for &leaf in &leaves {
            if self.label[self.in_blossom[leaf]] == T {
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        self.give_back(leaves);
        // The least-slack edge to every neighbouring S-blossom.
        // (blossom, edge, its slack)
        let mut best_to = std::mem::take(&mut self.best_to_scratch);
        for &sub in &path {
            if !self.is_blossom(sub) && !self.warm {
                for yi in 0..self.adjacency[sub].len() {
                    let y = self.adjacency[sub][yi] as usize;
                    self.consider_best(b, (sub, y), &mut best_to);
                }
            } else if let Some(list) = self.my_best_edges[sub].take() {
                for k in list {
                    self.consider_best(b, edge(k), &mut best_to);
                }
            } else if !self.warm {
                for x in self.leaves(sub) {
                    for yi in 0..self.adjacency[x].len() {
                        let y = self.adjacency[x][yi] as usize;
                        self.consider_best(b, (x, y), &mut best_to);
                    }
                }
            }
            self.best_edge[sub] = None;
        }
        let mut best: Option<(Edge, W)> = None;
        for &(bj, k, s) in &best_to {
            self.best_slot[bj] = NO_SLOT;
            if best.is_none_or(|(_, bs)| s < bs) {
                best = Some((k, s));
            }
        }
        let mine: Vec<Pair> = best_to.drain(..).map(|(_, k, _)| pair(k)).collect();
        self.best_to_scratch = best_to;
        self.my_best_edges[b] = Some(mine);
        self.best_edge[b] = best.map(|(k, _)| k);
    }

    /// Keeps edge `k` in `best_to` if it leads from new blossom `b` to an
    /// S-blossom with less slack than the edge kept for that blossom.
    fn consider_best(&mut self, b: usize, k: Edge, best_to: &mut Vec<(usize, Edge, W)>) {
        let (mut i, mut j) = k;
        if self.in_blossom[j] == b {
            std::mem::swap(&mut i, &mut j);
        }
        let bj = self.in_blossom[j];
        if bj == b || self.label[bj] != S {
            return;
        }
        let slack = self.slack(i, j);
        match self.best_slot[bj] {
            NO_SLOT => {
                self.best_slot[bj] = best_to.len();
                best_to.push((bj, k, slack));
            }
            slot => {
                if slack < best_to[slot].2 {
                    best_to[slot].1 = k;
                    best_to[slot].2 = slack;
                }
            }
        }
    }

    /// The child at signed position `j` of blossom `b` (Python indexing).
    fn child_at(&self, b: usize, j: isize) -> usize {
        let len = self.childs[b].len() as isize;
        self.childs[b][j.rem_euclid(len) as usize]
    }

    /// The edge at signed position `j` of blossom `b` (Python indexing).
    fn edge_at(&self, b: usize, j: isize) -> Edge {
        let len = self.edges[b].len() as isize;
        self.edges[b][j.rem_euclid(len) as usize]
    }

    /// Dissolves blossom `b` into its children; at the end of a stage
    /// (`end_stage`) also every child blossom with zero dual.
    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        self.runs_fresh = false;
        for s in self.childs[b].clone() {
            self.parent[s] = None;
            if self.is_blossom(s) {
                if end_stage && self.blossom_dual[s] == W::zero() {
                    self.expand_blossom(s, end_stage);
                } else {
                    let leaves = self.leaves(s);
                    for &leaf in &leaves {
                        self.in_blossom[leaf] = s;
                    }
                    self.give_back(leaves);
                }
            } else {
                self.in_blossom[s] = s;
            }
        }
        if !end_stage && self.label[b] == T {
            self.relabel_expanded(b);
        }
        self.label[b] = FREE;
        self.label_edge[b] = None;
        self.best_edge[b] = None;
        self.parent[b] = None;
        self.blossom_dual[b] = W::zero();
        self.childs[b].clear();
        self.edges[b].clear();
        self.my_best_edges[b] = None;
        self.live.retain(|&x| x != b);
        self.free.push(b);
    }

    /// Relabels the children of the T-blossom `b` being expanded mid-stage.
    fn relabel_expanded(&mut self, b: usize) {
        let (lv, lw) = self.label_edge[b].expect("a T-blossom has its edge");
        let entry = self.in_blossom[lw];
        let len = self.childs[b].len() as isize;
        let mut j = self.childs[b]
            .iter()
            .position(|&c| c == entry)
            .expect("the entry child") as isize;
        let step: isize = if j & 1 == 1 {
            j -= len;
            1
        } else {
            -1
        };
        let (mut v, mut w) = (lv, lw);
        while j != 0 {
            let (p, q) = if step == 1 {
                self.edge_at(b, j)
            } else {
                let (q, p) = self.edge_at(b, j - 1);
                (p, q)
            };
            self.label[w] = FREE;
            self.label[q] = FREE;
            self.assign_label(w, T, Some(v));
            self.allow(p, q);
            j += step;
            (v, w) = if step == 1 {
                self.edge_at(b, j)
            } else {
                let (w, v) = self.edge_at(b, j - 1);
                (v, w)
            };
            self.allow(v, w);
            j += step;
        }
        let bw = self.child_at(b, j);
        self.label[w] = T;
        self.label[bw] = T;
        self.label_edge[w] = Some((v, w));
        self.label_edge[bw] = Some((v, w));
        self.best_edge[bw] = None;
        j += step;
        while self.child_at(b, j) != entry {
            let bv = self.child_at(b, j);
            if self.label[bv] == S {
                j += step;
                continue;
            }
            let mut x = bv;
            if self.is_blossom(bv) {
                for leaf in self.leaves(bv) {
                    x = leaf;
                    if self.label[leaf] != FREE {
                        break;
                    }
                }
            }
            if self.label[x] != FREE {
                self.label[x] = FREE;
                let mate = self.mate[self.base[bv]].expect("matched base");
                self.label[mate] = FREE;
                let from = self.label_edge[x].expect("a labelled vertex").0;
                self.assign_label(x, T, Some(from));
            }
            j += step;
        }
    }

    /// Swaps matched and unmatched edges inside blossom `b` so that
    /// vertex `v` becomes its base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        // `v` and its ancestors below `b`, walked once: each level of the
        // recursion takes the child that holds `v` from it instead of
        // walking up again (quadratic in the depth of a nest).
        let mut path = vec![v];
        let mut t = v;
        while self.parent[t] != Some(b) {
            t = self.parent[t].expect("v lies inside b");
            path.push(t);
        }
        self.augment_blossom_along(b, &path);
    }

    /// [`State::augment_blossom`] with `path`: the vertex and its
    /// ancestors up to the child of `b` that holds it, innermost first.
    fn augment_blossom_along(&mut self, b: usize, path: &[usize]) {
        let (&t, inner) = path.split_last().expect("the path ends at b's child");
        if self.is_blossom(t) {
            self.augment_blossom_along(t, inner);
        }
        let len = self.childs[b].len() as isize;
        let i = self.childs[b]
            .iter()
            .position(|&c| c == t)
            .expect("t is a child") as isize;
        let mut j = i;
        let step: isize = if i & 1 == 1 {
            j -= len;
            1
        } else {
            -1
        };
        while j != 0 {
            j += step;
            let t1 = self.child_at(b, j);
            let (w, x) = if step == 1 {
                self.edge_at(b, j)
            } else {
                let (x, w) = self.edge_at(b, j - 1);
                (w, x)
            };
            if self.is_blossom(t1) {
                self.augment_blossom(t1, w);
            }
            j += step;
            let t2 = self.child_at(b, j);
            if self.is_blossom(t2) {
                self.augment_blossom(t2, x);
            }
            self.mate[w] = Some(x);
            self.mate[x] = Some(w);
        }
        let i = i as usize;
        self.childs[b].rotate_left(i);
        self.edges[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
    }

    /// Augments the matching along the path through edge `v`–`w`.
    fn augment_matching(&mut self, v: usize, w: usize) {
        self.flip_to_root(v, Some(w));
        self.flip_to_root(w, Some(v));
    }

    /// Flips the alternating path from S-vertex `x` to its tree's root,
    /// `x` taking `mate` (networkx's half of an augmentation). With no
    /// mate, the root is matched and `x` is left free in its place.
    fn flip_to_root(&mut self, x: usize, mate: Option<usize>) {
        let (mut s, mut j) = (x, mate);
        loop {
            let bs = self.in_blossom[s];
            if self.is_blossom(bs) {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = j;
            let Some((t, _)) = self.label_edge[bs] else {
                break;
            };
            let bt = self.in_blossom[t];
            let (ns, nj) = self.label_edge[bt].expect("a T-blossom has its edge");
            if self.is_blossom(bt) {
                self.augment_blossom(bt, nj);
            }
            self.mate[nj] = Some(ns);
            (s, j) = (ns, Some(nj));
        }
    }

    /// Takes vertex `v` out of the matching and out of every blossom,
    /// keeping every slack nonnegative: `v` becomes the base of its
    /// blossom, its mate is freed, and each blossom around it gives its
    /// dual to its vertices (bbpPairings' `prepareVertexForWeightAdjustments`).
    fn detach(&mut self, v: usize) {
        self.runs_fresh = false;
        let top = self.in_blossom[v];
        if !self.is_blossom(top) {
            if let Some(m) = self.mate[v].take() {
                self.mate[m] = None;
            }
            return;
        }
        let outside = self.mate[self.base[top]];
        self.augment_blossom(top, v);
        if let Some(m) = outside {
            self.mate[m] = None;
        }
        self.mate[v] = None;
        // `v` is now the base of every blossom around it: the first child
        // of each is the next one down. Each blossom of that chain gives
        // its dual to its leaves and dissolves; the other children become
        // top-level. One walk over `top`'s leaves, however deep the chain.
        let mut b = top;
        let mut given = W::zero();
        loop {
            given = given + self.blossom_dual[b];
            let children = std::mem::take(&mut self.childs[b]);
            for &c in &children[1..] {
                self.parent[c] = None;
                if self.is_blossom(c) {
                    self.stack_scratch.clear();
                    self.stack_scratch.extend_from_slice(&self.childs[c]);
                    while let Some(t) = self.stack_scratch.pop() {
                        if self.is_blossom(t) {
                            let grand = &self.childs[t];
                            self.stack_scratch.extend_from_slice(grand);
                        } else {
                            self.in_blossom[t] = c;
                            self.dual[t] = self.dual[t] + given;
                        }
                    }
                } else {
                    self.in_blossom[c] = c;
                    self.dual[c] = self.dual[c] + given;
                }
            }
            let first = children[0];
            self.parent[first] = None;
            self.retire(b);
            if !self.is_blossom(first) {
                self.in_blossom[first] = first;
                self.dual[first] = self.dual[first] + given;
                break;
            }
            b = first;
        }
        self.live.retain(|&x| !self.retired[x]);
        for x in self.retired_list.drain(..) {
            self.retired[x] = false;
        }
    }

    /// Forgets blossom `b` (its children are already placed): its
    /// number goes back to the free list; `live` drops it at the end of
    /// the caller.
    fn retire(&mut self, b: usize) {
        self.label[b] = FREE;
        self.label_edge[b] = None;
        self.best_edge[b] = None;
        self.parent[b] = None;
        self.blossom_dual[b] = W::zero();
        self.edges[b].clear();
        self.my_best_edges[b] = None;
        self.retired[b] = true;
        self.retired_list.push(b);
        self.free.push(b);
    }

    /// Dissolves every top-level blossom whose dual is zero, and the
    /// children of zero dual that this leaves on top: between stages
    /// such a blossom only slows the search (its leaves' edges are
    /// rescanned whenever a blossom around it forms), and the matching
    /// and the slacks stay as they are.
    fn expand_zero_blossoms(&mut self) {
        for b in self.live.clone() {
            if !self.childs[b].is_empty()
                && self.parent[b].is_none()
                && self.blossom_dual[b] == W::zero()
            {
                self.expand_blossom(b, true);
            }
        }
    }

    /// Matches free vertices (outside blossoms) two by two along tight
    /// edges before the stages: each such pair is an augmenting path of
    /// one edge, which a stage finds only after labelling every tree
    /// again (the freed mates of a bracket's changed players lie mostly
    /// among the far pairs, all tight to one another). The duals stay as
    /// they are, so the optimality conditions still hold; a vertex of
    /// positive dual left free is a root for the stages.
    fn pair_tight_free(&mut self) {
        let n = self.n;
        let zero = W::zero();
        let free: Vec<usize> = (0..n)
            .filter(|&v| self.mate[v].is_none() && self.in_blossom[v] == v)
            .collect();
        for (k, &v) in free.iter().enumerate() {
            if self.mate[v].is_some() || self.dual[v] == zero {
                continue;
            }
            let open = |st: &State<W>, u: usize| {
                u != v
                    && st.mate[u].is_none()
                    && st.in_blossom[u] == u
                    && st.twice[v * n + u] != 0
                    && st.slack(v, u) == zero
            };
            // The shorter of the free vertices and v's neighbours.
            let partner = if free.len() < self.adjacency[v].len() {
                free[k + 1..].iter().copied().find(|&u| open(self, u))
            } else {
                self.adjacency[v]
                    .iter()
                    .map(|&u| u as usize)
                    .find(|&u| open(self, u))
            };
            if let Some(u) = partner {
                self.mate[v] = Some(u);
                self.mate[u] = Some(v);
            }
        }
    }

    /// The main loop: one stage per augmentation.
    /// With a [`State::budget`], false when it ran out between two
    /// stages (the matching is then not maximum); otherwise true.
    fn run(&mut self) -> bool {
        let n = self.n;
        self.scanned = 0;
        // Edges may have changed since the last run: the vertices
        // outside a blossom are found again (outside.rs).
        self.outside_of = None;
        let mut stages = 0u64;
        loop {
            if self.budget.is_some_and(|b| self.scanned > b) {
                return false;
            }
            self.label.fill(FREE);
            self.label_edge.fill(None);
            self.best_edge.fill(None);
            for &b in &self.live {
                self.my_best_edges[b] = None;
            }
            if self.warm {
                self.my_best_edges[..n].fill(None);
            }
            self.stamp += 1;
            // Duals may have changed outside a stage (`Matcher::solve`).
            self.dual_epoch += 1;
            self.queue.clear();
            let mut roots = 0u64;
            for v in 0..n {
                if self.mate[v].is_none()
                    && self.label[self.in_blossom[v]] == FREE
                    && (!self.warm || self.dual[v] > W::zero())
                {
                    self.assign_label(v, S, None);
                    roots += 1;
                }
            }
            if self.warm && self.queue.is_empty() {
                break;
            }
            // A stage matches two roots at the most: at the stages' pace
            // so far, would the rest exceed the budget (budget.rs)?
            if let Some(budget) = self.budget
                && stages > 0
                && budget::gives_up(self.scanned, stages, roots, budget)
            {
                return false;
            }
            stages += 1;
            let augmented = self.stage();
            if !augmented {
                break;
            }
            for b in self.live.clone() {
                if self.childs[b].is_empty() {
                    continue;
                }
                if self.parent[b].is_none()
                    && self.label[b] == S
                    && self.blossom_dual[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        true
    }

    /// One stage: grows trees until an augmentation (true) or until the
    /// duals show the matching is optimal (false).
    fn stage(&mut self) -> bool {
        let n = self.n;
        self.zero_run = false;
        loop {
            while let Some(v) = self.queue.pop() {
                // An S-vertex of zero dual would be a delta of kind 1, zero.
                if self.zero_run && self.dual[v] == W::zero() {
                    self.zero_popped.push(v);
                }
                let len = self.adjacency[v].len();
                self.scanned += len as u64;
                // Its blossom's outside, or its own list (outside.rs).
                let outside = self.reads_outside(v);
                if !outside && self.wants_runs(v) {
                    self.find_runs();
                }
                let end = if outside { self.outside.len() } else { len };
                // The last key of `v` and of another S-vertex computed
                // in this scan (no dual changes during it).
                let mut mine: Option<(u32, W)> = None;
                let mut theirs: Option<(usize, u32, W)> = None;
                let mut wi = 0;
                while wi < end {
                    let w = if outside {
                        self.outside[wi]
                    } else {
                        self.adjacency[v][wi]
                    } as usize;
                    wi += 1;
                    #[cfg(test)]
                    {
                        self.visits += 1;
                    }
                    // Inside its own blossom first: such an edge (a large
                    // share of them) is skipped without reading its weight,
                    // with the rest of its run (runs.rs).
                    let bv = self.in_blossom[v];
                    let bw = self.in_blossom[w];
                    if bv == bw {
                        if !outside {
                            wi = self.past_run(v, w, wi);
                        }
                        continue;
                    }
                    let place = self.twice[v * n + w];
                    if place == 0 {
                        continue;
                    }
                    // Read once: the key test and the slack's below both
                    // need it.
                    let mut allowed = self.is_allowed(v, w);
                    // A free vertex whose least-slack edge `a`–`w` has a
                    // positive slack at these duals: an edge `v`–`w` with
                    // a key no less than `a`'s has at least that slack, so
                    // it is neither tight nor less slack, and is passed
                    // over without reading `w`'s dual (see `key`).
                    if self.best_epoch[w] == self.dual_epoch
                        && !self.plain
                        && self.label[w] == FREE
                        && self.label[bw] != S
                        && !allowed
                        && let Some((a, x)) = self.best_edge[w]
                        && x == w
                    {
                        let a_place = self.twice[a * n + w];
                        let own = match mine {
                            Some((p, key)) if p == place => key,
                            _ => {
                                let key = self.key(v, place);
                                mine = Some((place, key));
                                key
                            }
                        };
                        let other = match theirs {
                            Some((b, p, key)) if b == a && p == a_place => key,
                            _ => {
                                let key = self.key(a, a_place);
                                theirs = Some((a, a_place, key));
                                key
                            }
                        };
                        if own >= other {
                            continue;
                        }
                    }
                    let mut kslack = W::zero();
                    if !allowed {
                        kslack = self.slack(v, w);
                        if kslack <= W::zero() {
                            self.allow(v, w);
                            allowed = true;
                        }
                    }
                    if allowed {
                        if self.label[bw] == FREE && self.mate[self.base[bw]].is_none() {
                            // Warm: a free vertex whose dual is zero ends
                            // an augmenting path.
                            self.augment_matching(v, w);
                            return true;
                        } else if self.label[bw] == FREE {
                            self.assign_label(w, T, Some(v));
                        } else if self.label[bw] == S {
                            match self.scan_blossom(v, w) {
                                Some(base) => self.add_blossom(base, v, w),
                                None => {
                                    self.augment_matching(v, w);
                                    return true;
                                }
                            }
                        } else if self.label[w] == FREE {
                            self.label[w] = T;
                            self.label_edge[w] = Some((v, w));
                        }
                    } else if self.label[bw] == S {
                        if self.best_slack(bv).is_none_or(|best| kslack < best) {
                            self.best_edge[bv] = Some((v, w));
                            self.slack_cache[bv] = (self.dual_epoch, (v, w), kslack);
                        }
                        if self.warm {
                            self.my_best_edges[bv]
                                .get_or_insert_with(Vec::new)
                                .push(pair((v, w)));
                        }
                    } else if self.label[w] == FREE {
                        // Here `kslack` is positive (the edge is not tight).
                        match self.best_slack(w) {
                            Some(best) if best <= kslack => {
                                if best > W::zero() {
                                    self.best_epoch[w] = self.dual_epoch;
                                }
                            }
                            _ => {
                                self.best_edge[w] = Some((v, w));
                                self.slack_cache[w] = (self.dual_epoch, (v, w), kslack);
                                self.best_epoch[w] = self.dual_epoch;
                            }
                        }
                    }
                }
            }

            // No augmenting path: change the duals.
            let DualChange {
                kind: delta_type,
                delta,
                edge: delta_edge,
                blossom: delta_blossom,
            } = self.dual_change();
            self.zero_run = self.warm && delta_type == 4 && delta == W::zero();
            self.zero_popped.clear();
            // A zero delta moves no dual (a zero-dual T-blossom expanded).
            if delta != W::zero() {
                for v in 0..n {
                    match self.label[self.in_blossom[v]] {
                        S => self.dual[v] = self.dual[v] - delta,
                        T => self.dual[v] = self.dual[v] + delta,
                        _ => {}
                    }
                }
                self.dual_epoch += 1;
                for &b in &self.live {
                    if self.parent[b].is_none() {
                        match self.label[b] {
                            S => self.blossom_dual[b] = self.blossom_dual[b] + delta,
                            T => self.blossom_dual[b] = self.blossom_dual[b] - delta,
                            _ => {}
                        }
                    }
                }
            }
            match (delta_type, delta_edge, delta_blossom) {
                (2 | 3, Some((v, w)), _) => {
                    self.allow(v, w);
                    self.queue.push(v);
                }
                (4, _, Some(b)) => self.expand_at_change(b),
                (1, _, _) if self.warm => {
                    // An S-vertex's dual reached zero: a root may stay
                    // free; another vertex becomes free in its root's place.
                    let x = (0..n)
                        .find(|&v| self.label[self.in_blossom[v]] == S && self.dual[v] == W::zero())
                        .expect("the least S-vertex dual is zero");
                    if self.mate[x].is_some() {
                        self.flip_to_root(x, None);
                    }
                    return true;
                }
                _ => return false,
            }
        }
    }
}
