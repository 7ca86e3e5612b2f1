//! Draw offers (9.1): made by one player, answered by the other.

use shakmaty::Color;

use crate::Outcome;

/// A pending draw offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawOffer {
    /// Who offered the draw.
    pub by: Color,
    /// How many plies had been played when the offer was made.
    pub ply: usize,
}

/// Why an offer, acceptance or refusal was not possible.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OfferError {
    /// The game has already ended.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// 9.1.1: the event's regulations forbid agreeing a draw this early.
    #[error("no draw may be agreed before both players have made {min_moves} moves (9.1.1)")]
    TooEarly {
        /// Moves each player must have made first.
        min_moves: u32,
    },
    /// There is no offer from the opponent to answer.
    #[error("there is no draw offer from the opponent to answer")]
    NoOffer,
    /// The player already has an offer pending.
    #[error("your draw offer is still pending")]
    AlreadyOffered,
}
