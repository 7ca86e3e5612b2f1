//! Swiss pairings by the FIDE (Dutch) System, C.04.3.
//!
//! [`pair`] reads a TRF16 tournament and pairs its next round:
//! players who already have an entry for that round (a requested
//! half- or full-point bye `H`/`F`, an absence `Z`, or a `240` bye
//! record) are left out; late entries (blank earlier rounds) and
//! withdrawals (an entry for the round) need nothing else. Forfeited
//! games count as unplayed: the players may meet again, the colours are
//! not counted, and a forfeit win is a downfloat that ends bye
//! eligibility (C.04.3 C2).
//!
//! The modules follow the regulation: [`player`] (A.2–A.6: score,
//! colours, floats), [`acceleration`] (C.04.5.1 and `XXA`), [`colour`]
//! (A.6 preferences and the allocation rules E.1–E.5), [`criteria`]
//! (absolute criteria C1–C3), [`weights`] (completion C4 and quality
//! criteria C5–C21 as edge weights), [`brackets`] (the pairing process,
//! bracket by bracket, on maximum weight matchings) and [`fallback`].
//!
//! ```
//! use rochade_tournament::{dutch, trf::Trf};
//!
//! let trf = Trf::parse("XXR 5\nXXC white1\n\
//! 001    1      A                                 2000                             0.0    1\n\
//! 001    2      B                                 1900                             0.0    2\n\
//! 001    3      C                                 1800                             0.0    3\n\
//! 001    4      D                                 1700                             0.0    4\n").unwrap();
//! // Round 1: the top half meets the bottom half, colours alternating.
//! assert_eq!(dutch::pair(&trf).unwrap().to_string(), "2\n1 3\n4 2\n");
//! ```

pub mod acceleration;
mod base;
pub mod brackets;
pub mod colour;
pub mod criteria;
pub mod fallback;
mod far;
mod graph;
pub mod player;
pub mod weights;

use thiserror::Error;

use crate::trf::Trf;
use crate::{Colour, Game, PairingNumber, RoundPairing};
use acceleration::Method;
use player::Entrant;

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DutchError {
    /// The file has no `XXR` record.
    #[error("the file has no XXR record (number of rounds)")]
    NoRounds,
    /// Every round is paired already.
    #[error("the tournament is finished: all {0} rounds are paired")]
    Finished(u16),
    /// The round would need weights wider than this build handles.
    #[error("{0} players are more than the Dutch pairer handles at once")]
    TooLarge(usize),
}

/// The next round's pairings (the round after the last paired one).
///
/// # Errors
///
/// [`DutchError`] when the file has no `XXR`, every round is paired, or
/// the round is too large.
pub fn pair(trf: &Trf) -> Result<RoundPairing, DutchError> {
    pair_with(trf, Method::None)
}

/// The next round's pairings with an acceleration method (C.04.5.1).
///
/// # Errors
///
/// As [`pair`].
pub fn pair_with(trf: &Trf, method: Method) -> Result<RoundPairing, DutchError> {
    let rounds = trf.rounds().ok_or(DutchError::NoRounds)?;
    let round = trf.played_rounds() + 1;
    if round > rounds {
        return Err(DutchError::Finished(rounds));
    }
    pair_round_with(trf, round, method)
}

/// The pairings of `round` (1-based) from the rounds before it: for the
/// next round, or to check a round already paired (then the players with
/// a game, a forfeit or the pairing-allocated bye in `round` take part).
///
/// # Errors
///
/// [`DutchError`] when the file has no `XXR` or the round is too large.
pub fn pair_round(trf: &Trf, round: u16) -> Result<RoundPairing, DutchError> {
    pair_round_with(trf, round, Method::None)
}

