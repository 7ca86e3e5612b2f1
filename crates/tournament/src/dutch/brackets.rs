//! The pairing process (C.04.3 B): brackets from the top scoregroup
//! down, each paired by maximum weight matchings over all players still
//! unpaired, so that every choice leaves the rest of the round pairable
//! (C4). Within a bracket the procedure fixes, in this order: which
//! moved-down players (MDPs) are paired and with whom (B.3, B.4), how
//! many residents are exchanged between S1 and S2 and which (B.5, B.6),
//! then each S1 player's opponent, highest ranked first.
//!
//! The steps follow bbpPairings' `computeMatching` as caissify-pairings
//! 0.5.0 writes it, our oracle; Phase numbers are caissify's.
//!
//! A bracket's matchings are over its own players and the next
//! scoregroup alone, while the players below them can be shown to pair
//! whoever the bracket leaves to them (`far.rs`): the same matchings,
//! over hundreds or thousands of players where the round has ten
//! thousand (`graph.rs`).

// Local indices (positions in the bracket) and global ones (positions
// in the round's order) are the procedure's own vocabulary: loops run
// over positions on purpose.
#![allow(clippy::needless_range_loop)]

use super::base::Base;
use super::far::Limits;
use super::graph::{Graph, Unproven};
use super::player::Entrant;
use super::weights::{self, ByeTerms, Layout, Place};
use crate::matching::Wide;

/// A player's part in the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A moved-down player (paired first).
    Mdp,
    /// A player of the bracket's own scoregroup.
    Resident,
    /// The next scoregroup, or elsewhere.
    Other,
}

/// Pairs `entrants` (all of them, any order) for round `round` of
/// `rounds`; `bye_candidates` is `Some` (by pairing-number order of
/// `entrants`) when the number is odd. Returns the pairs (lower pairing
/// number first) and the players left unpaired.
pub fn pair<'a, const L: usize>(
    entrants: &'a [Entrant],
    bye_candidates: Option<&[bool]>,
    round: u16,
    rounds: u16,
) -> (Vec<(&'a Entrant, &'a Entrant)>, Vec<&'a Entrant>) {
    pair_in::<L>(entrants, bye_candidates, round, rounds, true).0
}

/// The pairs and the unpaired of a round (as [`pair`]).
type Round<'a> = (Vec<(&'a Entrant, &'a Entrant)>, Vec<&'a Entrant>);

