//! The players of the round to pair, as C.04.3 sees them: score, colour
//! history (A.6), floats (A.4), previous opponents (C1) and whether they
//! may still get the pairing-allocated bye (C2), read from a TRF file.

use super::acceleration::{Method, virtual_points};
use super::colour::Standing;
use crate::trf::{ResultCode, Trf};
use crate::{Colour, PairingNumber};

/// How a player floated in one round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// Paired with a player of a lower score, or had a bye or a forfeit
    /// win (A.4.b).
    Down,
    /// Paired with a player of a higher score.
    Up,
    /// Neither.
    None,
}

/// A player to be paired in the next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// The pairing number (TRF16 starting rank).
    pub number: PairingNumber,
    /// The score for pairing purposes, in tenths of a point (with any
    /// acceleration of the round, C.04.5.1).
    pub score: u32,
    /// The colours of the games played over the board, oldest first.
    pub colours: Vec<Colour>,
    /// The float of every previous round, oldest first.
    pub floats: Vec<Float>,
    /// The players met over the board (C.04.3 C1).
    pub opponents: Vec<PairingNumber>,
    /// Whether the player may get the pairing-allocated bye (C.04.3
    /// C2): no earlier bye or forfeit win worth a win's points.
    pub bye_eligible: bool,
}

impl Entrant {
    /// White games minus Black games (the colour difference, A.6).
    #[must_use]
    pub fn colour_difference(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| match c {
                Colour::White => 1,
                Colour::Black => -1,
            })
            .sum()
    }

    /// The float `back` rounds ago (1: the previous round).
    #[must_use]
    pub fn float_back(&self, back: usize) -> Float {
        self.floats
            .len()
            .checked_sub(back)
            .map_or(Float::None, |i| self.floats[i])
    }

    /// Whether the two met over the board before.
    #[must_use]
    pub fn has_met(&self, other: &Entrant) -> bool {
        self.opponents.contains(&other.number)
    }
}

/// What the weights and the absolute criteria read of a player, worked
/// out once a round ([`Profile::of`]): a round weighs n²/2 pairs, and
/// each pair read both histories again (the colour difference, the last
/// colours, the floats), from lists each in its own allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// The pairing number.
    pub number: PairingNumber,
    /// The score for pairing purposes.
    pub score: u32,
    /// The colour difference, the repeated colour and the preference.
    pub colours: Standing,
    /// The float one round back, then two rounds back.
    pub floats: [Float; 2],
    /// How many different players were met over the board.
    pub met: usize,
}

impl Profile {
    /// The profile of `e`.
    #[must_use]
    pub fn of(e: &Entrant) -> Profile {
        let o = &e.opponents;
        Profile {
            number: e.number,
            score: e.score,
            colours: Standing::of(e),
            floats: [e.float_back(1), e.float_back(2)],
            met: (0..o.len()).filter(|&i| !o[..i].contains(&o[i])).count(),
        }
    }

    /// The float `back` rounds ago, 1 or 2 ([`Entrant::float_back`]).
    #[must_use]
    pub fn float_back(&self, back: usize) -> Float {
        self.floats[back - 1]
    }
}

