//! Tie-breaks by the FIDE tie-break regulations (C.07, 2024), in the
//! order the organiser chooses.
//!
//! Article numbers are cited as `C.07 16.4` in text and `c07_16_4` in
//! test names. Unplayed rounds follow C.07 16: a player's own unplayed
//! round counts, for Buchholz and Sonneborn-Berger, as a game against a
//! dummy opponent with the player's own score (16.4); for the opponents'
//! tie-breaks, voluntary unplayed rounds after a player's last
//! non-voluntary round count as draws (16.2.5, 16.3.2); low cuts remove
//! voluntary unplayed rounds first (16.5).
//!
//! ```
//! use rochade_tournament::tiebreak::{standings, Cut, Format, TieBreak};
//! use rochade_tournament::{crosstable::Crosstable, trf::Trf};
//!
//! let trf = Trf::parse("001    1      A                                 2000                             1.0    1     2 w 1  \n\
//! 001    2      B                                 1900                             0.0    2     1 b 0  \n").unwrap();
//! let table = Crosstable::from_trf(&trf, 1).unwrap();
//! let ranked = standings(&table, &[TieBreak::Buchholz(Cut::None)], Format::Swiss);
//! assert_eq!(ranked[0].player.get(), 1);
//! assert_eq!(ranked[0].rank, 1);
//! ```

mod buchholz;
mod code;
mod counts;
mod encounter;
mod rating;

use std::fmt;

pub use code::ParseTieBreakError;

use crate::crosstable::{Crosstable, Row};
use crate::{PairingNumber, Points};

/// The modifiers of C.07 14 for Buchholz.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// No modifier.
    None,
    /// C.07 14.1: without the least significant value.
    Cut1,
    /// C.07 14.2: without the two least significant values.
    Cut2,
    /// C.07 14.3: without the least and the most significant value.
    Median1,
    /// C.07 14.4: without the two least and two most significant values.
    Median2,
}

/// Whether the event is a Swiss or a round robin (unplayed rounds count
/// differently, C.07 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A Swiss: unplayed rounds through the dummy opponent.
    Swiss,
    /// A round robin: unplayed rounds add nothing to Buchholz or
    /// Sonneborn-Berger.
    RoundRobin,
}

/// A tie-break of C.07.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// C.07 6: direct encounter among the tied players.
    DirectEncounter,
    /// C.07 7.1: rounds won, played or not (WIN).
    Wins,
    /// C.07 7.2: games won over the board (WON).
    GamesWon,
    /// C.07 7.3: games played with Black (BPG).
    BlackGames,
    /// C.07 7.4: games won with Black (BWG).
    BlackWins,
    /// C.07 7.5: progressive score (PS).
    ProgressiveScore,
    /// C.07 8.1: Buchholz (BH), with a modifier of C.07 14.
    Buchholz(Cut),
    /// C.07 9.1: Sonneborn-Berger (SB).
    SonnebornBerger,
    /// C.07 9.2: Koya (KS), points against opponents with at least half
    /// the maximum score.
    Koya,
    /// C.07 10.1: average rating of opponents (ARO).
    AverageRatingOfOpponents,
    /// C.07 10.2: tournament performance rating (TPR).
    PerformanceRating,
}

/// A tie-break value in hundredths (points, or rating points).
///
/// # Examples
///
/// ```
/// use rochade_tournament::tiebreak::Value;
///
/// assert_eq!(Value(1250).to_string(), "12.50");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value(pub i64);

impl Value {
    /// A value from points.
    fn points(p: Points) -> Value {
        Value(i64::from(p.tenths()) * 10)
    }

    /// A value from a whole count or rating.
    fn whole(n: i64) -> Value {
        Value(n * 100)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", a / 100, a % 100)
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The player.
    pub player: PairingNumber,
    /// Their score.
    pub points: Points,
    /// The tie-break values, in the order asked for.
    pub values: Vec<Value>,
    /// The place, from 1; tied players share a place.
    pub rank: usize,
}

/// The value of one tie-break for one player; `tied` are the players
/// tied with them so far (for direct encounter).
fn value(
    table: &Crosstable,
    row: &Row,
    tie: TieBreak,
    format: Format,
    tied: &[PairingNumber],
) -> Value {
    match tie {
        TieBreak::DirectEncounter => encounter::direct_encounter(table, row, tied),
        TieBreak::Wins => counts::wins(row),
        TieBreak::GamesWon => counts::games_won(row),
        TieBreak::BlackGames => counts::black_games(row),
        TieBreak::BlackWins => counts::black_wins(row),
        TieBreak::ProgressiveScore => counts::progressive(row),
        TieBreak::Buchholz(cut) => buchholz::buchholz(table, row, cut, format),
        TieBreak::SonnebornBerger => buchholz::sonneborn_berger(table, row, format),
        TieBreak::Koya => encounter::koya(table, row),
        TieBreak::AverageRatingOfOpponents => rating::average_rating_of_opponents(table, row),
        TieBreak::PerformanceRating => rating::performance(table, row),
    }
}

/// The standings: by points, then each tie-break in `order` among the
/// players still tied (C.07 4.2); players still tied after the last one
/// share a place and are listed by pairing number.
///
/// # Examples
///
/// ```
/// use rochade_tournament::tiebreak::{standings, Format, TieBreak};
/// use rochade_tournament::{crosstable::Crosstable, trf::Trf};
///
/// let table = Crosstable::from_trf(&Trf::parse("012 Empty\n").unwrap(), 0).unwrap();
/// assert!(standings(&table, &[TieBreak::Wins], Format::Swiss).is_empty());
/// ```
#[must_use]
pub fn standings(table: &Crosstable, order: &[TieBreak], format: Format) -> Vec<Standing> {
    let mut lines: Vec<Standing> = table
        .rows()
        .iter()
        .map(|r| Standing {
            player: r.number,
            points: r.score(),
            values: Vec::with_capacity(order.len()),
            rank: 0,
        })
        .collect();
    lines.sort_by(|a, b| b.points.cmp(&a.points).then(a.player.cmp(&b.player)));
    // Groups of players tied on everything so far, refined tie-break by tie-break.
    let mut groups: Vec<Vec<Standing>> = Vec::new();
    for line in lines {
        match groups.last_mut() {
            Some(g) if g[0].points == line.points => g.push(line),
            _ => groups.push(vec![line]),
        }
    }
    for &tie in order {
        let mut refined = Vec::new();
        for mut group in groups {
            let tied: Vec<PairingNumber> = group.iter().map(|s| s.player).collect();
            for s in &mut group {
                let row = table
                    .row(s.player)
                    .expect("every standing comes from a row");
                s.values.push(value(table, row, tie, format, &tied));
            }
            group.sort_by(|a, b| {
                b.values
                    .last()
                    .cmp(&a.values.last())
                    .then(a.player.cmp(&b.player))
            });
            let mut current: Vec<Standing> = Vec::new();
            for s in group {
                if current
                    .last()
                    .is_some_and(|c| c.values.last() != s.values.last())
                {
                    refined.push(std::mem::take(&mut current));
                }
                current.push(s);
            }
            refined.push(current);
        }
        groups = refined;
    }
    let mut out = Vec::new();
    for group in groups {
        let rank = out.len() + 1;
        for mut s in group {
            s.rank = rank;
            out.push(s);
        }
    }
    out
}
