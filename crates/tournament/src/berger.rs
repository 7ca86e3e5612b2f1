//! Round robins by the FIDE Berger tables (C.05 Annex 1).
//!
//! Players are numbered 1 to n by lot; with an odd number, the number
//! n + 1 is the bye, and whoever meets it does not play that round. In a
//! double round robin the second cycle repeats the first with colours
//! reversed, and the last two rounds of the first cycle are exchanged so
//! that no one has the same colour three times in a row.
//!
//! ```
//! use rochade_tournament::berger::{self, Cycles};
//!
//! // Five players: round 1 is 1-6 (a bye for 1), 2-5, 3-4.
//! let r = berger::round(5, 1, Cycles::Single).unwrap();
//! assert_eq!(r.to_string(), "3\n2 5\n3 4\n1 0\n");
//! assert_eq!(berger::rounds_in(5, Cycles::Double), 10);
//! ```

use thiserror::Error;

use crate::{Game, PairingNumber, RoundPairing};

/// Single or double round robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cycles {
    /// Everyone meets everyone once.
    Single,
    /// Everyone meets everyone twice, once with each colour.
    Double,
}

/// Why a Berger round cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BergerError {
    /// Fewer than two players, or more than TRF16 can number.
    #[error("a round robin needs 2 to 9998 players, not {0}")]
    Players(usize),
    /// A round outside the tournament.
    #[error("round {round} is outside 1..={last}")]
    Round {
        /// The round asked for.
        round: usize,
        /// The last round of the tournament.
        last: usize,
    },
}

/// The table's size: `players` rounded up to an even number.
fn table_size(players: usize) -> usize {
    players + players % 2
}

/// The number of rounds of a round robin of `players`.
///
/// # Examples
///
/// ```
/// use rochade_tournament::berger::{rounds_in, Cycles};
///
/// assert_eq!(rounds_in(8, Cycles::Single), 7);
/// assert_eq!(rounds_in(7, Cycles::Single), 7);
/// assert_eq!(rounds_in(4, Cycles::Double), 6);
/// ```
#[must_use]
pub fn rounds_in(players: usize, cycles: Cycles) -> usize {
    let per_cycle = table_size(players).saturating_sub(1);
    match cycles {
        Cycles::Single => per_cycle,
        Cycles::Double => 2 * per_cycle,
    }
}

/// Round `round` (1-based) of the Berger table for `n` (even) players,
/// as (White, Black) pairs of table numbers in board order.
///
/// Board 1 holds player n; in odd rounds the other player of board 1 has
/// White, in even rounds n has White. Board k + 1 pairs the numbers k
/// places after (White) and k places before (Black) board 1's opponent,
/// counting round 1..n-1 cyclically.
///
/// # Examples
///
/// ```
/// use rochade_tournament::berger::table_round;
///
/// assert_eq!(table_round(4, 2), vec![(4, 3), (1, 2)]);
/// ```
#[must_use]
pub fn table_round(n: usize, round: usize) -> Vec<(usize, usize)> {
    let ring = n - 1;
    let anchor = if round % 2 == 1 {
        round.div_ceil(2)
    } else {
        n / 2 + round / 2
    };
    let mut pairs = Vec::with_capacity(n / 2);
    pairs.push(if round % 2 == 1 {
        (anchor, n)
    } else {
        (n, anchor)
    });
    // The numbers at distance i on either side of the anchor, on 1..n-1.
    let around = |i: usize| {
        let up = (anchor - 1 + i) % ring + 1;
        let down = (anchor - 1 + ring - i % ring) % ring + 1;
        (up, down)
    };
    pairs.extend((1..n / 2).map(around));
    pairs
}

/// The pairings of round `round` (1-based) of a round robin of
/// `players`, numbered 1..=players.
///
/// # Errors
///
/// [`BergerError`] for fewer than 2 players or a round outside the
/// tournament.
///
/// # Examples
///
/// ```
/// use rochade_tournament::berger::{round, Cycles};
///
/// // Double round robin of four: round 4 repeats round 1 reversed.
/// assert_eq!(round(4, 4, Cycles::Double).unwrap().to_string(), "2\n4 1\n3 2\n");
/// ```
pub fn round(players: usize, round: usize, cycles: Cycles) -> Result<RoundPairing, BergerError> {
    if !(2..=usize::from(PairingNumber::TRF16_MAX) - 1).contains(&players) {
        return Err(BergerError::Players(players));
    }
    let last = rounds_in(players, cycles);
    if !(1..=last).contains(&round) {
        return Err(BergerError::Round { round, last });
    }
    let n = table_size(players);
    let per_cycle = n - 1;
    let (table, reversed) = match cycles {
        Cycles::Single => (round, false),
        Cycles::Double if round > per_cycle => (round - per_cycle, true),
        // C.05 Annex 1: the last two rounds of the first cycle exchanged.
        Cycles::Double if per_cycle >= 2 && round == per_cycle => (per_cycle - 1, false),
        Cycles::Double if per_cycle >= 2 && round == per_cycle - 1 => (per_cycle, false),
        Cycles::Double => (round, false),
    };
    let mut pairing = RoundPairing::default();
    for (a, b) in table_round(n, table) {
        let (white, black) = if reversed { (b, a) } else { (a, b) };
        let number = |i: usize| u16::try_from(i).ok().and_then(PairingNumber::new);
        match (
            number(white).filter(|_| white <= players),
            number(black).filter(|_| black <= players),
        ) {
            (Some(white), Some(black)) => pairing.games.push(Game { white, black }),
            (Some(p), None) | (None, Some(p)) => pairing.byes.push(p),
            (None, None) => {}
        }
    }
    Ok(pairing)
}
