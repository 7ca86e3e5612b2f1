//! `rochade loadtest` and the client it is made of.
//!
//! [`client`] speaks the server's HTTP API and game socket
//! (docs/protocol.md) as a page does; [`run`] drives many games through
//! it against a running `rochade serve` and reports round trips, lost or
//! duplicated moves, and the server's memory per game. A game rides out a
//! node that dies ([`Resilience`]: it reconnects through the same address
//! and sends a move again only when the state says it was not stored), and
//! after the run every game is read back and its stored moves compared
//! with those acknowledged ([`StoredCheck`], [`check`]). The server's own
//! tests use the same client, so the load tool and the tests can never
//! disagree about the protocol.
//!
//! ```no_run
//! # async fn demo() -> Result<(), rochade_loadtest::client::ClientError> {
//! use rochade_loadtest::{LoadConfig, run};
//! let report = run(LoadConfig::new("ws://127.0.0.1:8080", 100)).await?;
//! println!("p99 {} ms", report.p99_ms);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub mod check;
pub mod client;
pub mod disk;
mod game;
mod resilience;
mod run;
mod seat;
pub mod seconds;
mod state;
mod stored;
mod tally;
pub mod watchers;

pub use resilience::{CHECK_AT_LEAST, Resilience};
pub use run::{LoadConfig, LoadReport, rss_kib, run, run_with};
pub use state::apply_move;
pub use stored::{BadGame, StoredCheck};
