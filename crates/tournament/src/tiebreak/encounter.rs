//! Tie-breaks from the games between particular players: direct
//! encounter (C.07 6) and Koya (C.07 9.2).

use super::Value;
use crate::crosstable::{Crosstable, Row};
use crate::{PairingNumber, Points};

/// C.07 6 (DE): the points the player scored against the other tied
/// players, counted only when every tied player has met every other
/// (otherwise it separates no one and is 0 for all).
pub(super) fn direct_encounter(table: &Crosstable, row: &Row, tied: &[PairingNumber]) -> Value {
    let met = |a: &Row, b: PairingNumber| a.outcomes.iter().any(|o| o.opponent == Some(b));
    let all_met = tied.iter().all(|&a| {
        table
            .row(a)
            .is_some_and(|ra| tied.iter().all(|&b| a == b || met(ra, b)))
    });
    if !all_met || tied.len() < 2 {
        return Value(0);
    }
    let points: Points = row
        .outcomes
        .iter()
        .filter(|o| o.opponent.is_some_and(|op| tied.contains(&op)))
        .map(|o| o.points())
        .sum();
    Value::points(points)
}

/// C.07 9.2 (KS): the points scored against opponents who finished with
/// at least half of the maximum possible score.
pub(super) fn koya(table: &Crosstable, row: &Row) -> Value {
    let rounds = u32::try_from(table.rounds()).unwrap_or(u32::MAX);
    let half_maximum = Points::from_tenths(Points::HALF.tenths() * rounds);
    let points: Points = row
        .outcomes
        .iter()
        .filter(|o| {
            o.opponent
                .and_then(|op| table.row(op))
                .is_some_and(|r| r.score() >= half_maximum)
        })
        .map(|o| o.points())
        .sum();
    Value::points(points)
}
