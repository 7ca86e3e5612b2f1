//! The parsers on arbitrary input: no panic, and whatever they accept
//! round-trips (the same properties as the cargo-fuzz targets in `fuzz/`,
//! which need nightly; these run in CI).

use proptest::prelude::*;
use rochade_laws::{
    Language, SanStyle, chess960,
    fen::{self, FenStyle},
    pgn::{self, PgnReader, ReadOptions, WriteOptions},
    read_lan, read_move, read_numeric, read_san, write_numeric, write_san,
};
use shakmaty::{CastlingMode, Chess, Move};

/// Positions to read moves in: start, Kiwipete, promotions, two Chess960.
fn positions() -> Vec<(Chess, CastlingMode)> {
    let mut out = vec![(Chess::default(), CastlingMode::Standard)];
    for text in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
        "4k3/8/8/2pPp3/8/8/8/4K3 w - e6 0 2",
    ] {
        let read = fen::read(text).expect("fixed FEN reads");
        out.push((read.position, read.castling));
    }
    for n in [0, 959] {
        out.push((
            chess960::position(n).expect("Chess960 number in range"),
            CastlingMode::Chess960,
        ));
    }
    out
}

/// Text that looks like a FEN often enough to reach the position checks.
fn fen_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[rnbqkpRNBQKP1-8/]{0,72} [wb] ([KQkqA-Ha-h]{1,4}|-) ([a-h][1-8]|-) [0-9]{1,3} [0-9]{1,3}",
        "[rnbqkpRNBQKP1-8/ wb-]{0,90}",
    ]
}

/// Text that looks like a move in some notation.
fn move_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-hKQRBNPSLDTCFAVEGJHOo0x:=+#!?()\\-1-8 ]{0,10}",
        "[1-8]{2,5}",
        "[a-h][1-8][a-h][1-8][qrbnk]?",
    ]
}

/// A game written as PGN, to mutate.
const GAME: &str = "[Event \"?\"]\n[FEN \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O-O {castle} (1. d5e6 $1 fxe6 (1... O-O) 2. O-O) 1... b3 2. axb3 hxg2 3. Qf4 gxh1=Q 4. Rxh1 *\n\n[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n";

/// Bytes: arbitrary, or the sample game with a few bytes changed.
fn pgn_like() -> impl Strategy<Value = Vec<u8>> {
    let mutated = proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6)
        .prop_map(|edits| {
            let mut bytes = GAME.as_bytes().to_vec();
            for (at, byte) in edits {
                let i = at.index(bytes.len());
                match byte % 3 {
                    0 => bytes[i] = byte,
                    1 => {
                        bytes.remove(i);
                    }
                    _ => bytes.insert(
                        i,
                        b" .()-{}[]*$#+x=O0NBRQKabcdefgh12345678"[usize::from(byte) % 38],
                    ),
                }
            }
            bytes
        });
    prop_oneof![proptest::collection::vec(any::<u8>(), 0..400), mutated]
}

/// A move read in `language` comes back from its SAN.
fn san_round_trip(pos: &Chess, m: Move, language: Language, text: &str) {
    let san = write_san(pos, m, &SanStyle::in_language(language));
    assert_eq!(
        read_san(pos, &san, language).ok(),
        Some(m),
        "{text:?} read as {m:?}, written {san:?} in {language:?}"
    );
}

/// How PGN is read here: everything kept.
const OPTIONS: ReadOptions = ReadOptions {
    rules: rochade_laws::RuleSet::Fide,
    keep_variations: true,
    keep_annotations: true,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fen_reads_without_panic_and_round_trips(text in fen_like()) {
        if let Ok(read) = fen::read(&text) {
            for style in [FenStyle::XFen, FenStyle::Shredder] {
                let written = fen::write(&read.position, style);
                let back = fen::read(&written);
                prop_assert!(back.is_ok(), "{text:?} wrote {written:?}: {back:?}");
                let back = back.expect("checked");
                prop_assert_eq!(&back.position, &read.position, "{:?} via {:?}", text, written);
                prop_assert_eq!(back.castling, read.castling, "{:?} via {:?}", text, written);
            }
        }
    }

    #[test]
    fn moves_read_without_panic_in_every_language(text in move_like()) {
        for (pos, mode) in positions() {
            for language in Language::ALL {
                if let Ok(m) = read_san(&pos, &text, language) {
                    san_round_trip(&pos, m, language, &text);
                }
                if let Ok(m) = read_lan(&pos, &text, language) {
                    san_round_trip(&pos, m, language, &text);
                }
                if let Ok(m) = read_move(&pos, &text, language, mode) {
                    san_round_trip(&pos, m, language, &text);
                }
            }
        }
    }

    #[test]
    fn numeric_reads_without_panic_and_round_trips(text in move_like()) {
        for (pos, _) in positions() {
            if let Ok(m) = read_numeric(&pos, &text) {
                let written = write_numeric(&pos, m);
                prop_assert_eq!(read_numeric(&pos, &written).ok(), Some(m), "{:?} via {:?}", text, written);
            }
        }
    }

    #[test]
    fn pgn_reads_without_panic_and_round_trips(data in pgn_like()) {
        for game in PgnReader::new(data.as_slice(), OPTIONS).flatten() {
            let options = WriteOptions { annotations: Some(&game.mainline), ..Default::default() };
            let text = pgn::write_game(&game.game, &game.tags, &options);
            let back: Vec<_> = PgnReader::new(text.as_bytes(), OPTIONS).collect();
            prop_assert_eq!(back.len(), 1, "{}", text);
            match &back[0] {
                Ok(again) => prop_assert_eq!(again.game.moves(), game.game.moves(), "{}", text),
                Err(e) => prop_assert!(false, "written game does not read back: {e}\n{text}"),
            }
        }
    }
}

/// The sample game itself reads, so the mutations start from something real.
#[test]
fn sample_pgn_reads() {
    let games: Vec<_> = PgnReader::new(GAME.as_bytes(), OPTIONS).collect();
    assert_eq!(games.len(), 2);
    for game in &games {
        assert!(game.is_ok(), "{game:?}");
    }
}
