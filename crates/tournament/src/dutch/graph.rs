//! The graph a bracket's decisions are matched on, by the players'
//! indices in the round's order (global indices).
//!
//! Each bracket has a graph of its own: its players and the next
//! scoregroup alone, every weight lowered by what a far pair of the same
//! players would weigh, as long as the far block can take whoever it
//! leaves unpaired (`far.rs`); else its players and the far block. (The
//! whole round's graph finds the bye's score first, and pairs the round
//! as before in tests.)
//!
//! A far pair x–y weighs `share + own(x) + own(y)` (`weights`:
//! `far_share`, `far_own`): the same for every pair with no bye, and with
//! one, more for players who may not get it (C2) and by C9's ranks. A
//! player left to the far block is paired there or gets the bye there;
//! with an odd number of players the graph has one more vertex, the bye,
//! whose edge to each player weighs what giving that player the bye
//! saves against giving it in the far block.

pub(super) mod shown;

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
    /// What a far pair weighs: `share` and each player's `own`.
    share: Wide<L>,
    own: Vec<Wide<L>>,
    /// The far block left out, when it is (weights are then lowered).
    far: Option<Far>,
    /// With the far block left out and an odd number of players, the
    /// bye's vertex, and the least `own` of the far block.
    bye: Option<(usize, Wide<L>)>,
    /// Each vertex's mate in a maximum weight matching of the weights
    /// as they are: the last solve's, with the partners shown since
    /// without one (`graph/shown.rs`); `None` once a weight changed
    /// otherwise than by a partner fixed.
    mates: Option<Vec<Option<usize>>>,
    /// Each vertex's partner in a pair kept apart ([`Graph::keep`]:
    /// their edge weighs one, and neither has another), [`OUT`] if none;
    /// and how many such pairs there are.
    kept: Vec<u32>,
    kept_pairs: usize,
    /// Whether a partner was shown since the last solve (`graph/shown.rs`).
    shown: bool,
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
            share: Wide::ZERO,
            own: vec![Wide::ZERO; n],
            far: None,
            bye: None,
            mates: None,
            kept: vec![OUT; if whole { n } else { 0 }],
            kept_pairs: 0,
            shown: false,
        }
    }

    /// What a far pair weighs ([`weights::far_share`](super::weights::far_share),
    /// each player's [`weights::far_own`](super::weights::far_own)).
    pub(super) fn far_pairs(&mut self, share: Wide<L>, own: Vec<Wide<L>>) {
        self.share = share;
        self.own = own;
    }

    /// A graph of the players `local` (global indices), with no edges;
    /// with `far` (the far block left out, and its global indices),
    /// every weight set is lowered by the far pair's.
    pub(super) fn of(&mut self, local: Vec<usize>, far: Option<(Far, std::ops::Range<usize>)>) {
        self.vertex.fill(OUT);
        for (v, &gi) in local.iter().enumerate() {
            self.vertex[gi] = v as u32;
        }
        let size = local.len();
        let bye = match &far {
            Some((_, block)) if self.n % 2 == 1 => block
                .clone()
                .map(|f| self.own[f])
                .min()
                .map(|least| (size, least)),
            _ => None,
        };
        self.m = Matcher::new(size + usize::from(bye.is_some()));
        // Solved as the whole round's matcher was.
        self.m.stands_for(self.n);
        self.local = local;
        self.bye = bye;
        self.far = far.map(|(far, _)| far);
        self.mates = None;
        self.kept = vec![OUT; self.m.len()];
        self.kept_pairs = 0;
    }

    /// After the bracket's base weights: the bye's edges, and `carried`
    /// (global indices; weights as set).
    pub(super) fn settle(&mut self, carried: &[(usize, usize, Wide<L>)]) {
        self.mates = None;
        // The bye given to a player of the bracket saves its own amount,
        // against the least of the far block's.
        if let Some((b, least)) = self.bye {
            for v in 0..b {
                let own = self.own[self.local[v]];
                if own < least {
                    self.m.set_weight(v, b, least - own);
                }
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

    /// What the weight of pair `i`–`j` (global indices) is lowered by:
    /// their far pair's weight, with the far block left out.
    pub(super) fn lowering(&self, i: usize, j: usize) -> Wide<L> {
        if self.far.is_some() {
            self.share + self.own[i] + self.own[j]
        } else {
            Wide::ZERO
        }
    }

    /// Sets every edge of a graph with none, to `weight(key(hi, lo))`
    /// for its players' global indices `hi < lo` (as
    /// [`Matcher::fill_keyed`], not lowered: the far block's pairs).
    pub(super) fn fill<K: Copy + Eq>(
        &mut self,
        mut key: impl FnMut(usize, usize) -> K,
        weight: impl FnMut(K) -> Wide<L>,
    ) {
        self.mates = None;
        self.kept.fill(OUT);
        self.kept_pairs = 0;
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

    /// The weight `w` of pair `i`–`j` as the graph holds it.
    fn lowered(&self, i: usize, j: usize, w: Wide<L>) -> Wide<L> {
        if w == Wide::ZERO {
            return w;
        }
        let by = self.lowering(i, j);
        debug_assert!(w > by, "a weight above a far pair's");
        w - by
    }

    /// The weight `w` of pair `i`–`j` as it was set.
    fn raised(&self, i: usize, j: usize, w: Wide<L>) -> Wide<L> {
        if w == Wide::ZERO {
            w
        } else {
            w + self.lowering(i, j)
        }
    }

    /// Sets the weight of edge `i`–`j` (a change of `i`'s edges); a
    /// player has no edge to itself.
    pub(super) fn set(&mut self, i: usize, j: usize, w: Wide<L>) {
        self.mates = None;
        self.offer(i, j, w);
    }

    /// [`Graph::set`] for an offer to a player about to be given a
    /// partner: the matching kept stands until the partner is fixed.
    fn offer(&mut self, i: usize, j: usize, w: Wide<L>) {
        if i != j {
            let w = self.lowered(i, j, w);
            let (vi, vj) = (self.vertex(i), self.vertex(j));
            self.set_apart(vi, vj, w != Wide::ZERO);
            self.m.set_weight(vi, vj, w);
        }
    }

    /// Sets edge `i`–`j` to the weight of place `place` (of [`Base`]).
    pub(super) fn set_place(&mut self, i: usize, j: usize, place: u32) {
        self.mates = None;
        if i != j {
            let (vi, vj) = (self.vertex(i), self.vertex(j));
            self.set_apart(vi, vj, place != 0);
            self.m.set_place(vi, vj, place);
        }
    }

    /// The weight of edge `i`–`j` as it was set.
    pub(super) fn weight(&self, i: usize, j: usize) -> Wide<L> {
        self.raised(i, j, self.m.weight(self.vertex(i), self.vertex(j)))
    }

    /// The base weight of local pair (`li`, `lj`) of `base`, `lj < li`.
    pub(super) fn base(&self, base: &Base, li: usize, lj: usize) -> Wide<L> {
        let w = base.get(&self.m, li, lj);
        if self.far.is_none() {
            return w;
        }
        // The bracket's graph: local indices are its vertices.
        self.raised(self.local[li], self.local[lj], w)
    }

    /// The next matching after weights changed in the bits of the
    /// bracket procedure's own preferences only (the exchanges' weights
    /// set in phase 4, put back in phase 7) grows from the matching kept
    /// ([`Matcher::keep_warm`]), which is a maximum one for every higher
    /// bit.
    pub(super) fn keep_warm(&mut self) {
        self.m.keep_warm();
    }

    /// Each player's partner in a maximum weight matching of the round
    /// (itself if unmatched, or paired in the far block).
    pub(super) fn matching(&mut self) -> Result<Vec<usize>, Unproven> {
        let mates = self.m.solve();
        self.shown = false;
        let stable = self.stable(&mates);
        self.mates = Some(mates);
        stable
    }

    /// Each player's partner in the matching `mates` (itself if
    /// unmatched, or paired in the far block).
    fn stable(&self, mates: &[Option<usize>]) -> Result<Vec<usize>, Unproven> {
        let mut stable: Vec<usize> = (0..self.n).collect();
        let mut left = Vec::new();
        let bye = self.bye.map(|(b, _)| b);
        let mut bye_in_far = bye.is_some();
        for (v, &mate) in mates.iter().enumerate().take(self.local.len()) {
            match mate {
                // The bye, given in the bracket.
                Some(u) if Some(u) == bye => bye_in_far = false,
                Some(u) => stable[self.local[v]] = self.local[u],
                _ => left.push(v),
            }
        }
        match &self.far {
            Some(far) if !far.holds(&left, bye_in_far) => Err(Unproven),
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
        // The partner the kept matching and the last solve's duals show,
        // with the same pairings as a solve (`graph/shown.rs`).
        if let Some(partner) = self.partner_shown(player, offers) {
            for &(opp, w) in offers {
                self.offer(player, opp, w);
            }
            let mates = self
                .mates
                .as_ref()
                .expect("a partner is shown by a matching");
            let stable = self.stable(mates)?;
            self.keep(player, partner);
            return Ok((stable, Some(partner)));
        }
        for &(opp, w) in offers {
            self.set(player, opp, w);
        }
        // The partners shown since the last solve left their pairs and
        // offers in the graph, not their swaps in the matcher's matching:
        // their vertices are the solve's to mend, in the lowest bits (441
        // at 10,001 players, round 3, seed 3: a warm solve gave up on its
        // budget and started afresh, 27.9 s; grown from the kept
        // matching, 0.14 s).
        if self.shown {
            self.m.keep_warm();
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
        // A pair of the kept matching leaves it as it is.
        if self.mates.as_ref().is_some_and(|m| m[vi] != Some(vj)) {
            self.mates = None;
        }
        self.m.clear_edges(vi);
        self.m.clear_edges(vj);
        self.m.set_weight(vi, vj, Wide::from_u64(1));
        for v in [vi, vj] {
            self.unkeep(v);
        }
        self.kept[vi] = vj as u32;
        self.kept[vj] = vi as u32;
        self.kept_pairs += 1;
    }

    /// Before edge `vi`–`vj` is set (to a weight if `weighs`): a kept
    /// pair given another edge, or its own edge changed, is no longer
    /// apart (an edge set to zero that it does not have changes nothing).
    fn set_apart(&mut self, vi: usize, vj: usize, weighs: bool) {
        if weighs || self.kept[vi] == vj as u32 {
            self.unkeep(vi);
            self.unkeep(vj);
        }
    }

    /// `v`'s pair, if kept, is kept no more.
    fn unkeep(&mut self, v: usize) {
        let mate = self.kept[v];
        if mate != OUT {
            self.kept[v] = OUT;
            self.kept[mate as usize] = OUT;
            self.kept_pairs -= 1;
        }
    }
}
