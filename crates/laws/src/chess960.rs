//! Chess960 start positions by number (Scharnagl numbering, FIDE Laws
//! Appendix F / Guidelines I): 0–959, where 518 is the standard position.
//!
//! ```
//! use rochade_laws::chess960;
//!
//! assert_eq!(chess960::back_rank(518)?, "RNBQKBNR");
//! assert_eq!(chess960::back_rank(0)?, "BBQNNRKR");
//! # Ok::<_, rochade_laws::chess960::Chess960Error>(())
//! ```

use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// How many Chess960 start positions there are.
pub const COUNT: u16 = 960;

/// The number of the standard start position.
pub const STANDARD: u16 = 518;

/// The number was not a Chess960 start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("Chess960 start positions are numbered 0 to 959, not {0}")]
pub struct Chess960Error(pub u32);

/// Knight placements on the five squares left after the bishops and the
/// queen, indexed by the Scharnagl knight digit.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank for start position `number`, from the a-file to the
/// h-file, in English letters.
///
/// # Errors
///
/// [`Chess960Error`] when `number` is 960 or more.
pub fn back_rank(number: u32) -> Result<String, Chess960Error> {
    if number >= u32::from(COUNT) {
        return Err(Chess960Error(number));
    }
    let mut rank = [' '; 8];
    let n = number as usize;
    rank[2 * (n % 4) + 1] = 'B'; // light-squared bishop on b, d, f or h
    let n = n / 4;
    rank[2 * (n % 4)] = 'B'; // dark-squared bishop on a, c, e or g
    let n = n / 4;
    place_on_empty(&mut rank, n % 6, 'Q');
    let (first, second) = KNIGHTS[n / 6];
    // Place the second knight first so that the first index stays valid.
    place_on_empty(&mut rank, second, 'N');
    place_on_empty(&mut rank, first, 'N');
    for piece in ['R', 'K', 'R'] {
        place_on_empty(&mut rank, 0, piece);
    }
    Ok(rank.iter().collect())
}

/// Puts `piece` on the `index`-th empty square of `rank`.
fn place_on_empty(rank: &mut [char; 8], index: usize, piece: char) {
    if let Some(square) = rank.iter_mut().filter(|c| **c == ' ').nth(index) {
        *square = piece;
    }
}

/// The FEN of start position `number`, with Shredder-FEN castling rights.
///
/// # Errors
///
/// [`Chess960Error`] when `number` is 960 or more.
///
/// ```
/// use rochade_laws::chess960;
/// assert_eq!(
///     chess960::fen(518)?,
///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
/// );
/// # Ok::<_, rochade_laws::chess960::Chess960Error>(())
/// ```
pub fn fen(number: u32) -> Result<String, Chess960Error> {
    let white = back_rank(number)?;
    let black = white.to_ascii_lowercase();
    let rook_files: Vec<char> = white
        .char_indices()
        .filter(|(_, c)| *c == 'R')
        .map(|(i, _)| file_letter(i))
        .collect();
    let (a_side, h_side) = (rook_files[0], rook_files[1]);
    Ok(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {}{}{}{} - 0 1",
        h_side.to_ascii_uppercase(),
        a_side.to_ascii_uppercase(),
        h_side,
        a_side
    ))
}

/// The lower-case letter of file `index` (0 = a).
fn file_letter(index: usize) -> char {
    char::from(b'a' + index as u8)
}

/// The playable start position `number`.
///
/// # Errors
///
/// [`Chess960Error`] when `number` is 960 or more.
pub fn position(number: u32) -> Result<Chess, Chess960Error> {
    let fen: Fen = fen(number)?.parse().map_err(|_| Chess960Error(number))?;
    fen.into_position(CastlingMode::Chess960)
        .map_err(|_| Chess960Error(number))
}

/// The number of a position if it is a Chess960 start position (all pieces
/// on their first ranks, full castling rights, White to move).
pub fn number_of(pos: &Chess) -> Option<u32> {
    if pos.fullmoves().get() != 1 || pos.halfmoves() != 0 {
        return None;
    }
    // White's first rank names the only candidate; the whole setup must match it.
    let rank: String = shakmaty::File::ALL
        .iter()
        .map(|&file| {
            let square = shakmaty::Square::from_coords(file, shakmaty::Rank::First);
            pos.board()
                .piece_at(square)
                .map_or(' ', |p| p.role.upper_char())
        })
        .collect();
    let number = (0..u32::from(COUNT)).find(|&n| back_rank(n).is_ok_and(|r| r == rank))?;
    let setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    position(number)
        .is_ok_and(|p| p.to_setup(shakmaty::EnPassantMode::Legal) == setup)
        .then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_numbers() {
        // Scharnagl's table: 0 BBQNNRKR, 518 RNBQKBNR, 959 RKRNNQBB.
        assert_eq!(back_rank(0).as_deref(), Ok("BBQNNRKR"));
        assert_eq!(back_rank(518).as_deref(), Ok("RNBQKBNR"));
        assert_eq!(back_rank(959).as_deref(), Ok("RKRNNQBB"));
        assert_eq!(back_rank(1).as_deref(), Ok("BQNBNRKR"));
        assert_eq!(back_rank(960), Err(Chess960Error(960)));
    }

    #[test]
    fn every_start_position_is_legal_and_distinct() {
        // FIDE Appendix F: bishops on opposite colours, king between rooks.
        let mut seen = std::collections::HashSet::new();
        for n in 0..u32::from(COUNT) {
            let rank = back_rank(n).expect("in range");
            assert!(seen.insert(rank.clone()), "{n} repeats {rank}");
            let bishops: Vec<usize> = rank.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: {rank}");
            let king = rank.find('K').expect("king");
            assert!(rank.find('R').expect("rook") < king && rank.rfind('R').expect("rook") > king);
            let pos = position(n).expect("legal");
            assert_eq!(pos.castles().castling_rights().count(), 4, "{n}");
        }
        assert_eq!(position(518).expect("legal").legal_moves().len(), 20);
    }

    #[test]
    fn number_of_inverts_position() {
        for n in [0, 1, 100, 518, 959] {
            assert_eq!(number_of(&position(n).expect("legal")), Some(n));
        }
        assert_eq!(number_of(&Chess::default()), Some(518));
    }
}
