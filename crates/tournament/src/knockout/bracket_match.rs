//! One match of the bracket: where its two lines come from, and how it
//! stands (waiting, a bye, or the match itself).
//!
//! ```
//! use rochade_tournament::knockout::{Bracket, Entrant, Line, MatchFormat, MatchId, Rules};
//! use rochade_tournament::PairingNumber;
//!
//! let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
//! let final_ = b.get(MatchId::Round { round: 2, number: 1 }).unwrap();
//! let from = MatchId::Round { round: 1, number: 2 };
//! assert_eq!(final_.lines().1, Line::WinnerOf(from));
//! assert_eq!(final_.winner(), Entrant::Undecided);
//! ```

use std::fmt;

use super::{Match, Outcome};
use crate::PairingNumber;

/// A match of the bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MatchId {
    /// Match `number` (1-based, from the top) of round `round` (1-based).
    Round {
        /// The round.
        round: usize,
        /// The match within the round.
        number: usize,
    },
    /// The match for third place.
    ThirdPlace,
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchId::Round { round, number } => write!(f, "{round}.{number}"),
            MatchId::ThirdPlace => f.write_str("third place"),
        }
    }
}

/// Where a line of a match comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Line {
    /// A seed of round 1.
    Seed(PairingNumber),
    /// An empty line of round 1: a bye for the opponent.
    Empty,
    /// The winner of a match of the round before.
    WinnerOf(MatchId),
    /// The loser of a semi-final (for the match for third place).
    LoserOf(MatchId),
}

/// Who stands on a line, as far as known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entrant {
    /// This player.
    Player(PairingNumber),
    /// Nobody: an empty line, a withdrawal, or a match without a winner.
    Nobody,
    /// Not known yet: the match that decides it is not over.
    Undecided,
}

/// How a match of the bracket stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Play {
    /// A line is still undecided.
    Waiting,
    /// No game: `advances` goes through (a bye, or the opponent withdrew
    /// before the match), or nobody does.
    Bye {
        /// The player who goes through, if any.
        advances: Option<PairingNumber>,
    },
    /// The match between the two players.
    Match(Match),
}

/// One match of the bracket: its lines and its play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketMatch {
    pub(super) id: MatchId,
    pub(super) upper: Line,
    pub(super) lower: Line,
    pub(super) play: Play,
}

impl BracketMatch {
    /// Which match this is.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let bye = b.get(MatchId::Round { round: 1, number: 1 }).unwrap();
    /// assert_eq!(bye.id().to_string(), "1.1");
    /// ```
    #[must_use]
    pub fn id(&self) -> MatchId {
        self.id
    }

    /// Where the upper and the lower line come from.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, Line, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let bye = b.get(MatchId::Round { round: 1, number: 1 }).unwrap();
    /// assert_eq!(bye.lines().1, Line::Empty);
    /// ```
    #[must_use]
    pub fn lines(&self) -> (Line, Line) {
        (self.upper, self.lower)
    }

    /// How the match stands.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, Play, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let bye = b.get(MatchId::Round { round: 1, number: 1 }).unwrap();
    /// assert!(matches!(bye.play(), Play::Bye { advances: Some(_) }));
    /// ```
    #[must_use]
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The two players, once the match is made (not for a bye).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let bye = b.get(MatchId::Round { round: 1, number: 1 }).unwrap();
    /// assert_eq!(bye.players(), None);
    /// ```
    #[must_use]
    pub fn players(&self) -> Option<(PairingNumber, PairingNumber)> {
        match &self.play {
            Play::Match(m) => Some(m.players()),
            _ => None,
        }
    }

    /// Who goes through: [`Entrant::Undecided`] until the match is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, Entrant, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let bye = b.get(MatchId::Round { round: 1, number: 1 }).unwrap();
    /// assert_eq!(bye.winner(), Entrant::Player(rochade_tournament::PairingNumber::new(1).unwrap()));
    /// ```
    #[must_use]
    pub fn winner(&self) -> Entrant {
        match &self.play {
            Play::Waiting => Entrant::Undecided,
            Play::Bye { advances } => advances.map_or(Entrant::Nobody, Entrant::Player),
            Play::Match(m) => match m.outcome() {
                None => Entrant::Undecided,
                Some(Outcome::Won { winner, .. }) => Entrant::Player(winner),
                Some(Outcome::NoWinner) => Entrant::Nobody,
            },
        }
    }

    /// Who is out after a played match: [`Entrant::Nobody`] after a bye
    /// or a match without a winner.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, Entrant, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let bye = b.get(MatchId::Round { round: 1, number: 1 }).unwrap();
    /// assert_eq!(bye.loser(), Entrant::Nobody);
    /// ```
    #[must_use]
    pub fn loser(&self) -> Entrant {
        match &self.play {
            Play::Waiting => Entrant::Undecided,
            Play::Bye { .. } => Entrant::Nobody,
            Play::Match(m) => match m.outcome() {
                None => Entrant::Undecided,
                Some(Outcome::Won { loser, .. }) => Entrant::Player(loser),
                Some(Outcome::NoWinner) => Entrant::Nobody,
            },
        }
    }

    /// The match in play, if it is made and not over.
    pub(super) fn live(&self) -> Option<&Match> {
        match &self.play {
            Play::Match(m) if m.outcome().is_none() => Some(m),
            _ => None,
        }
    }
}
