//! A round's pairings, printed as bbpPairings and JaVaFo print them with
//! `-p`: the number of pairs, then one pair per line (White first), a
//! bye as the player and `0`.
//!
//! ```
//! use rochade_tournament::{Game, PairingNumber, RoundPairing};
//!
//! let n = |i| PairingNumber::new(i).unwrap();
//! let round = RoundPairing { games: vec![Game { white: n(1), black: n(2) }], byes: vec![n(3)] };
//! assert_eq!(round.to_string(), "2\n1 2\n3 0\n");
//! ```

use std::fmt;

use crate::PairingNumber;

/// One game of a round: who has White, who has Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game {
    /// The player with the white pieces.
    pub white: PairingNumber,
    /// The player with the black pieces.
    pub black: PairingNumber,
}

/// The pairings of one round: games in board order, then the players
/// who have a bye.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundPairing {
    /// The games, board 1 first.
    pub games: Vec<Game>,
    /// The players without an opponent.
    pub byes: Vec<PairingNumber>,
}

impl fmt::Display for RoundPairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.games.len() + self.byes.len())?;
        for g in &self.games {
            writeln!(f, "{} {}", g.white, g.black)?;
        }
        for b in &self.byes {
            writeln!(f, "{b} 0")?;
        }
        Ok(())
    }
}
