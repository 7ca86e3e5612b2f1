//! The weights of pairs outside the current bracket: the next
//! scoregroup's (C7, C8) and the far ones.
//!
//! A round weighs its n²/2 far pairs at its start, and each bracket the
//! pairs of the next scoregroup. Of their fields only C9 (the bye's
//! assignee), C7 and C8 (the next bracket) and the completion bits can
//! be set: every other criterion counts in the current bracket only.
//! [`fields`] adds those few at their offsets, where [`super::fields`]
//! walks every field of the layout (the same weight).

use super::{ByeTerms, Layout, Profile, c9, c9_of, completion, completion_base, completion_of};
use crate::dutch::criteria;
use crate::dutch::player::Entrant;
use crate::matching::Wide;

/// The weight of a compatible pair outside the current bracket: in
/// the next scoregroup if `next`, else far; `hi` and `lo` with their
/// sorted indices.
pub(super) fn fields<const L: usize>(
    layout: &Layout,
    bye: &ByeTerms,
    (hi, ih): (&Profile, usize),
    (lo, il): (&Profile, usize),
    next: bool,
) -> Wide<L> {
    let next = next.then_some(layout.score_shifts[ih]);
    packed(layout, c9(bye, hi, lo), next, completion(bye, ih, il))
}

/// What the weight of a far pair depends on: `None` if the two may not
/// meet (C1, C3), else its C9 and completion fields.
pub type FarKey = Option<(u64, u64)>;

/// The key of far pair `high` (sorted index `ih`), `low` (`il`):
/// [`far_weight`] of it is [`super::edge`]'s weight of the pair.
#[must_use]
pub fn far_key(
    layout: &Layout,
    bye: &ByeTerms,
    high: &Entrant,
    ih: usize,
    il: usize,
    round: u16,
    rounds: u16,
) -> FarKey {
    let (hi, lo) = (&layout.profiles[ih], &layout.profiles[il]);
    criteria::compatible_profiles(high, hi, lo, round, rounds)
        .then(|| (c9(bye, hi, lo), completion(bye, ih, il)))
}

/// The weight of a far pair of key `key` ([`far_key`]).
#[must_use]
pub fn far_weight<const L: usize>(layout: &Layout, key: FarKey) -> Wide<L> {
    key.map_or(Wide::ZERO, |(c9, completion)| {
        packed(layout, c9, None, completion)
    })
}

/// What every far pair that may meet weighs alike: a pair x–y weighs
/// `far_share + far_own(x) + far_own(y)` ([`far_weight`] of its key).
#[must_use]
pub fn far_share<const L: usize>(layout: &Layout, bye: &ByeTerms) -> Wide<L> {
    packed(layout, 0, None, completion_base(bye))
}

/// What a far pair weighs for its player of sorted index `i`: C2's
/// part of the completion field if it may not get the bye, and its C9
/// rank.
#[must_use]
pub fn far_own<const L: usize>(layout: &Layout, bye: &ByeTerms, i: usize) -> Wide<L> {
    let c9 = c9_of(bye, &layout.profiles[i]);
    packed(layout, c9, None, completion_of(bye, i))
}

