//! The typed errors of the arena.

use std::path::PathBuf;

use rochade_laws::clock::TimeControlError;
use rochade_uci::ClientError;

/// A field of an engine description (`key=value`) that could not be used.
///
/// # Examples
///
/// ```
/// use rochade_arena::{EngineSpec, SpecError};
///
/// let err = EngineSpec::parse(["name=x", "colour=red"]).unwrap_err();
/// assert_eq!(err, SpecError::UnknownKey { key: "colour".into() });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A field without `=`.
    #[error("`{field}` is not `key=value`")]
    NotKeyValue {
        /// The field as given.
        field: String,
    },
    /// A key the arena does not know.
    #[error("unknown key `{key}` (known: name, cmd, arg, option.NAME, tc, st, depth, nodes)")]
    UnknownKey {
        /// The key as given.
        key: String,
    },
    /// No `cmd=` for the engine.
    #[error("the engine has no `cmd=`")]
    MissingCommand,
    /// A value that does not fit its key.
    #[error("invalid `{key}` value `{value}`: {reason}")]
    InvalidValue {
        /// The key.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What was expected.
        reason: String,
    },
}

/// Why a line of an EPD or opening file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}: {reason}", path.display())]
pub struct FileLineError {
    /// The file.
    pub path: PathBuf,
    /// The line (from 1) or game number (PGN).
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

/// Why a match, a game or a tactics run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// An engine description is wrong.
    #[error("engine `{engine}`: {source}")]
    Spec {
        /// The engine's name or position on the command line.
        engine: String,
        /// What was wrong.
        source: SpecError,
    },
    /// An engine could not be started or set up before a game.
    #[error("engine `{engine}`: {source}")]
    Engine {
        /// The engine's name.
        engine: String,
        /// What failed.
        source: ClientError,
    },
    /// A time control the laws' clock cannot represent.
    #[error("engine `{engine}`: time control `{tc}`: {source}")]
    TimeControl {
        /// The engine's name.
        engine: String,
        /// The control as given.
        tc: String,
        /// Why the clock rejects it.
        source: TimeControlError,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A line of an input file is wrong.
    #[error(transparent)]
    Line(#[from] FileLineError),
    /// The Syzygy tables could not be opened.
    #[error("Syzygy tables in {}: {reason}", path.display())]
    Tablebase {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// A setting of the match is out of range.
    #[error("{0}")]
    Config(String),
}
