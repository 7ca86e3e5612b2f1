//! Acceleration: virtual points added to scores for pairing only.
//!
//! Two sources add up: the file's `XXA` records (points per player and
//! round, as JaVaFo and bbpPairings read them), and, on request, the
//! Baku Acceleration Method (C.04.5.1): the players of group GA — the
//! first half of the pairing list rounded up to an even number,
//! 2·⌈n/4⌉ — get 1 virtual point in the first half (rounded up) of the
//! accelerated rounds and ½ in the rest; the accelerated rounds are the
//! first half (rounded up) of the tournament.
//!
//! ```
//! use rochade_tournament::dutch::acceleration::baku_points;
//!
//! // Nine rounds, 161 players: GA is 1..=82; 1 point in rounds 1-3,
//! // ½ in rounds 4-5, none after.
//! assert_eq!(baku_points(161, 9, 82, 3), 10);
//! assert_eq!(baku_points(161, 9, 82, 4), 5);
//! assert_eq!(baku_points(161, 9, 83, 1), 0);
//! assert_eq!(baku_points(161, 9, 1, 6), 0);
//! ```

use crate::PairingNumber;
use crate::trf::{Record, Trf};

/// An acceleration method requested on top of the file's `XXA` records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Only the file's `XXA` records.
    #[default]
    None,
    /// The Baku Acceleration Method (C.04.5.1).
    Baku,
}

/// Baku virtual points, in tenths, of the player with pairing number
/// `number` in `round` of a `rounds`-round tournament of `players`.
#[must_use]
pub fn baku_points(players: usize, rounds: u16, number: u16, round: u16) -> u32 {
    let group_a = 2 * players.div_ceil(4);
    let accelerated = rounds.div_ceil(2);
    let full = accelerated.div_ceil(2);
    if usize::from(number) > group_a || round > accelerated {
        0
    } else if round <= full {
        10
    } else {
        5
    }
}

/// The virtual points, in tenths, of `player` in `round`.
#[must_use]
pub fn virtual_points(trf: &Trf, method: Method, player: PairingNumber, round: u16) -> u32 {
    let listed: u32 = trf
        .records()
        .iter()
        .filter_map(|r| match r {
            Record::Acceleration(a) if a.player == player => a
                .points
                .get(usize::from(round).saturating_sub(1))
                .map(|p| p.tenths()),
            _ => None,
        })
        .sum();
    let baku = match (method, trf.rounds()) {
        (Method::Baku, Some(rounds)) => {
            baku_points(trf.players().len(), rounds, player.get(), round)
        }
        _ => 0,
    };
    listed + baku
}
