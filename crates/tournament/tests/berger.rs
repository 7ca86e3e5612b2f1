//! Round robins against the published FIDE Berger tables (C.05 Annex 1),
//! and by their properties for 3 to 16 players (and beyond).

use std::collections::HashMap;

use rochade_tournament::berger::{self, Cycles};
use rochade_tournament::{Colour, RoundPairing};

/// One round of a table: (white, black) pairs in board order.
type Round = Vec<(usize, usize)>;

/// The published tables: players, then rounds of (white, black) pairs.
fn published() -> Vec<(usize, Vec<Round>)> {
    let mut tables: Vec<(usize, Vec<Round>)> = Vec::new();
    for line in include_str!("data/berger_tables.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(n) = line.strip_prefix("players ") {
            tables.push((n.parse().expect("a number"), Vec::new()));
            continue;
        }
        let round = line
            .split_whitespace()
            .map(|pair| {
                let (w, b) = pair.split_once('-').expect("white-black");
                (w.parse().expect("white"), b.parse().expect("black"))
            })
            .collect();
        tables
            .last_mut()
            .expect("a players line first")
            .1
            .push(round);
    }
    tables
}

/// The (white, black) pairs and byes of a round, as plain numbers.
fn plain(r: &RoundPairing) -> (Vec<(usize, usize)>, Vec<usize>) {
    let games = r
        .games
        .iter()
        .map(|g| (usize::from(g.white.get()), usize::from(g.black.get())))
        .collect();
    let byes = r.byes.iter().map(|b| usize::from(b.get())).collect();
    (games, byes)
}

#[test]
fn c05_annex_1_even_tables_as_published() {
    let tables = published();
    assert_eq!(tables.len(), 6);
    for (n, rounds) in tables {
        assert_eq!(rounds.len(), n - 1);
        for (i, expected) in rounds.iter().enumerate() {
            let got = berger::round(n, i + 1, Cycles::Single).expect("in range");
            assert_eq!(
                plain(&got),
                (expected.clone(), vec![]),
                "{n} players, round {}",
                i + 1
            );
        }
    }
}

#[test]
fn c05_annex_1_odd_tables_give_the_last_number_as_bye() {
    for (n, rounds) in published() {
        for (i, expected) in rounds.iter().enumerate() {
            let got = berger::round(n - 1, i + 1, Cycles::Single).expect("in range");
            let games: Vec<_> = expected
                .iter()
                .copied()
                .filter(|&(w, b)| w != n && b != n)
                .collect();
            let bye: Vec<_> = expected
                .iter()
                .filter_map(|&(w, b)| (w == n).then_some(b).or((b == n).then_some(w)))
                .collect();
            assert_eq!(
                plain(&got),
                (games, bye),
                "{} players, round {}",
                n - 1,
                i + 1
            );
        }
    }
}

/// Every round of a tournament of `n` players.
fn all_rounds(n: usize, cycles: Cycles) -> Vec<RoundPairing> {
    (1..=berger::rounds_in(n, cycles))
        .map(|r| berger::round(n, r, cycles).expect("in range"))
        .collect()
}

/// Each player's colours round by round (`None` for a bye).
fn colour_rows(n: usize, rounds: &[RoundPairing]) -> HashMap<usize, Vec<Option<Colour>>> {
    let mut rows: HashMap<usize, Vec<Option<Colour>>> = HashMap::new();
    for r in rounds {
        let (games, byes) = plain(r);
        for (w, b) in games {
            rows.entry(w).or_default().push(Some(Colour::White));
            rows.entry(b).or_default().push(Some(Colour::Black));
        }
        for b in byes {
            rows.entry(b).or_default().push(None);
        }
    }
    assert_eq!(rows.len(), n);
    rows
}

#[test]
fn c05_everyone_meets_everyone_once_per_cycle() {
    for n in 2..=24 {
        for cycles in [Cycles::Single, Cycles::Double] {
            let mut met: HashMap<(usize, usize), Vec<(usize, usize)>> = HashMap::new();
            for r in all_rounds(n, cycles) {
                let (games, byes) = plain(&r);
                let mut seen: Vec<usize> = games
                    .iter()
                    .flat_map(|&(w, b)| [w, b])
                    .chain(byes.clone())
                    .collect();
                seen.sort_unstable();
                assert_eq!(
                    seen,
                    (1..=n).collect::<Vec<_>>(),
                    "{n} players: each once a round"
                );
                assert!(
                    byes.len() == n % 2,
                    "{n} players: byes only for odd numbers"
                );
                for (w, b) in games {
                    met.entry((w.min(b), w.max(b))).or_default().push((w, b));
                }
            }
            let times = if cycles == Cycles::Single { 1 } else { 2 };
            assert_eq!(met.len(), n * (n - 1) / 2, "{n} players");
            for (pair, games) in met {
                assert_eq!(games.len(), times, "{n} players, pair {pair:?}");
                if times == 2 {
                    assert_ne!(
                        games[0], games[1],
                        "{n} players: colours reversed in cycle 2"
                    );
                }
            }
        }
    }
}

#[test]
fn c05_colours_balance_in_a_single_cycle() {
    for n in (4..=16).step_by(2) {
        for (player, row) in colour_rows(n, &all_rounds(n, Cycles::Single)) {
            let whites = row.iter().filter(|c| **c == Some(Colour::White)).count();
            let blacks = row.len() - whites;
            assert!(whites.abs_diff(blacks) <= 1, "{n} players, player {player}");
        }
    }
}

#[test]
fn c05_annex_1_no_three_same_colours_in_a_row_in_a_double_round_robin() {
    for n in (4..=16).step_by(2) {
        for (player, row) in colour_rows(n, &all_rounds(n, Cycles::Double)) {
            for w in row.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "{n} players, player {player}: {row:?}"
                );
            }
        }
    }
}

#[test]
fn c05_annex_1_double_round_robin_exchanges_the_last_two_rounds_of_cycle_1() {
    let single = all_rounds(6, Cycles::Single);
    let double = all_rounds(6, Cycles::Double);
    assert_eq!(double[3], single[4]);
    assert_eq!(double[4], single[3]);
    assert_eq!(double[..3], single[..3]);
}

#[test]
fn refuses_rounds_outside_the_tournament() {
    assert!(berger::round(1, 1, Cycles::Single).is_err());
    assert!(berger::round(6, 0, Cycles::Single).is_err());
    assert!(berger::round(6, 6, Cycles::Single).is_err());
    assert!(berger::round(6, 10, Cycles::Double).is_ok());
    assert!(berger::round(6, 11, Cycles::Double).is_err());
}
