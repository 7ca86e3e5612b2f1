//! The UCI client against Stockfish from the Debian package
//! (`apt-get install -y stockfish`; `scripts/setup-engines` installs it).

use std::time::Duration;

use rochade_uci::{GoParams, PositionBase, PositionSpec, ScoreKind, UciClient};

const STOCKFISH: &str = "/usr/games/stockfish";
const WAIT: Duration = Duration::from_secs(10);

fn stockfish() -> UciClient {
    UciClient::spawn(STOCKFISH, &[] as &[&str], WAIT)
        .unwrap_or_else(|e| panic!("{e} (run scripts/setup-engines to install Stockfish)"))
}

#[test]
fn handshake_declares_strength_options() {
    let mut sf = stockfish();
    assert!(sf.name().is_some_and(|n| n.starts_with("Stockfish")));
    assert!(sf.option("UCI_LimitStrength").is_some());
    assert!(sf.option("UCI_Elo").is_some());
    // Stockfish prints a banner before `uci`: set aside, not an error.
    let (garbage, _) = sf.take_garbage();
    assert!(garbage.iter().all(|g| g.line.starts_with("Stockfish")));
    sf.set_option("UCI_LimitStrength", Some("true")).unwrap();
    sf.set_option("UCI_Elo", Some("1500")).unwrap();
    sf.is_ready(WAIT).unwrap();
    sf.quit(WAIT);
}

#[test]
fn finds_mate_in_one() {
    let mut sf = stockfish();
    sf.new_game().unwrap();
    sf.is_ready(WAIT).unwrap();
    // Scholar's mate pattern: Qxf7#.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    sf.position(&PositionSpec {
        base: PositionBase::Fen(fen.parse().unwrap()),
        moves: vec![],
    })
    .unwrap();
    let result = sf
        .go(
            &GoParams {
                depth: Some(5),
                ..GoParams::default()
            },
            WAIT,
        )
        .unwrap();
    assert_eq!(result.best.to_string(), "h5f7");
    let info = result.info.unwrap();
    assert_eq!(info.score.map(|s| s.kind), Some(ScoreKind::Mate(1)));
    assert_eq!(info.pv.first(), Some(&result.best));
}

#[test]
fn infinite_search_stops_on_request() {
    let mut sf = stockfish();
    sf.position(&PositionSpec {
        base: PositionBase::StartPos,
        moves: vec!["e2e4".parse().unwrap()],
    })
    .unwrap();
    sf.start_search(&GoParams {
        infinite: true,
        ..GoParams::default()
    })
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let result = sf.stop(WAIT).unwrap();
    assert!(result.elapsed >= Duration::from_millis(200));
    assert!(result.info.is_some_and(|i| i.depth.is_some()));
    // A move for Black after 1.e4.
    assert!(
        result
            .best
            .to_string()
            .chars()
            .nth(1)
            .is_some_and(|r| r == '7' || r == '8')
    );
}

#[test]
fn checkmated_side_gets_none_as_null() {
    let mut sf = stockfish();
    // Fool's mate: White is checkmated.
    sf.position(&PositionSpec {
        base: PositionBase::StartPos,
        moves: ["f2f3", "e7e5", "g2g4", "d8h4"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect(),
    })
    .unwrap();
    let result = sf
        .go(
            &GoParams {
                depth: Some(3),
                ..GoParams::default()
            },
            WAIT,
        )
        .unwrap();
    assert_eq!(result.best, shakmaty::uci::UciMove::Null);
}
