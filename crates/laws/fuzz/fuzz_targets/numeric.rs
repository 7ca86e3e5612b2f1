//! Feeds arbitrary text to the ICCF numeric reader in a few fixed
//! positions: it must not panic, and a move read must write as numeric
//! notation that reads back to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_laws::{chess960, fen, read_numeric, write_numeric};
use shakmaty::Chess;

/// Kiwipete: castling both ways, en passant, promotions nearby, pins.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A position about to promote on both sides.
const PROMOTION: &str = "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1";

/// The position for selector `n`.
fn position(n: u8) -> Chess {
    let fen_text = match n % 5 {
        0 => return Chess::default(),
        1 => KIWIPETE,
        2 => PROMOTION,
        k => {
            let number = if k == 3 { 0 } else { 959 };
            return match chess960::position(number) {
                Ok(pos) => pos,
                Err(e) => panic!("Chess960 {number}: {e}"),
            };
        }
    };
    match fen::read(fen_text) {
        Ok(read) => read.position,
        Err(e) => panic!("{fen_text}: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let [selector, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let pos = position(*selector);
    if let Ok(m) = read_numeric(&pos, text) {
        let written = write_numeric(&pos, m);
        assert_eq!(
            read_numeric(&pos, &written).ok(),
            Some(m),
            "{text:?} read as {m:?}, written {written:?}"
        );
    }
});
