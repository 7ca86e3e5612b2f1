//! The lobby: open seeks ("5+3 rated, rating 1400–1800") that any other
//! signed-in player may accept, and the page's account socket that shows
//! them live with the account's challenges and games.
//!
//! A seek belongs to the connection that made it (a page's lobby socket,
//! or the API's `POST /api/board/seek` request) and disappears when that
//! connection closes: a seek never outlives its owner's presence.

pub mod http;
pub mod seeks;
pub mod socket;

pub use seeks::{Seek, Seeks};
