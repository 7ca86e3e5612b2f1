//! The absolute criteria of C.04.3: who may meet at all.
//!
//! - C1: two players meet at most once (games played over the board;
//!   a forfeited game does not count, as in bbpPairings).
//! - C2: a player gets the pairing-allocated bye at most once, and not
//!   after a forfeit win or a full-point bye ([`Entrant::bye_eligible`];
//!   the matching's completion bits enforce it).
//! - C3: two players with the same absolute colour preference do not
//!   meet, except topscorers in the last round.

use super::player::{Entrant, Profile};

/// Whether `a` and `b` may be paired (C.04.3 C1 and C3). `round` is the
/// round being paired, `rounds` the tournament's length.
#[must_use]
pub fn compatible(a: &Entrant, b: &Entrant, round: u16, rounds: u16) -> bool {
    compatible_profiles(a, &Profile::of(a), &Profile::of(b), round, rounds)
}

/// [`compatible`] from the players' profiles: `pa` is `a`'s, `pb` the
/// other player's (only `a`'s opponents are read).
#[must_use]
pub fn compatible_profiles(
    a: &Entrant,
    pa: &Profile,
    pb: &Profile,
    round: u16,
    rounds: u16,
) -> bool {
    if pa.number == pb.number || a.opponents.contains(&pb.number) {
        return false;
    }
    if pa.colours.has_legal_allocation(&pb.colours) {
        return true;
    }
    // C3's exception: topscorers (more than half the maximum score) in
    // the last round.
    let played = u32::from(round.saturating_sub(1));
    let topscorer = |p: &Profile| 2 * p.score > played * crate::Points::ONE.tenths();
    round >= rounds && (topscorer(pa) || topscorer(pb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Colour, PairingNumber};

    fn entrant(n: u16, score: u32, colours: &[Colour], met: &[u16]) -> Entrant {
        Entrant {
            number: PairingNumber::new(n).expect("a number"),
            score,
            colours: colours.to_vec(),
            floats: Vec::new(),
            opponents: met
                .iter()
                .map(|&m| PairingNumber::new(m).expect("a number"))
                .collect(),
            bye_eligible: true,
        }
    }

    #[test]
    fn c04_3_c1_no_second_game() {
        let a = entrant(1, 10, &[Colour::White], &[2]);
        let b = entrant(2, 0, &[Colour::Black], &[1]);
        assert!(!compatible(&a, &b, 2, 5));
    }

    #[test]
    fn c04_3_c3_absolute_alike_except_topscorers_in_the_last_round() {
        let ww = [Colour::White, Colour::White];
        let a = entrant(1, 20, &ww, &[3, 4]);
        let b = entrant(2, 20, &ww, &[5, 6]);
        assert!(!compatible(&a, &b, 3, 5));
        assert!(compatible(&a, &b, 3, 3));
        let (c, d) = (entrant(1, 5, &ww, &[]), entrant(2, 5, &ww, &[]));
        assert!(!compatible(&c, &d, 3, 3));
    }
}
