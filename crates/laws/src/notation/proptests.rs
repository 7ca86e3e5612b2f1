//! Property tests: every legal move survives writing and reading in every
//! notation and language, and no reader panics on any text.

use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen};

use super::{
    Language, PromotionStyle, SanStyle, read_lan, read_move, read_numeric, read_san, read_uci,
    write_lan, write_numeric, write_san, write_uci,
};

/// A few fixed positions, including Chess960 ones with castling rights.
const FIXED_960: [&str; 3] = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
    "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w HAha - 0 1",
];

/// Standard positions with promotions, en passant, disambiguation, pins
/// and castling, which random games from the start rarely reach.
const TRICKY: [&str; 8] = [
    "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
    "4k3/8/8/b7/8/2N3N1/8/4K3 w - - 0 1",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
    "4k3/8/8/2pPp3/8/8/8/4K3 w - e6 0 2",
    "7k/8/8/3N1N2/2N3N1/8/2N3N1/3N1N1K w - - 0 1",
];

/// The Chess960 start position number `n` (taken modulo 960).
fn chess960(n: u32) -> Chess {
    crate::chess960::position(n % 960).expect("in range")
}

fn position(fen: &str, mode: CastlingMode) -> Chess {
    fen.parse::<Fen>()
        .expect("valid FEN")
        .into_position(mode)
        .expect("legal position")
}

/// Checks every round trip for every legal move of `pos`.
fn check_all_moves(pos: &Chess, mode: CastlingMode) -> Result<(), TestCaseError> {
    for m in pos.legal_moves() {
        for language in Language::ALL {
            for promotion in [PromotionStyle::Equals, PromotionStyle::Bare] {
                let style = SanStyle {
                    language,
                    promotion,
                    en_passant_suffix: m.is_en_passant(),
                };
                if promotion == PromotionStyle::Bare && m.promotion().is_none() {
                    continue;
                }
                let san = write_san(pos, m, &style);
                prop_assert_eq!(read_san(pos, &san, language), Ok(m), "SAN {}", san);
                prop_assert_eq!(read_move(pos, &san, language, mode), Ok(m), "any {}", san);
                let lan = write_lan(pos, m, &style);
                prop_assert_eq!(read_lan(pos, &lan, language), Ok(m), "LAN {}", lan);
                prop_assert_eq!(read_move(pos, &lan, language, mode), Ok(m), "any {}", lan);
            }
        }
        let numeric = write_numeric(pos, m);
        prop_assert_eq!(read_numeric(pos, &numeric), Ok(m), "numeric {}", numeric);
        let uci = write_uci(m, mode);
        prop_assert_eq!(read_uci(pos, &uci, mode), Ok(m), "UCI {}", uci);
        prop_assert_eq!(
            read_move(pos, &uci, Language::English, mode),
            Ok(m),
            "any {}",
            uci
        );
    }
    Ok(())
}

/// Plays a random game from `pos`, checking every position on the way.
fn check_game(mut pos: Chess, mode: CastlingMode, choices: &[usize]) -> Result<(), TestCaseError> {
    for &choice in choices {
        check_all_moves(&pos, mode)?;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m: Move = moves[choice % moves.len()];
        pos.play_unchecked(m);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn standard_games_round_trip(choices in prop::collection::vec(any::<usize>(), 0..50)) {
        check_game(Chess::default(), CastlingMode::Standard, &choices)?;
    }

    #[test]
    fn chess960_games_round_trip(
        n in 0u32..960,
        choices in prop::collection::vec(any::<usize>(), 0..50),
    ) {
        check_game(chess960(n), CastlingMode::Chess960, &choices)?;
    }

    #[test]
    fn tricky_games_round_trip(
        which in 0usize..TRICKY.len(),
        choices in prop::collection::vec(any::<usize>(), 0..20),
    ) {
        let pos = position(TRICKY[which], CastlingMode::Standard);
        check_game(pos, CastlingMode::Standard, &choices)?;
    }

    #[test]
    fn fixed_chess960_games_round_trip(
        which in 0usize..FIXED_960.len(),
        choices in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        let pos = position(FIXED_960[which], CastlingMode::Chess960);
        check_game(pos, CastlingMode::Chess960, &choices)?;
    }
}

/// Every reader on one text, in every language; only returning matters.
fn read_everything(text: &str) {
    let positions = [
        (Chess::default(), CastlingMode::Standard),
        (
            position(FIXED_960[1], CastlingMode::Chess960),
            CastlingMode::Chess960,
        ),
    ];
    for (pos, mode) in &positions {
        for language in Language::ALL {
            let _ = read_san(pos, text, language);
            let _ = read_lan(pos, text, language);
            let _ = read_move(pos, text, language, *mode);
        }
        let _ = read_uci(pos, text, *mode);
        let _ = read_numeric(pos, text);
    }
    let _ = text.parse::<Language>();
}

proptest! {
    #[test]
    fn readers_never_panic_on_any_text(text in any::<String>()) {
        read_everything(&text);
    }

    #[test]
    fn readers_never_panic_on_move_like_text(
        text in "[a-hKQRBNDTSLCFAPHWVJОOx0-9=+#!?()/:. \\-кКрФЛС♔♕♖♗♘♚♛♜♝♞ep]{0,12}",
    ) {
        read_everything(&text);
    }
}