/// [`pair`], each bracket matched on its own players where it may be
/// if `lowered`, else every bracket on the whole round (the same pairs);
/// with how many brackets were matched on their own players, and how
/// many of those again with their far block.
fn pair_in<'a, const L: usize>(
    entrants: &'a [Entrant],
    bye_candidates: Option<&[bool]>,
    round: u16,
    rounds: u16,
    lowered: bool,
) -> (Round<'a>, [usize; 2]) {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(entrants[i].score), entrants[i].number));
    let players: Vec<&Entrant> = order.iter().map(|&i| &entrants[i]).collect();
    let n = players.len();
    if n < 2 {
        return ((Vec::new(), players), [0; 2]);
    }
    let layout = Layout::new(&players, round.saturating_sub(1));
    let limits = Limits::new(&layout.profiles, players.iter().map(|e| e.opponents.len()));
    let mut counts = [0; 2];
    let mut bye = ByeTerms {
        candidates: bye_candidates.map(|c| order.iter().map(|&i| c[i]).collect()),
        ..ByeTerms::default()
    };
    let odd = bye.candidates.is_some() && n % 2 == 1;
    // The bye's score, where the bound shows it (brackets on their own
    // players only: the whole round's pairing finds it by its matching,
    // and the tests compare the two).
    let at_once = if odd && lowered {
        bye_score_at_once(&players, &layout, &limits, bye.candidates.as_deref())
    } else {
        None
    };
    // The whole round's graph for the bye's score, or for every bracket.
    let mut g = Graph::<L>::new(players, !lowered || (odd && at_once.is_none()));
    let score = |g: &Graph<L>, i: usize| g.players[i].score;

    // Scoregroups as index ranges.
    let mut groups = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && score(&g, j) == score(&g, i) {
            j += 1;
        }
        groups.push((i, j));
        i = j;
    }

    if let Some(score) = at_once {
        narrow_bye(&g.players, &layout, &mut bye, score, false);
    } else if odd {
        preliminary_bye(&mut g, &layout, &mut bye, (round, rounds), !lowered);
    }

    let edge = |players: &[&Entrant], bye: &ByeTerms, hi: usize, lo: usize, place: Place| {
        weights::edge::<L>(
            &layout,
            bye,
            players[hi],
            hi,
            players[lo],
            lo,
            place,
            round,
            rounds,
        )
    };
    if !lowered {
        // Every pair at once: `fill_keyed` writes the table row by row,
        // working out a weight only where a far pair's key changes.
        let players = g.players.clone();
        g.fill(
            |hi, lo| weights::far_key(&layout, &bye, players[hi], hi, lo, round, rounds),
            |key| weights::far_weight::<L>(&layout, key),
        );
    }
    // The far pairs' weights as the round's start set them.
    let far_bye = bye.clone();
    g.far_pairs(
        weights::far_share(&layout, &far_bye),
        (0..n)
            .map(|i| weights::far_own(&layout, &far_bye, i))
            .collect(),
    );

    let mut by_index: Vec<usize> = (groups[0].0..groups[0].1).collect();
    let mut next_group = 1;
    let mut group_begin = 0;
    let mut matched = vec![false; n];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut previous: Vec<usize> = Vec::new();
    let b = layout.b;
    let mut base = Base::new();
    let mut role = vec![Role::Other; n];
    // The weights between the players moved down, as the last bracket
    // left them (each bracket sets those of its own players).
    let mut weights_carried: Vec<(usize, usize, Wide<L>)> = Vec::new();

    while by_index.len() > 1 || next_group < groups.len() {
        let next_begin = by_index.len();
        let loaded = next_group < groups.len();
        let bracket_score = if loaded {
            let (s, e) = groups[next_group];
            by_index.extend(s..e);
            next_group += 1;
            score(&g, s)
        } else {
            score(&g, by_index[by_index.len() - 1])
        };
        let locals = by_index.len();

        let br = Bracket {
            by_index: &by_index,
            group_begin,
            next_begin,
            carried: &weights_carried,
        };
        let far_range = groups.get(next_group).map_or(n, |gr| gr.0)..n;
        // The bracket's decisions, on its own players where the far
        // block may be left out, else (or again) with the far block.
        let saved = matched.clone();
        let mut lower = true;
        let stable = loop {
            if lowered {
                let far = if lower && !far_range.is_empty() {
                    limits
                        .far(&by_index, far_range.clone())
                        .map(|far| (far, far_range.clone()))
                } else {
                    None
                };
                counts[0] += usize::from(far.is_some());
                let mut local = by_index.clone();
                if far.is_none() {
                    local.extend(far_range.clone());
                }
                g.of(local, far);
                if g.local().len() > locals {
                    let players = g.players.clone();
                    g.fill(
                        |hi, lo| {
                            weights::far_key(&layout, &far_bye, players[hi], hi, lo, round, rounds)
                        },
                        |key| weights::far_weight::<L>(&layout, key),
                    );
                }
            }
            match decide(
                &mut g,
                &mut base,
                &br,
                &mut matched,
                &mut role,
                &|players, hi, lo, place| edge(players, &bye, hi, lo, place),
                b,
            ) {
                Ok(stable) => break stable,
                // Some player left to the far block may find no partner
                // there: the bracket again, with its far block.
                Err(Unproven) => {
                    counts[1] += 1;
                    matched.clone_from(&saved);
                    lower = false;
                }
            }
        };

        // Phase 9: the pairs made; the rest moves down.
        bye.single_downfloater =
            n % 2 == 1 && loaded && bye.score.is_some_and(|s| s >= bracket_score);
        let mut carried = Vec::new();
        let mut new_begin = 0;
        for (li, &gi) in by_index.iter().enumerate() {
            if li < next_begin && matched[gi] && stable[gi] != gi {
                let (a, c) = (gi, stable[gi]);
                let key = (a.min(c), a.max(c));
                if !pairs.contains(&key) {
                    pairs.push(key);
                }
                continue;
            }
            carried.push(gi);
            if li < next_begin {
                new_begin += 1;
            }
            if bye.single_downfloater {
                let p = stable[gi];
                if p != gi && score(&g, p) < bracket_score {
                    bye.single_downfloater = false;
                }
            }
        }
        by_index = carried;
        group_begin = new_begin;
        weights_carried.clear();
        if lowered {
            for (k, &x) in by_index[..group_begin].iter().enumerate() {
                for &y in &by_index[..k] {
                    let w = g.weight(x, y);
                    if w != Wide::ZERO {
                        weights_carried.push((x, y, w));
                    }
                }
            }
        }
        if next_group >= groups.len() && by_index == previous {
            break;
        }
        previous = by_index.clone();
    }

    let players = g.players;
    let mut paired = vec![false; n];
    let mut out: Vec<(&Entrant, &Entrant)> = Vec::new();
    for &(a, c) in &pairs {
        paired[a] = true;
        paired[c] = true;
        let (x, y) = (players[a], players[c]);
        out.push(if x.number < y.number { (x, y) } else { (y, x) });
    }
    let mut rest: Vec<&Entrant> = (0..n).filter(|&i| !paired[i]).map(|i| players[i]).collect();
    if rest.len() >= 2
        && let Some(more) = super::fallback::backtrack(&rest, round, rounds)
    {
        out.extend(more);
        rest.retain(|p| {
            !out.iter()
                .any(|(a, c)| a.number == p.number || c.number == p.number)
        });
    }
    out.sort_by_key(|(a, _)| a.number);
    ((out, rest), counts)
}

