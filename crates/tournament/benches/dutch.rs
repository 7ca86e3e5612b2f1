//! How long the Dutch system (C.04.3) takes to pair one round of a
//! large Swiss tournament.
//!
//! `cargo bench -p rochade-tournament --bench dutch` pairs round 5 of
//! generated tournaments of 100, 200, 500 and 1,000 players. The four
//! rounds before it are made by a simple generator (below), not by the
//! Dutch system, so that making a tournament of 10,000 players costs
//! nothing; the round paired is the Dutch system's.
//!
//! One size, once, with the time printed (and the TRF kept, for
//! `rochade pair --system dutch`), or a given file's next round as
//! `rochade pair` prints it (`scripts/bench-pairing SIZE...` runs the
//! first for several sizes and adds the CPU time). The tournament is
//! built in memory, so any size up to 65,535 players is paired; TRF16
//! numbers players with four digits, so `DUTCH_TRF` writes sizes up to
//! 9,999 only (a larger one is paired and its file not written).
//!
//! ```sh
//! DUTCH_ONCE=2000 DUTCH_TRF=big.trf cargo bench -p rochade-tournament --bench dutch
//! DUTCH_PAIR=big.trf cargo bench -p rochade-tournament --bench dutch
//! ```

#![allow(missing_docs)] // criterion_group! makes an undocumented function.

use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, criterion_group};
use rochade_tournament::trf::{ColourRule, PlayerRecord, Record, ResultCode, RoundEntry, Trf};
use rochade_tournament::{Colour, PairingNumber, Points, dutch};

/// A small deterministic generator (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % bound
    }
}

/// A tournament of `players` and 9 rounds after
/// `played` rounds: each round pairs the players in score order, each
/// with the next one not met yet whose colours allow it, White to the
/// one due it;
/// White wins 40 %, draws 25 %, loses 35 % (seeded by `seed`). The
/// last of an odd number gets the pairing-allocated bye. Built in
/// memory, as the TRF16 file of up to 9,999 players reads.
fn tournament(players: usize, played: usize, seed: u64) -> Trf {
    let mut rng = Lcg(seed);
    // Per player: half-points, Whites less Blacks, the last colour, and
    // per round (opponent, colour, result).
    let mut points = vec![0u32; players];
    let mut balance = vec![0i32; players];
    let mut last = vec![' '; players];
    let mut games: Vec<Vec<(usize, char, char)>> = vec![Vec::new(); players];
    let mut met = vec![Vec::<usize>::new(); players];
    for _ in 0..played {
        let mut order: Vec<usize> = (0..players).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(points[i]), i));
        let mut paired = vec![false; players];
        for k in 0..players {
            let a = order[k];
            if paired[a] {
                continue;
            }
            let free = |j: &&usize| !paired[**j] && **j != a;
            let fits = |j: usize| (balance[a] + balance[j]).abs() < 3;
            let Some(&b) = order[k + 1..]
                .iter()
                .filter(free)
                .find(|&&j| !met[a].contains(&j) && fits(j))
                .or_else(|| order[k + 1..].iter().find(free))
            else {
                // The last one of an odd number: the pairing-allocated bye.
                points[a] += 2;
                games[a].push((usize::MAX, '-', 'U'));
                continue;
            };
            paired[a] = true;
            paired[b] = true;
            met[a].push(b);
            met[b].push(a);
            // White to the one with fewer Whites than Blacks, then to
            // the one who had Black last, then to the higher ranked.
            let due = |i: usize| (balance[i], last[i] == 'w');
            let (w, bl) = if due(b) < due(a) { (b, a) } else { (a, b) };
            balance[w] += 1;
            balance[bl] -= 1;
            last[w] = 'w';
            last[bl] = 'b';
            let r = rng.next(100);
            let (rw, rb) = if r < 40 {
                ('1', '0')
            } else if r < 65 {
                ('=', '=')
            } else {
                ('0', '1')
            };
            let half = |c: char| match c {
                '1' => 2,
                '=' => 1,
                _ => 0,
            };
            points[w] += half(rw);
            points[bl] += half(rb);
            games[w].push((bl, 'w', rw));
            games[bl].push((w, 'b', rb));
        }
    }
    let number = |i: usize| {
        u16::try_from(i + 1)
            .ok()
            .and_then(PairingNumber::new)
            .expect("at most 65,535 players")
    };
    // Nine rounds, or one more than played when more were.
    let rounds = u16::try_from(played + 1).map_or(u16::MAX, |r| r.max(9));
    let mut records = vec![
        Record::Rounds(rounds),
        Record::Colours(ColourRule {
            first: Some(Colour::White),
            by_rank: false,
        }),
    ];
    for (i, rounds) in games.iter().enumerate() {
        let rating = 2800 - (i * 2000 / players);
        records.push(Record::Player(PlayerRecord {
            number: number(i),
            sex: None,
            title: String::new(),
            name: format!("Player {}", i + 1),
            rating: u16::try_from(rating).ok(),
            federation: String::new(),
            fide_id: String::new(),
            birth: String::new(),
            points: Points::ZERO,
            rank: u16::try_from(i + 1).ok(),
            rounds: rounds
                .iter()
                .map(|&(opp, colour, result)| {
                    let result = match result {
                        '1' => ResultCode::Win,
                        '=' => ResultCode::Draw,
                        '0' => ResultCode::Loss,
                        _ => ResultCode::PairingAllocatedBye,
                    };
                    Some(if opp == usize::MAX {
                        RoundEntry::bye(result)
                    } else {
                        RoundEntry {
                            opponent: Some(number(opp)),
                            colour: Some(if colour == 'w' {
                                Colour::White
                            } else {
                                Colour::Black
                            }),
                            result: Some(result),
                        }
                    })
                })
                .collect(),
        }));
    }
    Trf::from_records(records)
}

