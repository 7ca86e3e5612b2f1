//! Rating tie-breaks: average rating of opponents (C.07 10.1) and
//! tournament performance rating (C.07 10.2), over games played over the
//! board against rated opponents.

use super::Value;
use crate::crosstable::{Crosstable, Row};

/// The FIDE table of rating differences dp for a fractional score p of
/// 0.00, 0.01, … 1.00 (B.02 8.1.1).
const DP: [i64; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// The ratings of rated opponents met over the board, and the points
/// (in tenths) scored against them.
fn rated_games(table: &Crosstable, row: &Row) -> (Vec<i64>, i64) {
    let mut ratings = Vec::new();
    let mut tenths = 0;
    for o in row.outcomes.iter().filter(|o| o.played()) {
        if let Some(r) = o
            .opponent
            .and_then(|op| table.row(op))
            .and_then(|r| r.rating)
        {
            ratings.push(i64::from(r));
            tenths += i64::from(o.points().tenths());
        }
    }
    (ratings, tenths)
}

/// `numerator / denominator` rounded half up (both positive).
fn round_half_up(numerator: i64, denominator: i64) -> i64 {
    (2 * numerator + denominator) / (2 * denominator)
}

/// C.07 10.1 (ARO): the average rating of the rated opponents met over
/// the board, rounded to a whole number; 0 without such games.
pub(super) fn average_rating_of_opponents(table: &Crosstable, row: &Row) -> Value {
    let (ratings, _) = rated_games(table, row);
    if ratings.is_empty() {
        return Value(0);
    }
    let n = i64::try_from(ratings.len()).unwrap_or(i64::MAX);
    Value::whole(round_half_up(ratings.iter().sum(), n))
}

/// C.07 10.2 (TPR): ARO plus dp of the fractional score (rounded to two
/// decimals) against those opponents; 0 without such games.
pub(super) fn performance(table: &Crosstable, row: &Row) -> Value {
    let (ratings, tenths) = rated_games(table, row);
    if ratings.is_empty() {
        return Value(0);
    }
    let n = i64::try_from(ratings.len()).unwrap_or(i64::MAX);
    let aro = round_half_up(ratings.iter().sum(), n);
    // p in hundredths: tenths × 10 / games.
    let p = round_half_up(tenths * 10, n).clamp(0, 100);
    let dp = DP[usize::try_from(p).unwrap_or(0)];
    Value::whole(aro + dp)
}
