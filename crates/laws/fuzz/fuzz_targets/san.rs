//! Feeds arbitrary text to the SAN, long algebraic and any-notation readers
//! in a few fixed positions and every language: they must not panic, and a
//! move read must write as SAN that reads back to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_laws::{Language, SanStyle, chess960, fen, read_lan, read_move, read_san, write_san};
use shakmaty::{CastlingMode, Chess, Move};

/// Kiwipete: castling both ways, en passant, promotions nearby, pins.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The position and castling mode for selector `n`.
fn position(n: u8) -> (Chess, CastlingMode) {
    match n % 4 {
        0 => (Chess::default(), CastlingMode::Standard),
        1 => match fen::read(KIWIPETE) {
            Ok(read) => (read.position, read.castling),
            Err(e) => panic!("Kiwipete does not read: {e}"),
        },
        k => {
            let number = if k == 2 { 0 } else { 959 };
            match chess960::position(number) {
                Ok(pos) => (pos, CastlingMode::Chess960),
                Err(e) => panic!("Chess960 {number}: {e}"),
            }
        }
    }
}

/// A move read in `language` must come back from its SAN.
fn round_trip(pos: &Chess, m: Move, language: Language, text: &str) {
    let style = SanStyle::in_language(language);
    let san = write_san(pos, m, &style);
    assert_eq!(
        read_san(pos, &san, language).ok(),
        Some(m),
        "{text:?} read as {m:?}, written {san:?} in {language:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let [selector, lang, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (pos, mode) = position(*selector);
    let language = Language::ALL[usize::from(*lang) % Language::ALL.len()];
    if let Ok(m) = read_san(&pos, text, language) {
        round_trip(&pos, m, language, text);
    }
    if let Ok(m) = read_lan(&pos, text, language) {
        round_trip(&pos, m, language, text);
    }
    if let Ok(m) = read_move(&pos, text, language, mode) {
        round_trip(&pos, m, language, text);
    }
});
