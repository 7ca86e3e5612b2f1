//! Tests of the evaluation: colour symmetry and each term on hand-made
//! positions.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::features::{
    BISHOP_PAIR, DOUBLED_PAWN, ISOLATED_PAWN, KING_OPEN_FILE, KING_SHIELD, PASSED_PAWN,
    ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE,
};
use super::{TEMPO, evaluate, trace};

/// The position of `fen`.
fn pos(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("valid FEN");
    fen.into_position(CastlingMode::Standard)
        .expect("legal position")
}

/// `pos` with the colours swapped: the board mirrored top to bottom, every
/// piece changing colour, the other side to move, castling rights and the
/// en-passant square mirrored too.
fn flip_colours(pos: &Chess) -> Chess {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let fields: Vec<&str> = fen.split(' ').collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let turn = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap_case(fields[2]).chars().collect();
    castling.sort_by_key(|c| (c.is_ascii_lowercase(), "KQkq".find(c.to_ascii_uppercase())));
    let castling: String = castling.into_iter().collect();
    let ep = match fields[3].as_bytes() {
        [file, b'3'] => format!("{}6", *file as char),
        [file, b'6'] => format!("{}3", *file as char),
        _ => "-".to_owned(),
    };
    let flipped = format!(
        "{} {turn} {castling} {ep} {} {}",
        board.join("/"),
        fields[4],
        fields[5]
    );
    self::pos(&flipped)
}

/// Positions beyond the bench positions, for symmetry checks.
const EXTRA_FENS: [&str; 4] = [
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/4k3/3p4/2pP4/2P1K3/8/8 b - - 0 40",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 60",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 b - - 0 13",
];

/// The bench positions and [`EXTRA_FENS`].
fn all_fens() -> impl Iterator<Item = &'static str> {
    crate::BENCH_FENS.into_iter().chain(EXTRA_FENS)
}

#[test]
fn flip_colours_is_an_involution() {
    for fen in all_fens() {
        let p = pos(fen);
        assert_eq!(flip_colours(&flip_colours(&p)), p, "{fen}");
    }
}

#[test]
fn the_evaluation_does_not_depend_on_colour() {
    for fen in all_fens() {
        let p = pos(fen);
        assert_eq!(evaluate(&p), evaluate(&flip_colours(&p)), "{fen}");
    }
}

#[test]
fn the_evaluation_does_not_depend_on_colour_along_random_games() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(2024);
    for _ in 0..20 {
        let mut p = Chess::default();
        for _ in 0..80 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.random_range(0..moves.len())]);
            assert_eq!(evaluate(&p), evaluate(&flip_colours(&p)));
        }
    }
}

#[test]
fn start_position_is_level_but_for_the_tempo() {
    assert_eq!(evaluate(&Chess::default()), TEMPO);
}

#[test]
fn an_extra_pawn_is_good_for_its_owner() {
    let white = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!(evaluate(&white) > 50);
    assert!(evaluate(&flip_colours(&white)) > 50);
}

/// White's count minus Black's of feature `index` in `fen`.
fn count(fen: &str, index: usize) -> i32 {
    trace(&pos(fen)).coefficients[index]
}

#[test]
fn passed_pawns_are_found_by_rank() {
    // White d5 is passed (no black pawn on c-e ahead); white a2 is blocked
    // by a7 ahead on its file; black h4 is passed on its 5th rank.
    let fen = "4k3/p7/8/3P4/7p/8/P7/4K3 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(
        t.coefficients[PASSED_PAWN + 4],
        1 - 1,
        "d5 and h4 cancel out"
    );
    assert_eq!(t.coefficients[PASSED_PAWN + 1], 0, "a2 is not passed");
    assert_eq!(t.coefficients[PASSED_PAWN + 6], 0, "a7 is not passed");
    // A black pawn on an adjacent file ahead stops a pawn being passed.
    assert_eq!(
        count("4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1", PASSED_PAWN + 4),
        0
    );
    // ... but one behind it does not.
    assert_eq!(
        count("4k3/8/8/3P4/8/2p5/8/4K3 w - - 0 1", PASSED_PAWN + 4),
        1
    );
}

#[test]
fn isolated_pawns_have_no_friendly_neighbour_file() {
    // White: a2 isolated, c2+d2 connected; black: h7 isolated, f7 isolated.
    let fen = "4k3/5p1p/8/8/8/8/P1PP4/4K3 w - - 0 1";
    assert_eq!(count(fen, ISOLATED_PAWN), 1 - 2);
    assert_eq!(count("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", ISOLATED_PAWN), 1);
}

#[test]
fn doubled_pawns_count_each_extra_pawn_on_a_file() {
    // White tripled on the c-file (2 extra), black doubled on the g-file.
    let fen = "4k3/6p1/6p1/8/2P5/2P5/2P5/4K3 w - - 0 1";
    assert_eq!(count(fen, DOUBLED_PAWN), 2 - 1);
}

#[test]
fn the_bishop_pair_needs_two_bishops() {
    assert_eq!(count("2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", BISHOP_PAIR), 1);
    assert_eq!(count("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", BISHOP_PAIR), 0);
    assert_eq!(count("4k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1", BISHOP_PAIR), 0);
}

#[test]
fn rooks_on_open_and_semi_open_files() {
    // White rook on the open d-file, white rook on the e-file with only a
    // black pawn (semi-open); black rook on the a-file behind its pawn.
    let fen = "r3k3/p3p3/8/8/8/8/8/3RRK2 w - - 0 1";
    assert_eq!(count(fen, ROOK_OPEN_FILE), 1);
    assert_eq!(count(fen, ROOK_SEMI_OPEN_FILE), 1);
    // A black rook on the open h-file balances the white one on d.
    let fen = "4k2r/4p3/8/8/8/8/4P3/3RK3 w - - 0 1";
    assert_eq!(count(fen, ROOK_OPEN_FILE), 0);
}

#[test]
fn the_king_shield_and_open_files_beside_the_king() {
    // White king g1 behind f2, g2, h3: two pawns one rank ahead, one two
    // ranks ahead. Black king b8 with no pawns: three open files.
    let fen = "1k6/8/8/8/8/7P/5PP1/6K1 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(t.coefficients[KING_SHIELD], 2);
    assert_eq!(t.coefficients[KING_SHIELD + 1], 1);
    assert_eq!(t.coefficients[KING_OPEN_FILE], -3);
}

#[test]
fn mobility_prefers_free_pieces() {
    // The same material, a knight on the rim against one in the centre.
    let rim = pos("4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    let centre = pos("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    assert!(evaluate(&centre) > evaluate(&rim));
}