/// The pairings of `round` with an acceleration method (C.04.5.1).
///
/// # Errors
///
/// As [`pair_round`].
pub fn pair_round_with(trf: &Trf, round: u16, method: Method) -> Result<RoundPairing, DutchError> {
    let rounds = trf.rounds().ok_or(DutchError::NoRounds)?;
    let entrants = player::entrants(trf, round, method);
    let initial = initial_colour(trf);
    let accelerated = entrants.iter().any(|e| e.score > 0) && round == 1;
    let all: Vec<&Entrant> = entrants.iter().collect();
    let odd = all.len() % 2 == 1;
    let candidates: Vec<bool> = if entrants.iter().any(|e| e.bye_eligible) {
        entrants.iter().map(|e| e.bye_eligible).collect()
    } else {
        vec![true; entrants.len()]
    };

    let mut byes: Vec<&Entrant> = Vec::new();
    let pairs: Vec<(&Entrant, &Entrant)>;
    if round == 1 && !accelerated {
        // C.04.3 round 1: the lowest ranked player eligible gets the bye;
        // the top half meets the bottom half in order.
        let mut rest = all.clone();
        if odd && let Some(i) = round_one_bye(&all, &candidates) {
            byes.push(rest.remove(i));
        }
        let half = rest.len() / 2;
        pairs = (0..half).map(|i| (rest[i], rest[half + i])).collect();
    } else {
        let mut rest = entrants.clone();
        let mut pre_bye = None;
        if odd
            && round == 1
            && let Some(i) = round_one_bye(&all, &candidates)
        {
            pre_bye = Some(rest.remove(i));
        }
        let bye_candidates = (odd && round > 1).then_some(candidates.as_slice());
        let (mut made, mut left) = run(&rest, bye_candidates, round, rounds)?;
        if left.len() >= 2
            && let Some(p) = fallback::backtrack(&all_of(&rest), round, rounds)
        {
            made = p;
            left = unpaired(&rest, &made);
        }
        if left.len() >= 2 {
            let greedy = fallback::greedy(&all_of(&rest), false, round, rounds)
                .or_else(|| fallback::greedy(&all_of(&rest), true, round, rounds));
            if let Some(p) = greedy {
                made = p;
                left = unpaired(&rest, &made);
            }
        }
        // Own the results: map back to `entrants`.
        let find = |n: PairingNumber| entrants.iter().find(|e| e.number == n);
        pairs = made
            .iter()
            .filter_map(|(a, b)| Some((find(a.number)?, find(b.number)?)))
            .collect();
        if let Some(b) = pre_bye.and_then(|b| find(b.number)) {
            byes.push(b);
        }
        byes.extend(left.iter().filter_map(|e| find(e.number)));
    }

    let mut games: Vec<(&Entrant, &Entrant)> = pairs
        .iter()
        .map(|(a, b)| colour::allocate(a, b, initial))
        .collect();
    games.sort_by_key(|(w, b)| {
        (
            std::cmp::Reverse(w.score.max(b.score)),
            std::cmp::Reverse(w.score.min(b.score)),
            w.number.min(b.number),
        )
    });
    Ok(RoundPairing {
        games: games
            .into_iter()
            .map(|(w, b)| Game {
                white: w.number,
                black: b.number,
            })
            .collect(),
        byes: byes.into_iter().map(|e| e.number).collect(),
    })
}

/// References to every entrant.
fn all_of(entrants: &[Entrant]) -> Vec<&Entrant> {
    entrants.iter().collect()
}

/// The entrants in none of `pairs`.
fn unpaired<'a>(entrants: &'a [Entrant], pairs: &[(&Entrant, &Entrant)]) -> Vec<&'a Entrant> {
    entrants
        .iter()
        .filter(|e| {
            !pairs
                .iter()
                .any(|(a, b)| a.number == e.number || b.number == e.number)
        })
        .collect()
}

/// The index of round 1's bye: the lowest score, then the highest
/// pairing number, among those who may get it.
fn round_one_bye(all: &[&Entrant], candidates: &[bool]) -> Option<usize> {
    (0..all.len())
        .filter(|&i| candidates[i])
        .min_by_key(|&i| (all[i].score, std::cmp::Reverse(all[i].number)))
}

/// The bracket procedure with weights as wide as the round needs.
#[allow(clippy::type_complexity)]
fn run<'a>(
    entrants: &'a [Entrant],
    bye_candidates: Option<&[bool]>,
    round: u16,
    rounds: u16,
) -> Result<(Vec<(&'a Entrant, &'a Entrant)>, Vec<&'a Entrant>), DutchError> {
    let mut sorted: Vec<&Entrant> = entrants.iter().collect();
    sorted.sort_by_key(|e| (std::cmp::Reverse(e.score), e.number));
    let width = weights::Layout::new(&sorted, round.saturating_sub(1)).width() + 8;
    let c = bye_candidates;
    // The matching's time goes into arithmetic on these limbs and into
    // reading them (a dual a scanned edge): no more of them than the
    // weights need, exactly so from 11 limbs (2,000 players and more).
    Ok(match width.div_ceil(64) {
        0..=2 => brackets::pair::<2>(entrants, c, round, rounds),
        3 => brackets::pair::<3>(entrants, c, round, rounds),
        4 => brackets::pair::<4>(entrants, c, round, rounds),
        5..=6 => brackets::pair::<6>(entrants, c, round, rounds),
        7..=8 => brackets::pair::<8>(entrants, c, round, rounds),
        9..=10 => brackets::pair::<10>(entrants, c, round, rounds),
        11 => brackets::pair::<11>(entrants, c, round, rounds),
        12 => brackets::pair::<12>(entrants, c, round, rounds),
        13 => brackets::pair::<13>(entrants, c, round, rounds),
        14 => brackets::pair::<14>(entrants, c, round, rounds),
        15..=16 => brackets::pair::<16>(entrants, c, round, rounds),
        17..=24 => brackets::pair::<24>(entrants, c, round, rounds),
        25..=32 => brackets::pair::<32>(entrants, c, round, rounds),
        33..=64 => brackets::pair::<64>(entrants, c, round, rounds),
        _ => return Err(DutchError::TooLarge(entrants.len())),
    })
}

/// The colour of the top player in round 1 (C.04.3 E.5): `XXC`, else
/// read from round 1 (the lowest numbered player with a colour: their
/// colour if the number is odd), else White.
fn initial_colour(trf: &Trf) -> Colour {
    if let Some(c) = trf.first_colour() {
        return c;
    }
    trf.round(1)
        .into_iter()
        .find_map(|(n, e)| {
            let c = e?.colour?;
            Some(if n.get() % 2 == 1 { c } else { c.other() })
        })
        .unwrap_or(Colour::White)
}
