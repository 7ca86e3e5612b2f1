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
//! - every offer `o` rising more has a positive reduced cost `r(o)`
//!   that outweighs `δ(o) - δ(c)`: a matching through it weighs at most
//!   `w(M) - r(o)/2` (`matching/blossom/reduced.rs`), and, with every
//!   weight but the kept pairs' a multiple of a unit `u`, at most
//!   `w(M) - u` (`matching/blossom/grain.rs`), so less than `w(M) + δ(c)`
//!   with the offers when `r(o)` is above twice the difference or the
//!   difference is below `u`. (The offers' addends lie below the
//!   criteria's fields, far below their unit; by the reduced cost alone,
//!   at 10,003 players in round 2, 642 players of a bracket of 6,237
//!   tied `r(o)/2` with the difference and fell back to a solve of 150
//!   to 500 ms each);
//! - no other offer rises as much, and `δ(c)` is positive: any other
//!   partner, or none, weighs less with the offers.
//!
//! Every maximum weight matching with the offers then pairs `p` with `c`,
//! the solve's among them. The swap leaves the same players unpaired, so
//! the far block's check is as it was. Anything else is left to a solve.

use super::Graph;
use crate::matching::{Weight, Wide};

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
        // Every matching but a maximum one weighs a unit less.
        let unit = self.m.unit(self.kept_pairs);
        let chosen = shown_offer(&rises, &costs, unit)?;
        self.swap_in(p, chosen)?;
        self.shown = true;
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

/// The offer that every maximum weight matching with the `offers` takes
/// (the vertex offered), where the reduced costs show it: `offers` are
/// the player's (vertex, what the offer adds to the edge), `costs` the
/// reduced costs of those edges before the offers, in the same order,
/// and `unit` divides the weight of every edge but the kept pairs'
/// (`None`: no edge left but theirs). The offer shown is the tight one
/// that rises most, provided it swaps into the kept matching at its
/// weight (the caller's check); `None` where the costs do not show one.
///
/// A matching through an edge of positive reduced cost `r` weighs at
/// most the maximum less `r / 2`, and less `unit`.
pub(super) fn shown_offer<W: Weight>(
    offers: &[(usize, W)],
    costs: &[W],
    unit: Option<W>,
) -> Option<usize> {
    if costs.iter().any(|&r| r < W::zero()) {
        return None;
    }
    let (chosen, rise) = offers
        .iter()
        .zip(costs)
        .filter(|&(_, &r)| r == W::zero())
        .map(|(&(o, rise), _)| (o, rise))
        .max_by_key(|&(_, rise)| rise)?;
    if rise == W::zero() {
        return None;
    }
    for (&(o, more), &r) in offers.iter().zip(costs) {
        if o == chosen || more < rise {
            continue;
        }
        let gain = more - rise;
        let short = r > gain + gain || (r > W::zero() && unit.is_none_or(|u| gain < u));
        if more == rise || !short {
            return None;
        }
    }
    Some(chosen)
}

#[cfg(test)]
thread_local! {
    /// Tests: whether partners may be shown without a solve.
    pub(in crate::dutch) static SHOWS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    /// Tests: how many partners were shown without a solve.
    pub(in crate::dutch) static SHOWN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::shown_offer;
    use crate::matching::{few_weights, heaviest, lcg};

    #[test]
    fn an_offer_shown_is_the_partner_in_every_maximum_matching_with_the_offers() {
        // Weights of a few multiples of 8 (many optima, many blossoms),
        // offers adding 1 to 20 to a matched vertex's edges (below and
        // above the unit): wherever an offer is shown and swaps into the
        // matching at its weight, every maximum matching with the offers
        // pairs the vertex with it, by brute force.
        let mut next = lcg(0x5eed);
        let (mut shown, mut by_unit) = (0, 0);
        for case in 0..10_000 {
            let n = 4 + next(5) as usize;
            let (w, mut m) = few_weights(&mut next, n, 8);
            let mates = m.solve();
            let p = next(n as u64) as usize;
            let Some(q) = mates[p] else { continue };
            let mut offers: Vec<(usize, i64)> = Vec::new();
            for u in (0..n).filter(|&u| w[p * n + u] != 0) {
                if next(3) > 0 {
                    offers.push((u, 1 + next(20) as i64));
                }
            }
            let vertices: Vec<usize> = offers.iter().map(|&(o, _)| o).collect();
            let costs = m.reduced_costs(p, &vertices);
            let unit = m.unit(0);
            assert!(unit.is_some_and(|u| u >= 8), "case {case}: {unit:?}");
            let Some(c) = shown_offer(&offers, &costs, unit) else {
                continue;
            };
            // The swap into the kept matching keeps its weight.
            let c_mate = mates[c];
            let swaps = q == c
                || c_mate.is_some_and(|d| {
                    d != p
                        && w[q * n + d] != 0
                        && w[p * n + c] + w[q * n + d] == w[p * n + q] + w[c * n + d]
                });
            if !swaps {
                continue;
            }
            shown += 1;
            by_unit += usize::from(shown_offer(&offers, &costs, Some(1)).is_none());
            let mut offered = w.clone();
            for &(o, rise) in &offers {
                offered[p * n + o] += rise;
                offered[o * n + p] += rise;
            }
            let mut used = vec![false; n];
            let best = heaviest(n, &offered, &mut used);
            used[p] = true;
            let without = heaviest(n, &offered, &mut used);
            assert!(
                without < best,
                "case {case}: {p} unpaired weighs {without} of {best}"
            );
            for u in (0..n).filter(|&u| offered[p * n + u] != 0) {
                used[u] = true;
                let through = offered[p * n + u] + heaviest(n, &offered, &mut used);
                used[u] = false;
                if u == c {
                    assert_eq!(through, best, "case {case}: {p}-{c} shown");
                } else {
                    assert!(through < best, "case {case}: {p}-{u} weighs {through} too");
                }
            }
        }
        assert!(
            shown > 1000 && by_unit > 40,
            "{shown} shown, {by_unit} by the unit"
        );
    }
}
