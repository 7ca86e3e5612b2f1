//! Why a TRF file was refused: where, and what was wrong.

use thiserror::Error;

/// A malformed TRF file: the line and column (both 1-based, columns in
/// characters as TRF16 counts them) and what was wrong there.
///
/// # Examples
///
/// ```
/// use rochade_tournament::trf::{Trf, TrfErrorKind};
///
/// let err = Trf::parse("XXR nine\n").unwrap_err();
/// assert_eq!((err.line, err.column), (1, 5));
/// assert!(matches!(err.kind, TrfErrorKind::Number { .. }));
/// assert_eq!(err.to_string(), "line 1, column 5: the number of rounds is not a whole number: \"nine\"");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct TrfError {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
    /// What was wrong.
    pub kind: TrfErrorKind,
}

/// What was wrong with a TRF line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TrfErrorKind {
    /// A record ended before a mandatory field.
    #[error("the {record} record ends before column {needed}")]
    TooShort {
        /// The record tag (`001`, `XXA`…).
        record: &'static str,
        /// The first column it must reach.
        needed: usize,
    },
    /// A field that must be a number is not.
    #[error("the {field} is not a whole number: {text:?}")]
    Number {
        /// Which field.
        field: &'static str,
        /// What was there.
        text: String,
    },
    /// A pairing number outside 1..=9999.
    #[error("the pairing number {0} is outside 1 to 9999")]
    PairingNumberRange(String),
    /// A score is not written like `11.5`.
    #[error("the score {0:?} is not written like 11.5")]
    Score(String),
    /// A column that must be blank is not (a field spilled over).
    #[error("this column must be blank, found {0:?}")]
    NotBlank(char),
    /// Text after the last complete round block.
    #[error("text after the last round block, or a round block cut short")]
    TrailingText,
    /// The colour column holds something other than `w`, `b`, `-` or blank.
    #[error("the colour must be w, b, - or blank, found {0:?}")]
    Colour(char),
    /// The result column holds an unknown code.
    #[error("unknown result code {0:?}")]
    ResultCode(char),
    /// The block's opponent, colour and result do not fit together.
    #[error("impossible round: {0}")]
    ImpossibleRound(&'static str),
    /// A player plays against themselves.
    #[error("player {0} is paired against themselves")]
    SelfPairing(u16),
    /// Two `001` records with the same starting rank.
    #[error("player {0} appears twice")]
    DuplicatePlayer(u16),
    /// An opponent or a bye for a player with no `001` record.
    #[error("there is no player {0}")]
    UnknownPlayer(u16),
    /// The two players of a game disagree about it.
    #[error("round {round}: player {player} and player {opponent} disagree about their game")]
    Disagreement {
        /// The round.
        round: usize,
        /// The player whose block is at fault.
        player: u16,
        /// The opponent named there.
        opponent: u16,
    },
    /// An `XXC` option other than `white1`, `black1` or `rank`.
    #[error("unknown XXC option {0:?} (white1, black1 or rank)")]
    ColourOption(String),
    /// A `240` bye type other than `F`, `H` or `Z`.
    #[error("the bye type must be F, H or Z, found {0:?}")]
    ByeType(char),
    /// The number of rounds (`XXR`) is zero.
    #[error("the number of rounds must be at least 1")]
    NoRounds,
    /// A round number of zero.
    #[error("round numbers start at 1")]
    RoundZero,
}

/// Why a tournament cannot be written as TRF16.
///
/// # Examples
///
/// ```
/// use rochade_tournament::trf::{ByeRecord, Record, ResultCode, Trf, TrfWriteError};
/// use rochade_tournament::PairingNumber;
///
/// let wide = PairingNumber::new(10_000).unwrap();
/// let byes = ByeRecord { kind: ResultCode::HalfPointBye, round: 1, players: vec![wide] };
/// let trf = Trf::from_records(vec![Record::Byes(byes)]);
/// assert_eq!(trf.write(), Err(TrfWriteError::PairingNumber(wide)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TrfWriteError {
    /// A pairing number above 9,999 (a player's, an opponent's, or one
    /// in an `XXA` or `240` record): TRF16 gives it four columns.
    #[error("the pairing number {0} does not fit TRF16's four columns (9999 at most)")]
    PairingNumber(crate::PairingNumber),
}
