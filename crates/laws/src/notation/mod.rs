//! Chess notation in and out (FIDE Laws, Appendix C; ICCF rules, Appendix A).
//!
//! A pure function layer over shakmaty's [`Chess`](shakmaty::Chess)
//! position and [`Move`](shakmaty::Move):
//!
//! - short algebraic notation (SAN) in twelve [`Language`]s:
//!   [`write_san`], [`read_san`];
//! - long algebraic notation: [`write_lan`], [`read_lan`];
//! - UCI, with Chess960 castling as king onto rook: [`write_uci`],
//!   [`read_uci`];
//! - ICCF numeric notation: [`write_numeric`], [`read_numeric`];
//! - any of these: [`read_move`].
//!
//! Reading never panics; every failure is a [`NotationError`].
//!
//! # Examples
//!
//! ```
//! use rochade_laws::{Language, SanStyle, read_move, write_numeric, write_san};
//! use shakmaty::{CastlingMode, Chess};
//!
//! let pos = Chess::default();
//! let m = read_move(&pos, "Jf3", Language::Slovak, CastlingMode::Standard)?;
//! assert_eq!(write_san(&pos, m, &SanStyle::default()), "Nf3");
//! assert_eq!(write_numeric(&pos, m), "7163");
//! # Ok::<_, rochade_laws::NotationError>(())
//! ```

mod error;
mod lan;
mod language;
mod numeric;
mod read;
mod resolve;
mod san;
mod style;
mod text;
mod uci;

#[cfg(test)]
mod proptests;

pub use error::{NotationError, ParseLanguageError};
pub use lan::{read_lan, write_lan};
pub use language::Language;
pub use numeric::{read_numeric, write_numeric};
pub use read::read_move;
pub use san::{read_san, write_san};
pub use style::{PromotionStyle, SanStyle};
pub use uci::{read_uci, write_uci};
