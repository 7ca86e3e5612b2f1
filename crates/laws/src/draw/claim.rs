//! Draw claims (9.2, 9.3) and their verdicts (9.4, 9.5; ICCF 9.4).

use shakmaty::{Color, Move};

use crate::Outcome;

/// What a player claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    /// 9.2: the same position for at least the third time.
    ThreefoldRepetition,
    /// 9.3: the last 50 moves by each player without a pawn move or a
    /// capture.
    FiftyMoves,
}

impl ClaimKind {
    /// A stable snake_case name, as used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimKind::ThreefoldRepetition => "threefold_repetition",
            ClaimKind::FiftyMoves => "fifty_moves",
        }
    }
}

/// The arbiter's decision on a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimVerdict {
    /// 9.4: the claim is correct and the game is drawn.
    Drawn(Outcome),
    /// 9.5: the claim is incorrect. The game goes on, the intended move (if
    /// one was named) has been played, the claim stands as a draw offer
    /// (9.1.2.4; ICCF 9.1.2.2), and the opponent is owed the time penalty of
    /// the rule set, which the clock applies
    /// ([`wrong_claim_penalty`](crate::clock::wrong_claim_penalty): FIDE
    /// 9.5.3 two minutes, one in blitz; FIDE 2009 three minutes and up to
    /// three off the claimant; none under ICCF 9.4.3).
    Refused {
        /// The intended move, now played.
        played: Option<Move>,
        /// The player who receives the extra time.
        penalty_to: Color,
    },
}

/// Why a claim could not even be considered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClaimError {
    /// The game has already ended.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// 9.2, 9.3: only the player on move may claim.
    #[error("only the player on move may claim a draw")]
    NotOnMove,
    /// The intended move is not legal.
    #[error("the intended move {0} is not legal")]
    IllegalIntendedMove(String),
}
