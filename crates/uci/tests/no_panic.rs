//! Parsing never panics, and whatever parses prints to a line that parses
//! to the same value.

use proptest::prelude::*;
use rochade_uci::{EngineMessage, GuiCommand};

/// Tokens that steer the parsers into every branch.
const VOCABULARY: &[&str] = &[
    "uci",
    "debug",
    "on",
    "off",
    "isready",
    "setoption",
    "name",
    "value",
    "register",
    "later",
    "code",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "stop",
    "ponderhit",
    "quit",
    "id",
    "author",
    "uciok",
    "readyok",
    "bestmove",
    "(none)",
    "copyprotection",
    "registration",
    "checking",
    "ok",
    "error",
    "info",
    "seldepth",
    "time",
    "pv",
    "multipv",
    "score",
    "cp",
    "lowerbound",
    "upperbound",
    "wdl",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "option",
    "type",
    "check",
    "spin",
    "combo",
    "button",
    "default",
    "min",
    "max",
    "var",
    "<empty>",
    "true",
    "false",
    "e2e4",
    "e7e8q",
    "0000",
    "Q@f7",
    "e9e4",
    "0",
    "1",
    "-1",
    "-9999999999999999999999",
    "18446744073709551616",
    "4294967296",
    "+3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "8/8/8/8/8/8/8/8[Qq]",
    "3+3",
    "joho",
    "é",
];

/// Lines made of protocol words, numbers and junk, with odd whitespace.
fn token_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => prop::sample::select(VOCABULARY.to_vec()).prop_map(str::to_owned),
        1 => "\\PC{0,6}",
    ];
    let sep = prop::sample::select(vec![" ", "  ", "\t", " \u{a0}"]);
    prop::collection::vec((token, sep), 0..14).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(t, s)| [t, s.to_owned()])
            .collect()
    })
}

/// A known command or message keyword, then soup.
fn command_then_soup() -> impl Strategy<Value = String> {
    let keyword = prop::sample::select(vec![
        "setoption name",
        "register",
        "position startpos",
        "position fen",
        "go",
        "debug",
        "id",
        "bestmove",
        "copyprotection",
        "info",
        "option name",
        "option name x type",
    ]);
    (keyword, token_soup()).prop_map(|(k, soup)| format!("{k} {soup}"))
}

fn check_gui(line: &str) -> Result<(), TestCaseError> {
    if let Ok(cmd) = GuiCommand::parse(line) {
        let printed = cmd.to_string();
        prop_assert_eq!(
            GuiCommand::parse(&printed),
            Ok(cmd),
            "{:?} -> {:?}",
            line,
            printed
        );
    }
    Ok(())
}

fn check_engine(line: &str) -> Result<(), TestCaseError> {
    if let Ok(msg) = EngineMessage::parse(line) {
        let printed = msg.to_string();
        prop_assert_eq!(
            EngineMessage::parse(&printed),
            Ok(msg),
            "{:?} -> {:?}",
            line,
            printed
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn arbitrary_strings(line in any::<String>()) {
        check_gui(&line)?;
        check_engine(&line)?;
    }

    #[test]
    fn protocol_token_soup(line in token_soup()) {
        check_gui(&line)?;
        check_engine(&line)?;
    }

    #[test]
    fn command_keyword_then_token_soup(line in command_then_soup()) {
        check_gui(&line)?;
        check_engine(&line)?;
    }

    #[test]
    fn arbitrary_bytes_as_lossy_text(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let line = String::from_utf8_lossy(&bytes);
        check_gui(&line)?;
        check_engine(&line)?;
    }
}
