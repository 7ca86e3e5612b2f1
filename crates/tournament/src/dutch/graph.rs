//! The graph a bracket's decisions are matched on, by the players'
//! indices in the round's order (global indices).
//!
//! With an odd number of players it holds the whole round, kept from
//! one bracket to the next. With an even number each bracket has one
//! of its own: its players and the next scoregroup alone, every weight
//! lowered by a far pair's, as long as the far block can take whoever
//! it leaves unpaired (`far.rs`); else its players and the far block.

use super::base::Base;
use super::far::Far;
use super::player::Entrant;
use crate::matching::{Matcher, Wide};

/// Not a vertex of the graph.
const OUT: u32 = u32::MAX;

/// A matching left players of the bracket to a far block that cannot be
/// shown to take them: the bracket is paired again with its far block.
#[derive(Debug)]
pub(super) struct Unproven;

/// The round's players sorted by score (descending) then pairing number,
/// with the matching kept from one decision to the next: a decision
/// changes the edges of a few players, and the matching is grown again
/// from the previous one (O(n²) a player instead of O(n³) a decision).
pub(super) struct Graph<'a, const L: usize> {
    pub(super) players: Vec<&'a Entrant>,
    pub(super) n: usize,
    pub(super) m: Matcher<Wide<L>>,
    /// The vertices' global indices.
    local: Vec<usize>,
    /// Each global index's vertex, [`OUT`] if none.
    vertex: Vec<u32>,
    /// What every weight is lowered by: a far pair's weight when the far
    /// block is left out, else zero.
    offset: Wide<L>,
    /// The far block left out, when it is.
    far: Option<Far>,
    /// With the far block left out and an odd number of vertices, one
    /// more: a seat in the far block (below).
    seat: Option<usize>,
}

