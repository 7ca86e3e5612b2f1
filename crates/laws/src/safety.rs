//! Attacked squares and pinned men, answered with early exits: the
//! questions the game asks after every move (is the king in check, may it
//! step there, is this man pinned), without building shakmaty's full
//! attacker sets or move lists.
//!
//! Each answer is the same as shakmaty's (tests below compare them on
//! every square of many positions); only the work differs: the short-range
//! attackers are tested first, and a slider is asked about only when it
//! stands on one of the square's lines, by the squares between the two
//! (a small table) instead of the large table of slider attacks, which a
//! busy machine seldom keeps in its cache.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square, attacks};

/// The two diagonals through each square, the square itself left out.
const DIAGONALS: [Bitboard; 64] = diagonals();

/// Builds [`DIAGONALS`].
const fn diagonals() -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut from = 0;
    while from < 64 {
        let mut mask = 0u64;
        let mut to = 0;
        while to < 64 {
            let files = (from % 8) as i32 - (to % 8) as i32;
            let ranks = (from / 8) as i32 - (to / 8) as i32;
            if to != from && (files == ranks || files == -ranks) {
                mask |= 1 << to;
            }
            to += 1;
        }
        table[from] = Bitboard(mask);
        from += 1;
    }
    table
}

/// The file and the rank through `square`, the square itself left out.
fn lines(square: Square) -> Bitboard {
    (Bitboard::from_file(square.file()) | Bitboard::from_rank(square.rank()))
        ^ Bitboard::from_square(square)
}

/// The squares around `square` that a man of `role` on it steps to first
/// in each of its directions (all it attacks for a knight or king; none
/// for a pawn). A slider can go somewhere exactly when one of these is
/// not its own side's.
pub(crate) fn first_steps(square: Square, role: Role) -> Bitboard {
    let around = attacks::king_attacks(square);
    match role {
        Role::Pawn => Bitboard::EMPTY,
        Role::Knight => attacks::knight_attacks(square),
        Role::Bishop => around & DIAGONALS[usize::from(square)],
        Role::Rook => around & lines(square),
        Role::Queen | Role::King => around,
    }
}

/// The sliders of `role` among `men` that reach `square` over empty
/// squares (`occupied` the men on the board): `attacks(square) & men` for
/// a bishop, rook or queen, without the table of slider attacks.
pub(crate) fn sliders_reaching(
    men: Bitboard,
    role: Role,
    square: Square,
    occupied: Bitboard,
) -> Bitboard {
    let mask = match role {
        Role::Bishop => DIAGONALS[usize::from(square)],
        Role::Rook => lines(square),
        Role::Queen => DIAGONALS[usize::from(square)] | lines(square),
        Role::Pawn | Role::Knight | Role::King => Bitboard::EMPTY,
    };
    let mut reaching = Bitboard::EMPTY;
    for slider in men & mask {
        if (attacks::between(slider, square) & occupied).is_empty() {
            reaching.add(slider);
        }
    }
    reaching
}

/// Whether the side to move is in check: `pos.is_check()`.
pub(crate) fn in_check(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    board
        .king_of(us)
        .is_some_and(|king| attacked(board, king, us.other(), board.occupied()))
}

/// Whether a man of `by` attacks `square` when the lines of the sliders
/// are blocked by `occupied` only (which may leave a man out: a king that
/// steps away does not shield the squares behind it). The same answer as
/// `board.attacks_to(square, by, occupied).any()`.
pub(crate) fn attacked(board: &Board, square: Square, by: Color, occupied: Bitboard) -> bool {
    let theirs = board.by_color(by);
    if (attacks::knight_attacks(square) & board.knights() & theirs).any()
        || (attacks::king_attacks(square) & board.kings() & theirs).any()
        || (attacks::pawn_attacks(by.other(), square) & board.pawns() & theirs).any()
    {
        return true;
    }
    let rooks = board.rooks_and_queens() & theirs;
    let bishops = board.bishops_and_queens() & theirs;
    sliders_reaching(rooks, Role::Rook, square, occupied).any()
        || sliders_reaching(bishops, Role::Bishop, square, occupied).any()
}

