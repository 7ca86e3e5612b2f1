//! Tournaments by the FIDE regulations, as a pure library.
//!
//! `rochade-tournament` pairs and scores tournaments: it reads and writes
//! the FIDE Tournament Report File ([`trf`], TRF16 with the extensions the
//! pairing engines use), pairs round robins by the Berger tables
//! ([`berger`], C.05 Annex 1) and ranks players by the FIDE tie-break
//! regulations ([`tiebreak`], C.07). Like `rochade-laws` it does no I/O,
//! starts no threads and never reads the clock: text in, values out.
//!
//! ```
//! use rochade_tournament::trf::Trf;
//!
//! let trf = Trf::parse("012 Club championship\nXXR 7\n").unwrap();
//! assert_eq!(trf.rounds(), Some(7));
//! ```
#![forbid(unsafe_code)]

mod player;
mod points;
pub mod trf;

pub use player::{Colour, PairingNumber};
pub use points::{ParsePointsError, Points};
