//! Hand-written positions, each with what it guards (5.2.2, 6.9).

use super::*;
use crate::fen;

fn pos(text: &str) -> Chess {
    fen::read(text).expect("legal FEN").position
}

#[test]
fn art_5_2_2_insufficient_material_is_dead() {
    // K v K, K+B v K, K+N v K, bishops all on one colour.
    for text in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",
        "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1", // c7 and e3: both dark
    ] {
        assert_eq!(gate(&pos(text)), Gate::Dead, "{text}");
        assert!(is_dead(&pos(text)), "{text}");
    }
}

#[test]
fn art_5_2_2_mating_material_is_not_dead() {
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/8/4k3/8/8/3KN3/8/6n1 w - - 0 1", // K+N v K+N: a helpmate exists
        "8/8/4k3/8/8/3K4/7P/8 w - - 0 1",
        "8/2b5/4k3/8/8/3K1B2/8/8 w - - 0 1", // c7 dark, f3 light
    ] {
        assert!(!is_dead(&pos(text)), "{text}");
        assert_eq!(
            analyse_within(&pos(text), &Budget::FULL),
            Verdict::Alive,
            "{text}"
        );
    }
}

#[test]
fn art_5_2_2_queen_next_to_the_king_must_be_taken() {
    // Issue 17 point 7: the black king must take the undefended queen on b7
    // (a7 and b8 are covered by it), leaving king against king. The old gate
    // let this through as alive because a queen stood on the board.
    let text = "k7/1Q6/8/8/8/8/8/6K1 b - - 0 1";
    assert_eq!(gate(&pos(text)), Gate::Open);
    assert!(is_dead(&pos(text)));
    // The same with the queen defended by its king: mate, not dead.
    assert!(!is_dead(&pos("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1")));
}

#[test]
fn art_5_2_2_forced_captures_of_both_minor_pieces() {
    // Black's only moves take the bishop on b8 or the knight on b7 (a7 is
    // covered by the bishop): either way K+minor v K.
    assert!(is_dead(&pos("kBK5/1N6/8/8/8/8/8/8 b - - 0 1")));
    // With a black pawn to move instead, nothing is forced.
    assert!(!is_dead(&pos("kB6/1N6/8/8/8/8/p7/6K1 b - - 0 1")));
}

#[test]
fn art_5_2_2_rook_on_the_diagonal_must_be_taken() {
    // Not check, but the king's only move takes the rook on b7.
    assert!(is_dead(&pos("k7/1R6/8/8/8/8/8/6K1 b - - 0 1")));
}

#[test]
fn art_5_2_2_locked_pawn_wall_is_dead() {
    // No series of legal moves can lead to mate: the kings never meet the
    // pawns they could take.
    assert!(is_dead(&pos(
        "8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6/8 w - - 0 50"
    )));
    // The same wall with a hole on the h-file is alive.
    assert!(!is_dead(&pos("8/8/1k6/p1p1p1p1/P1P1P3/8/1K6/8 w - - 0 50")));
}

#[test]
fn art_5_2_2_bishops_behind_a_wall() {
    // Lichess ijyj0mHa: Black's bishop cannot break the wall, White can.
    let text = "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 60";
    assert_eq!(
        can_checkmate(&pos(text), Color::Black),
        Winnability::Unwinnable
    );
    assert_eq!(
        can_checkmate(&pos(text), Color::White),
        Winnability::Winnable
    );
    assert!(!is_dead(&pos(text)));
}

#[test]
fn art_5_2_2_pieces_locked_by_their_own_pawns() {
    // Black's pieces cannot leave the first rank, its pawns cannot move and
    // the white pawns on a2 and h2 are blocked: neither side can mate,
    // although Black has a queen and rooks (a file-wall gate alone would
    // have called it alive).
    let text = "4K3/8/8/8/8/p1p2p1p/P1pppp1P/bnrqkrnb w - - 0 1";
    assert_ne!(gate(&pos(text)), Gate::Alive);
}

#[test]
fn art_6_9_timeout_needs_the_winner_to_be_able_to_mate() {
    // A lone king cannot mate; king and two knights can (helpmate).
    let lone = pos("8/8/4k3/8/8/3K4/8/q7 w - - 0 1");
    assert_eq!(can_checkmate(&lone, Color::White), Winnability::Unwinnable);
    assert_eq!(can_checkmate(&lone, Color::Black), Winnability::Winnable);
    let knights = pos("8/8/4k3/8/8/3K4/8/nn6 w - - 0 1");
    assert_eq!(can_checkmate(&knights, Color::Black), Winnability::Winnable);
}

#[test]
fn the_gate_needs_no_search_for_a_middlegame() {
    // A French centre: blocked pawns on d and e, but open files elsewhere.
    let text = "r1bqkbnr/pp3ppp/2n1p3/2ppP3/2PP4/5N2/PP3PPP/RNBQKB1R w KQkq - 0 6";
    assert_eq!(gate(&pos(text)), Gate::Alive);
    assert_eq!(gate(&Chess::default()), Gate::Alive);
}
