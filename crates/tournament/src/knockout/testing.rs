//! Helpers shared by the knockout tests.

use super::{MatchFormat, Outcome, Stage, StageKind, WonBy};
use crate::PairingNumber;

/// Pairing number `i`.
pub(super) fn n(i: u16) -> PairingNumber {
    PairingNumber::new(i).expect("a pairing number")
}

/// `games` standard games, then an Armageddon game.
pub(super) fn standard_then_armageddon(games: u16) -> MatchFormat {
    MatchFormat::new(
        Stage::new(StageKind::Standard, games, "90'"),
        vec![Stage::armageddon("5' v 4'")],
    )
    .expect("a valid format")
}

/// The outcome of `winner` beating `loser`.
pub(super) fn won(winner: u16, loser: u16, by: WonBy) -> Option<Outcome> {
    Some(Outcome::Won {
        winner: n(winner),
        loser: n(loser),
        by,
    })
}
