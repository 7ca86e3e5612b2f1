//! The far block: the players below the bracket and its next
//! scoregroup, and when a bracket may be paired without them.
//!
//! Every pair with a far player weighs a share common to all such pairs
//! and an amount of each of its two players (`weights::far_share`,
//! `far_own`: with no bye, nothing; with one, C2's part of C4's
//! completion field and C9's rank). A matching of the whole round is
//! then a matching M of the bracket and its next scoregroup (V), the set
//! S of V's players it leaves unpaired, and a perfect matching of F ∪ S
//! (less the bye's player, with an odd number of players) by pairs that
//! each hold a far player. Its weight is Σ_M w' minus the bye's own
//! amount, plus a constant, w' being a pair's weight less its far pair's:
//! so a maximum weight matching of V alone, with those weights and a
//! vertex for the bye (`graph.rs`), is one of the whole round as soon as
//! F ∪ S can be matched that way. Then the bracket's matchings are over
//! its own players, not the round's thousands.
//!
//! [`Far::holds`] tells whether F ∪ S can be: by Dirac's theorem, a
//! graph of N vertices (N even) whose every vertex has at least N/2
//! neighbours has a Hamiltonian cycle, so a perfect matching. A player
//! may not meet (C1, C3) the players it met and those whose colour
//! limits clash with its own; those counts bound the neighbours from
//! below. When the bound does not hold, the bracket is paired with its
//! far block (`brackets.rs`).

use super::player::Profile;
use crate::Colour;

/// A player's colour limits (C3): bit 0, no White may be given; bit 1,
/// no Black.
fn limits(p: &Profile) -> usize {
    usize::from(p.colours.breaks_absolute(Colour::White))
        | usize::from(p.colours.breaks_absolute(Colour::Black)) << 1
}

/// Of players counted by limits (`counts`), how many may not meet a
/// player of limits `own` for their colours: with none, those who can
/// take neither colour; with one, those who cannot take the same one;
/// with both, everyone.
fn clashing(own: usize, counts: &[usize; 4]) -> usize {
    match own {
        0 => counts[3],
        1 | 2 => counts[own] + counts[3],
        _ => counts.iter().sum(),
    }
}

/// What the round's players bring to the bound: their colour limits and
/// how many opponents they met.
pub(super) struct Limits {
    limits: Vec<usize>,
    met: Vec<usize>,
}

impl Limits {
    /// The limits of `profiles` (sorted order) with their opponents'
    /// counts `met`.
    pub(super) fn new(profiles: &[Profile], met: impl Iterator<Item = usize>) -> Limits {
        Limits {
            limits: profiles.iter().map(limits).collect(),
            met: met.collect(),
        }
    }

    /// Player `i`'s non-neighbours among the players counted in
    /// `counts`, at most: those it met and those its colour limits clash
    /// with.
    fn unmet(&self, i: usize, counts: &[usize; 4]) -> usize {
        self.met[i] + clashing(self.limits[i], counts)
    }

    fn count(&self, players: impl Iterator<Item = usize>) -> [usize; 4] {
        let mut counts = [0; 4];
        for i in players {
            counts[self.limits[i]] += 1;
        }
        counts
    }

    /// Whether the round less any one of its players (an odd number of
    /// them) pairs whole, as the bound shows it: each player may meet at
    /// least half of the others but one (Dirac's theorem, as in
    /// [`Far::holds`]).
    pub(super) fn pairs_less_any_one(&self) -> bool {
        let n = self.met.len();
        let counts = self.count(0..n);
        // Each player's non-neighbours, at most (itself among them).
        let worst = (0..n).map(|i| self.unmet(i, &counts)).max();
        // N = n − 1 players: N − 1 − worst ≥ N / 2.
        n % 2 == 1 && n >= 3 && worst.is_some_and(|w| 2 * w + 3 <= n)
    }

    /// The far block `far` (sorted indices) of a bracket whose players
    /// with the next scoregroup are `bracket`; `None` if even with no
    /// player of the bracket left to it the bound does not hold.
    pub(super) fn far(&self, bracket: &[usize], far: std::ops::Range<usize>) -> Option<Far> {
        let size = far.len();
        let counts = self.count(far.clone());
        // Each far player's non-neighbours in F, at most.
        let worst = far.map(|f| self.unmet(f, &counts)).max()?;
        let far = Far {
            size,
            worst,
            need: bracket.iter().map(|&v| self.unmet(v, &counts)).collect(),
        };
        // The bound for far players with S empty (one player of S or more
        // when |F| is odd).
        (2 * far.worst + 2 <= far.size).then_some(far)
    }
}

/// A far block for which the bound holds with no player of the bracket
/// left to it.
pub(super) struct Far {
    size: usize,
    /// A far player's non-neighbours in F, at most.
    worst: usize,
    /// For each player of the bracket (by local index), the far players
    /// it may not meet, at most.
    need: Vec<usize>,
}

impl Far {
    /// Whether the far block and the bracket's players `left` (local
    /// indices, each paired with a far player) can all be paired: each
    /// of them then has at least half of F ∪ S as neighbours.
    /// With `bye_in_far`, one far player gets the bye: the rest pair.
    pub(super) fn holds(&self, left: &[usize], bye_in_far: bool) -> bool {
        #[cfg(test)]
        if refused() {
            return false;
        }
        let (f, s) = (self.size - usize::from(bye_in_far), left.len());
        if (f + s) % 2 == 1 {
            return false;
        }
        // A far player: (N − 1) − (worst + |S|) ≥ N / 2, N = |F| + |S|
        // (any player of S may be one it cannot meet).
        // A player of S (no edge to another): |F| − need ≥ N / 2.
        2 * self.worst + s + 2 <= f && left.iter().all(|&v| 2 * self.need[v] + s <= f)
    }
}

