//! Claims that a tablebase decides (ICCF 5.1.3, 5.2.4): with seven or
//! fewer pieces on the board the player on move may claim the win or the
//! draw that the tablebase gives, and there is no 50-move rule (ICCF 9.3),
//! so a "cursed win" is a win.
//!
//! The Laws hold no tables: the caller probes them (the `rochade-tablebase`
//! crate does) and hands the value for the side to move to
//! [`Game::claim_tablebase`](crate::Game::claim_tablebase).
//!
//! ```
//! use rochade_laws::{Game, Outcome, Reason, RuleSet};
//! use rochade_laws::tablebase::{TablebaseClaim, TablebaseValue};
//! use shakmaty::Color;
//!
//! // King and queen against king: White, on move, wins.
//! let mut game = Game::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", RuleSet::Iccf)?;
//! let outcome = game.claim_tablebase(Color::White, TablebaseClaim::Win, Some(TablebaseValue::Win))?;
//! assert_eq!(outcome, Some(Outcome::win(Color::White, Reason::TablebaseWin)));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::Outcome;

/// The most pieces (kings and pawns included) a tablebase claim may be made
/// with (ICCF 5.1.3: "a 7-piece tablebase").
pub const TABLEBASE_MAX_PIECES: u32 = 7;

/// What the player on move claims from the tablebase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TablebaseClaim {
    /// ICCF 5.1.3: the position is a win for the claimant.
    Win,
    /// ICCF 5.2.4: the position is a draw.
    Draw,
}

impl TablebaseClaim {
    /// A stable snake_case name, as used in JSON: `tablebase_win`,
    /// `tablebase_draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            TablebaseClaim::Win => "tablebase_win",
            TablebaseClaim::Draw => "tablebase_draw",
        }
    }

    /// Whether the claim holds when the tablebase gives `value` for the
    /// side to move (the claimant).
    ///
    /// ```
    /// use rochade_laws::tablebase::{TablebaseClaim, TablebaseValue};
    /// assert!(TablebaseClaim::Win.holds(TablebaseValue::Win));
    /// assert!(!TablebaseClaim::Draw.holds(TablebaseValue::Loss));
    /// ```
    pub fn holds(self, value: TablebaseValue) -> bool {
        matches!(
            (self, value),
            (TablebaseClaim::Win, TablebaseValue::Win)
                | (TablebaseClaim::Draw, TablebaseValue::Draw)
        )
    }
}

/// The tablebase's value of a position for the side to move, without the
/// 50-move rule: a cursed win is a win and a blessed loss a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TablebaseValue {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses with best play.
    Loss,
}

/// Why a tablebase claim could not even be considered; the game is
/// unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TablebaseClaimError {
    /// The game has already ended.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// Only the player on move may claim.
    #[error("only the player on move may make a tablebase claim")]
    NotOnMove,
    /// Tablebase claims belong to the ICCF rules (5.1.3, 5.2.4).
    #[error("tablebase claims are made under the ICCF rules only")]
    NotUnderTheseRules,
    /// More than seven pieces on the board.
    #[error("a tablebase claim needs 7 or fewer pieces on the board, there are {0}")]
    TooManyPieces(u32),
}
