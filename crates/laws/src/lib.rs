//! The FIDE Laws of Chess as a pure library.
//!
//! `rochade-laws` answers two questions for the rest of Rochade: is this move
//! legal, and how does this game end. It has no I/O, no threads and never
//! reads the system clock; functions that depend on time take `now`.
//!
//! Modules follow the Laws: [`game`] (moves, turn, history), [`outcome`]
//! (results and their reasons), [`draw`] (offers, claims, repetition, 50/75
//! moves), [`dead`] (dead positions and unwinnability), [`notation`], [`pgn`],
//! [`chess960`], [`rules`], [`clock`] and [`tablebase`] (the ICCF claims
//! that a tablebase decides).
#![forbid(unsafe_code)]

// Keeps the README's example under test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod chess960;
pub mod clock;
pub mod dead;
pub mod draw;
pub mod fen;
pub mod game;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod pgn;
pub mod rules;
mod safety;
pub mod tablebase;
pub mod timed;

pub use draw::{ClaimError, ClaimKind, ClaimVerdict, DrawOffer, OfferError};
pub use game::{Game, History, MoveError, StartError};
pub use notation::{
    Language, NotationError, ParseLanguageError, PromotionStyle, SanStyle, read_lan, read_move,
    read_numeric, read_san, read_uci, write_lan, write_numeric, write_san, write_uci,
};
pub use outcome::{GameResult, Outcome, Reason, Scoring};
pub use rules::RuleSet;
pub use tablebase::{TablebaseClaim, TablebaseClaimError, TablebaseValue};
pub use timed::{TimedGame, TimedMoveError};