/// The players to pair in `round` (1-based), in pairing-number order.
/// For the next round: everyone in the file except those with an entry
/// for `round` already (a requested bye `H`/`F`, an absence `Z`) or a
/// `240` bye record. For a round already paired (to check it): those
/// with a game, a forfeit or the pairing-allocated bye in it. Rounds
/// after `round` are ignored.
/// Scores for pairing include the virtual points of `method` and `XXA`
/// (also when deciding past floats, as bbpPairings does).
#[must_use]
pub fn entrants(trf: &Trf, round: u16, method: Method) -> Vec<Entrant> {
    let players = trf.players();
    let past = usize::from(round).saturating_sub(1);
    // Each pairing number's first place in `players` (a lookup per game
    // played: a search of the list each was quadratic in the players).
    let mut places: Vec<Option<usize>> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let k = usize::from(p.number.get());
        if places.len() <= k {
            places.resize(k + 1, None);
        }
        places[k].get_or_insert(i);
    }
    let index_of = |n: PairingNumber| places.get(usize::from(n.get())).copied().flatten();
    // Each player's score after each round, raw (no acceleration).
    let after: Vec<Vec<u32>> = players
        .iter()
        .map(|p| {
            let mut total = 0;
            (0..past)
                .map(|r| {
                    if let Some(Some(e)) = p.rounds.get(r)
                        && let Some(code) = e.result
                    {
                        total += code.points().tenths();
                    }
                    total
                })
                .collect()
        })
        .collect();
    // Virtual points come from `XXA` records or Baku only (a search of
    // every record for each player and round otherwise).
    let accelerated = method == Method::Baku
        || trf
            .records()
            .iter()
            .any(|r| matches!(r, crate::trf::Record::Acceleration(_)));
    let before = |i: usize, r: usize| if r == 0 { 0 } else { after[i][r - 1] };
    // The pairing score before 0-based round r: with its virtual points.
    let pairing_score = |i: usize, r: usize| {
        let number = players[i].number;
        let round = u16::try_from(r + 1).unwrap_or(u16::MAX);
        before(i, r)
            + if accelerated {
                virtual_points(trf, method, number, round)
            } else {
                0
            }
    };
    let requested: Vec<PairingNumber> = trf
        .records()
        .iter()
        .filter_map(|r| match r {
            crate::trf::Record::Byes(b) if b.round == round => Some(b.players.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    // A round already paired is being checked: only those paired in it
    // take part. Otherwise an entry is a request not to be paired.
    let checking = round <= trf.played_rounds();
    let mut out = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let takes_part = match p.rounds.get(past).copied().flatten() {
            None => !checking,
            Some(entry) => entry.was_paired(),
        };
        if !takes_part || requested.contains(&p.number) {
            continue;
        }
        let mut e = Entrant {
            number: p.number,
            score: pairing_score(i, past),
            colours: Vec::new(),
            floats: Vec::new(),
            opponents: Vec::new(),
            bye_eligible: true,
        };
        for r in 0..past {
            let Some(Some(entry)) = p.rounds.get(r) else {
                e.floats.push(Float::None);
                continue;
            };
            let code = entry.result;
            let points = code.map_or(0, |c| c.points().tenths());
            let played = code.is_some_and(ResultCode::is_played);
            match entry.opponent {
                Some(o) if played => {
                    if let Some(c) = entry.colour {
                        e.colours.push(c);
                    }
                    e.opponents.push(o);
                    let mine = pairing_score(i, r);
                    let theirs = index_of(o).map_or(mine, |j| pairing_score(j, r));
                    e.floats.push(match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    });
                }
                _ => {
                    // An unplayed round: a bye, a forfeit, an absence.
                    // Worth more than a loss, it counts as a downfloat
                    // (A.4.b); worth a win, it ends bye eligibility (C2).
                    e.floats
                        .push(if points > 0 { Float::Down } else { Float::None });
                    if points >= crate::Points::ONE.tenths() {
                        e.bye_eligible = false;
                    }
                }
            }
        }
        out.push(e);
    }
    out.sort_by_key(|e| e.number);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(n: u16) -> PairingNumber {
        PairingNumber::new(n).expect("a number")
    }

    #[test]
    fn profile_reads_what_the_entrant_says() {
        let floats = [Float::Down, Float::Up, Float::None];
        for (k, met) in [
            vec![],
            vec![3],
            vec![3, 3],
            vec![4, 2, 4, 9, 2],
            vec![7, 8, 9, 10, 11, 12],
        ]
        .into_iter()
        .enumerate()
        {
            let e = Entrant {
                number: number(1),
                score: 5 * k as u32,
                colours: [Colour::White, Colour::Black, Colour::Black][..k.min(3)].to_vec(),
                floats: floats[..k.min(3)].to_vec(),
                opponents: met.iter().map(|&m| number(m)).collect(),
                bye_eligible: true,
            };
            let p = Profile::of(&e);
            let mut distinct = e.opponents.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(p.met, distinct.len(), "{met:?}");
            assert_eq!(p.float_back(1), e.float_back(1));
            assert_eq!(p.float_back(2), e.float_back(2));
            assert_eq!(p.colours, Standing::of(&e));
            assert_eq!((p.number, p.score), (e.number, e.score));
        }
    }
}
