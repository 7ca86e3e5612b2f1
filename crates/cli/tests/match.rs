//! `rochade match` and `rochade tactics` end to end, with our own engine
//! (`rochade uci`) on both sides at a fast time control.

use std::path::PathBuf;
use std::process::Command;

fn rochade(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(args)
        .output()
        .expect("rochade runs")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rochade-match-{}-{name}", std::process::id()))
}

#[test]
fn two_fast_games_with_both_colours_and_a_pgn() {
    let me = env!("CARGO_BIN_EXE_rochade");
    let pgn = temp("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let openings = temp("openings.epd");
    std::fs::write(
        &openings,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"Two knights\";\n",
    )
    .unwrap();
    let cmd = format!("cmd={me}");
    let out = rochade(&[
        "match",
        "--engine",
        "name=first",
        &cmd,
        "arg=uci",
        "--engine",
        "name=second",
        &cmd,
        "arg=uci",
        "option.Hash=8",
        "--each",
        "tc=2+0.02",
        "--openings",
        openings.to_str().unwrap(),
        "--games",
        "2",
        "--concurrency",
        "2",
        "--resign",
        "movecount=2",
        "score=600",
        "--draw",
        "movenumber=30",
        "movecount=4",
        "score=5",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("Started game 1 of 2 (first vs second)"),
        "{stdout}"
    );
    assert!(stdout.contains("(second vs first)"), "{stdout}");
    assert!(stdout.contains("Score of first vs second: "), "{stdout}");
    assert!(
        stdout.contains("Finished match: first vs second: "),
        "{stdout}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"rochade match\"]").count(), 2);
    assert_eq!(games.matches("[TimeControl \"2+0.02\"]").count(), 2);
    assert_eq!(games.matches("[Termination ").count(), 2);
    assert!(games.contains("[%clk 0:00:0"), "{games}");
    assert!(games.contains("{Two knights}"), "{games}");
    assert!(
        games
            .contains("[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1\"]"),
        "{games}"
    );
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&openings);
}

#[test]
fn bad_engine_fields_are_reported() {
    let out = rochade(&[
        "match",
        "--engine",
        "cmd=x",
        "colour=red",
        "--engine",
        "cmd=y",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown key `colour`"), "{stderr}");
    let out = rochade(&["match", "--engine", "cmd=x", "st=1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly two --engine"));
}

#[test]
fn tactics_solves_mates_in_one() {
    let suite = temp("mates.epd");
    std::fs::write(
        &suite,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"scholar\";\n\
         6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#; id \"back rank\";\n",
    )
    .unwrap();
    let out = rochade(&["tactics", suite.to_str().unwrap(), "--movetime", "200"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("solved scholar: played Qxf7#, expected Qxf7#"),
        "{stdout}"
    );
    assert!(
        stdout.contains("rochade: solved 2/2 (100.0%) at 200 ms per position"),
        "{stdout}"
    );
    let _ = std::fs::remove_file(&suite);
}
