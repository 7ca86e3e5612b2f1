//! A player's partner shown without a solve: the kept matching and the
//! duals of the last solve decide it, where they can, as the solve would.
//!
//! Phases 2 and 8 give a player offers (each opponent's weight raised by
//! an addend, the most for the highest ranked) and fix the partner a
//! maximum weight matching gives it: one warm solve a player, each of
//! which, in a bracket whose players not yet paired make one large
//! blossom, labels and scans that blossom again (at 10,002 players, seed
//! 42, 600 and more solves of 30 to 80 ms in a bracket).
//!
//! With `w` the weights before the offers, `M` the kept matching (of
//! maximum weight under `w`) and `δ(o)` what the offer to `o` adds, every
//! matching `N` weighs `w(N) + δ(N(p))` with the offers. The partner
//! shown is the offer `c` of the largest rise whose edge is tight at the
//! last solve's duals, when:
//!
//! - swapping it in keeps the weight: `p`–`c` and `q`–`c'` weigh what
//!   `p`–`q` and `c`–`c'` do (`q` and `c'` the present mates of `p` and
//!   `c`), so `M` with the swap weighs the maximum and, with the offers,
//!   `w(M) + δ(c)`;
//! - every offer `o` rising more has a reduced cost `r(o)` above twice
//!   `δ(o) - δ(c)` (`matching/blossom/reduced.rs`: a matching through it
//!   weighs at most `w(M) - r(o)/2`, so less than `w(M) + δ(c)` with the
//!   offers);
//! - no other offer rises as much, and `δ(c)` is positive: any other
//!   partner, or none, weighs less with the offers.
//!
//! Every maximum weight matching with the offers then pairs `p` with `c`,
//! the solve's among them. The swap leaves the same players unpaired, so
//! the far block's check is as it was. Anything else is left to a solve.

use super::Graph;
use crate::matching::Wide;

impl<const L: usize> Graph<'_, L> {
    /// The partner that `offers` (opponent, weight as set) give `player`
    /// in every maximum weight matching, shown by the kept matching and
    /// the last solve's duals; the kept matching then holds the pair.
    /// `None` where they do not show it (a solve decides).
    pub(super) fn partner_shown(
        &mut self,
        player: usize,
        offers: &[(usize, Wide<L>)],
    ) -> Option<usize> {
        self.mates.as_ref()?;
        #[cfg(test)]
        if !SHOWS.with(std::cell::Cell::get) {
            return None;
        }
        let p = self.vertex(player);
        // Each offer's vertex and what it adds to the edge.
        let mut rises = Vec::with_capacity(offers.len());
        for &(opp, w) in offers {
            let o = self.vertex(opp);
            let before = self.m.weight(p, o);
            let after = self.lowered(player, opp, w);
            if before == Wide::ZERO || after < before {
                return None;
            }
            rises.push((o, after - before));
        }
        let vertices: Vec<usize> = rises.iter().map(|&(o, _)| o).collect();
        let costs = self.m.reduced_costs(p, &vertices);
        if costs.iter().any(|&r| r < Wide::ZERO) {
            return None;
        }
        let (chosen, rise) = rises
            .iter()
            .zip(&costs)
            .filter(|&(_, &r)| r == Wide::ZERO)
            .map(|(&(o, rise), _)| (o, rise))
            .max_by_key(|&(_, rise)| rise)?;
        if rise == Wide::ZERO {
            return None;
        }
        for (&(o, more), &r) in rises.iter().zip(&costs) {
            if o == chosen {
                continue;
            }
            if more == rise || (more > rise && r <= (more - rise) + (more - rise)) {
                return None;
            }
        }
        self.swap_in(p, chosen)?;
        #[cfg(test)]
        SHOWN.with(|s| s.set(s.get() + 1));
        Some(self.local[chosen])
    }

    /// Pairs `p` with `c` in the kept matching, their mates with each
    /// other, when that keeps its weight; `None` (nothing changed) when
    /// it does not or the mates cannot be paired so.
    fn swap_in(&mut self, p: usize, c: usize) -> Option<()> {
        let mates = self.mates.as_mut()?;
        let (q, c_mate) = (mates[p]?, mates[c]?);
        if q == c {
            return Some(());
        }
        let w = |a: usize, b: usize| self.m.weight(a, b);
        let paired = w(q, c_mate);
        if c_mate == p || paired == Wide::ZERO || w(p, c) + paired != w(p, q) + w(c, c_mate) {
            return None;
        }
        mates[p] = Some(c);
        mates[c] = Some(p);
        mates[q] = Some(c_mate);
        mates[c_mate] = Some(q);
        Some(())
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: whether partners may be shown without a solve.
    pub(in crate::dutch) static SHOWS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    /// Tests: how many partners were shown without a solve.
    pub(in crate::dutch) static SHOWN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}