impl<'a, const L: usize> Graph<'a, L> {
    /// The whole round with no edges if `whole`, else no graph until
    /// [`Graph::of`] gives one.
    pub(super) fn new(players: Vec<&'a Entrant>, whole: bool) -> Graph<'a, L> {
        let n = players.len();
        Graph {
            players,
            n,
            m: Matcher::new(if whole { n } else { 0 }),
            local: (0..n).collect(),
            vertex: (0..n as u32).collect(),
            offset: Wide::ZERO,
            far: None,
            seat: None,
        }
    }

    /// A graph of the players `local` (global indices), with no edges;
    /// with `far` (the far block left out, and a far pair's weight),
    /// every weight set is lowered by that weight.
    pub(super) fn of(&mut self, local: Vec<usize>, far: Option<(Far, Wide<L>)>) {
        self.vertex.fill(OUT);
        for (v, &gi) in local.iter().enumerate() {
            self.vertex[gi] = v as u32;
        }
        let size = local.len();
        // An odd number of players matched without the far block leaves
        // one of them unpaired at every solve, and a solve's last root
        // then searches the whole graph before its dual comes down to
        // zero. A seat, one more vertex joined to each of them by the
        // least weight, is where the one left over sits: every matching
        // of the players leaves one free, so it adds the same to each,
        // and the best matchings are those of the players alone.
        let seat = (far.is_some() && size % 2 == 1).then_some(size);
        self.m = Matcher::new(size + usize::from(seat.is_some()));
        // Solved as the whole round's matcher was.
        self.m.stands_for(self.n);
        self.local = local;
        self.seat = seat;
        (self.far, self.offset) = match far {
            Some((far, offset)) => (Some(far), offset),
            None => (None, Wide::ZERO),
        };
    }

    /// After the bracket's base weights: the seat's edges, and `carried`
    /// (global indices; weights as set).
    pub(super) fn settle(&mut self, carried: &[(usize, usize, Wide<L>)]) {
        if let Some(z) = self.seat {
            for v in 0..z {
                self.m.set_weight(v, z, Wide::from_u64(1));
            }
        }
        for &(x, y, w) in carried {
            self.set(x, y, w);
        }
    }

    /// The graph's vertices, by global index.
    pub(super) fn local(&self) -> &[usize] {
        &self.local
    }

    /// What every weight is lowered by.
    pub(super) fn offset(&self) -> Wide<L> {
        self.offset
    }

    /// Sets every edge of a graph with none, to `weight(key(hi, lo))`
    /// for its players' global indices `hi < lo` (as
    /// [`Matcher::fill_keyed`], not lowered: the far block's pairs).
    pub(super) fn fill<K: Copy + Eq>(
        &mut self,
        mut key: impl FnMut(usize, usize) -> K,
        weight: impl FnMut(K) -> Wide<L>,
    ) {
        let local = &self.local;
        self.m.fill_keyed(
            |v, u| {
                let (x, y) = (local[v], local[u]);
                key(x.min(y), x.max(y))
            },
            weight,
        );
    }

    /// The vertex of global index `gi`.
    pub(super) fn vertex(&self, gi: usize) -> usize {
        let v = self.vertex[gi];
        debug_assert!(v != OUT, "{gi} is not in the graph");
        v as usize
    }

    /// `w` as the graph holds it: lowered by the offset.
    pub(super) fn lowered(&self, w: Wide<L>) -> Wide<L> {
        if w == Wide::ZERO {
            return w;
        }
        debug_assert!(w > self.offset, "a weight above a far pair's");
        w - self.offset
    }

    /// Sets the weight of edge `i`–`j` (a change of `i`'s edges); a
    /// player has no edge to itself.
    pub(super) fn set(&mut self, i: usize, j: usize, w: Wide<L>) {
        if i != j {
            let w = self.lowered(w);
            let (vi, vj) = (self.vertex(i), self.vertex(j));
            self.m.set_weight(vi, vj, w);
        }
    }

    /// Sets edge `i`–`j` to the weight of place `place` (of [`Base`]).
    pub(super) fn set_place(&mut self, i: usize, j: usize, place: u32) {
        if i != j {
            let (vi, vj) = (self.vertex(i), self.vertex(j));
            self.m.set_place(vi, vj, place);
        }
    }

    /// The weight of edge `i`–`j` as it was set.
    pub(super) fn weight(&self, i: usize, j: usize) -> Wide<L> {
        let w = self.m.weight(self.vertex(i), self.vertex(j));
        if w == Wide::ZERO { w } else { w + self.offset }
    }

    /// The base weight of local pair (`li`, `lj`) of `base`, `lj < li`.
    pub(super) fn base(&self, base: &Base, li: usize, lj: usize) -> Wide<L> {
        let w = base.get(&self.m, li, lj);
        if w == Wide::ZERO { w } else { w + self.offset }
    }

    /// Each player's partner in a maximum weight matching of the round
    /// (itself if unmatched, or paired in the far block).
    pub(super) fn matching(&mut self) -> Result<Vec<usize>, Unproven> {
        let mates = self.m.solve();
        let mut stable: Vec<usize> = (0..self.n).collect();
        let mut left = Vec::new();
        for (v, mate) in mates.into_iter().enumerate().take(self.local.len()) {
            match mate {
                Some(u) if Some(u) != self.seat => stable[self.local[v]] = self.local[u],
                _ => left.push(v),
            }
        }
        match &self.far {
            Some(far) if !far.holds(&left) => Err(Unproven),
            _ => Ok(stable),
        }
    }

    /// Gives `player` the `offers` (opponent, weight), matches, and
    /// keeps the pair the matching makes: the new matching and the partner.
    pub(super) fn fix_partner(
        &mut self,
        player: usize,
        offers: &[(usize, Wide<L>)],
    ) -> Result<(Vec<usize>, Option<usize>), Unproven> {
        for &(opp, w) in offers {
            self.set(player, opp, w);
        }
        let stable = self.matching()?;
        let m = stable[player];
        if m == player {
            return Ok((stable, None));
        }
        self.keep(player, m);
        Ok((stable, Some(m)))
    }

    /// Keeps `i`–`j` and removes every other edge of both: weight one,
    /// not lowered (neither may go to the far block).
    pub(super) fn keep(&mut self, i: usize, j: usize) {
        let (vi, vj) = (self.vertex(i), self.vertex(j));
        self.m.clear_edges(vi);
        self.m.clear_edges(vj);
        self.m.set_weight(vi, vj, Wide::from_u64(1));
    }
}
