//! Feeds arbitrary bytes to the PGN reader, keeping variations and
//! annotations: it must not panic, and every game it accepts must write to
//! PGN that reads back to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_laws::pgn::{self, PgnReader, ReadOptions, WriteOptions};

/// How the fuzzer reads: everything kept.
const OPTIONS: ReadOptions = ReadOptions {
    rules: rochade_laws::RuleSet::Fide,
    keep_variations: true,
    keep_annotations: true,
};

fuzz_target!(|data: &[u8]| {
    for game in PgnReader::new(data, OPTIONS).flatten() {
        let options = WriteOptions {
            annotations: Some(&game.mainline),
            ..Default::default()
        };
        let text = pgn::write_game(&game.game, &game.tags, &options);
        let back: Vec<_> = PgnReader::new(text.as_bytes(), OPTIONS).collect();
        assert_eq!(back.len(), 1, "{text}");
        match &back[0] {
            Ok(again) => assert_eq!(again.game.moves(), game.game.moves(), "{text}"),
            Err(e) => panic!("written game does not read back: {e}\n{text}"),
        }
    }
});