/// Whether `us`'s man on `from` is pinned to `us`'s king on `king`: it alone
/// stands between the king and an opposing slider that moves along that
/// line. The same answer as shakmaty's slider blockers.
pub(crate) fn pinned(board: &Board, king: Square, from: Square, us: Color) -> bool {
    let line = attacks::ray(king, from);
    if line.is_empty() {
        return false;
    }
    let straight = king.file() == from.file() || king.rank() == from.rank();
    let sliders = if straight {
        board.rooks_and_queens()
    } else {
        board.bishops_and_queens()
    };
    let occupied = board.occupied();
    (sliders & board.by_color(us.other()) & line)
        .into_iter()
        .any(|sniper| {
            let between = attacks::between(king, sniper) & occupied;
            between == Bitboard::from_square(from)
        })
}

#[cfg(test)]
pub(crate) mod tests {
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::fen;

    /// Positions with every kind of attacker, pins on lines and diagonals,
    /// checks and kings in the open.
    const FENS: [&str; 8] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/1b6/8/3N4/4K3/q3R2r w - - 0 1",
        "8/8/3k4/8/2q5/8/2NK1B2/8 w - - 0 1",
        "7k/8/8/8/3Q4/8/8/K6b b - - 0 1",
    ];

    /// The positions of [`FENS`].
    pub(crate) fn positions() -> Vec<Chess> {
        FENS.iter()
            .map(|text| fen::read(text).expect("legal FEN").position)
            .collect()
    }

    #[test]
    fn attacked_is_shakmaty_attacks_to_on_every_square() {
        for pos in positions() {
            let board = pos.board();
            for square in Square::ALL {
                for by in Color::ALL {
                    for occupied in [board.occupied(), board.occupied() ^ board.kings()] {
                        assert_eq!(
                            attacked(board, square, by, occupied),
                            board.attacks_to(square, by, occupied).any(),
                            "{} {square} {by:?}",
                            fen::write(&pos, fen::FenStyle::XFen)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn sliders_and_first_steps_are_shakmatys_attacks() {
        for pos in positions() {
            let board = pos.board();
            assert_eq!(in_check(&pos), pos.is_check());
            for square in Square::ALL {
                for role in [Role::Bishop, Role::Rook, Role::Queen] {
                    let piece = role.of(Color::White);
                    let men = board.by_role(role);
                    assert_eq!(
                        sliders_reaching(men, role, square, board.occupied()),
                        attacks::attacks(square, piece, board.occupied()) & men,
                        "{role:?} to {square}"
                    );
                }
                // A man can go somewhere exactly when a first step is not
                // its own side's.
                if let Some(piece) = board.piece_at(square) {
                    let own = board.by_color(piece.color);
                    let reach = attacks::attacks(square, piece, board.occupied());
                    let steps = first_steps(square, piece.role);
                    if piece.role != Role::Pawn {
                        assert_eq!((reach & !own).any(), (steps & !own).any(), "{square}");
                    }
                }
            }
        }
    }

    #[test]
    fn pinned_is_shakmatys_slider_blockers_for_every_man() {
        for pos in positions() {
            let board = pos.board();
            let us = pos.turn();
            let king = board.king_of(us).expect("a king");
            // shakmaty's `slider_blockers`, which it keeps to itself.
            let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
                | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
            let mut blockers = Bitboard::EMPTY;
            for sniper in snipers & board.by_color(us.other()) {
                let between = attacks::between(king, sniper) & board.occupied();
                if !between.more_than_one() {
                    blockers |= between;
                }
            }
            for from in board.by_color(us) & !board.kings() {
                assert_eq!(
                    pinned(board, king, from, us),
                    blockers.contains(from),
                    "{from}"
                );
            }
        }
        let pos = fen::read("4k3/8/8/1b6/8/3N4/4K3/q3R2r w - - 0 1")
            .expect("legal")
            .position;
        assert!(pinned(pos.board(), Square::E2, Square::D3, Color::White));
    }
}
