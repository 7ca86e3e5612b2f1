//! The crosstable the tie-breaks read: each player's rating and, round by
//! round, their opponent, colour and result code.
//!
//! ```
//! use rochade_tournament::{crosstable::Crosstable, trf::Trf};
//!
//! let trf = Trf::parse("001    1      A                                 2000                             1.0    1     2 w 1  \n\
//! 001    2      B                                 1900                             0.0    2     1 b 0  \n").unwrap();
//! let table = Crosstable::from_trf(&trf, 1).unwrap();
//! assert_eq!(table.rounds(), 1);
//! assert_eq!(table.rows()[0].score().to_string(), "1.0");
//! ```

use thiserror::Error;

use crate::trf::{ResultCode, Trf};
use crate::{Colour, PairingNumber, Points};

/// One player's round: opponent (none for a bye), colour, result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The opponent, if one was paired.
    pub opponent: Option<PairingNumber>,
    /// The colour, if one was assigned.
    pub colour: Option<Colour>,
    /// The result (absences are [`ResultCode::ZeroPointBye`]).
    pub code: ResultCode,
}

impl Outcome {
    /// Whether the game was played over the board.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{crosstable::Outcome, trf::ResultCode};
    ///
    /// let bye = Outcome { opponent: None, colour: None, code: ResultCode::FullPointBye };
    /// assert!(!bye.played());
    /// ```
    #[must_use]
    pub fn played(&self) -> bool {
        self.opponent.is_some() && self.code.is_played()
    }

    /// The points this round is worth (FIDE default scoring).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{Points, crosstable::Outcome, trf::ResultCode};
    ///
    /// let bye = Outcome { opponent: None, colour: None, code: ResultCode::HalfPointBye };
    /// assert_eq!(bye.points(), Points::HALF);
    /// ```
    #[must_use]
    pub fn points(&self) -> Points {
        self.code.points()
    }

    /// Whether this is a voluntary unplayed round (C.07 16.2): an unplayed
    /// round that did not bring a win's points — a half- or zero-point
    /// bye, an absence or a forfeit loss. The pairing-allocated bye, the
    /// full-point bye and a forfeit win are not voluntary.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{crosstable::Outcome, trf::ResultCode};
    ///
    /// let half = Outcome { opponent: None, colour: None, code: ResultCode::HalfPointBye };
    /// let pab = Outcome { opponent: None, colour: None, code: ResultCode::PairingAllocatedBye };
    /// assert!(half.voluntary_unplayed());
    /// assert!(!pab.voluntary_unplayed());
    /// ```
    #[must_use]
    pub fn voluntary_unplayed(&self) -> bool {
        !self.played() && self.points() < Points::ONE
    }
}

/// One player's line of the crosstable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The player.
    pub number: PairingNumber,
    /// The FIDE rating, if rated.
    pub rating: Option<u16>,
    /// The rounds, round 1 first.
    pub outcomes: Vec<Outcome>,
}

impl Row {
    /// The player's score over all rounds of the crosstable.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{PairingNumber, Points, crosstable::Row};
    ///
    /// let row = Row { number: PairingNumber::new(1).unwrap(), rating: None, outcomes: vec![] };
    /// assert_eq!(row.score(), Points::ZERO);
    /// ```
    #[must_use]
    pub fn score(&self) -> Points {
        self.outcomes.iter().map(Outcome::points).sum()
    }
}

/// Why a crosstable cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CrosstableError {
    /// A game of a counted round has no result yet.
    #[error("round {round}: player {player}'s game has no result yet")]
    Unfinished {
        /// The round.
        round: usize,
        /// The player.
        player: u16,
    },
}

/// Every player's rounds, up to a given round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crosstable {
    rows: Vec<Row>,
    rounds: usize,
}

impl Crosstable {
    /// The crosstable of `trf` after `rounds` rounds; a round a player has
    /// no block for counts as an absence.
    ///
    /// # Errors
    ///
    /// [`CrosstableError::Unfinished`] if a game of those rounds has no result.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{crosstable::Crosstable, trf::Trf};
    ///
    /// let trf = Trf::parse("012 Empty\n").unwrap();
    /// assert!(Crosstable::from_trf(&trf, 3).unwrap().rows().is_empty());
    /// ```
    pub fn from_trf(trf: &Trf, rounds: u16) -> Result<Crosstable, CrosstableError> {
        let rounds = usize::from(rounds);
        let mut rows = Vec::new();
        for p in trf.players() {
            let mut outcomes = Vec::with_capacity(rounds);
            for round in 0..rounds {
                let entry = p.rounds.get(round).copied().flatten();
                let outcome = match entry {
                    None => Outcome {
                        opponent: None,
                        colour: None,
                        code: ResultCode::ZeroPointBye,
                    },
                    Some(e) => Outcome {
                        opponent: e.opponent,
                        colour: e.colour,
                        code: e.result.ok_or(CrosstableError::Unfinished {
                            round: round + 1,
                            player: p.number.get(),
                        })?,
                    },
                };
                outcomes.push(outcome);
            }
            rows.push(Row {
                number: p.number,
                rating: p.rating.filter(|r| *r > 0),
                outcomes,
            });
        }
        Ok(Crosstable { rows, rounds })
    }

    /// The rows, in file order.
    #[must_use]
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The number of rounds counted.
    #[must_use]
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The row of player `number`.
    #[must_use]
    pub fn row(&self, number: PairingNumber) -> Option<&Row> {
        self.rows.iter().find(|r| r.number == number)
    }
}
