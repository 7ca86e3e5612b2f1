//! Edge weights: the quality criteria of C.04.3 packed into one
//! number per pair, the most important in the highest bits, so that a
//! maximum weight matching optimises them in the regulation's order (the
//! method of bbpPairings; the layout is caissify-pairings', our oracle).
//!
//! From the highest bits down:
//!
//! | bits | criterion |
//! |---|---|
//! | 2 | C4 completion, and C2 who may get the bye |
//! | SB | C6 scores paired in the current bracket (the PSD) |
//! | B | C5 pairs in the current bracket |
//! | SB | C8 scores paired in the next bracket |
//! | B | C7 pairs in the next bracket |
//! | 2B | C9 unplayed games of the bye's assignee |
//! | B each | C10 topscorers' colour difference, C11 three colours in a row, C12 colour preferences, C13 strong colour preferences |
//! | B each | C14/C16 repeated downfloats, C15/C17 repeated upfloats (one and two rounds back) |
//! | SB each | C18/C20 scores of repeated downfloaters, C19/C21 opponents of repeated upfloaters |
//! | 3B + 1 | room for the bracket procedure's own preferences |
//!
//! B is the bits of a player count (at least 8); SB one bit field per
//! scoregroup, each as wide as its size.

use std::collections::HashMap;

use super::colour::Strength;
use super::criteria;
use super::player::{Entrant, Float, Profile};
use crate::matching::Wide;

mod outside;

pub use outside::{FarKey, far_key, far_own, far_share, far_weight};

/// The widths of the fields and where each scoregroup's bit lies.
#[derive(Debug, Clone)]
pub struct Layout {
    /// B: bits for a count of players.
    pub b: usize,
    /// SB: bits for the scoregroup fields together.
    pub sb: usize,
    /// The bits of the largest scoregroup's size.
    pub group_size_bits: usize,
    /// Each score's bit offset within a scoregroup field.
    pub shifts: HashMap<u32, usize>,
    /// Each player's offset in `shifts` (its score's), by index in the
    /// sorted order: the weights read it for every pair, without
    /// hashing a score.
    pub score_shifts: Vec<usize>,
    /// Rounds played before this one.
    pub played: u16,
    /// Each player's profile, by index in the sorted order.
    pub profiles: Vec<Profile>,
}

impl Layout {
    /// The layout for `players` sorted by score (descending).
    #[must_use]
    pub fn new(players: &[&Entrant], played: u16) -> Layout {
        let n = players.len();
        let bits = |x: usize| (usize::BITS - x.leading_zeros()) as usize;
        let mut shifts = HashMap::new();
        let mut sb = 0;
        let mut largest = 0;
        let mut i = players.len();
        // The lowest scoregroup gets the lowest bits.
        while i > 0 {
            let score = players[i - 1].score;
            let mut j = i;
            while j > 0 && players[j - 1].score == score {
                j -= 1;
            }
            shifts.insert(score, sb);
            sb += bits(i - j).max(1);
            largest = largest.max(i - j);
            i = j;
        }
        Layout {
            b: (bits(n) + 3).max(8),
            sb,
            group_size_bits: bits(largest).max(1),
            score_shifts: players.iter().map(|e| shifts[&e.score]).collect(),
            shifts,
            played,
            profiles: players.iter().map(|e| Profile::of(e)).collect(),
        }
    }

    /// The bits a weight needs, with room for the matching's sums.
    #[must_use]
    pub fn width(&self) -> usize {
        let (b, sb) = (self.b, self.sb);
        let mut bits = 3 * b + 1 + 4 * b + 2 * b + 2 * (b + sb) + 2;
        if self.played >= 1 {
            bits += 2 * b + 2 * sb;
        }
        if self.played >= 2 {
            bits += 2 * b + 2 * sb;
        }
        bits.max(self.sb + self.group_size_bits + 4)
    }

    /// The scoregroup bit of `score`.
    #[must_use]
    pub fn score_bit<const L: usize>(&self, score: u32) -> Wide<L> {
        Wide::from_u64(1).shifted(self.shifts.get(&score).copied().unwrap_or(0))
    }
}

