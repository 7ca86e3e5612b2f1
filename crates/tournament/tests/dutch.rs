//! The FIDE (Dutch) System (C.04.3) against caissify-pairings 0.5.0,
//! whose Dutch engine is checked against bbpPairings: rounds it paired
//! (`tests/data/dutch/*.trf` with the pairing in `*.expected`, made by
//! `tests/pairing/dutch_differential.py`; the `varied_` ones have
//! forfeits, requested byes, withdrawals and late entries, the `baku_`
//! ones Baku acceleration, C.04.5.1), and the
//! rules one by one on small files.

use std::collections::BTreeSet;

use rochade_tournament::RoundPairing;
use rochade_tournament::dutch::{self, DutchError, acceleration::Method};
use rochade_tournament::trf::{ResultCode, Trf};

/// Games as (White, Black) and byes, as sets.
fn sets(round: &RoundPairing) -> (BTreeSet<(u16, u16)>, BTreeSet<u16>) {
    (
        round
            .games
            .iter()
            .map(|g| (g.white.get(), g.black.get()))
            .collect(),
        round.byes.iter().map(|b| b.get()).collect(),
    )
}

/// A 001 line: number, rating, then round blocks such as `"2 w 1"`.
fn line(n: u16, rating: u16, rounds: &[&str]) -> String {
    let mut s = format!(
        "001 {n:>4}      {:<33} {rating:>4}                             0.0 {n:>4}",
        format!("Player {n}")
    );
    for r in rounds {
        let parts: Vec<&str> = r.split(' ').collect();
        s.push_str(&format!("  {:>4} {} {}", parts[0], parts[1], parts[2]));
    }
    s
}

/// A tournament of `rounds` rounds from 001 lines.
fn trf(rounds: u16, lines: &[String]) -> Trf {
    let text = format!("XXR {rounds}\nXXC white1\n{}\n", lines.join("\n"));
    Trf::parse(&text).expect("a valid file")
}

#[test]
fn c04_3_rounds_as_caissify_pairs_them() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("the data directory") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "trf") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("the file");
        let expected = std::fs::read_to_string(path.with_extension("expected")).expect("expected");
        let mut lines = expected.lines();
        let games: BTreeSet<(u16, u16)> = lines
            .next()
            .unwrap_or("")
            .split_whitespace()
            .map(|g| {
                let (w, b) = g.split_once('-').expect("white-black");
                (w.parse().expect("a number"), b.parse().expect("a number"))
            })
            .collect();
        let byes: BTreeSet<u16> = lines
            .next()
            .unwrap_or("")
            .split_whitespace()
            .map(|b| b.parse().expect("a number"))
            .collect();
        // C.04.5.1: the `baku_` files are paired with Baku acceleration.
        let baku = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("baku_"));
        let method = if baku { Method::Baku } else { Method::None };
        let trf = Trf::parse(&text).expect("a valid file");
        let round = dutch::pair_with(&trf, method).expect("a pairing");
        assert_eq!(sets(&round), (games, byes), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} files");
}

#[test]
fn c04_3_every_round_of_a_caissify_tournament() {
    let text = include_str!("data/caissify_rtg_11p_5r.trf");
    let trf = Trf::parse(text).expect("a valid file");
    for round in 1..=trf.played_rounds() {
        let got = dutch::pair_round(&trf, round).expect("a pairing");
        let mut games = BTreeSet::new();
        let mut byes = BTreeSet::new();
        for (player, entry) in trf.round(round) {
            let entry = entry.expect("everyone plays");
            match (entry.opponent, entry.colour) {
                (Some(o), Some(rochade_tournament::Colour::White)) => {
                    games.insert((player.get(), o.get()));
                }
                (None, _) if entry.result == Some(ResultCode::PairingAllocatedBye) => {
                    byes.insert(player.get());
                }
                _ => {}
            }
        }
        assert_eq!(sets(&got), (games, byes), "round {round}");
    }
}

#[test]
fn c04_3_round_1_top_half_against_bottom_half() {
    let lines: Vec<String> = (1..=7).map(|n| line(n, 2500 - n * 10, &[])).collect();
    let round = dutch::pair(&trf(5, &lines)).expect("a pairing");
    // E.5: odd numbers (1, 3) get the initial colour, even ones (2) the other.
    assert_eq!(round.to_string(), "4\n1 4\n5 2\n3 6\n7 0\n");
}

#[test]
fn c04_3_c1_forfeited_games_do_not_count_as_met() {
    let lines = vec![line(1, 2000, &["2 w +"]), line(2, 1900, &["1 b -"])];
    let round = dutch::pair(&trf(3, &lines)).expect("a pairing");
    assert_eq!(round.games.len(), 1);
}

#[test]
fn c04_3_c2_no_second_pairing_allocated_bye() {
    let lines = vec![
        line(1, 2000, &["2 w 1"]),
        line(2, 1900, &["1 b 0"]),
        line(3, 1800, &["0000 - U"]),
    ];
    let round = dutch::pair(&trf(3, &lines)).expect("a pairing");
    assert_eq!(sets(&round).1, BTreeSet::from([2]));
}

#[test]
fn requested_byes_and_withdrawals_are_not_paired() {
    let mut lines: Vec<String> = (1..=6).map(|n| line(n, 2500 - n * 10, &[])).collect();
    lines[1].push_str("  0000 - H");
    lines[4].push_str("  0000 - Z");
    let round = dutch::pair(&trf(5, &lines)).expect("a pairing");
    let paired: BTreeSet<u16> = round
        .games
        .iter()
        .flat_map(|g| [g.white.get(), g.black.get()])
        .collect();
    assert_eq!(paired, BTreeSet::from([1, 3, 4, 6]));
    assert!(round.byes.is_empty());
}

#[test]
fn a_late_entry_is_paired_with_a_zero_score() {
    let lines = vec![
        line(1, 2000, &["2 w 1"]),
        line(2, 1900, &["1 b 0"]),
        line(3, 1800, &["4 w 1"]),
        line(4, 1700, &["3 b 0"]),
        line(5, 1600, &[]),
    ];
    let round = dutch::pair(&trf(3, &lines)).expect("a pairing");
    assert_eq!(round.games.len() + round.byes.len(), 3);
    assert!(
        round
            .games
            .iter()
            .any(|g| g.white.get() == 5 || g.black.get() == 5)
            || round.byes.iter().any(|b| b.get() == 5)
    );
}

#[test]
fn a_finished_tournament_is_refused() {
    let lines = vec![line(1, 2000, &["2 w 1"]), line(2, 1900, &["1 b 0"])];
    assert_eq!(dutch::pair(&trf(1, &lines)), Err(DutchError::Finished(1)));
    let no_xxr = Trf::parse(&format!("{}\n", lines.join("\n"))).expect("a valid file");
    assert_eq!(dutch::pair(&no_xxr), Err(DutchError::NoRounds));
}
