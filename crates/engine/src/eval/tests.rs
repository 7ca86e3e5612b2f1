//! Tests of the evaluation: colour symmetry and each term on hand-made
//! positions.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::features::{
    BACKWARD_PAWN, BISHOP_PAIR, BISHOP_PAWNS, DOUBLED_PAWN, HANGING, ISOLATED_PAWN, KING_DANGER,
    KING_OPEN_FILE, KING_SHIELD, KING_STORM, KING_WEAK_SQUARES, MINOR_BEHIND_PAWN, OUTPOST,
    PASSED_BLOCKED, PASSED_ENEMY_KING, PASSED_FREE, PASSED_OWN_KING, PASSED_PAWN, PAWN_PUSH_THREAT,
    PHALANX_PAWN, ROOK_ON_SEVENTH, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, SAFE_CHECK, SPACE,
    SUPPORTED_PAWN, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
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
fn every_feature_count_changes_sign_with_the_colours() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(77);
    for fen in all_fens() {
        let p = pos(fen);
        let negated: Vec<i32> = trace(&p).coefficients.iter().map(|c| -c).collect();
        assert_eq!(trace(&flip_colours(&p)).coefficients, negated, "{fen}");
    }
    for _ in 0..20 {
        let mut p = Chess::default();
        for _ in 0..100 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play_unchecked(moves[rng.random_range(0..moves.len())]);
            let negated: Vec<i32> = trace(&p).coefficients.iter().map(|c| -c).collect();
            assert_eq!(trace(&flip_colours(&p)).coefficients, negated);
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

#[test]
fn supported_and_phalanx_pawns() {
    // White: c3 supports d4 (d4 is supported once); d4 and e4 stand side
    // by side (both are phalanx pawns on the 4th rank), e4 is supported by
    // nothing. Black: nothing.
    let fen = "4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(t.coefficients[SUPPORTED_PAWN + 3], 1);
    assert_eq!(t.coefficients[PHALANX_PAWN + 3], 2);
    assert_eq!(t.coefficients[PHALANX_PAWN + 2], 0);
    // A pawn defended from both sides counts both defenders.
    assert_eq!(
        count("4k3/8/8/8/3P4/2P1P3/8/4K3 w - - 0 1", SUPPORTED_PAWN + 3),
        2
    );
}

#[test]
fn backward_pawns_cannot_be_supported_and_are_stopped() {
    // White d2 with its neighbour on e4 ahead; Black's e5... no: a black
    // pawn on e4 is absent, the stop square d3 is attacked by the black
    // pawn on c4 (seen from black: c4 attacks b3 and d3).
    let fen = "4k3/8/8/8/2p1P3/8/3P4/4K3 w - - 0 1";
    assert_eq!(count(fen, BACKWARD_PAWN), 1);
    // With a friendly pawn beside it on c2 it is not backward.
    let fen = "4k3/8/8/8/2p1P3/8/2PP4/4K3 w - - 0 1";
    assert_eq!(count(fen, BACKWARD_PAWN), 0);
    // An isolated pawn is not backward.
    assert_eq!(count("4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1", BACKWARD_PAWN), 0);
}

#[test]
fn passed_pawn_details() {
    // White passed pawn on d6 (relative rank index 5), stop square d7 is
    // empty; White king on d1 (distance 6 to d7), Black king on h8
    // (distance 4). The path d7-d8 is attacked by nobody but the black
    // king on h8? No: h8 attacks g7, g8, h7 only, so the path is free.
    let fen = "7k/8/3P4/8/8/8/8/3K4 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(t.coefficients[PASSED_OWN_KING + 5], 6);
    assert_eq!(t.coefficients[PASSED_ENEMY_KING + 5], 4);
    assert_eq!(t.coefficients[PASSED_FREE + 5], 1);
    assert_eq!(t.coefficients[PASSED_BLOCKED + 5], 0);
    // A black knight on d7 blocks it (and the path is no longer free).
    let fen = "7k/3n4/3P4/8/8/8/8/3K4 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(t.coefficients[PASSED_BLOCKED + 5], 1);
    assert_eq!(t.coefficients[PASSED_FREE + 5], 0);
    // A black rook attacking d8 makes the path unsafe.
    let fen = "r6k/8/3P4/8/8/8/8/3K4 w - - 0 1";
    assert_eq!(count(fen, PASSED_FREE + 5), 0);
}

#[test]
fn threats_by_pawns_minors_and_rooks() {
    // The white pawn on e4 attacks the black knight on d5 and the black
    // bishop on f5; the white bishop on a2 also attacks d5 (a knight), and
    // the black bishop on f5 attacks the undefended pawn on e4.
    let fen = "4k3/8/8/3n1b2/4P3/8/B7/4K3 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(t.coefficients[THREAT_BY_PAWN], 1);
    assert_eq!(t.coefficients[THREAT_BY_PAWN + 1], 1);
    assert_eq!(t.coefficients[THREAT_BY_MINOR + 1], 1);
    assert_eq!(t.coefficients[THREAT_BY_MINOR], -1);
    // A white rook on the open d-file attacking the black queen on d8.
    let fen = "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1";
    let t = trace(&pos(fen));
    assert_eq!(t.coefficients[THREAT_BY_ROOK + 4], 1);
    // The black queen attacks the rook on d1 back, and both are defended
    // once by their king, so neither hangs.
    assert_eq!(t.coefficients[HANGING], 0);
    // A black knight attacked by a rook and defended by nothing hangs.
    let fen = "4k3/8/8/8/8/8/8/1n1RK3 w - - 0 1";
    assert_eq!(count(fen, HANGING), 1);
}

#[test]
fn safe_checks_and_king_danger() {
    // The white queen on d1 can check the black king on g8 safely from d5
    // and from g4 (neither is attacked by Black); the knight on e5 checks
    // from f7? f7 is attacked by the king: not safe. From h6? No: e5
    // reaches f7, d7, c6, c4, d3, f3, g4, g6; g6 is not a check square.
    let fen = "6k1/8/8/4N3/8/8/8/3QK3 w - - 0 1";
    let t = trace(&pos(fen));
    assert!(t.coefficients[SAFE_CHECK + 3] >= 2);
    assert_eq!(t.coefficients[SAFE_CHECK], 0);
    // Some king danger bucket is counted for White, none for Black.
    let danger: i32 = t.coefficients[KING_DANGER..KING_DANGER + 16].iter().sum();
    assert_eq!(danger, 1);
}

#[test]
fn outposts_need_pawn_support_and_no_enemy_pawn_attacks() {
    // A white knight on d5 defended by e4, no black pawn on c or e files
    // ahead: an outpost. With a black pawn on c7 it can be chased away.
    assert_eq!(count("4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", OUTPOST), 1);
    assert_eq!(count("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", OUTPOST), 0);
    // Not on the 3rd rank.
    assert_eq!(count("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1", OUTPOST), 0);
}

#[test]
fn rooks_on_the_seventh() {
    assert_eq!(count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", ROOK_ON_SEVENTH), 1);
    // The enemy king off the 8th and no pawns on the 7th: nothing.
    assert_eq!(count("8/R7/4k3/8/8/8/8/4K3 w - - 0 1", ROOK_ON_SEVENTH), 0);
    // A black rook on the 2nd rank with the white king on the 1st.
    assert_eq!(count("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", ROOK_ON_SEVENTH), -1);
}

#[test]
fn pawn_storms_count_pawns_that_have_not_passed_the_king() {
    // Black king on g8; white pawns on g5 (5th rank) and h4 (4th) storm
    // it; the a2 pawn is on another wing.
    let fen = "6k1/5ppp/8/6P1/7P/8/P7/4K3 w - - 0 1";
    assert_eq!(count(fen, KING_STORM + 4), 1);
    assert_eq!(count(fen, KING_STORM + 3), 1);
    // Black's f7 is on the f-file beside the white king on e1: on Black's
    // 2nd rank it hardly storms, but it counts there.
    assert_eq!(count(fen, KING_STORM + 1), -1);
    assert_eq!(count(fen, KING_STORM + 6), 0);
}

#[test]
fn weak_squares_next_to_the_king_are_attacked_and_not_guarded() {
    // The white queen on h5 attacks f7, g6 and h7 next to the black king on
    // g8 ... the f7, g7 and h7 pawns guard g6 and nothing guards f7 or h7
    // but the king.
    let fen = "6k1/5ppp/8/7Q/8/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, KING_WEAK_SQUARES), 2);
    // A black knight on f6 guards h7.
    let fen = "6k1/5ppp/5n2/7Q/8/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, KING_WEAK_SQUARES), 1);
}

#[test]
fn space_grows_with_the_pieces_behind_a_pawn_chain() {
    // White's e4 and d4 pawns gain central squares behind them; Black's
    // pawns stay at home, with their space the 2nd to 4th ranks on c-f.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(count(start, SPACE), 0);
    let centre = "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1";
    assert!(count(centre, SPACE) > 0);
    // Fewer pieces, less space worth counting.
    let bare = "4k3/pppppppp/8/8/3PP3/8/PPP2PPP/4K3 b - - 0 1";
    assert!(count(bare, SPACE) < count(centre, SPACE));
}

#[test]
fn bishops_count_the_own_pawns_on_their_colour() {
    // The white bishop on c1 (dark) and pawns on c3 (dark), d3 (light) and
    // e3 (dark).
    assert_eq!(
        count("4k3/8/8/8/8/2PPP3/8/2B1K3 w - - 0 1", BISHOP_PAWNS),
        2
    );
}

#[test]
fn minor_pieces_behind_pawns() {
    // The knight on d3 is behind the d4 pawn; the bishop on f1 is not
    // behind f3.
    assert_eq!(
        count("4k3/8/8/8/3P4/3N1P2/8/4KB2 w - - 0 1", MINOR_BEHIND_PAWN),
        1
    );
    // Black's knight on e6 behind e5.
    assert_eq!(
        count("4k3/8/4n3/4p3/8/8/8/4K3 w - - 0 1", MINOR_BEHIND_PAWN),
        -1
    );
}

#[test]
fn pawn_push_threats_need_a_safe_square() {
    // e4-e5 would attack the knight on f6 (and d6 is empty): one threat.
    let fen = "4k3/8/5n2/8/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, PAWN_PUSH_THREAT), 1);
    // With a black pawn on d6, e5 is attacked by it: no threat.
    let fen = "4k3/8/3p1n2/8/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(count(fen, PAWN_PUSH_THREAT), 0);
    // A double push from e2 to e4 attacks the knight on d5 (e3 is attacked
    // by the knight, e4 is not).
    let fen = "4k3/8/8/3n4/8/8/4P3/4K3 w - - 0 1";
    assert_eq!(count(fen, PAWN_PUSH_THREAT), 1);
}
