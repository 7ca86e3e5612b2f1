//! The UCI client of `rochade-uci` driving our own engine, `rochade uci`.

use std::time::Duration;

use rochade_uci::{GoParams, PositionBase, PositionSpec, ScoreKind, UciClient};

const WAIT: Duration = Duration::from_secs(20);

fn ours() -> UciClient {
    UciClient::spawn(env!("CARGO_BIN_EXE_rochade"), &["uci"], WAIT).expect("rochade uci starts")
}

#[test]
fn handshake_and_ready() {
    let mut engine = ours();
    assert!(engine.name().is_some_and(|n| n.contains("Rochade")));
    assert!(engine.option("Hash").is_some());
    engine.set_option("Hash", Some("8")).unwrap();
    engine.new_game().unwrap();
    engine.is_ready(WAIT).unwrap();
    assert!(engine.take_garbage().0.is_empty());
    engine.quit(WAIT);
}

#[test]
fn finds_mate_in_one_with_a_mate_score() {
    let mut engine = ours();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    engine
        .position(&PositionSpec {
            base: PositionBase::Fen(fen.parse().unwrap()),
            moves: vec![],
        })
        .unwrap();
    let result = engine
        .go(
            &GoParams {
                depth: Some(3),
                ..GoParams::default()
            },
            WAIT,
        )
        .unwrap();
    assert_eq!(result.best.to_string(), "h5f7");
    let score = result.info.and_then(|i| i.score).map(|s| s.kind);
    assert_eq!(score, Some(ScoreKind::Mate(1)));
}

#[test]
fn clock_search_answers_in_time_and_stop_works() {
    let mut engine = ours();
    engine
        .position(&PositionSpec {
            base: PositionBase::StartPos,
            moves: vec!["d2d4".parse().unwrap()],
        })
        .unwrap();
    let go = GoParams {
        wtime: Some(Duration::from_secs(1)),
        btime: Some(Duration::from_secs(1)),
        winc: Some(Duration::from_millis(10)),
        binc: Some(Duration::from_millis(10)),
        ..GoParams::default()
    };
    let result = engine.go(&go, WAIT).unwrap();
    assert!(result.elapsed < Duration::from_secs(1), "{result:?}");
    engine
        .start_search(&GoParams {
            infinite: true,
            ..GoParams::default()
        })
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let stopped = engine.stop(WAIT).unwrap();
    assert_ne!(stopped.best, shakmaty::uci::UciMove::Null);
}
