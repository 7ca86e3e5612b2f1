//! Feeds arbitrary text to the FEN reader: it must not panic, and whatever
//! it reads must write (X-FEN and Shredder-FEN) to text that reads back to
//! the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_laws::fen::{self, FenStyle};

fuzz_target!(|text: &str| {
    let Ok(read) = fen::read(text) else {
        return;
    };
    for style in [FenStyle::XFen, FenStyle::Shredder] {
        let written = fen::write(&read.position, style);
        let back = match fen::read(&written) {
            Ok(back) => back,
            Err(e) => panic!("{text:?} wrote {style:?} {written:?} which does not read: {e}"),
        };
        assert_eq!(back.position, read.position, "{text:?} via {written:?}");
        assert_eq!(back.castling, read.castling, "{text:?} via {written:?}");
    }
});
