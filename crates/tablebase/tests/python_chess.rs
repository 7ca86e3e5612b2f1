//! The verdicts against python-chess's Syzygy probing, on the tables that
//! `scripts/fetch-test-data` puts in `data/syzygy` (every 3- and 4-piece
//! table). The oracle's answers are in `tests/data/wdl.txt`, written by
//! `tests/oracle/syzygy.py --write` (python-chess 1.11.2); the tests skip,
//! saying so, only when `data/syzygy` is absent.

use std::{path::PathBuf, time::Duration};

use rochade_laws::{
    Game, Outcome, Reason, RuleSet, TablebaseClaim, TablebaseClaimError, TimedGame, fen,
};
use rochade_tablebase::{JudgeError, NotCovered, Tablebase, Verdict};
use shakmaty::{Chess, Color};

/// The fetched tables, or `None` (with a message) when they are absent.
fn tables() -> Option<Tablebase> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
    if !dir.is_dir() {
        eprintln!(
            "skipped: {} is absent; run scripts/fetch-test-data",
            dir.display()
        );
        return None;
    }
    Some(Tablebase::open(&dir).unwrap_or_else(|e| panic!("{e}")))
}

/// The position of `text`.
fn position(text: &str) -> Chess {
    fen::read(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .position
}

/// The fixture: FENs and python-chess's WDL (-2..2) for the side to move.
fn oracle() -> Vec<(String, i8)> {
    let text = include_str!("data/wdl.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (fen, wdl) = l.rsplit_once(';').expect("FEN;WDL");
            (fen.to_owned(), wdl.parse().expect("a number"))
        })
        .collect()
}

#[test]
fn verdicts_agree_with_python_chess() {
    let Some(tables) = tables() else { return };
    let positions = oracle();
    assert!(
        positions.len() >= 500,
        "the fixture has {}",
        positions.len()
    );
    let mut mismatches = Vec::new();
    for (fen, wdl) in &positions {
        let expected = match wdl {
            1.. => Verdict::Win,
            0 => Verdict::Draw,
            _ => Verdict::Loss,
        };
        let got = tables.verdict(&position(fen)).expect("readable tables");
        if got != expected {
            mismatches.push(format!("{fen}: python-chess {wdl}, rochade {got}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn iccf_art_9_3_the_halfmove_clock_does_not_spoil_a_win() {
    let Some(tables) = tables() else { return };
    // King and rook against king: mate takes more than one move, so with 99
    // half-moves the 50-move rule would draw it. Not under ICCF 9.3.
    let krk = position("8/8/8/8/4k3/8/8/R3K3 w - - 99 80");
    assert_eq!(tables.verdict(&krk).expect("readable"), Verdict::Win);
    let krk_black = position("8/8/8/8/4k3/8/8/R3K3 b - - 99 80");
    assert_eq!(tables.verdict(&krk_black).expect("readable"), Verdict::Loss);
}

#[test]
fn not_covered_positions() {
    let Some(tables) = tables() else { return };
    assert_eq!(tables.max_pieces(), 4);
    let start = Chess::default();
    assert_eq!(
        tables.verdict(&start).expect("no probe"),
        Verdict::NotCovered(NotCovered::TooManyPieces { pieces: 32, max: 4 })
    );
    let castling = position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(
        tables.verdict(&castling).expect("no probe"),
        Verdict::NotCovered(NotCovered::Castling)
    );
}

#[test]
fn missing_table_is_not_covered() {
    let Some(_) = tables() else { return };
    // A set with only KQvKR: king and rook against bishop needs its own.
    let dir = std::env::temp_dir().join(format!("rochade-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy/KQvKR.rtbw");
    std::fs::copy(&source, dir.join("KQvKR.rtbw")).expect("copy");
    let one = Tablebase::open(&dir).expect("one table");
    let krkb = position("8/8/8/4k3/8/8/b7/KR6 w - - 0 1");
    let verdict = one.verdict(&krkb).expect("no probe");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        matches!(
            verdict,
            Verdict::NotCovered(NotCovered::MissingTable { .. })
        ),
        "{verdict}"
    );
}

#[test]
fn iccf_art_5_1_3_and_5_2_4_claims() {
    let Some(tables) = tables() else { return };
    let krkr = position("8/8/4k3/8/8/3K4/R7/7r b - - 0 1");
    assert!(
        tables
            .claim_holds(&krkr, TablebaseClaim::Draw)
            .expect("readable")
    );
    assert!(
        !tables
            .claim_holds(&krkr, TablebaseClaim::Win)
            .expect("readable")
    );
    // Not covered: every claim is wrong.
    assert!(
        !tables
            .claim_holds(&Chess::default(), TablebaseClaim::Draw)
            .expect("no probe")
    );

    // A game on the clock: a wrong claim changes nothing, a right one wins.
    let s = Duration::from_secs;
    let game = Game::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", RuleSet::Iccf).expect("legal");
    let mut timed = TimedGame::new(game, "10/50d".parse().expect("control"), s(0));
    let wrong = tables.judge(&mut timed, Color::White, TablebaseClaim::Draw, s(5));
    assert_eq!(wrong.expect("judged"), None);
    let right = tables.judge(&mut timed, Color::White, TablebaseClaim::Win, s(9));
    assert_eq!(
        right.expect("judged"),
        Some(Outcome::win(Color::White, Reason::TablebaseWin))
    );
    // The Laws refuse claims outside ICCF.
    let fide = Game::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", RuleSet::Fide).expect("legal");
    let mut timed = TimedGame::new(fide, "5+0".parse().expect("control"), s(0));
    assert!(matches!(
        tables.judge(&mut timed, Color::White, TablebaseClaim::Win, s(1)),
        Err(JudgeError::Claim(TablebaseClaimError::NotUnderTheseRules))
    ));
}
