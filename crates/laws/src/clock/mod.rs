//! Chess clocks and time controls (FIDE Article 6, Appendices A and B; ICCF 10).
//!
//! - [`TimeControl`]: periods with move counts, base times and one kind of
//!   [`Bonus`] (Fischer increment, Bronstein delay, simple delay), fixed time
//!   per move, or no clock; read from human, PGN and correspondence forms
//!   ([`TimeControl::parse`]) and written back ([`Display`](std::fmt::Display),
//!   [`TimeControl::to_pgn`]).
//! - [`Category`]: blitz, rapid, standard, correspondence under a
//!   [`RuleSet`](crate::rules::RuleSet).
//! - [`Clock`]: two timers driven by injected time (`now`), with presses,
//!   flags, arbiter stops and adjustments, and leave periods.
//! - [`ClockTime`]: display as `h:mm:ss`.
//! - [`wrong_claim_penalty`]: what a wrong draw claim costs under each rule set.

mod category;
mod control;
mod display;
mod error;
mod parse;
mod penalty;
mod print;
mod timer;

pub use category::Category;
pub use control::{
    Bonus, BonusKind, DAY, Limit, MAX_TIME, Period, RawPeriod, RawTimeControl, Scale, TimeControl,
};
pub use display::{ClockTime, pgn_clock};
pub use error::{ClockError, TimeControlError};
pub use parse::{Syntax, parse_raw};
pub use penalty::{ClaimPenalty, wrong_claim_penalty};
pub use timer::{Clock, Flag, Pause, Press, penalty_time};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
