//! Search options: MultiPV, searchmoves, mate, threads, levels, Syzygy.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use rochade_engine::robot::Level;
use rochade_engine::search::tt::TranspositionTable;
use rochade_engine::{
    Evaluation, IterationReport, Score, SearchClock, SearchContext, SearchOutcome, SearchParams,
    TimeLimits, search_in,
};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use shakmaty_syzygy::Tablebase;

fn pos(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

fn mv(pos: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>().unwrap().to_move(pos).unwrap()
}

fn to_depth(depth: u32) -> TimeLimits {
    TimeLimits {
        depth: Some(depth),
        ..TimeLimits::default()
    }
}

/// Runs a search with `tablebase`; returns the outcome and every report.
fn run(
    params: SearchParams,
    tablebase: Option<&Tablebase<Chess>>,
) -> (SearchOutcome, Vec<IterationReport>) {
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let clock = SearchClock::new(false);
    let ctx = SearchContext {
        tablebase,
        ..SearchContext::new(&tt, &stop, &clock)
    };
    let mut reports = Vec::new();
    let outcome = search_in(params, &ctx, |r| reports.push(r.clone()));
    (outcome, reports)
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let params = SearchParams {
        pos: Chess::default(),
        limits: to_depth(4),
        multipv: 3,
        ..SearchParams::default()
    };
    let (outcome, reports) = run(params, None);
    let last: Vec<&IterationReport> = reports.iter().filter(|r| r.depth == 4).collect();
    assert_eq!(
        last.iter().map(|r| r.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let firsts: std::collections::HashSet<Move> = last.iter().map(|r| r.pv[0]).collect();
    assert_eq!(firsts.len(), 3, "three different root moves");
    let cps: Vec<i32> = last
        .iter()
        .map(|r| match r.score {
            Score::Cp(cp) => cp,
            Score::Mate(_) => panic!("no mate from the start"),
        })
        .collect();
    assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{cps:?}");
    assert_eq!(outcome.best, Some(last[0].pv[0]));
    assert_eq!(outcome.lines.len(), 3);
}

#[test]
fn multipv_beyond_the_legal_moves_gives_each_move_once() {
    // Black has three legal moves.
    let p = pos("k7/8/8/8/8/8/8/K6R b - - 0 1");
    let legal = p.legal_moves().len();
    assert_eq!(legal, 3);
    let params = SearchParams {
        pos: p,
        limits: to_depth(3),
        multipv: 10,
        ..SearchParams::default()
    };
    let (outcome, _) = run(params, None);
    assert_eq!(outcome.lines.len(), legal);
}

#[test]
fn searchmoves_restricts_the_root() {
    let start = Chess::default();
    let only = vec![mv(&start, "a2a3"), mv(&start, "h2h4")];
    let params = SearchParams {
        pos: start,
        limits: to_depth(4),
        searchmoves: only.clone(),
        ..SearchParams::default()
    };
    let (outcome, reports) = run(params, None);
    assert!(only.contains(&outcome.best.unwrap()));
    assert!(reports.iter().all(|r| only.contains(&r.pv[0])));
}

#[test]
fn go_mate_stops_at_the_mate() {
    let params = SearchParams {
        pos: pos("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"),
        mate: Some(2),
        ..SearchParams::default()
    };
    let (outcome, reports) = run(params, None);
    assert_eq!(reports.last().unwrap().score, Score::Mate(2));
    assert!(outcome.depth <= 5, "depth {}", outcome.depth);
    // No mate in 1 there: the search ends at its depth cap, without one.
    let params = SearchParams {
        pos: pos("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"),
        mate: Some(1),
        ..SearchParams::default()
    };
    let (outcome, reports) = run(params, None);
    assert_eq!(outcome.depth, 3);
    assert!(!matches!(reports.last().unwrap().score, Score::Mate(1)));
}

#[test]
fn threads_find_the_same_mate() {
    let params = SearchParams {
        pos: pos("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"),
        limits: to_depth(6),
        threads: 3,
        ..SearchParams::default()
    };
    let (outcome, reports) = run(params, None);
    assert_eq!(reports.last().unwrap().score, Score::Mate(2));
    assert_eq!(outcome.lines[0].pv.len(), 3, "mate in 2 is three plies");
}

#[test]
fn level_one_searches_shallow_and_varies() {
    let start = Chess::default();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..30 {
        let params = SearchParams {
            pos: start.clone(),
            level: Level::MIN,
            seed: Some(seed),
            ..SearchParams::default()
        };
        let (outcome, reports) = run(params, None);
        assert!(reports.iter().all(|r| r.depth <= 1));
        assert!(start.is_legal(outcome.best.unwrap()));
        seen.insert(outcome.best.unwrap());
    }
    assert!(seen.len() >= 3, "level 1 varies its openings: {seen:?}");
}

#[test]
fn weak_levels_still_take_a_free_queen() {
    // Any level but the weakest sees a queen hanging for nothing.
    let p = pos("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    for level in 2..=8 {
        for seed in 0..5 {
            let params = SearchParams {
                pos: p.clone(),
                limits: to_depth(4),
                level: Level::new(level).unwrap(),
                seed: Some(seed),
                ..SearchParams::default()
            };
            let (outcome, _) = run(params, None);
            assert_eq!(
                UciMove::from_standard(outcome.best.unwrap()).to_string(),
                "d1d5",
                "level {level} seed {seed}"
            );
        }
    }
}

fn tablebase() -> Tablebase<Chess> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    let mut tb = Tablebase::new();
    let n = tb
        .add_directory(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/fetch-test-data first", dir.display()));
    assert!(n > 0, "no tables in {}", dir.display());
    tb
}

#[test]
fn syzygy_root_move_and_tbhits() {
    let tb = tablebase();
    // KQ v K: the table move, a winning score, one hit.
    let params = SearchParams {
        pos: pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"),
        limits: to_depth(10),
        ..SearchParams::default()
    };
    let (outcome, reports) = run(params, Some(&tb));
    let report = reports.last().unwrap();
    assert!(
        matches!(report.score, Score::Cp(cp) if cp > 10_000),
        "{report:?}"
    );
    assert_eq!(report.tbhits, 1);
    let mut after = pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    after.play_unchecked(outcome.best.unwrap());
    assert!(!after.is_stalemate());
}

#[test]
fn syzygy_probed_inside_the_search() {
    let tb = tablebase();
    // Five pieces; Kxe2 leaves four (KRRvK), which the search probes.
    let p = pos("4k3/8/8/8/8/8/4r3/R3K2R w - - 0 1");
    let params = SearchParams {
        pos: p.clone(),
        limits: to_depth(3),
        ..SearchParams::default()
    };
    let (_, reports) = run(params.clone(), Some(&tb));
    assert!(reports.last().unwrap().tbhits > 0);
    let (_, without) = run(params, None);
    assert_eq!(without.last().unwrap().tbhits, 0);
}

#[test]
fn each_evaluation_searches_with_its_own_scores() {
    // A quiet middlegame: both evaluations find a move, and their scores
    // are their own (the network's and the classical one's differ).
    let position = pos("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
    let score = |evaluation| {
        let params = SearchParams {
            pos: position.clone(),
            limits: to_depth(3),
            evaluation,
            ..SearchParams::default()
        };
        let (outcome, reports) = run(params, None);
        assert!(outcome.best.is_some());
        reports.last().map(|r| r.score)
    };
    let (network, classical) = (score(Evaluation::Network), score(Evaluation::Classical));
    assert!(network.is_some() && classical.is_some());
    assert_ne!(network, classical);
}

#[test]
fn levels_below_full_strength_play_with_the_classical_evaluation() {
    // Their Elo was measured with it (docs/robot-levels.md), so the
    // evaluation asked for does not change their moves or scores.
    let position = pos("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
    let lines = |evaluation| {
        let params = SearchParams {
            pos: position.clone(),
            level: Level::new(6).unwrap(),
            seed: Some(3),
            evaluation,
            ..SearchParams::default()
        };
        let (outcome, reports) = run(params, None);
        (outcome.best, reports.last().map(|r| r.score))
    };
    assert_eq!(lines(Evaluation::Network), lines(Evaluation::Classical));
}
