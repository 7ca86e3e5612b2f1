//! Properties of whole knockouts played with random results: each round
//! halves the field, every player stands once in each round until out,
//! and exactly one player wins.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::testing::standard_then_armageddon;
use super::{Bracket, Entrant, GameResult, MatchFormat, MatchId, Next, Rules};
use crate::PairingNumber;

/// A small deterministic generator (splitmix64) driven by a proptest seed.
struct Dice(u64);

impl Dice {
    /// A number in `0..n`.
    fn roll(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// What may happen in a random knockout.
#[derive(Debug, Clone, Copy)]
struct Chaos {
    /// Forfeits and double forfeits among the results.
    forfeits: bool,
    /// Players withdraw now and then.
    withdrawals: bool,
}

/// Plays `bracket` to its end with random colours and results.
fn play_out(bracket: &mut Bracket, dice: &mut Dice, chaos: Chaos) {
    for step in 0..100_000 {
        let pending = bracket.pending();
        let Some(&(id, next)) = pending.get(dice.roll(pending.len().max(1) as u64) as usize) else {
            return;
        };
        let players = bracket
            .get(id)
            .and_then(|m| m.players())
            .expect("a match in play");
        if chaos.withdrawals && dice.roll(40) == 0 {
            let who = if dice.roll(2) == 0 {
                players.0
            } else {
                players.1
            };
            bracket
                .withdraw(who)
                .expect("a player in play may withdraw");
            continue;
        }
        let entry = match next {
            Next::DrawColours { .. } => {
                let white = if dice.roll(2) == 0 {
                    players.0
                } else {
                    players.1
                };
                bracket.set_colours(id, white)
            }
            // Past a few thousand steps, decide sudden death at once.
            Next::Game(_) if step > 50_000 => bracket.record(id, GameResult::WhiteWins),
            Next::Game(_) => {
                let kinds = if chaos.forfeits { 6 } else { 3 };
                bracket.record(id, GameResult::ALL[dice.roll(kinds) as usize])
            }
            Next::Finished(_) => panic!("a finished match is not pending"),
        };
        entry.expect("a legal entry");
    }
}

/// The players standing in round `round`.
fn entrants(bracket: &Bracket, round: usize) -> Vec<PairingNumber> {
    let matches = bracket.round(round).expect("a round");
    (1..=matches.len())
        .flat_map(|number| {
            let (a, b) = bracket
                .entrants(MatchId::Round { round, number })
                .expect("a match");
            [a, b]
        })
        .filter_map(|e| match e {
            Entrant::Player(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// The players who go through from round `round`.
fn winners(bracket: &Bracket, round: usize) -> BTreeSet<PairingNumber> {
    let matches = bracket.round(round).expect("a round");
    matches
        .iter()
        .filter_map(|m| match m.winner() {
            Entrant::Player(p) => Some(p),
            _ => None,
        })
        .collect()
}

/// Checks the shape of a finished bracket.
fn check_rounds(bracket: &Bracket, players: usize) -> Result<(), TestCaseError> {
    prop_assert_eq!(bracket.size(), players.next_power_of_two());
    let mut survivors: BTreeSet<PairingNumber> = (1..=players)
        .filter_map(|i| PairingNumber::new(u16::try_from(i).ok()?))
        .collect();
    for round in 1..=bracket.rounds() {
        // Each round halves the lines.
        prop_assert_eq!(
            bracket.round(round).map(<[_]>::len),
            Some(bracket.size() >> round)
        );
        let standing = entrants(bracket, round);
        let unique: BTreeSet<PairingNumber> = standing.iter().copied().collect();
        prop_assert_eq!(
            unique.len(),
            standing.len(),
            "a player twice in round {}",
            round
        );
        prop_assert_eq!(&unique, &survivors, "round {} is not the survivors", round);
        survivors = winners(bracket, round);
    }
    prop_assert!(survivors.len() <= 1);
    prop_assert_eq!(survivors.iter().next().copied(), bracket.champion());
    Ok(())
}

/// A random format: the World Cup's, or standard games then Armageddon.
fn format(dice: &mut Dice) -> MatchFormat {
    match dice.roll(3) {
        0 => MatchFormat::world_cup_2023(),
        1 => standard_then_armageddon(2),
        _ => standard_then_armageddon(1),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn played_over_the_board_a_knockout_has_exactly_one_winner(
        players in 2usize..=70,
        seed in any::<u64>(),
        third in any::<bool>(),
    ) {
        let mut dice = Dice(seed);
        let format = format(&mut dice);
        let rules = if third { Rules::new(format.clone()).third_place(format) } else { Rules::new(format) };
        let mut bracket = Bracket::new(players, rules).expect("a bracket");
        play_out(&mut bracket, &mut dice, Chaos { forfeits: false, withdrawals: false });
        prop_assert!(bracket.is_finished());
        prop_assert!(bracket.champion().is_some());
        check_rounds(&bracket, players)?;
        // The winner lost no match; the seeds beyond the bracket's half
        // that had byes never played round 1.
        let champion = bracket.champion().expect("a champion");
        let lost = (1..=bracket.rounds()).any(|r| {
            bracket.round(r).into_iter().flatten().any(|m| m.loser() == Entrant::Player(champion))
        });
        prop_assert!(!lost);
        if third && players >= 4 {
            let t = bracket.third_place().expect("a match for third place");
            prop_assert!(matches!(t.winner(), Entrant::Player(_)));
        }
    }

    #[test]
    fn forfeits_and_withdrawals_never_break_the_bracket(
        players in 2usize..=40,
        seed in any::<u64>(),
    ) {
        let mut dice = Dice(seed);
        let format = format(&mut dice);
        let mut bracket =
            Bracket::new(players, Rules::new(format.clone()).third_place(format)).expect("a bracket");
        play_out(&mut bracket, &mut dice, Chaos { forfeits: true, withdrawals: true });
        prop_assert!(bracket.is_finished());
        prop_assert!(bracket.pending().is_empty());
        check_rounds(&bracket, players)?;
        // The listing is written without a panic, one line a match.
        let text = bracket.to_string();
        prop_assert!(text.lines().count() > bracket.size() / 2);
    }
}
