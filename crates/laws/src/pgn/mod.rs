//! Game records in PGN: a streaming reader that checks every game against
//! the Laws, and a writer that follows the PGN standard.
//!
//! ```
//! use rochade_laws::pgn::{PgnReader, ReadOptions};
//!
//! let text = "[Event \"?\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 2. Ke3 *\n";
//! let games: Vec<_> = PgnReader::new(text.as_bytes(), ReadOptions::default()).collect();
//! let first = games[0].as_ref().expect("legal");
//! assert_eq!(first.game.outcome().map(|o| o.result.to_string()).as_deref(), Some("0-1"));
//! let second = games[1].as_ref().expect_err("2. Ke3 is illegal");
//! assert_eq!(second.game_number, 2);
//! assert_eq!(second.move_number, "2.");
//! assert_eq!(second.text, "Ke3");
//! ```

mod date;
mod read;
mod san_move;
mod tags;
mod write;

pub use date::{civil_date, pgn_date};
pub use read::{MoveNode, PgnError, PgnErrorKind, PgnGame, PgnReader, ReadOptions};
pub use tags::Tags;
pub use write::{WriteOptions, is_termination_marker, write_game};
