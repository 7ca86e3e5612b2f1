//! A set of Syzygy tables, opened from one or more directories.

use std::{
    fmt,
    path::{Path, PathBuf},
    time::Duration,
};

use rochade_laws::{Outcome, TablebaseClaim, TimedGame};
use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::SyzygyError;

use crate::{JudgeError, NotCovered, OpenError, ProbeError, Verdict};

/// Syzygy WDL tables (`*.rtbw`; the DTZ tables, `*.rtbz`, are not needed),
/// read lazily as positions need them. Shared between threads as it is
/// (`Send + Sync`; put it in an `Arc`).
pub struct Tablebase {
    tables: shakmaty_syzygy::Tablebase<Chess>,
    dirs: Vec<PathBuf>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("dirs", &self.dirs)
            .field("max_pieces", &self.max_pieces())
            .finish()
    }
}

impl Tablebase {
    /// The tables in `dir` (any set: 3 to 7 pieces). The files are opened
    /// when a position first needs them.
    ///
    /// # Errors
    ///
    /// [`OpenError::Io`] when `dir` cannot be listed, [`OpenError::NoTables`]
    /// when it holds no table.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tablebase::{OpenError, Tablebase};
    ///
    /// let missing = Tablebase::open("/nonexistent/syzygy");
    /// assert!(matches!(missing, Err(OpenError::Io { .. })));
    /// ```
    pub fn open(dir: impl AsRef<Path>) -> Result<Tablebase, OpenError> {
        let mut tablebase = Tablebase {
            tables: shakmaty_syzygy::Tablebase::new(),
            dirs: Vec::new(),
        };
        tablebase.add_directory(dir)?;
        Ok(tablebase)
    }

    /// Adds the tables in another directory (Syzygy sets are often kept as
    /// 3-4-5, 6 and 7 pieces apart).
    ///
    /// # Errors
    ///
    /// As [`Tablebase::open`].
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> Result<(), OpenError> {
        let dir = dir.as_ref();
        let added = self
            .tables
            .add_directory(dir)
            .map_err(|source| OpenError::Io {
                dir: dir.to_owned(),
                source,
            })?;
        if added == 0 {
            return Err(OpenError::NoTables {
                dir: dir.to_owned(),
            });
        }
        self.dirs.push(dir.to_owned());
        Ok(())
    }

    /// The directories the tables came from.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The pieces (kings included) of the largest table opened.
    pub fn max_pieces(&self) -> u32 {
        u32::try_from(self.tables.max_pieces()).unwrap_or(u32::MAX)
    }

    /// The tables' verdict on `position` for the side to move, whatever its
    /// halfmove clock (no 50-move rule: a cursed win is a win).
    ///
    /// # Errors
    ///
    /// [`ProbeError`] when a table the position needs cannot be read.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use rochade_laws::fen;
    /// use rochade_tablebase::{Tablebase, Verdict};
    ///
    /// let tables = Tablebase::open("data/syzygy")?;
    /// // King and rook against king, 99 half-moves without a capture: a win
    /// // all the same, though the 50-move rule would end it.
    /// let krk = fen::read("8/8/8/8/4k3/8/8/R3K3 w - - 99 80")?.position;
    /// assert_eq!(tables.verdict(&krk)?, Verdict::Win);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict(&self, position: &Chess) -> Result<Verdict, ProbeError> {
        let pieces = position.board().occupied().count() as u32;
        if pieces > self.max_pieces() {
            return Ok(Verdict::NotCovered(NotCovered::TooManyPieces {
                pieces,
                max: self.max_pieces(),
            }));
        }
        if !position.castles().is_empty() {
            return Ok(Verdict::NotCovered(NotCovered::Castling));
        }
        match self.tables.probe_wdl_after_zeroing(position) {
            Ok(wdl) => Ok(Verdict::from_wdl(wdl)),
            Err(SyzygyError::Castling) => Ok(Verdict::NotCovered(NotCovered::Castling)),
            Err(SyzygyError::TooManyPieces) => Ok(Verdict::NotCovered(NotCovered::TooManyPieces {
                pieces,
                max: self.max_pieces(),
            })),
            Err(SyzygyError::MissingTable { material, .. }) => {
                Ok(Verdict::NotCovered(NotCovered::MissingTable {
                    material: material.to_string(),
                }))
            }
            Err(SyzygyError::ProbeFailed {
                material, error, ..
            }) => Err(ProbeError {
                material: material.to_string(),
                source: error,
            }),
        }
    }

    /// Whether `claim`, made by the player on move in `position`, is
    /// correct: the tables hold the position and give the claimant the win
    /// (ICCF 5.1.3) or a draw (ICCF 5.2.4). A position the tables do not
    /// hold makes every claim wrong.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::verdict`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use rochade_laws::{TablebaseClaim, fen};
    /// use rochade_tablebase::Tablebase;
    ///
    /// let tables = Tablebase::open("data/syzygy")?;
    /// let krkr = fen::read("8/8/4k3/8/8/3K4/R7/7r b - - 0 1")?.position;
    /// assert!(tables.claim_holds(&krkr, TablebaseClaim::Draw)?);
    /// assert!(!tables.claim_holds(&krkr, TablebaseClaim::Win)?);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn claim_holds(&self, position: &Chess, claim: TablebaseClaim) -> Result<bool, ProbeError> {
        Ok(self
            .verdict(position)?
            .value()
            .is_some_and(|value| claim.holds(value)))
    }

    /// Judges a tablebase claim by `claimant` in a game on the clock at
    /// `now` (what a server does when a player claims): a correct claim
    /// ends the game (a win by ICCF 5.1.3, a draw by 5.2.4) and stops the
    /// clock; a wrong one changes nothing and returns `None` (ICCF 9.4.3).
    ///
    /// # Errors
    ///
    /// [`JudgeError::Claim`] when the Laws refuse the claim (see
    /// [`Game::claim_tablebase`](rochade_laws::Game::claim_tablebase)),
    /// [`JudgeError::Probe`] when a table cannot be read; the game is
    /// unchanged.
    pub fn judge(
        &self,
        game: &mut TimedGame,
        claimant: Color,
        claim: TablebaseClaim,
        now: Duration,
    ) -> Result<Option<Outcome>, JudgeError> {
        let value = self.verdict(game.game().position())?.value();
        Ok(game.claim_tablebase(claimant, claim, value, now)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_between_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Tablebase>();
    }
}
