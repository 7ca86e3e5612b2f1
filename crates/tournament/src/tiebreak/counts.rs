//! Tie-breaks that count a player's own results (C.07 7).

use super::Value;
use crate::crosstable::Row;
use crate::{Colour, Points};

/// Counts the rounds of `row` that satisfy `keep`.
fn count(row: &Row, keep: impl Fn(&crate::crosstable::Outcome) -> bool) -> Value {
    let n = row.outcomes.iter().filter(|o| keep(o)).count();
    Value::whole(i64::try_from(n).unwrap_or(i64::MAX))
}

/// C.07 7.1 (WIN): rounds in which the player got a win's points, with or
/// without playing.
pub(super) fn wins(row: &Row) -> Value {
    count(row, |o| o.points() == Points::ONE)
}

/// C.07 7.2 (WON): games won over the board.
pub(super) fn games_won(row: &Row) -> Value {
    count(row, |o| o.played() && o.points() == Points::ONE)
}

/// C.07 7.3 (BPG): games played over the board with Black.
pub(super) fn black_games(row: &Row) -> Value {
    count(row, |o| o.played() && o.colour == Some(Colour::Black))
}

/// C.07 7.4 (BWG): games won over the board with Black.
pub(super) fn black_wins(row: &Row) -> Value {
    count(row, |o| {
        o.played() && o.colour == Some(Colour::Black) && o.points() == Points::ONE
    })
}

/// C.07 7.5 (PS): the sum of the running scores after each round.
pub(super) fn progressive(row: &Row) -> Value {
    let mut running = Points::ZERO;
    let mut sum = Value(0);
    for o in &row.outcomes {
        running += o.points();
        sum.0 += Value::points(running).0;
    }
    sum
}
