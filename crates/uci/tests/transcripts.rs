//! Real transcripts: Stockfish 15.1 output recorded with
//! `printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 12\n' | stockfish`
//! and friends (see `tests/data/README.md`), and the commands that were sent.

use rochade_uci::{EngineMessage, GuiCommand, Id, OptionKind, UciParseError};
use shakmaty::uci::UciMove;

const DEPTH12: &str = include_str!("data/stockfish_depth12.txt");
const MULTIPV: &str = include_str!("data/stockfish_multipv.txt");
const WDL: &str = include_str!("data/stockfish_wdl.txt");
const GUI: &str = include_str!("data/gui_commands.txt");

/// Stockfish's start-up banner, the one line that is not UCI.
const BANNER: &str = "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)";

/// Parses every line; blank lines and the banner are the only non-messages.
fn messages(transcript: &str) -> Vec<EngineMessage> {
    let mut out = Vec::new();
    for (n, line) in transcript.lines().enumerate() {
        match EngineMessage::parse_with_skipped(line) {
            Ok(parsed) => {
                assert!(
                    parsed.skipped.is_empty(),
                    "line {n}: {line:?} skipped {:?}",
                    parsed.skipped
                );
                out.push(parsed.value);
            }
            Err(UciParseError::Empty) => {}
            Err(UciParseError::UnknownCommand { .. }) if line == BANNER => {}
            Err(err) => panic!("line {n}: {line:?}: {err}"),
        }
    }
    out
}

/// Stockfish's spelling where it differs from the canonical one: the bound
/// after `wdl`, `(none)` for no move, and a bare `default` for an empty
/// string.
fn canonical_differs(line: &str) -> bool {
    line.contains("bound") && line.contains("wdl")
        || line.contains("(none)")
        || line.ends_with("type string default ")
}

fn check_reprint(transcript: &str) {
    for line in transcript.lines() {
        let Ok(msg) = EngineMessage::parse(line) else {
            continue;
        };
        let printed = msg.to_string();
        assert_eq!(
            EngineMessage::parse(&printed).as_ref(),
            Ok(&msg),
            "{line:?}"
        );
        if !canonical_differs(line) {
            assert_eq!(printed, line);
        }
    }
}

fn count(msgs: &[EngineMessage], pred: impl Fn(&EngineMessage) -> bool) -> usize {
    msgs.iter().filter(|m| pred(m)).count()
}

#[test]
fn depth12_session() {
    let msgs = messages(DEPTH12);
    assert_eq!(
        msgs.first(),
        Some(&EngineMessage::Id(Id::Name("Stockfish 15.1".into())))
    );
    assert_eq!(count(&msgs, |m| matches!(m, EngineMessage::Option(_))), 21);
    assert_eq!(
        count(
            &msgs,
            |m| matches!(m, EngineMessage::Info(i) if i.depth.is_some())
        ),
        12
    );
    assert_eq!(
        msgs.last(),
        Some(&EngineMessage::BestMove {
            best: "c7c5".parse().unwrap(),
            ponder: Some("g1f3".parse().unwrap()),
        })
    );
    let debug_log = msgs.iter().find_map(|m| match m {
        EngineMessage::Option(decl) if decl.name == "Debug Log File" => Some(&decl.kind),
        _ => None,
    });
    assert_eq!(
        debug_log,
        Some(&OptionKind::String {
            default: String::new()
        })
    );
    check_reprint(DEPTH12);
}

#[test]
fn multipv_session() {
    let msgs = messages(MULTIPV);
    let third_lines = count(
        &msgs,
        |m| matches!(m, EngineMessage::Info(i) if i.multipv == Some(3)),
    );
    assert!(third_lines >= 10, "{third_lines}");
    let bests: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            EngineMessage::BestMove { best, .. } => Some(*best),
            _ => None,
        })
        .collect();
    assert_eq!(bests.len(), 3);
    assert_eq!(
        bests.get(1),
        Some(&UciMove::Null),
        "stalemate answers bestmove (none)"
    );
    check_reprint(MULTIPV);
}

#[test]
fn wdl_session_with_bounds() {
    let msgs = messages(WDL);
    let with_wdl = count(
        &msgs,
        |m| matches!(m, EngineMessage::Info(i) if i.wdl.is_some()),
    );
    assert!(with_wdl > 10, "{with_wdl}");
    let bounded = count(
        &msgs,
        |m| matches!(m, EngineMessage::Info(i) if i.score.is_some_and(|s| s.bound != rochade_uci::ScoreBound::Exact)),
    );
    assert!(bounded >= 1);
    check_reprint(WDL);
}

#[test]
fn gui_commands_parse_and_reprint_exactly() {
    for line in GUI.lines() {
        let parsed = GuiCommand::parse_with_skipped(line).unwrap();
        assert!(parsed.skipped.is_empty(), "{line:?}");
        assert_eq!(parsed.value.to_string(), line);
    }
}
