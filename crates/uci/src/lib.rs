//! The UCI (Universal Chess Interface) protocol as text.
//!
//! `rochade-uci` reads and writes the lines that pass between a chess GUI
//! and an engine: [`GuiCommand`] for GUI-to-engine commands (`uci`,
//! `position`, `go`, …) and [`EngineMessage`] for engine-to-GUI messages
//! (`id`, `option`, `info`, `bestmove`, …). It knows nothing about search;
//! both Rochade's engine loop and its driver for external engines use it.
//!
//! Every value prints as one canonical line, and parsing that line gives the
//! value back. Parsing never panics: an unknown or malformed line is a
//! [`UciParseError`] naming what was wrong and at which token, and unknown
//! tokens before a known command are skipped as the spec asks (see
//! [`Parsed`]). Moves are shakmaty [`UciMove`](shakmaty::uci::UciMove)s,
//! the null move `0000` included; FENs are shakmaty
//! [`Fen`](shakmaty::fen::Fen)s.
//!
//! # Examples
//!
//! ```
//! use rochade_uci::{EngineMessage, GoParams, GuiCommand, ScoreKind};
//!
//! let go = GuiCommand::Go(GoParams { depth: Some(12), ..GoParams::default() });
//! assert_eq!(go.to_string(), "go depth 12");
//!
//! let msg = EngineMessage::parse("info depth 12 score cp -32 pv c7c5 g1f3").unwrap();
//! if let EngineMessage::Info(info) = msg {
//!     assert_eq!(info.score.map(|s| s.kind), Some(ScoreKind::Cp(-32)));
//! }
//! ```
#![forbid(unsafe_code)]

mod client;
mod client_error;
mod engine;
mod error;
mod go;
mod gui;
mod info;
mod millis;
mod option;
mod parsed;
mod position;
mod register;
mod score;
mod tokens;

pub use client::{SearchResult, UciClient};
pub use client_error::{ClientError, GarbageLine};
pub use engine::{CheckStatus, EngineMessage, Id};
pub use error::UciParseError;
pub use go::{GoParams, SideClock};
pub use gui::GuiCommand;
pub use info::{CurrLine, Info, Wdl};
pub use option::{OptionDecl, OptionKind};
pub use parsed::Parsed;
pub use position::{PositionBase, PositionSpec};
pub use register::Registration;
pub use score::{Score, ScoreBound, ScoreKind};

/// The crate README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