/// The rounds played before the round paired.
const PLAYED: usize = 4;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("dutch round 5");
    group.sample_size(10);
    for players in [100, 200, 500, 1000] {
        let trf = tournament(players, PLAYED, 42);
        group.bench_with_input(BenchmarkId::from_parameter(players), &trf, |b, trf| {
            b.iter(|| dutch::pair(black_box(trf)).expect("a pairing"));
        });
    }
    group.finish();
}

/// `DUTCH_PAIR=FILE`: pairs the next round of a TRF as `rochade pair
/// --system dutch` prints it (the time on stderr).
/// `DUTCH_ONCE=N`: pairs one round of N players once and prints the time
/// (and writes the TRF to `DUTCH_TRF` when set, the pairing as `rochade
/// pair` prints it to `DUTCH_OUT`; `DUTCH_SEED` and `DUTCH_PLAYED`
/// choose another tournament, of nine rounds or, when more were played,
/// one more than played). Otherwise the criterion benches.
fn main() {
    if let Ok(path) = std::env::var("DUTCH_PAIR") {
        let text = std::fs::read_to_string(&path).expect("the TRF read");
        let trf = Trf::parse(&text).expect("a valid TRF");
        let start = Instant::now();
        let pairing = dutch::pair(&trf).expect("a pairing");
        eprintln!("{path}: {:.3} s", start.elapsed().as_secs_f64());
        print!("{pairing}");
        return;
    }
    if let Some(players) = std::env::var("DUTCH_ONCE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
    {
        let var = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(default)
        };
        let played = var("DUTCH_PLAYED", PLAYED as u64) as usize;
        let trf = tournament(players, played, var("DUTCH_SEED", 42));
        if let Ok(path) = std::env::var("DUTCH_TRF") {
            match trf.write() {
                Ok(text) => std::fs::write(&path, text).expect("the TRF written"),
                Err(e) => eprintln!("{path} not written: {e}"),
            }
        }
        let start = Instant::now();
        let pairing = dutch::pair(&trf).expect("a pairing");
        let elapsed = start.elapsed().as_secs_f64();
        if let Ok(path) = std::env::var("DUTCH_OUT") {
            std::fs::write(&path, pairing.to_string()).expect("the pairing written");
        }
        println!(
            "{players} players, round {}: {} games, {} byes in {elapsed:.3} s",
            played + 1,
            pairing.games.len(),
            pairing.byes.len(),
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

criterion_group!(benches, bench);
