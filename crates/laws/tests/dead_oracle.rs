//! FIDE 5.2.2 against an oracle: `dead` must agree with chasolver's full
//! analysis (Ambrona's Chess Unwinnability Analyzer, a dev-dependency only)
//! on every position where that analysis finishes for both players.
//!
//! The positions come from seeded generators, so every run sees the same
//! ones: random games from the start and from sparse endgame setups
//! (positions right after captures kept apart), queens and rooks next to a
//! king, locked pawn walls, bishops of one colour, and one move from king
//! against king. `cargo test -p rochade-laws --test dead_oracle --
//! --nocapture` prints the counts.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng, rngs::StdRng, seq::IndexedRandom};
use rochade_laws::dead::{self, Budget, Verdict, Winnability};
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, File, Piece, Position, Rank, Role,
    Setup, Square, fen::Fen,
};

/// The position for chasolver: the `chess` crate's board, square by square.
fn convert(pos: &Chess) -> Option<chess::Board> {
    let mut builder = chess::BoardBuilder::new();
    for (square, piece) in pos.board() {
        let role = match piece.role {
            Role::Pawn => chess::Piece::Pawn,
            Role::Knight => chess::Piece::Knight,
            Role::Bishop => chess::Piece::Bishop,
            Role::Rook => chess::Piece::Rook,
            Role::Queen => chess::Piece::Queen,
            Role::King => chess::Piece::King,
        };
        builder[chess::ALL_SQUARES[square.to_usize()]] = Some((role, color(piece.color)));
    }
    builder.side_to_move(color(pos.turn()));
    let rights = pos.castles().castling_rights();
    for side in Color::ALL {
        let back = side.backrank();
        let king_side = rights.contains(Square::from_coords(File::H, back));
        let queen_side = rights.contains(Square::from_coords(File::A, back));
        builder.castle_rights(
            color(side),
            match (king_side, queen_side) {
                (true, true) => chess::CastleRights::Both,
                (true, false) => chess::CastleRights::KingSide,
                (false, true) => chess::CastleRights::QueenSide,
                (false, false) => chess::CastleRights::NoRights,
            },
        );
    }
    builder.en_passant(
        pos.ep_square(EnPassantMode::Legal)
            .map(|square| chess::File::from_index(square.file().to_usize())),
    );
    chess::Board::try_from(&builder).ok()
}

/// The chess crate's colour.
fn color(c: Color) -> chess::Color {
    c.fold_wb(chess::Color::White, chess::Color::Black)
}

/// chasolver's full analysis for one player: `None` when it does not finish.
fn oracle(board: &chess::Board, winner: Color) -> Option<bool> {
    chasolver::winnability(board, color(winner)).map(|w| match w {
        chasolver::Winnability::Winnable { .. } => true,
        chasolver::Winnability::Unwinnable => false,
    })
}

/// The budget of the per-player comparison: small, it runs on every position.
const EACH_PLAYER: Budget = Budget {
    quick_closure: 2_000,
    helpmate_nodes: 5_000,
    helpmate_depth: 24,
    closure: 0,
};

/// What the comparison found.
#[derive(Default)]
struct Tally {
    compared: usize,
    dead: usize,
    unfinished: usize,
    unknown_ours: usize,
    oracle_time: Duration,
    our_time: Duration,
    disagreements: Vec<String>,
}

impl Tally {
    /// Compares one position.
    fn check(&mut self, pos: &Chess) {
        let Some(board) = convert(pos) else {
            return;
        };
        let start = Instant::now();
        let answers = (oracle(&board, Color::White), oracle(&board, Color::Black));
        self.oracle_time += start.elapsed();
        let (Some(white), Some(black)) = answers else {
            self.unfinished += 1;
            return;
        };
        self.compared += 1;
        let dead_oracle = !white && !black;
        let start = Instant::now();
        let verdict = dead::analyse(pos);
        self.our_time += start.elapsed();
        if dead_oracle {
            self.dead += 1;
        }
        if verdict == Verdict::Unknown {
            self.unknown_ours += 1;
        }
        if dead::is_dead(pos) != dead_oracle {
            self.disagreements.push(format!(
                "{}: chasolver white {white} black {black}, ours {verdict:?}",
                Fen::from_position(pos, EnPassantMode::Legal)
            ));
            return;
        }
        // Each player's answer never contradicts chasolver's.
        for (winner, winnable) in [(Color::White, white), (Color::Black, black)] {
            let ours = dead::can_checkmate_within(pos, winner, &EACH_PLAYER);
            let contradicts = match ours {
                Winnability::Winnable => !winnable,
                Winnability::Unwinnable => winnable,
                Winnability::Unknown => false,
            };
            if contradicts {
                self.disagreements.push(format!(
                    "{} for {winner:?}: chasolver {winnable}, ours {ours:?}",
                    Fen::from_position(pos, EnPassantMode::Legal)
                ));
            }
        }
    }

