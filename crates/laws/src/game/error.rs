//! Why a game could not start, or a move was refused.

use crate::{NotationError, Outcome, chess960::Chess960Error, fen::FenError};

/// The start position was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The FEN was unreadable or the position illegal.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The Chess960 number was out of range.
    #[error(transparent)]
    Chess960(#[from] Chess960Error),
}

/// A move was refused; the game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game has already ended; no move can follow (5.1, 5.2, 9.6).
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The move breaks Articles 3 and 4.
    #[error("illegal move {uci}: {reason}")]
    Illegal {
        /// The move in UCI notation.
        uci: String,
        /// What makes it illegal, in words.
        reason: String,
    },
    /// The text is not a move here: unreadable, illegal, ambiguous (with
    /// the candidates), or a move for the side not on move.
    #[error(transparent)]
    Notation(#[from] NotationError),
}