#[cfg(test)]
thread_local! {
    /// Tests: which check from now (1 the next) [`Far::holds`] refuses, as
    /// if its bound had not held; 0 for none.
    pub(super) static REFUSE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether this check is the one [`REFUSE`] names (counting down).
#[cfg(test)]
fn refused() -> bool {
    REFUSE.with(|r| {
        let k = r.get();
        r.set(k.saturating_sub(1));
        k == 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairingNumber;
    use crate::dutch::criteria::compatible_profiles;
    use crate::dutch::player::Entrant;
    use crate::matching::lcg;
    use crate::matching::max_weight_matching;

    /// A random round of `n` players after `played` rounds: colours
    /// mostly alternating, one in `twice` a colour twice (C3's limits),
    /// about `n * played / 2` games of players who had not met.
    fn random_round(
        next: &mut impl FnMut(u64) -> u64,
        n: usize,
        played: usize,
        twice: u64,
    ) -> (Vec<Entrant>, Vec<Profile>, Limits) {
        let mut entrants: Vec<Entrant> = (1..=n)
            .map(|i| {
                let start = next(2);
                let colours = (0..played)
                    .map(|r| {
                        let c = (start + r as u64 + u64::from(next(twice) == 0)) % 2;
                        if c == 0 { Colour::White } else { Colour::Black }
                    })
                    .collect();
                Entrant {
                    number: PairingNumber::new(i as u16).expect("a number"),
                    score: 0,
                    colours,
                    floats: Vec::new(),
                    opponents: Vec::new(),
                    bye_eligible: true,
                }
            })
            .collect();
        for _ in 0..n * played / 2 {
            let (a, b) = (next(n as u64) as usize, next(n as u64) as usize);
            if a != b && !entrants[a].opponents.contains(&entrants[b].number) {
                let (na, nb) = (entrants[a].number, entrants[b].number);
                entrants[a].opponents.push(nb);
                entrants[b].opponents.push(na);
            }
        }
        let profiles: Vec<Profile> = entrants.iter().map(Profile::of).collect();
        let limits = Limits::new(&profiles, entrants.iter().map(|e| e.opponents.len()));
        (entrants, profiles, limits)
    }

    #[test]
    fn a_far_block_the_bound_admits_pairs_every_player_left_to_it() {
        // Random rounds (colour histories with and without C3's limits,
        // opponents met): whenever the bound admits the players S of the
        // bracket left to the far block F, F ∪ S has a perfect matching of
        // pairs that may meet (C1, C3), each with a far player.
        let mut next = lcg(7);
        let (mut admitted, mut refused_s, mut refused_f) = (0, 0, 0);
        for case in 0..400 {
            let n = 8 + next(40) as usize;
            let played = 1 + next(4) as usize;
            // Mostly alternating; sometimes a colour twice.
            let (entrants, profiles, limits) = random_round(&mut next, n, played, 4);
            let v = 1 + next((n / 3) as u64) as usize;
            let bracket: Vec<usize> = (0..v).collect();
            let Some(far) = limits.far(&bracket, v..n) else {
                refused_f += 1;
                continue;
            };
            for _ in 0..6 {
                let left: Vec<usize> = (0..v).filter(|_| next(3) == 0).collect();
                if !far.holds(&left, false) {
                    refused_s += 1;
                    continue;
                }
                admitted += 1;
                // F ∪ S: the far players, then S.
                let xs: Vec<usize> = (v..n).chain(left.iter().copied()).collect();
                let m = xs.len();
                let mut w = vec![0i64; m * m];
                for i in 0..m {
                    for j in 0..m {
                        let (a, b) = (xs[i], xs[j]);
                        let with_far = a >= v || b >= v;
                        let round = played as u16 + 1;
                        if i != j
                            && with_far
                            && compatible_profiles(
                                &entrants[a],
                                &profiles[a],
                                &profiles[b],
                                round,
                                9,
                            )
                        {
                            w[i * m + j] = 1;
                        }
                    }
                }
                let mates = max_weight_matching(m, &w, true);
                assert!(
                    mates.iter().all(Option::is_some),
                    "case {case}: {left:?} of {v}, {n}"
                );
            }
        }
        // Every branch was taken.
        assert!(
            admitted > 100 && refused_s > 10 && refused_f > 10,
            "{admitted} {refused_s} {refused_f}"
        );
    }

    #[test]
    fn a_round_the_bound_admits_pairs_whole_less_any_one_player() {
        // Random odd rounds: whenever the bound says so, the round less
        // any one player has a perfect matching of pairs that may meet
        // (C1, C3); and it says so for many of them.
        let mut next = lcg(11);
        let (mut admitted, mut refused) = (0, 0);
        for case in 0..300 {
            let n = 2 * (2 + next(20) as usize) + 1;
            let played = 1 + next(5) as usize;
            let (entrants, profiles, limits) = random_round(&mut next, n, played, 3);
            if !limits.pairs_less_any_one() {
                refused += 1;
                continue;
            }
            admitted += 1;
            let out = next(n as u64) as usize;
            let xs: Vec<usize> = (0..n).filter(|&i| i != out).collect();
            let m = xs.len();
            let mut w = vec![0i64; m * m];
            for i in 0..m {
                for j in 0..m {
                    let (a, b) = (xs[i], xs[j]);
                    let round = played as u16 + 1;
                    if i != j
                        && compatible_profiles(&entrants[a], &profiles[a], &profiles[b], round, 9)
                    {
                        w[i * m + j] = 1;
                    }
                }
            }
            let mates = max_weight_matching(m, &w, true);
            assert!(mates.iter().all(Option::is_some), "case {case}: {n}, {out}");
        }
        assert!(admitted > 50 && refused > 20, "{admitted} {refused}");
    }
}
