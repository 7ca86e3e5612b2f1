//! Syzygy endgame tablebases as the ICCF rules use them.
//!
//! With seven or fewer pieces on the board the ICCF rules have no 50-move
//! rule (9.3); instead the player on move may claim the win (5.1.3) or the
//! draw (5.2.4) that a tablebase gives. This crate opens a directory of
//! Syzygy tables (any set: 3 to 7 pieces), gives the [`Verdict`] for the side
//! to move of a `rochade-laws` position — a "cursed win" is a win here, a
//! "blessed loss" a loss — and judges tablebase claims.
//!
//! ```no_run
//! use rochade_laws::{Game, RuleSet, TablebaseClaim};
//! use rochade_tablebase::{Tablebase, Verdict};
//!
//! let tables = Tablebase::open("data/syzygy")?;
//! let game = Game::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", RuleSet::Iccf)?;
//! assert_eq!(tables.verdict(game.position())?, Verdict::Win);
//! assert!(tables.claim_holds(game.position(), TablebaseClaim::Win)?);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

mod error;
mod tables;
mod verdict;

pub use error::{JudgeError, OpenError, ProbeError};
pub use tables::Tablebase;
pub use verdict::{NotCovered, Verdict};

// Keeps the README's example compiled.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