/// What the bye (C2, C9) adds to the weights of an odd round.
#[derive(Debug, Clone, Default)]
pub struct ByeTerms {
    /// Per sorted index: may this player get the bye.
    pub candidates: Option<Vec<bool>>,
    /// The score of the bye's assignee found by the preliminary matching.
    pub score: Option<u32>,
    /// Whether the assignee is the top bracket's only downfloater (C9 applies).
    pub single_downfloater: bool,
    /// Rank of a played-games count among the assignee's scoregroup (C9).
    pub played_ranks: HashMap<usize, u64>,
}

/// Where the lower player of a pair sits relative to the bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In the bracket being paired.
    Current,
    /// In the next scoregroup (looked ahead to, C7 and C8).
    Next,
    /// Elsewhere.
    Far,
}

/// The weight of pairing `hi` (higher ranked, sorted index `ih`) with
/// `lo` (index `il`); the sorted order is the one `layout` was made
/// with, whose profiles the weight reads.
#[allow(clippy::too_many_arguments)]
#[must_use]
pub fn edge<const L: usize>(
    layout: &Layout,
    bye: &ByeTerms,
    high: &Entrant,
    ih: usize,
    low: &Entrant,
    il: usize,
    place: Place,
    round: u16,
    rounds: u16,
) -> Wide<L> {
    let (hi, lo) = (&layout.profiles[ih], &layout.profiles[il]);
    debug_assert!(hi.number == high.number && lo.number == low.number);
    if !criteria::compatible_profiles(high, hi, lo, round, rounds) {
        return Wide::ZERO;
    }
    if place == Place::Current {
        fields(layout, bye, (hi, ih), (lo, il), place)
    } else {
        outside::fields(layout, bye, (hi, ih), (lo, il), place == Place::Next)
    }
}

/// The weight of a compatible pair, `hi` and `lo` with their sorted
/// indices, field by field (for any place; [`edge`] takes it for the
/// current bracket only).
fn fields<const L: usize>(
    layout: &Layout,
    bye: &ByeTerms,
    (hi, ih): (&Profile, usize),
    (lo, il): (&Profile, usize),
    place: Place,
) -> Wide<L> {
    let (b, sb) = (layout.b, layout.sb);
    let current = place == Place::Current;
    // Each field is a small number (or one scoregroup's bit) added at
    // its offset: no shifting of whole weights.
    let mut w = Wide::<L>::ZERO;
    let mut s = 3 * b + 1;
    let up_against = |back| lo.float_back(back) == Float::Up && hi.score > lo.score;
    let down_twice = |e: &Profile, back| e.float_back(back) == Float::Down;
    let put = |w: &mut Wide<L>, value: u64, width: usize, s: &mut usize| {
        if value != 0 {
            *w = w.add_at(value, *s);
        }
        *s += width;
    };
    // A scoregroup field: the bit of each score whose offset is in
    // `shifts`.
    let put_scores = |w: &mut Wide<L>, shifts: &mut dyn Iterator<Item = usize>, s: &mut usize| {
        for shift in shifts {
            *w = w.add_at(1, *s + shift);
        }
        *s += sb;
    };
    let (hi_shift, lo_shift) = (layout.score_shifts[ih], layout.score_shifts[il]);
    let floats = |back: u16| layout.played >= back;
    // C21 and C20 (two rounds back), then C19 and C18 (the previous
    // round): the scores of the opponents of repeated upfloaters, and of
    // repeated downfloaters.
    for back in [2, 1] {
        if !floats(back) {
            continue;
        }
        let upfloat_opponent = current && !up_against(usize::from(back));
        put_scores(
            &mut w,
            &mut upfloat_opponent.then_some(hi_shift).into_iter(),
            &mut s,
        );
        let mut downfloaters = [0usize; 2];
        let mut count = 0;
        for (e, shift) in [(lo, lo_shift), (hi, hi_shift)] {
            if current && down_twice(e, usize::from(back)) {
                downfloaters[count] = shift;
                count += 1;
            }
        }
        put_scores(&mut w, &mut downfloaters[..count].iter().copied(), &mut s);
    }
    // C17, C16: repeated upfloats and downfloats, two rounds back.
    let repeated_downs = |back| {
        u64::from(down_twice(lo, back)) + u64::from(down_twice(hi, back) && hi.score <= lo.score)
    };
    if floats(2) {
        put(&mut w, u64::from(current && !up_against(2)), b, &mut s);
        let c16 = if current { repeated_downs(2) } else { 0 };
        put(&mut w, c16, b, &mut s);
    }
    // C15, C14: the previous round.
    if floats(1) {
        put(&mut w, u64::from(current && !up_against(1)), b, &mut s);
        let c14 = if current { repeated_downs(1) } else { 0 };
        put(&mut w, c14, b, &mut s);
    }
    // C13 .. C10: colours (in the current bracket only).
    let colours = if current {
        colour_criteria(hi, lo)
    } else {
        [false; 4]
    };
    for met in colours {
        put(&mut w, u64::from(met), b, &mut s);
    }
    // C9: fewer unplayed games for the bye's assignee.
    put(&mut w, c9(bye, hi, lo), 2 * b, &mut s);
    // C7, C8: the next bracket.
    let next = place == Place::Next;
    put(&mut w, u64::from(next), b, &mut s);
    put_scores(&mut w, &mut next.then_some(hi_shift).into_iter(), &mut s);
    // C5, C6: the current bracket.
    put(&mut w, u64::from(current), b, &mut s);
    put_scores(&mut w, &mut current.then_some(hi_shift).into_iter(), &mut s);
    // C4 completion; C2 the bye's candidates.
    put(&mut w, completion(bye, ih, il), 2, &mut s);
    w
}