    /// Panics with every disagreement, after printing the counts.
    fn finish(self, what: &str) {
        println!(
            "{what}: {} positions compared with chasolver ({} dead), {} where chasolver did not finish, {} left unknown by us; chasolver {:.2} s, ours {:.2} s",
            self.compared,
            self.dead,
            self.unfinished,
            self.unknown_ours,
            self.oracle_time.as_secs_f64(),
            self.our_time.as_secs_f64()
        );
        assert!(
            self.disagreements.is_empty(),
            "{} disagreements with chasolver:\n{}",
            self.disagreements.len(),
            self.disagreements.join("\n")
        );
        assert!(self.compared > 0, "{what}: nothing compared");
    }
}

/// A random colour.
fn random_color(rng: &mut StdRng) -> Color {
    if rng.random_bool(0.5) {
        Color::White
    } else {
        Color::Black
    }
}

/// A random role among `roles`.
fn random_role(roles: &[Role], rng: &mut StdRng) -> Role {
    *roles.choose(rng).expect("some roles")
}

/// Every role but the king.
const MEN: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// Compares `count` positions made by `make` (from a generator seeded with
/// `seed`), each followed by `plies` random moves whose positions are
/// compared too; those `keep` accepts.
fn compare(
    what: &str,
    seed: u64,
    count: usize,
    plies: usize,
    mut make: impl FnMut(&mut StdRng) -> Option<Chess>,
    keep: impl Fn(&Chess, bool, usize) -> bool,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut made = 0;
    while made < count {
        let Some(start) = make(&mut rng) else {
            continue;
        };
        made += 1;
        let mut pos = start;
        let mut capture = false;
        for ply in 0..=plies {
            if keep(&pos, capture, ply) {
                tally.check(&pos);
            }
            let Some(m) = pos.legal_moves().choose(&mut rng).copied() else {
                break;
            };
            if pos.has_insufficient_material(Color::White)
                && pos.has_insufficient_material(Color::Black)
            {
                break;
            }
            capture = m.is_capture();
            pos.play_unchecked(m);
        }
    }
    tally.finish(what);
}

/// A legal position from a placement and a side to move, if there is one.
fn setup(board: Board, turn: Color) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    setup.position(CastlingMode::Standard).ok()
}

/// Puts `piece` on a random empty square among `allowed` (pawns never on
/// the first or last rank); `None` if there is none.
fn place(board: &mut Board, piece: Piece, allowed: Bitboard, rng: &mut StdRng) -> Option<Square> {
    let allowed = if piece.role == Role::Pawn {
        allowed & !Bitboard::BACKRANKS
    } else {
        allowed
    };
    let free: Vec<Square> = (allowed & !board.occupied()).into_iter().collect();
    let square = *free.choose(rng)?;
    board.set_piece_at(square, piece);
    Some(square)
}

/// Kings and `men` on random squares, a random side to move.
fn sparse(men: &[Piece], rng: &mut StdRng) -> Option<Chess> {
    let mut board = Board::empty();
    for piece in [Color::White.king(), Color::Black.king()].iter().chain(men) {
        place(&mut board, *piece, Bitboard::FULL, rng)?;
    }
    setup(board, random_color(rng))
}

/// Up to three random men of either colour.
fn random_men(rng: &mut StdRng) -> Vec<Piece> {
    (0..rng.random_range(1..=3))
        .map(|_| Piece {
            color: random_color(rng),
            role: random_role(&MEN, rng),
        })
        .collect()
}

#[test]
fn art_5_2_2_agrees_with_chasolver_on_random_games() {
    // Random games from the start: every position right after a capture,
    // every tenth otherwise.
    compare(
        "random games",
        5_2_2,
        40,
        400,
        |_| Some(Chess::default()),
        |_, capture, ply| capture || ply % 10 == 0,
    );
}

#[test]
fn art_5_2_2_agrees_with_chasolver_on_sparse_endgames() {
    // One to three men besides the kings, anywhere, and 12 random moves on.
    compare(
        "sparse endgames",
        5_2_2_1,
        400,
        12,
        |rng| sparse(&random_men(rng), rng),
        |_, _, _| true,
    );
}

