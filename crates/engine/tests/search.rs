//! Search tests: mates, tactics, legality, stopping.
#![allow(clippy::unwrap_used, missing_docs)]

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::channel;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rochade_engine::search::tt::TranspositionTable;
use rochade_engine::{
    Engine, EngineCommand, Score, SearchOutcome, SearchParams, SearchReport, TimeLimits, search,
};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

fn pos(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap();
    fen.into_position(CastlingMode::Standard).unwrap()
}

fn search_with(pos: Chess, limits: TimeLimits) -> (SearchOutcome, Option<Score>) {
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let mut last = None;
    let params = SearchParams {
        pos,
        limits,
        ..SearchParams::default()
    };
    let outcome = search(params, &tt, &stop, |r| last = Some(r.score));
    (outcome, last)
}

fn to_depth(depth: u32) -> TimeLimits {
    TimeLimits {
        depth: Some(depth),
        ..TimeLimits::default()
    }
}

fn uci(outcome: &SearchOutcome) -> String {
    UciMove::from_standard(outcome.best.unwrap()).to_string()
}

#[test]
fn finds_mate_in_one() {
    let (outcome, score) = search_with(pos("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), to_depth(3));
    assert_eq!(uci(&outcome), "d1d8");
    assert_eq!(score, Some(Score::Mate(1)));
}

#[test]
fn finds_mate_in_two() {
    let (outcome, score) = search_with(pos("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"), to_depth(5));
    assert_eq!(score, Some(Score::Mate(2)), "best {}", uci(&outcome));
}

#[test]
fn sees_being_mated() {
    let (_, score) = search_with(pos("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1"), to_depth(4));
    assert!(matches!(score, Some(Score::Cp(_)) | Some(Score::Mate(_))));
    let (_, score) = search_with(pos("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"), to_depth(2));
    assert_eq!(score, None, "checkmated: no move, no iteration");
}

#[test]
fn takes_hanging_queen() {
    let (outcome, score) = search_with(pos("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"), to_depth(4));
    assert_eq!(uci(&outcome), "d1d5");
    assert!(matches!(score, Some(Score::Cp(cp)) if cp > 300));
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut tested = 0;
    while tested < 50 {
        let mut p = Chess::default();
        let plies = rng.random_range(0..60);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            p.play_unchecked(m);
        }
        if p.legal_moves().is_empty() {
            continue;
        }
        let limits = TimeLimits {
            depth: Some(4),
            nodes: Some(3000),
            ..TimeLimits::default()
        };
        let (outcome, _) = search_with(p.clone(), limits);
        let best = outcome.best.unwrap();
        assert!(
            p.is_legal(best),
            "illegal {best:?} in {}",
            Fen::from_position(&p, shakmaty::EnPassantMode::Legal)
        );
        tested += 1;
    }
}

#[test]
fn respects_stop() {
    let (tx, rx) = channel();
    let engine = Engine::spawn(tx);
    let params = SearchParams::default();
    engine.send(EngineCommand::Start(Box::new(params)));
    std::thread::sleep(Duration::from_millis(50));
    engine.send(EngineCommand::Stop);
    let best = loop {
        match rx
            .recv_timeout(Duration::from_secs(5))
            .expect("search stops")
        {
            SearchReport::BestMove { best, .. } => break best.unwrap(),
            SearchReport::Iteration(_) => {}
        }
    };
    assert!(Chess::default().is_legal(best));
    engine.quit();
}

#[test]
fn fifty_move_rule_inside_the_search() {
    // A queen up, but every move but mate ends the game as a draw.
    let (_, score) = search_with(pos("4k3/8/8/8/8/8/8/Q3K3 w - - 99 80"), to_depth(3));
    assert_eq!(score, Some(Score::Cp(0)));
    let (_, score) = search_with(pos("4k3/8/8/8/8/8/8/Q3K3 w - - 0 80"), to_depth(3));
    assert!(
        matches!(score, Some(Score::Cp(cp)) if cp > 500),
        "{score:?}"
    );
}

#[test]
fn repetition_of_a_game_position_is_a_draw() {
    // A queen up, but the game history already holds the position after
    // every White move (two plies back from each of them), so each repeats.
    let root = pos("4k3/8/8/8/8/8/8/Q3K3 w - - 90 80");
    let mut history = Vec::new();
    for m in root.legal_moves() {
        let mut child = root.clone();
        child.play_unchecked(m);
        history.push(0);
        history.push(rochade_engine::search::hash(&child));
    }
    assert!(history.len() <= 90);
    let tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let mut last = None;
    let params = SearchParams {
        pos: root,
        history,
        limits: to_depth(3),
        ..SearchParams::default()
    };
    search(params, &tt, &stop, |r| last = Some(r.score));
    assert_eq!(last, Some(Score::Cp(0)));
}

#[test]
fn bench_counts_nodes() {
    let (nodes, _) = rochade_engine::bench(2);
    assert!(nodes > 100);
}
