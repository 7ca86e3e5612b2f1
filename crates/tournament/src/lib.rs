//! Tournaments by the FIDE regulations, as a pure library.
//!
//! `rochade-tournament` pairs and scores tournaments: it reads and writes
//! the FIDE Tournament Report File ([`trf`], TRF16 with the extensions the
//! pairing engines use), pairs round robins by the Berger tables
//! ([`berger`], C.05 Annex 1), pairs Swiss rounds by the FIDE (Dutch)
//! System ([`dutch`], C.04.3, on the maximum weight [`matching`]) and
//! ranks players by the FIDE tie-break regulations ([`tiebreak`], C.07).
//! Like `rochade-laws` it does no I/O, starts no threads and never reads
//! the clock: text in, values out.
//!
//! ```
//! use rochade_tournament::berger;
//!
//! // Round 1 of a six-player round robin: 1-6, 2-5, 3-4.
//! let round = berger::round(6, 1, berger::Cycles::Single).unwrap();
//! assert_eq!(round.to_string(), "3\n1 6\n2 5\n3 4\n");
//! ```
#![forbid(unsafe_code)]

pub mod berger;
pub mod crosstable;
pub mod dutch;
pub mod knockout;
pub mod matching;
pub mod pairing;
mod player;
mod points;
pub mod tiebreak;
pub mod trf;

pub use pairing::{Game, RoundPairing};
pub use player::{Colour, PairingNumber};
pub use points::{ParsePointsError, Points};