/// The bracket being paired: its players with the next scoregroup
/// (global indices; the MDPs first, then the residents, then the next
/// scoregroup), where the residents and the next scoregroup begin.
struct Bracket<'b, const L: usize> {
    by_index: &'b [usize],
    group_begin: usize,
    next_begin: usize,
    /// The weights between its MDPs, as the last bracket left them.
    carried: &'b [(usize, usize, Wide<L>)],
}

/// A pair's base weight: the players, the higher's and the lower's
/// global index, the pair's place.
type EdgeOf<'e, const L: usize> = dyn Fn(&[&Entrant], usize, usize, Place) -> Wide<L> + 'e;

/// Phases 1 to 8 of the bracket `br`: each MDP's, exchange's and S1
/// player's decision, one matching each; the last matching.
#[allow(clippy::too_many_lines)]
fn decide<const L: usize>(
    g: &mut Graph<'_, L>,
    base: &mut Base,
    br: &Bracket<'_, L>,
    matched: &mut [bool],
    role: &mut [Role],
    edge: &EdgeOf<'_, L>,
    b: usize,
) -> Result<Vec<usize>, Unproven> {
    let Bracket {
        by_index,
        group_begin,
        next_begin,
        carried,
    } = *br;
    let locals = by_index.len();
    let score = |g: &Graph<L>, i: usize| g.players[i].score;
    // Base weights of the bracket and the next scoregroup, each set
    // in the matcher as the table is filled (row by row: the same
    // places as setting them by weight in that order).
    let slots: Vec<usize> = by_index.iter().map(|&gi| g.vertex(gi)).collect();
    let mut m = std::mem::replace(&mut g.m, crate::matching::Matcher::new(0));
    base.fill(&mut m, (group_begin, locals), &slots, |li, lj| {
        let place = if li < next_begin {
            Place::Current
        } else {
            Place::Next
        };
        let (hi, lo) = (by_index[lj], by_index[li]);
        let w = edge(&g.players, hi, lo, place);
        if w == Wide::ZERO {
            w
        } else {
            w - g.lowering(hi, lo)
        }
    });
    g.m = m;
    g.settle(carried);
    // Who is an MDP and who a resident, by global index: the tests
    // below run for pairs of the bracket (a scan of the bracket each
    // was cubic in its size).
    role.fill(Role::Other);
    for (li, &gi) in by_index[..next_begin].iter().enumerate() {
        role[gi] = if li < group_begin {
            Role::Mdp
        } else {
            Role::Resident
        };
    }
    let is_resident = |x: usize| role[x] == Role::Resident;
    let is_mdp = |x: usize| role[x] == Role::Mdp;

    let mut stable = g.matching()?;

    // Phase 1: which MDPs are paired in this bracket.
    let mut md_score = None;
    let mut remaining_md = 0usize;
    let mut remaining_matched = 0usize;
    for li in 0..group_begin {
        let gi = by_index[li];
        if md_score.is_none_or(|s| score(g, gi) < s) {
            md_score = Some(score(g, gi));
            remaining_md = 0;
            remaining_matched = 0;
            for &mgi in &by_index[li..group_begin] {
                if Some(score(g, mgi)) > md_score {
                    continue;
                }
                if Some(score(g, mgi)) < md_score {
                    break;
                }
                remaining_md += 1;
                if stable[mgi] != mgi && is_resident(stable[mgi]) {
                    remaining_matched += 1;
                }
            }
        }
        if remaining_matched == 0 {
            continue;
        }
        if remaining_md <= remaining_matched {
            matched[gi] = true;
            remaining_md -= 1;
            continue;
        }
        remaining_md -= 1;
        if !(stable[gi] != gi && is_resident(stable[gi])) {
            for rli in group_begin..next_begin {
                let bw = g.base(base, rli, li);
                if bw != Wide::ZERO {
                    g.set(gi, by_index[rli], bw.or_u64(1));
                }
            }
            stable = g.matching()?;
        }
        if stable[gi] != gi && is_resident(stable[gi]) {
            matched[gi] = true;
            remaining_matched -= 1;
            let size = (next_begin - group_begin) as u64;
            for rli in group_begin..next_begin {
                let bw = g.base(base, rli, li);
                if bw != Wide::ZERO {
                    g.set(gi, by_index[rli], bw.or_u64(size) + Wide::from_u64(1));
                }
            }
        }
    }

    // Phase 2: each paired MDP's opponent, highest ranked first.
    let mut finalized: Vec<usize> = Vec::new();
    for li in 0..group_begin {
        let gi = by_index[li];
        if !matched[gi] || finalized.contains(&gi) {
            continue;
        }
        // Lower ranked residents get the larger addends (caissify
        // counts only residents it may pair).
        let mut addend = locals as u64;
        let mut offers = Vec::new();
        for rli in (group_begin..next_begin).rev() {
            let bw = g.base(base, rli, li);
            if !matched[by_index[rli]] && bw != Wide::ZERO {
                offers.push((by_index[rli], bw + Wide::from_u64(addend)));
                addend += 1;
            }
        }
        let (now, partner) = g.fix_partner(gi, &offers)?;
        stable = now;
        if let Some(m) = partner {
            matched[m] = true;
            finalized.push(gi);
            finalized.push(m);
        } else {
            matched[gi] = false;
        }
    }

    // Phase 3: the remainder and its S1 size.
    let mut remainder: Vec<usize> = Vec::new();
    let mut remainder_pairs = 0usize;
    for li in group_begin..next_begin {
        let gi = by_index[li];
        let p = stable[gi];
        if p != gi && is_mdp(p) {
            continue;
        }
        remainder.push(li);
        if p != gi && p < gi {
            remainder_pairs += 1;
        }
    }
    if remainder_pairs > remainder.len() {
        remainder_pairs = remainder.len() / 2;
    }
    let first_group_end = remainder_pairs;
    let in_bracket_below = |stable: &[usize], gi: usize| {
        let p = stable[gi];
        p != gi && p > gi && is_resident(p)
    };
    let exchange = |base: &Base, g: &Graph<'_, L>, smaller: usize, larger: usize, index: usize| {
        let w = g.base(base, larger, smaller);
        if w == Wide::ZERO {
            return w;
        }
        let addend = Wide::<L>::from_u64(u64::from(index < remainder_pairs)).shifted(2 * b)
            - Wide::from_u64(index as u64);
        w + addend.shifted(1)
    };

    if remainder.len() >= 2 {
        // Phase 4: weights that prefer fewer and smaller exchanges.
        for &opp_li in &remainder {
            for (index, &player_li) in remainder.iter().enumerate() {
                if opp_li <= player_li {
                    break;
                }
                let w = exchange(base, g, player_li, opp_li, index);
                g.set(by_index[player_li], by_index[opp_li], w);
            }
        }
        g.keep_warm();
        stable = g.matching()?;
        let exchanges = remainder[..first_group_end]
            .iter()
            .filter(|&&li| !in_bracket_below(&stable, by_index[li]))
            .count();

        // Phase 5: which S1 players move to S2, lowest first.
        let mut left = exchanges;
        let mut index = remainder_pairs;
        for scan in (0..first_group_end).rev() {
            if left == 0 {
                break;
            }
            index -= 1;
            let li = remainder[scan];
            let gi = by_index[li];
            if in_bracket_below(&stable, gi) {
                for &opp_li in &remainder[scan + 1..] {
                    let w = exchange(base, g, li, opp_li, index);
                    if w != Wide::ZERO {
                        g.set(gi, by_index[opp_li], w - Wide::from_u64(1));
                    }
                }
                stable = g.matching()?;
            }
            let exchanged = !in_bracket_below(&stable, gi);
            if exchanged {
                left -= 1;
            }
            for &opp_li in &remainder[scan + 1..] {
                if exchanged {
                    base.clear(opp_li, li);
                }
                let w = exchange(base, g, li, opp_li, index);
                g.set(gi, by_index[opp_li], w);
            }
        }

        // Phase 6: which S2 players move to S1, highest first.
        let mut left = exchanges;
        let mut index = remainder_pairs;
        for scan in first_group_end..remainder.len() {
            if left <= 1 {
                break;
            }
            let li = remainder[scan];
            let gi = by_index[li];
            let already = in_bracket_below(&stable, gi);
            if !already {
                for &opp_li in &remainder[scan + 1..] {
                    let w = exchange(base, g, li, opp_li, index);
                    if w != Wide::ZERO {
                        g.set(gi, by_index[opp_li], w + Wide::from_u64(1));
                    }
                }
                stable = g.matching()?;
            }
            if in_bracket_below(&stable, gi) {
                left -= 1;
                for (oi, &opp_li) in remainder.iter().enumerate() {
                    if opp_li == li {
                        continue;
                    }
                    if oi < scan {
                        if base.holds(li, opp_li) {
                            base.clear(li, opp_li);
                        } else {
                            base.clear(opp_li, li);
                        }
                        g.set(gi, by_index[opp_li], Wide::ZERO);
                    }
                }
                for nli in next_begin..locals {
                    base.clear(nli, li);
                    g.set(gi, by_index[nli], Wide::ZERO);
                }
            }
            if !already {
                for &opp_li in &remainder[scan + 1..] {
                    let w = exchange(base, g, li, opp_li, index);
                    g.set(gi, by_index[opp_li], w);
                }
            }
            index += 1;
        }

        // Phase 7: fix the exchanges.
        for (pi, &player_li) in remainder.iter().enumerate() {
            let player = by_index[player_li];
            for &opp_li in &remainder[pi + 1..] {
                let opp = by_index[opp_li];
                if !in_bracket_below(&stable, player) || in_bracket_below(&stable, opp) {
                    base.clear(opp_li, player_li);
                }
                // By its place: the weight as `set` would give it,
                // not doubled or looked up again.
                g.set_place(player, opp, base.place(opp_li, player_li));
            }
        }
        // Phase 8's first matching (a fresh start took 82 s in a
        // bracket of 5,333 at 10,002 players, round 3).
        g.keep_warm();
    }

    // Phase 8: each S1 player's opponent, highest ranked first.
    for &player_li in &remainder {
        let player = by_index[player_li];
        if !in_bracket_below(&stable, player) {
            continue;
        }
        // Every later opponent counts for the addend, pairable or not.
        let offers: Vec<(usize, Wide<L>)> = remainder
            .iter()
            .rev()
            .filter(|&&opp_li| opp_li > player_li && !matched[by_index[opp_li]])
            .enumerate()
            .map(|(addend, &opp_li)| (opp_li, addend))
            .filter(|&(opp_li, _)| g.base(base, opp_li, player_li) != Wide::ZERO)
            .map(|(opp_li, addend)| {
                let bw = g.base(base, opp_li, player_li);
                (by_index[opp_li], bw + Wide::from_u64(addend as u64))
            })
            .collect();
        // Already paired with the opponent it is offered most: the
        // offers add the most to this pair, so the matching stays a
        // maximum one and no other makes another pair for the player.
        if offers.last().is_some_and(|&(opp, _)| opp == stable[player]) {
            let m = stable[player];
            g.keep(player, m);
            matched[player] = true;
            matched[m] = true;
            continue;
        }
        let (now, partner) = g.fix_partner(player, &offers)?;
        stable = now;
        if let Some(m) = partner {
            matched[player] = true;
            matched[m] = true;
        }
    }

    Ok(stable)
}

