//! The move a SAN token names, as shakmaty's [`San::to_move`] finds it,
//! for the PGN reader: one token a move of every game read.
//!
//! shakmaty builds the list of legal candidates and filters it; most moves
//! of a game have one piece that can make them, and a few bitboard tests
//! show that it may. Those are answered here; everything else (a king in
//! check moving another man, en passant, castling, no candidate or more
//! than one, and so every error) is left to shakmaty, so the answer and
//! the error are always shakmaty's.

use shakmaty::{
    Bitboard, Chess, Color, Move, Position, Rank, Role, Square, attacks,
    san::{San, SanError},
};

use crate::safety::{attacked, pinned, sliders_reaching};

/// The one legal move `san` names in `pos`.
///
/// # Errors
///
/// [`SanError::IllegalSan`] when no legal move fits, [`SanError::AmbiguousSan`]
/// when more than one does (both from shakmaty).
pub(crate) fn san_to_move(pos: &Chess, san: &San) -> Result<Move, SanError> {
    match single_candidate(pos, san) {
        Some(m) => Ok(m),
        None => san.to_move(pos),
    }
}

/// The move, when exactly one man could make it and it is legal for sure;
/// `None` leaves the question to shakmaty.
fn single_candidate(pos: &Chess, san: &San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    if board.by_color(us).contains(to) {
        return None;
    }
    // A capture onto an empty square is en passant or illegal: shakmaty's.
    let captured = board.role_at(to);
    if capture != captured.is_some() {
        return None;
    }
    let ours = |role: Role| board.by_piece(role.of(us));
    let occupied = board.occupied();
    let candidates = match role {
        Role::Pawn => {
            if !fits_promotion(us, to, promotion) {
                return None;
            }
            if capture {
                attacks::pawn_attacks(us.other(), to) & ours(Role::Pawn)
            } else {
                pushers(pos, to)
            }
        }
        _ if promotion.is_some() => return None,
        Role::King => attacks::king_attacks(to) & ours(Role::King),
        Role::Knight => attacks::knight_attacks(to) & ours(Role::Knight),
        slider => sliders_reaching(ours(slider), slider, to, occupied),
    };
    let mut from_squares = candidates;
    if let Some(file) = file {
        from_squares &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from_squares &= Bitboard::from_rank(rank);
    }
    let from = from_squares.single_square()?;
    let king = board.king_of(us)?;
    let legal = if role == Role::King {
        // A king may step wherever no opposing man attacks, itself gone.
        !attacked(
            board,
            to,
            us.other(),
            occupied ^ Bitboard::from_square(from),
        )
    } else {
        !attacked(board, king, us.other(), occupied)
            && (!pinned(board, king, from, us) || attacks::aligned(from, to, king))
    };
    legal.then_some(Move::Normal {
        role,
        from,
        capture: captured,
        to,
        promotion,
    })
}

/// Whether a pawn move onto `to` has the promotion it must have: a piece
/// other than a king on the last rank, none elsewhere.
fn fits_promotion(us: Color, to: Square, promotion: Option<Role>) -> bool {
    let last = match us {
        Color::White => Rank::Eighth,
        Color::Black => Rank::First,
    };
    if to.rank() == last {
        matches!(
            promotion,
            Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        )
    } else {
        promotion.is_none()
    }
}

/// The pawns of the side to move that can push onto the empty square `to`:
/// one step, or two from their first square over an empty square.
fn pushers(pos: &Chess, to: Square) -> Bitboard {
    let board = pos.board();
    let us = pos.turn();
    let (back, double_rank) = match us {
        Color::White => (-8, Rank::Fourth),
        Color::Black => (8, Rank::Fifth),
    };
    let pawns = board.by_piece(Role::Pawn.of(us));
    let Some(one) = to.offset(back) else {
        return Bitboard::EMPTY;
    };
    if pawns.contains(one) {
        return Bitboard::from_square(one);
    }
    if to.rank() != double_rank || board.occupied().contains(one) {
        return Bitboard::EMPTY;
    }
    one.offset(back)
        .map_or(Bitboard::EMPTY, |two| pawns & Bitboard::from_square(two))
}

#[cfg(test)]
mod tests {
    use shakmaty::san::SanPlus;

    use super::*;
    use crate::{Game, RuleSet, fen};

    /// Every SAN shape onto every square, with and without capture marks,
    /// disambiguation and promotions: legal, illegal and ambiguous tokens.
    fn tokens() -> Vec<San> {
        let mut texts = vec!["O-O".to_owned(), "O-O-O".to_owned(), "--".to_owned()];
        for to in Square::ALL {
            for piece in ["", "N", "B", "R", "Q", "K"] {
                for from in ["", "a", "c", "e", "g", "1", "2", "7", "e2", "g7"] {
                    for capture in ["", "x"] {
                        for promotion in ["", "=Q", "=N", "=K"] {
                            texts.push(format!("{piece}{from}{capture}{to}{promotion}"));
                        }
                    }
                }
            }
        }
        texts
            .iter()
            .filter_map(|text| text.parse::<San>().ok())
            .collect()
    }

    /// Positions of every kind: the shared ones with pins and checks,
    /// en passant, promotions, and the positions of a game.
    fn positions() -> Vec<Chess> {
        let fens = [
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/1P4k1/8/8/8/8/6Kp/8 w - - 0 1",
            "1n2k3/P7/8/8/8/8/8/4K2R w K - 0 1",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",
            "3qk3/8/8/8/8/8/3N1N2/R3K2R w KQ - 0 1",
            "r3k3/8/8/8/8/8/8/R3K2R b KQq - 0 1",
        ];
        let mut out = crate::safety::tests::positions();
        out.extend(
            fens.iter()
                .map(|text| fen::read(text).expect("legal FEN").position),
        );
        // The positions of a long game with checks and castling.
        let mut game = Game::new(RuleSet::Fide2009);
        let moves = "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 c7c6 g1f3 c8f5 f3e5 b8d7 \
                     d1f3 d7e5 d4e5 e7e6 c1d2 f8b4 a2a3 b4c3 d2c3 a5b6 e1c1 g8e7 \
                     f1d3 f5d3 d1d3 e8g8 h2h4 a8d8 d3d8 f8d8 h4h5 h7h6 f3g3 e7f5";
        for uci in moves.split_whitespace() {
            game.play_uci(uci).expect("legal");
        }
        out.extend(game.history().positions().iter().cloned());
        out
    }

    #[test]
    fn every_token_gives_shakmatys_move_or_error() {
        let tokens = tokens();
        assert!(tokens.len() > 20_000, "{} tokens read", tokens.len());
        for pos in positions() {
            for san in &tokens {
                assert_eq!(
                    san_to_move(&pos, san),
                    san.to_move(&pos),
                    "{san} in {}",
                    fen::write(&pos, fen::FenStyle::XFen)
                );
            }
        }
    }

    #[test]
    fn every_legal_move_written_in_san_reads_back() {
        for pos in positions() {
            for m in pos.legal_moves() {
                let plus = SanPlus::from_move(pos.clone(), m);
                assert_eq!(san_to_move(&pos, &plus.san), Ok(m), "{plus}");
            }
        }
    }
}
