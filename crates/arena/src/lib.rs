//! Engine against engine: `rochade match` and `rochade tactics`.
//!
//! The arena drives UCI engines through [`rochade_uci::UciClient`] and
//! referees their games with the laws: every game is a
//! [`rochade_laws::Game`] with one laws [`Clock`](rochade_laws::clock::Clock)
//! per side, so a fallen flag, the 75-move rule, fivefold repetition and
//! dead positions end games exactly as the Laws say. On top come
//! adjudication ([`Adjudicator`], [`Tablebases`]), match statistics
//! ([`Tally`], [`Sprt`]) and tactical test suites ([`run_tactics`]).
//!
//! # Examples
//!
//! ```
//! use rochade_arena::{EngineSpec, Tally, schedule};
//!
//! let sf = EngineSpec::parse(["name=sf", "cmd=/usr/games/stockfish", "tc=10+0.1"]).unwrap();
//! assert_eq!(sf.name, "sf");
//! // Games 0 and 1 share the first opening with colours swapped.
//! assert_eq!(schedule(1, 40), (0, true));
//! let t = Tally { wins: 10, losses: 10, draws: 20 };
//! assert_eq!(t.elo(), 0.0);
//! ```
#![forbid(unsafe_code)]

mod adjudication;
mod epd;
mod error;
mod openings;
mod referee;
mod spec;
mod stats;
mod tactics;
mod tournament;

pub use adjudication::{Adjudicator, DrawRule, ResignRule, Tablebases, Verdict, centipawns};
pub use epd::EpdRecord;
pub use error::{ArenaError, FileLineError, SpecError};
pub use openings::{Opening, read_epd, read_openings};
pub use referee::{Ending, GameRecord, GameSetup, play_game};
pub use spec::{ClockControl, EngineSpec, SearchLimit};
pub use stats::{Sprt, SprtStatus, Tally};
pub use tactics::{Attempt, Problem, read_suite, run_tactics};
pub use tournament::{MatchConfig, MatchSummary, elo_text, run_match, schedule};