/// The score of the player who will get the bye, as [`preliminary_bye`]'s
/// matching would find it, when the bound shows that the round less any
/// one player pairs whole (`far.rs`): that matching's weights put, in
/// this order, the most pairs, then every player who may not get the bye
/// paired, then the higher scoregroups paired (each scoregroup's bit
/// offset counts, the lowest group's 0), so it leaves unpaired a player
/// who may get the bye, of the lowest score any such player has. `None`
/// where that is not shown, or where the bye may go to the top
/// scoregroup (C9's single downfloater is then the matching's to tell).
fn bye_score_at_once(
    players: &[&Entrant],
    layout: &Layout,
    limits: &Limits,
    candidates: Option<&[bool]>,
) -> Option<u32> {
    let candidates = candidates?;
    let lowest = (0..players.len())
        .filter(|&i| candidates[i])
        .map(|i| players[i].score)
        .min()?;
    // The scoregroup offsets of all the pairs together stay within their
    // field (no carry into the pairs' count).
    let offsets: u128 = layout.score_shifts.iter().map(|&s| s as u128).sum();
    let fits = layout.sb >= 127 || offsets < 1u128 << layout.sb;
    (lowest < players.first()?.score && fits && limits.pairs_less_any_one()).then_some(lowest)
}

/// The bye's terms once its player's `score` is known: its candidates
/// narrowed to that score and below (C2), whether it is the top
/// bracket's single downfloater, and the ranks of the played-games
/// counts in its scoregroup (C9).
fn narrow_bye(
    players: &[&Entrant],
    layout: &Layout,
    bye: &mut ByeTerms,
    score: u32,
    single_downfloater: bool,
) {
    let mut candidates = bye
        .candidates
        .take()
        .unwrap_or_else(|| vec![true; players.len()]);
    for (may, p) in candidates.iter_mut().zip(players) {
        *may &= p.score <= score;
    }
    bye.score = Some(score);
    bye.candidates = Some(candidates);
    bye.single_downfloater = single_downfloater;
    let mut played: Vec<usize> = layout
        .profiles
        .iter()
        .filter(|p| p.score == score)
        .map(|p| p.met)
        .collect();
    played.sort_unstable_by(|a, b| b.cmp(a));
    bye.played_ranks = played
        .into_iter()
        .enumerate()
        .map(|(rank, count)| (count, rank as u64))
        .collect();
}

