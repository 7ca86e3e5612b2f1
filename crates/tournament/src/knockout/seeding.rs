//! Seeding: the bracket's size and the order of its lines.
//!
//! Players are numbered by seed, 1 the highest rated. The bracket has the
//! next power of two of lines; the lines of seeds beyond the number of
//! players are byes. Seed `s` meets seed `size + 1 - s` in round 1, so
//! the byes fall to the top seeds, and in every later round the best
//! remaining seed meets the worst one: seed 1 can meet seed 2 only in the
//! final, seeds 1–4 only in the semi-finals, and so on.
//!
//! The lines are in the order of the FIDE World Cup brackets, seed 1 at
//! the top and seed 2 at the bottom. For 128 lines, round 1 reads
//! 1–128, 64–65, 33–96, 32–97, 17–112, 48–81, 49–80, 16–113, 9–120, …,
//! 2–127: each order of `2m` lines replaces the `i`-th seed `s` of the
//! order of `m` lines by the pair (`s`, `2m + 1 - s`), the pair turned
//! round for every other `i`, so that the halves alternate.
//!
//! ```
//! use rochade_tournament::knockout::seeding;
//!
//! assert_eq!(seeding::bracket_size(6), Ok(8));
//! // Round 1 of eight lines: 1–8, 4–5, 3–6, 2–7.
//! assert_eq!(seeding::bracket_order(8), Ok(vec![1, 8, 4, 5, 3, 6, 2, 7]));
//! ```

use thiserror::Error;

use crate::PairingNumber;

/// Why a bracket cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SeedingError {
    /// Fewer than two players, or more than TRF16 can number.
    #[error("a knockout needs 2 to 9999 players, not {0}")]
    Players(usize),
    /// A bracket size that is not a power of two of at least 2 lines.
    #[error("a bracket has a power of two of at least 2 lines, not {0}")]
    Size(usize),
}

/// The number of lines of the bracket for `players`: the next power of
/// two.
///
/// # Errors
///
/// [`SeedingError::Players`] for fewer than 2 or more than 9999 players.
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::seeding::bracket_size;
///
/// assert_eq!(bracket_size(2), Ok(2));
/// assert_eq!(bracket_size(206), Ok(256));
/// assert!(bracket_size(1).is_err());
/// ```
pub fn bracket_size(players: usize) -> Result<usize, SeedingError> {
    if !(2..=usize::from(PairingNumber::TRF16_MAX)).contains(&players) {
        return Err(SeedingError::Players(players));
    }
    Ok(players.next_power_of_two())
}

/// The seeds of a bracket of `size` lines, top to bottom: line `2i` and
/// line `2i + 1` meet in round 1 match `i + 1`, the better seed first.
///
/// # Errors
///
/// [`SeedingError::Size`] unless `size` is a power of two from 2 to
/// 16384.
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::seeding::bracket_order;
///
/// let lines = bracket_order(128).unwrap();
/// assert_eq!(lines[..8], [1, 128, 64, 65, 33, 96, 32, 97]);
/// assert_eq!(lines[126..], [2, 127]);
/// ```
pub fn bracket_order(size: usize) -> Result<Vec<u16>, SeedingError> {
    let largest = usize::from(PairingNumber::TRF16_MAX).next_power_of_two();
    if size < 2 || size > largest || !size.is_power_of_two() {
        return Err(SeedingError::Size(size));
    }
    let mut order: Vec<u16> = vec![1];
    let mut lines: u16 = 1;
    while usize::from(lines) < size {
        lines *= 2;
        order = order
            .iter()
            .enumerate()
            .flat_map(|(i, &s)| {
                let other = lines + 1 - s;
                if i.is_multiple_of(2) {
                    [s, other]
                } else {
                    [other, s]
                }
            })
            .collect();
    }
    for pair in order.chunks_mut(2) {
        pair.sort_unstable();
    }
    Ok(order)
}