/// C9's field of the pair `hi`, `lo`: the ranks of the played-games
/// counts of those among them in the bye's assignee's scoregroup.
fn c9(bye: &ByeTerms, hi: &Profile, lo: &Profile) -> u64 {
    c9_of(bye, hi) + c9_of(bye, lo)
}

/// One player's part of C9's field: its played-games rank if it is in
/// the bye's assignee's scoregroup.
fn c9_of(bye: &ByeTerms, p: &Profile) -> u64 {
    match bye.score {
        Some(score) if bye.single_downfloater && p.score == score => {
            bye.played_ranks.get(&p.met).copied().unwrap_or(0)
        }
        _ => 0,
    }
}

/// C4's and C2's field of the pair of sorted indices `ih`, `il`.
fn completion(bye: &ByeTerms, ih: usize, il: usize) -> u64 {
    completion_base(bye) + completion_of(bye, ih) + completion_of(bye, il)
}

/// What C4's field counts for every pair: 3 with no bye, else 1.
fn completion_base(bye: &ByeTerms) -> u64 {
    if bye.candidates.is_some() { 1 } else { 3 }
}

/// One player's part of C4's field (C2): one if it may not get the bye.
fn completion_of(bye: &ByeTerms, i: usize) -> u64 {
    bye.candidates.as_ref().map_or(0, |c| u64::from(!c[i]))
}

/// Whether the pair meets C13, C12, C11 and C10 (in this order: the
/// order of their fields), `hi` the higher ranked.
fn colour_criteria(hi: &Profile, lo: &Profile) -> [bool; 4] {
    let (ch, cl) = (&hi.colours, &lo.colours);
    let (ph, pl) = (ch.preference, cl.preference);
    let same = ph.colour.is_some() && ph.colour == pl.colour;
    let c13 = !(same
        && ph.strength >= Strength::Strong
        && pl.strength >= Strength::Strong
        && !(ph.strength == Strength::Absolute && pl.strength == Strength::Absolute));
    let c11 = if ph.strength == Strength::Absolute && pl.strength == Strength::Absolute && same {
        let (dl, dh) = (cl.difference.abs(), ch.difference.abs());
        let (rl, rh) = (cl.repeated, ch.repeated);
        if dl == dh {
            rl.is_none() || rl != rh
        } else {
            let lesser = if dl > dh { rh } else { rl };
            let inverse = pl.colour.map(crate::Colour::other);
            lesser.is_none() || lesser != inverse
        }
    } else {
        true
    };
    let c10 = !(ch.difference.abs() >= 2 && cl.difference.abs() >= 2 && same);
    [c13, !same, c11, c10]
}
