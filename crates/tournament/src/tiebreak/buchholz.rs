//! Buchholz (C.07 8.1) and Sonneborn-Berger (C.07 9.1), with the
//! unplayed rounds of C.07 16 and the cuts of C.07 14.

use super::{Cut, Format, Value};
use crate::Points;
use crate::crosstable::{Crosstable, Row};

/// One round's part of a Buchholz: the opponent's (or dummy's) score, and
/// whether the round was a voluntary unplayed round (cut first, C.07 16.5).
#[derive(Debug, Clone, Copy)]
struct Part {
    /// The opponent's adjusted score, or the dummy opponent's.
    score: Points,
    /// The player's own points in that round.
    own: Points,
    /// A voluntary unplayed round of the player.
    voluntary: bool,
}

/// The score of `row` as its opponents' Buchholz sees it (C.07 16.3.2):
/// voluntary unplayed rounds without an opponent after the player's last
/// other round (C.07 16.2.5) count as draws in a Swiss.
fn adjusted_score(row: &Row, format: Format) -> Points {
    let last_other = row
        .outcomes
        .iter()
        .rposition(|o| !o.voluntary_unplayed())
        .map_or(0, |i| i + 1);
    row.outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let terminal = i >= last_other && o.opponent.is_none();
            match (terminal, format) {
                (true, Format::Swiss) => Points::HALF,
                (true, Format::RoundRobin) => Points::ZERO,
                (false, _) => o.points(),
            }
        })
        .sum()
}

/// Each round's part of the Buchholz of `row`: over the board, the
/// opponent's adjusted score; unplayed, in a Swiss, the dummy opponent of
/// C.07 16.4 with the player's own score; unplayed in a round robin, nothing.
fn parts(table: &Crosstable, row: &Row, format: Format) -> Vec<Part> {
    let own_score = row.score();
    row.outcomes
        .iter()
        .filter_map(|o| {
            let score = match (o.played(), format) {
                (true, _) => adjusted_score(table.row(o.opponent?)?, format),
                (false, Format::Swiss) => own_score,
                (false, Format::RoundRobin) => return None,
            };
            Some(Part {
                score,
                own: o.points(),
                voluntary: o.voluntary_unplayed(),
            })
        })
        .collect()
}

/// Removes the least significant part, a voluntary unplayed round first
/// (C.07 16.5).
fn cut_low(parts: &mut Vec<Part>) {
    let pick = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.voluntary)
        .min_by_key(|(_, p)| p.score)
        .or_else(|| parts.iter().enumerate().min_by_key(|(_, p)| p.score))
        .map(|(i, _)| i);
    if let Some(i) = pick {
        parts.remove(i);
    }
}

/// Removes the most significant part.
fn cut_high(parts: &mut Vec<Part>) {
    if let Some(i) = parts
        .iter()
        .enumerate()
        .max_by_key(|(_, p)| p.score)
        .map(|(i, _)| i)
    {
        parts.remove(i);
    }
}

/// C.07 8.1 (BH) with the modifier `cut` (C.07 14.1–14.4).
pub(super) fn buchholz(table: &Crosstable, row: &Row, cut: Cut, format: Format) -> Value {
    let mut parts = parts(table, row, format);
    let (low, high) = match cut {
        Cut::None => (0, 0),
        Cut::Cut1 => (1, 0),
        Cut::Cut2 => (2, 0),
        Cut::Median1 => (1, 1),
        Cut::Median2 => (2, 2),
    };
    for _ in 0..low {
        cut_low(&mut parts);
    }
    for _ in 0..high {
        cut_high(&mut parts);
    }
    Value::points(parts.iter().map(|p| p.score).sum())
}

/// C.07 9.1 (SB): each part's score times the player's points in that
/// round (in points: 1 × 3.5 = 3.5).
pub(super) fn sonneborn_berger(table: &Crosstable, row: &Row, format: Format) -> Value {
    // Tenths times tenths are hundredths: 3.5 × 0.5 = 35 × 5 = 175 = 1.75.
    Value(
        parts(table, row, format)
            .iter()
            .map(|p| i64::from(p.score.tenths()) * i64::from(p.own.tenths()))
            .sum(),
    )
}