#[test]
fn art_5_2_2_agrees_with_chasolver_next_to_the_king() {
    // A queen, rook, bishop or knight next to the opponent's king (often
    // undefended, so that the king may have to take it), sometimes with
    // one more man, and a move on.
    compare(
        "next to the king",
        5_2_2_2,
        600,
        1,
        |rng| {
            let winner = random_color(rng);
            let mut board = Board::empty();
            let king = place(&mut board, (!winner).king(), Bitboard::FULL, rng)?;
            let role = random_role(&[Role::Queen, Role::Rook, Role::Bishop, Role::Knight], rng);
            let near = shakmaty::attacks::king_attacks(king);
            place(
                &mut board,
                Piece {
                    color: winner,
                    role,
                },
                near,
                rng,
            )?;
            let far = !near & !Bitboard::from_square(king);
            place(&mut board, winner.king(), far, rng)?;
            if rng.random_bool(0.3) {
                place(&mut board, random_men(rng)[0], Bitboard::FULL, rng)?;
            }
            setup(board, random_color(rng))
        },
        |_, _, _| true,
    );
}

#[test]
fn art_5_2_2_agrees_with_chasolver_on_locked_pawn_walls() {
    // Blocked pawn pairs on every file at random heights (sometimes one
    // file left open), kings on their own sides, sometimes a bishop each,
    // then six random moves.
    compare(
        "locked pawn walls",
        5_2_2_3,
        150,
        6,
        |rng| {
            let mut board = Board::empty();
            let gap = rng.random_bool(0.3).then(|| rng.random_range(0..8u32));
            for file in (0..8u32).filter(|file| Some(*file) != gap) {
                let rank = rng.random_range(2..=4u32);
                let square = |rank| Square::from_coords(File::new(file), Rank::new(rank));
                board.set_piece_at(square(rank), Color::White.pawn());
                board.set_piece_at(square(rank + 1), Color::Black.pawn());
            }
            let low = Bitboard::from(Rank::First) | Bitboard::from(Rank::Second);
            let high = Bitboard::from(Rank::Seventh) | Bitboard::from(Rank::Eighth);
            place(&mut board, Color::White.king(), low, rng)?;
            place(&mut board, Color::Black.king(), high, rng)?;
            for (color, side) in [(Color::White, low), (Color::Black, high)] {
                if rng.random_bool(0.5) {
                    place(&mut board, color.bishop(), side, rng)?;
                }
            }
            setup(board, random_color(rng))
        },
        |_, _, _| true,
    );
}

#[test]
fn art_5_2_2_agrees_with_chasolver_on_bishops_of_one_colour() {
    // One to four bishops all on one colour, sometimes with a pawn or a
    // bishop of the other colour.
    compare(
        "bishops of one colour",
        5_2_2_4,
        300,
        0,
        |rng| {
            let squares = if rng.random_bool(0.5) {
                Bitboard::DARK_SQUARES
            } else {
                Bitboard::LIGHT_SQUARES
            };
            let mut board = Board::empty();
            place(&mut board, Color::White.king(), Bitboard::FULL, rng)?;
            place(&mut board, Color::Black.king(), Bitboard::FULL, rng)?;
            for _ in 0..rng.random_range(1..=4) {
                place(&mut board, random_color(rng).bishop(), squares, rng)?;
            }
            if rng.random_bool(0.3) {
                let (allowed, role) = if rng.random_bool(0.5) {
                    (!squares, Role::Bishop)
                } else {
                    (Bitboard::FULL, Role::Pawn)
                };
                let color = random_color(rng);
                place(&mut board, Piece { color, role }, allowed, rng)?;
            }
            setup(board, random_color(rng))
        },
        |_, _, _| true,
    );
}

#[test]
fn art_5_2_2_agrees_with_chasolver_one_move_from_bare_kings() {
    // King and one man against a king, or against king and man, where a
    // king can take something.
    compare(
        "one move from bare kings",
        5_2_2_5,
        400,
        0,
        |rng| {
            let mut men = vec![Color::White.king()];
            men[0].role = random_role(&MEN, rng);
            if rng.random_bool(0.5) {
                men.push(Piece {
                    color: Color::Black,
                    role: random_role(&MEN, rng),
                });
            }
            let pos = sparse(&men, rng)?;
            let king_takes = |m: &shakmaty::Move| m.is_capture() && m.role() == Role::King;
            pos.legal_moves().iter().any(king_takes).then_some(pos)
        },
        |_, _, _| true,
    );
}