/// A first, light matching that finds the score of the player who will
/// get the bye, and so narrows the bye's candidates (C2) and decides
/// whether C9 applies.
///
/// With `clear`, its edges are taken out again (the whole round's
/// graph then pairs the round); without, the brackets' own graphs
/// replace it.
fn preliminary_bye<const L: usize>(
    g: &mut Graph<'_, L>,
    layout: &Layout,
    bye: &mut ByeTerms,
    (round, rounds): (u16, u16),
    clear: bool,
) {
    let n = g.n;
    let candidates = bye.candidates.clone().unwrap_or_else(|| vec![true; n]);
    let top = g.players[0].score;
    let shift = |s: u32| layout.shifts.get(&s).copied().unwrap_or(0) as u64;
    let players = &g.players;
    g.m.fill(|i, j| {
        let (fi, fj) = (&layout.profiles[i], &layout.profiles[j]);
        if super::criteria::compatible_profiles(players[i], fi, fj, round, rounds) {
            let completion = 1 + u64::from(!candidates[i]) + u64::from(!candidates[j]);
            Wide::<L>::from_u64(completion)
                .shifted(layout.sb)
                .or_u64(shift(fi.score) + shift(fj.score))
                .shifted(layout.group_size_bits)
                .or_u64(u64::from(fj.score >= top))
        } else {
            Wide::ZERO
        }
    });
    let Ok(prelim) = g.matching() else {
        unreachable!("the whole round is matched whole")
    };
    let score = (0..n)
        .find(|&i| prelim[i] == i)
        .map_or(top, |i| g.players[i].score);
    let single_downfloater = score >= top
        && (0..n)
            .take_while(|&i| g.players[i].score >= top)
            .all(|i| prelim[i] == i || g.players[prelim[i]].score >= top);
    narrow_bye(&g.players, layout, bye, score, single_downfloater);
    if clear {
        for i in 0..n {
            for j in i + 1..n {
                g.set(i, j, Wide::ZERO);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dutch::colour;
    use crate::dutch::player::Float;
    use crate::matching::lcg;
    use crate::{Colour, PairingNumber};

    /// Plays the round `pairs` with random results: scores, colours
    /// (E.1–E.5), opponents and floats as the next round reads them.
    fn play(entrants: &mut [Entrant], pairs: &[(u16, u16)], next: &mut impl FnMut(u64) -> u64) {
        let before: Vec<u32> = entrants.iter().map(|e| e.score).collect();
        let at = |n: u16| usize::from(n - 1);
        for e in entrants.iter_mut() {
            e.floats.push(Float::None);
        }
        for &(a, b) in pairs {
            let (white, _) = colour::allocate(&entrants[at(a)], &entrants[at(b)], Colour::White);
            let (w, k) = if white.number.get() == a {
                (a, b)
            } else {
                (b, a)
            };
            let points = [(10, 0), (5, 5), (0, 10)][next(3) as usize];
            for (me, them, colour, got) in [
                (w, k, Colour::White, points.0),
                (k, w, Colour::Black, points.1),
            ] {
                let e = &mut entrants[at(me)];
                e.score += got;
                e.colours.push(colour);
                e.opponents
                    .push(PairingNumber::new(them).expect("a number"));
                *e.floats.last_mut().expect("this round's") =
                    match before[at(me)].cmp(&before[at(them)]) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    };
            }
        }
    }

    /// The pairing-allocated bye of the round just played to the players
    /// numbered `byes`: a point, a downfloat, no second one.
    fn give_byes(entrants: &mut [Entrant], byes: &[u16]) {
        for &n in byes {
            let e = &mut entrants[usize::from(n - 1)];
            e.score += 10;
            *e.floats.last_mut().expect("this round's") = Float::Down;
            e.bye_eligible = false;
        }
    }

    /// A round's pairs and unpaired players by pairing number.
    fn numbers(r: &Round<'_>) -> (Vec<(u16, u16)>, Vec<u16>) {
        let pairs = r.0.iter().map(|(a, b)| (a.number.get(), b.number.get()));
        (
            pairs.collect(),
            r.1.iter().map(|e| e.number.get()).collect(),
        )
    }

    /// Plays `rounds` rounds of a tournament of `players`, results drawn
    /// from `seed`, each round paired by `pair` (the entrants, who may
    /// get the bye when the number is odd, the round): its pairs and its
    /// byes by pairing number.
    fn play_out(
        players: u16,
        seed: u64,
        rounds: u16,
        mut pair: impl FnMut(&[Entrant], Option<&[bool]>, u16) -> (Vec<(u16, u16)>, Vec<u16>),
    ) {
        let mut next = lcg(seed);
        let mut entrants = newcomers(players);
        for round in 1..=rounds {
            // An odd number: the bye to one who may still get it.
            let eligible: Vec<bool> = entrants.iter().map(|e| e.bye_eligible).collect();
            let bye = (players % 2 == 1).then_some(&eligible[..]);
            let (pairs, byes) = pair(&entrants, bye, round);
            play(&mut entrants, &pairs, &mut next);
            give_byes(&mut entrants, &byes);
        }
    }

    /// `players` entrants before their first round.
    fn newcomers(players: u16) -> Vec<Entrant> {
        (1..=players)
            .map(|n| Entrant {
                number: PairingNumber::new(n).expect("a number"),
                score: 0,
                colours: Vec::new(),
                floats: Vec::new(),
                opponents: Vec::new(),
                bye_eligible: true,
            })
            .collect()
    }

    #[test]
    fn the_byes_score_found_at_once_is_the_preliminary_matchings() {
        // Random odd tournaments, round after round: where the bound
        // shows the round pairs whole less any one player, the bye's
        // score is found without a matching, and it is the score the
        // preliminary matching finds, with the same bye terms after it.
        let (mut at_once, mut matched) = (0, 0);
        for (players, seed) in [(41, 11), (65, 12), (101, 13), (151, 14)] {
            play_out(players, seed, 8, |entrants, bye, round| {
                let mut sorted: Vec<&Entrant> = entrants.iter().collect();
                sorted.sort_by_key(|e| (std::cmp::Reverse(e.score), e.number));
                let layout = Layout::new(&sorted, round - 1);
                let limits =
                    Limits::new(&layout.profiles, sorted.iter().map(|e| e.opponents.len()));
                let candidates: Vec<bool> = sorted.iter().map(|e| e.bye_eligible).collect();
                let fresh = || ByeTerms {
                    candidates: Some(candidates.clone()),
                    ..ByeTerms::default()
                };
                let mut found = fresh();
                let mut g = Graph::<16>::new(sorted.clone(), true);
                preliminary_bye(&mut g, &layout, &mut found, (round, 9), true);
                match bye_score_at_once(&sorted, &layout, &limits, Some(&candidates)) {
                    Some(score) => {
                        at_once += 1;
                        let mut terms = fresh();
                        narrow_bye(&sorted, &layout, &mut terms, score, false);
                        assert_eq!(Some(score), found.score, "{players}, round {round}");
                        assert_eq!(terms.candidates, found.candidates);
                        assert_eq!(terms.played_ranks, found.played_ranks);
                        assert!(!found.single_downfloater);
                    }
                    None => matched += 1,
                }
                numbers(&pair_in::<16>(entrants, bye, round, 9, true).0)
            });
        }
        // Most rounds after the first few are found at once; some not.
        assert!(at_once > 15 && matched > 3, "{at_once} {matched}");
    }

    #[test]
    fn brackets_matched_on_their_own_players_pair_as_the_whole_round_does() {
        // Random tournaments of an even and an odd number of players
        // (a bye), round after round: the round paired with each bracket on its own players
        // (far.rs) against every bracket on the whole round.
        let (mut own, mut again, mut rounds_paired) = (0, 0, 0);
        for (players, seed) in [
            (40, 1),
            (64, 2),
            (100, 3),
            (130, 4),
            (41, 5),
            (65, 6),
            (101, 7),
        ] {
            play_out(players, seed, 7, |entrants, bye, round| {
                let (mine, counts) = pair_in::<16>(entrants, bye, round, 9, true);
                let (whole, none) = pair_in::<16>(entrants, bye, round, 9, false);
                let (mine, whole) = (numbers(&mine), numbers(&whole));
                assert_eq!(mine, whole, "{players} players, round {round}");
                assert_eq!(none, [0, 0]);
                own += counts[0];
                again += counts[1];
                rounds_paired += 1;
                // A check of the far block refused (as if its bound had
                // not held) at the first solve of a round, or later, even
                // in the middle of a bracket: that bracket is paired again
                // with its far block, and the round is the same.
                for at in [1, 3, 9, 30] {
                    super::super::far::REFUSE.with(|r| r.set(at));
                    let (refused, counts) = pair_in::<16>(entrants, bye, round, 9, true);
                    super::super::far::REFUSE.with(|r| r.set(0));
                    assert_eq!(numbers(&refused), whole, "{players}, round {round}, {at}");
                    again += counts[1];
                }
                mine
            });
        }
        assert_eq!(rounds_paired, 49);
        // The brackets were matched on their own players.
        assert!(own > 50, "{own}");
        // Each refusal paired its bracket again.
        assert!(again > 60, "{again}");
    }

    #[test]
    fn partners_shown_without_a_solve_are_those_a_solve_gives() {
        // Rounds of random tournaments (odd and even, played out from
        // the first round) paired with each S1 player's and MDP's partner
        // shown by the kept matching and the duals where they show it,
        // and paired with a solve for every one: the same pairs and byes.
        use crate::dutch::graph::shown::{SHOWN, SHOWS};
        let (mut shown, mut rounds_paired) = (0, 0);
        for (players, seed) in [(60, 21), (121, 22), (151, 23), (90, 25)] {
            play_out(players, seed, 7, |entrants, bye, round| {
                SHOWN.with(|s| s.set(0));
                let (with, _) = pair_in::<16>(entrants, bye, round, 9, true);
                shown += SHOWN.with(std::cell::Cell::get);
                SHOWS.with(|s| s.set(false));
                let (solved, _) = pair_in::<16>(entrants, bye, round, 9, true);
                SHOWS.with(|s| s.set(true));
                let with = numbers(&with);
                assert_eq!(with, numbers(&solved), "{players} players, round {round}");
                rounds_paired += 1;
                with
            });
        }
        assert_eq!(rounds_paired, 28);
        assert!(shown > 250, "{shown} partners shown");
    }
}
