//! Draws that players make: offers and agreements (9.1), claims of threefold
//! repetition (9.2) and of the 50-move rule (9.3), and the verdict on a
//! claim (9.4, 9.5). Automatic draws (9.6) are decided by [`crate::Game`]
//! after each move.

mod claim;
mod offer;

pub use claim::{ClaimError, ClaimKind, ClaimVerdict};
pub use offer::{DrawOffer, OfferError};
