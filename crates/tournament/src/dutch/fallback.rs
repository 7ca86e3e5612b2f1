//! Last resorts when the bracket procedure leaves more than one player
//! unpaired: a depth-first search for any pairing that keeps the
//! absolute criteria, then a greedy one (caissify-pairings 0.5.0 does
//! the same; with a correct matching they are seldom reached).

use super::criteria;
use super::player::Entrant;

/// A pairing of all of `players` but at most one, found depth first in
/// the given order, or `None`.
#[must_use]
pub fn backtrack<'a>(
    players: &[&'a Entrant],
    round: u16,
    rounds: u16,
) -> Option<Vec<(&'a Entrant, &'a Entrant)>> {
    /// Pairs the first free player with each later one in turn.
    fn search<'a>(
        players: &[&'a Entrant],
        used: &mut [bool],
        pairs: &mut Vec<(&'a Entrant, &'a Entrant)>,
        round: u16,
        rounds: u16,
    ) -> bool {
        let Some(first) = used.iter().position(|u| !u) else {
            return true;
        };
        if used.iter().filter(|u| !**u).count() == 1 {
            return true;
        }
        used[first] = true;
        for j in first + 1..players.len() {
            if used[j] || !criteria::compatible(players[first], players[j], round, rounds) {
                continue;
            }
            used[j] = true;
            pairs.push((players[first], players[j]));
            if search(players, used, pairs, round, rounds) {
                return true;
            }
            pairs.pop();
            used[j] = false;
        }
        used[first] = false;
        false
    }
    if players.len() < 2 {
        return None;
    }
    let mut used = vec![false; players.len()];
    let mut pairs = Vec::new();
    search(players, &mut used, &mut pairs, round, rounds).then_some(pairs)
}

/// Each player in turn with the first later player they may meet
/// (`relaxed`: only C1 is kept), or `None` if no pair is possible.
#[must_use]
pub fn greedy<'a>(
    players: &[&'a Entrant],
    relaxed: bool,
    round: u16,
    rounds: u16,
) -> Option<Vec<(&'a Entrant, &'a Entrant)>> {
    let mut used = vec![false; players.len()];
    let mut pairs = Vec::new();
    for i in 0..players.len() {
        if used[i] {
            continue;
        }
        for j in i + 1..players.len() {
            let ok = if relaxed {
                !players[i].has_met(players[j])
            } else {
                criteria::compatible(players[i], players[j], round, rounds)
            };
            if !used[j] && ok {
                used[i] = true;
                used[j] = true;
                pairs.push((players[i], players[j]));
                break;
            }
        }
    }
    (!pairs.is_empty()).then_some(pairs)
}