/// C9's field `c9`, C7 and C8 if the pair is in the next scoregroup
/// (`next`: the offset of the higher player's score in its field), and
/// the completion field, each at its offset.
fn packed<const L: usize>(
    layout: &Layout,
    c9: u64,
    next: Option<usize>,
    completion: u64,
) -> Wide<L> {
    let (b, sb) = (layout.b, layout.sb);
    // Where C9 begins: past the room for the bracket's own preferences,
    // the floats' score fields and counts of the rounds played (two
    // score fields and two counts a round, at most two rounds back),
    // and the four colour counts.
    let back = usize::from(layout.played.min(2));
    let c9_at = 3 * b + 1 + back * (2 * sb + 2 * b) + 4 * b;
    let mut w = Wide::<L>::ZERO;
    if c9 != 0 {
        w = w.add_at(c9, c9_at);
    }
    // C7 (a count), then C8 (the higher player's scoregroup bit).
    if let Some(shift) = next {
        w = w.add_at(1, c9_at + 2 * b).add_at(1, c9_at + 3 * b + shift);
    }
    // Past C7, C8 and the current bracket's C5 and C6: the completion.
    w.add_at(completion, c9_at + 4 * b + 2 * sb)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::{Place, edge, fields as every_field};
    use super::*;
    use crate::dutch::player::{Entrant, Float};
    use crate::{Colour, PairingNumber};

    /// Twelve players of four scores with varied colours, floats and
    /// opponents (their histories need not be consistent).
    fn players() -> Vec<Entrant> {
        let (w, b) = (Colour::White, Colour::Black);
        let histories: [&[Colour]; 5] = [&[w, w], &[b, w, b], &[b, b], &[w], &[]];
        let floats = [Float::Down, Float::Up, Float::None];
        (0u16..12)
            .map(|i| Entrant {
                number: PairingNumber::new(i + 1).expect("a number"),
                score: [30, 20, 20, 10][usize::from(i) % 4] + u32::from(i / 4) * 5,
                colours: histories[usize::from(i) % 5].to_vec(),
                floats: vec![
                    floats[usize::from(i) % 3],
                    floats[usize::from(i / 3) % 3],
                    floats[usize::from(i / 2) % 3],
                ],
                opponents: vec![PairingNumber::new((i + 5) % 12 + 1).expect("a number")],
                bye_eligible: i % 3 != 0,
            })
            .collect()
    }

    #[test]
    fn the_weights_outside_the_bracket_are_those_of_every_field() {
        let entrants = players();
        let mut sorted: Vec<&Entrant> = entrants.iter().collect();
        sorted.sort_by_key(|e| (std::cmp::Reverse(e.score), e.number));
        let no_bye = ByeTerms::default();
        let scores: Vec<u32> = sorted.iter().map(|e| e.score).collect();
        let (mut compared, mut keys) = (0, 0);
        for played in 0..4 {
            let layout = Layout::new(&sorted, played);
            for (e, &shift) in sorted.iter().zip(&layout.score_shifts) {
                assert_eq!(shift, layout.shifts[&e.score]);
            }
            assert!(layout.width() < Wide::<6>::BITS);
            for assignee in [None, Some(scores[3]), Some(scores[8])] {
                let bye = ByeTerms {
                    candidates: Some(sorted.iter().map(|e| e.bye_eligible).collect()),
                    score: assignee,
                    single_downfloater: true,
                    played_ranks: HashMap::from([(0, 1), (1, 2), (2, 3), (3, 5)]),
                };
                for bye in [&no_bye, &bye] {
                    for ih in 0..sorted.len() {
                        for il in ih + 1..sorted.len() {
                            let (hi, lo) = (&layout.profiles[ih], &layout.profiles[il]);
                            for (place, next) in [(Place::Next, true), (Place::Far, false)] {
                                let want: Wide<6> =
                                    every_field(&layout, bye, (hi, ih), (lo, il), place);
                                let got = fields(&layout, bye, (hi, ih), (lo, il), next);
                                assert_eq!(got, want, "{played} {ih} {il} {place:?}");
                                compared += usize::from(want != Wide::ZERO);
                            }
                            for rounds in [played + 1, 9] {
                                let (high, low) = (sorted[ih], sorted[il]);
                                let round = played + 1;
                                let want: Wide<6> = edge(
                                    &layout,
                                    bye,
                                    high,
                                    ih,
                                    low,
                                    il,
                                    Place::Far,
                                    round,
                                    rounds,
                                );
                                let key = far_key(&layout, bye, high, ih, il, round, rounds);
                                assert_eq!(far_weight(&layout, key), want, "{played} {ih} {il}");
                                // Split into a share and each player's own.
                                let split: Wide<6> = far_share(&layout, bye)
                                    + far_own(&layout, bye, ih)
                                    + far_own(&layout, bye, il);
                                if key.is_some() {
                                    assert_eq!(split, want, "{played} {ih} {il}");
                                }
                                keys += usize::from(key.is_none());
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(compared, 4 * 6 * 66 * 2);
        // Pairs that may not meet (C1, C3) weigh zero by their key too.
        assert!(keys > 0);
    }
}
