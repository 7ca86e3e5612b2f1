//! The typed errors of the [`UciClient`](crate::UciClient) and the garbage
//! lines it sets aside.

use std::path::PathBuf;
use std::time::Duration;

use crate::UciParseError;

/// Why talking to an external engine failed.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_uci::ClientError;
///
/// let err = ClientError::Timeout { waiting_for: "readyok", after: Duration::from_secs(2) };
/// assert_eq!(err.to_string(), "no `readyok` from the engine within 2s");
/// ```
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The engine process could not be started.
    #[error("cannot start engine `{}`: {source}", path.display())]
    Spawn {
        /// The program that was to be run.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A command could not be written to the engine's stdin.
    #[error("cannot send `{command}` to the engine: {source}")]
    Write {
        /// The command line that was being sent.
        command: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The engine's stdout could not be read.
    #[error("cannot read from the engine: {0}")]
    Read(std::io::Error),
    /// The awaited answer did not come in time.
    #[error("no `{waiting_for}` from the engine within {after:?}")]
    Timeout {
        /// The message that was awaited, e.g. `uciok`.
        waiting_for: &'static str,
        /// How long the client waited.
        after: Duration,
    },
    /// The engine closed its stdout (it exited or crashed) while the client
    /// waited for an answer.
    #[error("the engine closed its output while the client waited for `{waiting_for}`")]
    Exited {
        /// The message that was awaited.
        waiting_for: &'static str,
    },
    /// A command for the engine would not be one line (a newline in an
    /// option name or value).
    #[error("the command `{0}` contains a line break")]
    MultiLine(String),
    /// The engine does not declare an option the caller wants to set.
    #[error("the engine has no option `{name}`")]
    UnknownOption {
        /// The name asked for.
        name: String,
    },
}

/// A line from the engine that is not a UCI message, kept for the log.
///
/// Engines print banners (`Stockfish 15.1 by the Stockfish developers`) and
/// sometimes malformed lines; the client never fails on them, it sets them
/// aside with the reason they could not be read.
///
/// # Examples
///
/// ```
/// use rochade_uci::{EngineMessage, GarbageLine};
///
/// let line = "bestmove e9e4";
/// let garbage = GarbageLine {
///     line: line.to_owned(),
///     error: EngineMessage::parse(line).unwrap_err(),
/// };
/// assert_eq!(garbage.to_string(), "`bestmove e9e4`: invalid move `e9e4` at token 1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{line}`: {error}")]
pub struct GarbageLine {
    /// The line as received (lossily decoded if not UTF-8).
    pub line: String,
    /// Why it is not a UCI message.
    pub error: UciParseError,
}
