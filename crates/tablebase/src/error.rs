//! The errors of opening tables and of probing them.

use std::path::PathBuf;

use rochade_laws::TablebaseClaimError;

/// A directory of tables could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The directory could not be listed, or a table in it looks corrupted
    /// (its size is wrong).
    #[error("cannot read the Syzygy tables in {dir}")]
    Io {
        /// The directory.
        dir: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The directory holds no Syzygy table (`*.rtbw`, `*.rtbz`).
    #[error("no Syzygy tables (*.rtbw, *.rtbz) in {dir}")]
    NoTables {
        /// The directory.
        dir: PathBuf,
    },
}

/// A table that should hold the position could not be read: an I/O error
/// or a corrupted file. (A position the tables do not hold is not an error
/// but [`Verdict::NotCovered`](crate::Verdict::NotCovered).)
#[derive(Debug, thiserror::Error)]
#[error("cannot probe the Syzygy table {material}")]
pub struct ProbeError {
    /// The table's material, e.g. `KRvKP`.
    pub material: String,
    /// What went wrong.
    #[source]
    pub source: Box<dyn std::error::Error + Send + Sync>,
}

/// A tablebase claim could not be judged.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The tables could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The Laws refuse the claim itself (game over, not on move, not ICCF,
    /// more than seven pieces).
    #[error(transparent)]
    Claim(#[from] TablebaseClaimError),
}
