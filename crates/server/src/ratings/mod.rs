//! Ratings: the category a game is rated in ([`Perf`]) and the Glicko-2
//! rating of a player in one category ([`Rating`]).
//!
//! A rated game between two accounts updates both players' ratings in its
//! category in the same commit that stores its end (see
//! `storage::sqlite_ratings`), so a crash can neither lose nor repeat an
//! update.

mod glicko;
mod perf;
mod players;

pub use glicko::{PROVISIONAL_DEVIATION, Rating, rate};
pub use perf::Perf;
pub use players::{current_rating, rated, with_ratings};
