//! Knockout tournaments, modelled on the FIDE World Cup regulations.
//!
//! Players are numbered by seed (1 the highest rated; see
//! [`seeding::order_by_rating`]). The bracket has the next power of two
//! of lines, the byes go to the top seeds, and seed 1 can meet seed 2
//! only in the final ([`seeding`]). Each match plays the stages of its
//! [`MatchFormat`]: the standard games, then the organiser's tie-break
//! stages (rapid, blitz, repeated blocks, sudden death, an Armageddon
//! game in which a draw counts as a win for Black) until one player
//! goes through ([`Match`]). The [`Bracket`] makes each match once both
//! its players are known, and its `Display` is the listing an arbiter
//! reads, round by round.
//!
//! Nothing here draws lots or keeps a clock: the caller enters the
//! drawing of colours, the results, and any withdrawal.
//!
//! ```
//! use rochade_tournament::knockout::{Bracket, GameResult, MatchFormat, MatchId, Next, Rules};
//!
//! let mut bracket = Bracket::new(4, Rules::new(MatchFormat::world_cup_2023())).unwrap();
//! // Play every match: the upper player gets White, then White wins.
//! while let Some((id, next)) = bracket.pending().first().cloned() {
//!     let outcome = match next {
//!         Next::DrawColours { .. } => {
//!             let (upper, _) = bracket.get(id).unwrap().players().unwrap();
//!             bracket.set_colours(id, upper)
//!         }
//!         _ => bracket.record(id, GameResult::WhiteWins),
//!     };
//!     outcome.unwrap();
//! }
//! // Every stage ends 1-1, up to the sudden-death game, which the upper
//! // player wins with White: seed 1 wins the event.
//! assert!(bracket.is_finished());
//! assert_eq!(bracket.champion().map(|p| p.get()), Some(1));
//! assert_eq!(bracket.get(MatchId::Round { round: 2, number: 1 }).unwrap().id().to_string(), "2.1");
//! ```

mod bracket;
mod bracket_match;
mod format;
mod listing;
mod match_play;
mod outcome;
mod result;
mod rules;
pub mod seeding;

#[cfg(test)]
mod properties;
#[cfg(test)]
mod testing;

pub use bracket::{Bracket, BracketError};
pub use bracket_match::{BracketMatch, Entrant, Line, MatchId, Play};
pub use format::{ColourRule, FormatError, MatchFormat, Repeat, Stage, StageKind};
pub use listing::Listing;
pub use match_play::{Match, MatchError};
pub use outcome::{MatchGame, Next, NextGame, Outcome, WonBy};
pub use result::{GameResult, ParseGameResultError};
pub use rules::Rules;