/// The indexes of `ratings` in seed order: the highest rating first,
/// equal ratings in the order given (the organiser's order or the lot).
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::seeding::order_by_rating;
///
/// // Seed 1 is the entry at index 1 (2700), seed 2 the first 2600.
/// assert_eq!(order_by_rating(&[2600, 2700, 2600]), vec![1, 0, 2]);
/// ```
#[must_use]
pub fn order_by_rating(ratings: &[u16]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(ratings[i]));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The round in which the lines `a` and `b` (0-based) can meet.
    fn meeting_round(a: usize, b: usize) -> u32 {
        (a ^ b).ilog2() + 1
    }

    fn line_of(order: &[u16], seed: u16) -> usize {
        order
            .iter()
            .position(|&s| s == seed)
            .expect("every seed has a line")
    }

    #[test]
    fn world_cup_order_of_128_lines() {
        let lines = bracket_order(128).unwrap();
        let first: Vec<(u16, u16)> = lines.chunks(2).map(|p| (p[0], p[1])).take(16).collect();
        assert_eq!(
            first,
            vec![
                (1, 128),
                (64, 65),
                (33, 96),
                (32, 97),
                (17, 112),
                (48, 81),
                (49, 80),
                (16, 113),
                (9, 120),
                (56, 73),
                (41, 88),
                (24, 105),
                (25, 104),
                (40, 89),
                (57, 72),
                (8, 121),
            ]
        );
        assert_eq!(lines[126..], [2, 127]);
    }

    #[test]
    fn every_seed_has_one_line_and_meets_its_mirror_in_round_1() {
        for k in 1..=7 {
            let size = 1usize << k;
            let lines = bracket_order(size).unwrap();
            let mut sorted = lines.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (1..=u16::try_from(size).unwrap()).collect::<Vec<_>>()
            );
            for pair in lines.chunks(2) {
                assert_eq!(usize::from(pair[0] + pair[1]), size + 1, "size {size}");
                assert!(pair[0] < pair[1]);
            }
        }
    }

    #[test]
    fn seeds_1_and_2_meet_only_in_the_final() {
        for players in 2..=128 {
            let size = bracket_size(players).unwrap();
            let lines = bracket_order(size).unwrap();
            let rounds = size.ilog2();
            let (one, two) = (line_of(&lines, 1), line_of(&lines, 2));
            assert_eq!(meeting_round(one, two), rounds, "{players} players");
        }
    }

    #[test]
    fn the_top_2_to_the_k_seeds_are_in_different_sections() {
        // Seeds 1..=2^k can meet one another only in the last k rounds:
        // the top four only in the semi-finals, the top eight only in
        // the quarter-finals.
        for k in 1..=7u32 {
            let size = 1usize << k;
            let lines = bracket_order(size).unwrap();
            for j in 1..=k {
                let top = 1u16 << j;
                for a in 1..=top {
                    for b in a + 1..=top {
                        let round = meeting_round(line_of(&lines, a), line_of(&lines, b));
                        assert!(
                            round > k - j,
                            "size {size}: seeds {a} and {b} meet in round {round}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        for players in 2..=128usize {
            let size = bracket_size(players).unwrap();
            let lines = bracket_order(size).unwrap();
            let with_bye: Vec<u16> = lines
                .chunks(2)
                .filter(|p| usize::from(p[1]) > players)
                .map(|p| p[0])
                .collect();
            let byes = u16::try_from(size - players).unwrap();
            let mut sorted = with_bye.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=byes).collect::<Vec<_>>(), "{players} players");
        }
    }

    #[test]
    fn sizes_are_powers_of_two() {
        assert_eq!(bracket_size(5), Ok(8));
        assert_eq!(bracket_size(64), Ok(64));
        assert_eq!(bracket_size(65), Ok(128));
        assert_eq!(bracket_size(0), Err(SeedingError::Players(0)));
        assert_eq!(bracket_size(10_000), Err(SeedingError::Players(10_000)));
        assert_eq!(bracket_order(6), Err(SeedingError::Size(6)));
        assert_eq!(bracket_order(1), Err(SeedingError::Size(1)));
        assert_eq!(bracket_order(2), Ok(vec![1, 2]));
        assert_eq!(bracket_order(4), Ok(vec![1, 4, 2, 3]));
    }
}
