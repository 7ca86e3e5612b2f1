//! FEN in and out: standard FEN, X-FEN and Shredder-FEN castling rights.
//!
//! Reading detects Chess960 castling from the castling field and the
//! position of kings and rooks; writing chooses the castling style.
//!
//! ```
//! use rochade_laws::fen::{self, FenStyle};
//!
//! let start = fen::read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
//! assert_eq!(fen::write(&start.position, FenStyle::Shredder),
//!            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
//! # Ok::<_, rochade_laws::fen::FenError>(())
//! ```

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position, PositionErrorKinds, Setup,
    fen::{Fen, ParseFenError},
};

/// How to write castling rights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FenStyle {
    /// `KQkq` where unambiguous, file letters otherwise (X-FEN). Standard
    /// positions come out as standard FEN.
    #[default]
    XFen,
    /// Always file letters: `HAha` (Shredder-FEN).
    Shredder,
}

/// A position read from FEN, with the castling mode found in it.
#[derive(Debug, Clone)]
pub struct ReadFen {
    /// The playable position.
    pub position: Chess,
    /// Chess960 when castling rights name rooks that standard chess would
    /// not castle with, or a king off the e-file has rights.
    pub castling: CastlingMode,
}

/// What was wrong with a FEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not FEN; `field` names the part that failed.
    #[error("not a FEN: bad {field} in '{text}'")]
    Syntax {
        /// The field that could not be read.
        field: &'static str,
        /// The whole input.
        text: String,
    },
    /// The text is FEN but the position cannot arise in a game.
    #[error("illegal position in FEN '{text}': {problems}")]
    Illegal {
        /// What makes the position illegal, in words.
        problems: String,
        /// The whole input.
        text: String,
    },
}

/// Reads a FEN, X-FEN or Shredder-FEN and checks the position.
///
/// # Errors
///
/// [`FenError::Syntax`] when a field cannot be read, [`FenError::Illegal`]
/// when the position is impossible (missing king, side not to move in
/// check, pawns on the first or last rank, impossible castling rights or
/// en passant square, too much material).
pub fn read(text: &str) -> Result<ReadFen, FenError> {
    let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|e| FenError::Syntax {
        field: field_name(&e),
        text: text.to_owned(),
    })?;
    let setup: Setup = fen.into();
    let castling = CastlingMode::detect(&setup);
    let position = Chess::from_setup(setup, castling).map_err(|e| FenError::Illegal {
        problems: describe(e.kinds()),
        text: text.to_owned(),
    })?;
    Ok(ReadFen { position, castling })
}

/// Writes `pos` as FEN with the en passant square only when an en passant
/// capture is legal, as FIDE 9.2.2 compares positions.
pub fn write(pos: &Chess, style: FenStyle) -> String {
    // Appended to a string: the same text as `Display`, without a
    // formatter call for each character.
    let mut fen = String::with_capacity(96);
    Fen::from_position(pos, EnPassantMode::Legal).append_to_string(&mut fen);
    match style {
        FenStyle::XFen => fen,
        FenStyle::Shredder => with_castling_field(&fen, &shredder_castling(pos)),
    }
}

/// Replaces the third field of `fen`.
fn with_castling_field(fen: &str, castling: &str) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    if fields.len() > 2 {
        fields[2] = castling;
    }
    fields.join(" ")
}

/// The castling field in Shredder style: files of rooks with rights.
fn shredder_castling(pos: &Chess) -> String {
    let rights = pos.castles().castling_rights();
    let mut out = String::new();
    for color in [Color::White, Color::Black] {
        let mut files: Vec<char> = (rights & pos.board().by_color(color))
            .into_iter()
            .map(|sq| sq.file().char())
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        for file in files {
            out.push(if color == Color::White {
                file.to_ascii_uppercase()
            } else {
                file
            });
        }
    }
    if out.is_empty() { "-".to_owned() } else { out }
}

/// The FEN field that a shakmaty parse error points at.
fn field_name(error: &ParseFenError) -> &'static str {
    match error {
        ParseFenError::InvalidBoard | ParseFenError::InvalidPocket => "board",
        ParseFenError::InvalidTurn => "side to move",
        ParseFenError::InvalidCastling => "castling rights",
        ParseFenError::InvalidEpSquare => "en passant square",
        ParseFenError::InvalidHalfmoveClock => "half-move clock",
        ParseFenError::InvalidFullmoves => "move number",
        _ => "structure",
    }
}

/// Plain words for each position error.
fn describe(kinds: PositionErrorKinds) -> String {
    let words = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "a pawn stands on the first or last rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling rights without king and rook in place",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en passant square is impossible",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the check cannot have arisen from a legal move",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "there is more material than a game can have",
        ),
        (
            PositionErrorKinds::VARIANT,
            "a rule of the variant is broken",
        ),
    ];
    let found: Vec<&str> = words
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, w)| *w)
        .collect();
    if found.is_empty() {
        "unknown problem".to_owned()
    } else {
        found.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_fen_and_shredder_fen_read_the_same_960_position() {
        let x = read("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
            .expect("X-FEN");
        let s = read("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .expect("Shredder-FEN");
        assert_eq!(x.castling, CastlingMode::Chess960);
        assert_eq!(x.position, s.position);
        assert_eq!(
            write(&x.position, FenStyle::Shredder),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
    }

    #[test]
    fn standard_fen_detects_standard_castling() {
        let r = read("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("legal");
        assert_eq!(r.castling, CastlingMode::Standard);
        assert_eq!(
            write(&r.position, FenStyle::XFen),
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        );
    }

    #[test]
    fn ep_square_written_only_when_capture_is_legal() {
        // FIDE 9.2.2.1: the ep square matters only if the capture is possible.
        let r = read("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").expect("legal");
        assert!(write(&r.position, FenStyle::XFen).contains(" b KQkq - 0 1"));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err();
        assert!(
            matches!(
                e,
                FenError::Syntax {
                    field: "side to move",
                    ..
                }
            ),
            "{e}"
        );
        let e = read("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert!(e.to_string().contains("board is empty"), "{e}");
        let e = read("4k3/8/8/8/8/8/8/4K2q b - - 0 1").unwrap_err();
        assert!(e.to_string().contains("not to move is in check"), "{e}");
        assert!(read("").is_err());
        assert!(read("💥").is_err());
    }
}
