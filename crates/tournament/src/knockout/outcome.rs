//! What a match waits for, the games it has played, and how it ends.
//!
//! ```
//! use rochade_tournament::knockout::{Match, MatchFormat, Next, StageKind};
//! use rochade_tournament::PairingNumber;
//!
//! let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
//! let m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
//! assert_eq!(m.next(), Next::DrawColours { stage: 0, kind: StageKind::Standard });
//! ```

use super::{GameResult, Stage, StageKind};
use crate::PairingNumber;

/// How a match was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WonBy {
    /// On the score of a stage (0-based index into the format's stages).
    Score {
        /// The deciding stage.
        stage: usize,
    },
    /// A drawn Armageddon game: Black's draw odds.
    DrawOdds,
    /// The opponent withdrew.
    Withdrawal,
}

/// The end of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player goes through.
    Won {
        /// Who goes through.
        winner: PairingNumber,
        /// Who is out.
        loser: PairingNumber,
        /// How.
        by: WonBy,
    },
    /// Neither goes through: a double forfeit in the deciding game.
    NoWinner,
}

/// One game played (or forfeited) in a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchGame {
    /// The stage (0-based index into the format's stages).
    pub stage: usize,
    /// The block of the stage (1-based: a repeated block counts up).
    pub block: u16,
    /// Who had White.
    pub white: PairingNumber,
    /// Who had Black.
    pub black: PairingNumber,
    /// The result.
    pub result: GameResult,
}

/// The game to be played next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextGame<'a> {
    /// The stage (0-based index into the format's stages).
    pub stage: usize,
    /// Its kind, time control and repeats.
    pub rules: &'a Stage,
    /// The block of the stage (1-based).
    pub block: u16,
    /// The game within the block (1-based).
    pub game: u16,
    /// The game within the match (1-based).
    pub number: usize,
    /// Who has White.
    pub white: PairingNumber,
    /// Who has Black.
    pub black: PairingNumber,
}

/// What the match waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next<'a> {
    /// The colours of a stage's first game: call [`Match::set_colours`](super::Match::set_colours).
    DrawColours {
        /// The stage (0-based).
        stage: usize,
        /// Its kind.
        kind: StageKind,
    },
    /// A game: call [`Match::record`](super::Match::record) with its result.
    Game(NextGame<'a>),
    /// Nothing: the match is decided.
    Finished(Outcome),
}
