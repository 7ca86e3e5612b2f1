//! Pairing an arena's waiting players, as lichess does: each with the
//! nearest player in the current ranking they may meet, not the opponent
//! of their last game (unless those two are all the arena has), and not
//! two players who both had the same colour three times running; White
//! to the one whose colour history calls for it most (the shorter run of
//! White, then fewer Whites), by lot when they are equal.

/// Games in a row with one colour after which a player must have the
/// other (lichess's `maxStrike`).
pub const MAX_STRIKE: i32 = 3;

/// A player's colours so far: the run of one colour at the end (White
/// positive, Black negative) and Whites less Blacks.
///
/// ```
/// use rochade_server::tournaments::arena::pairing::Colours;
/// let c = Colours::of(&[true, true, true, false]);
/// assert_eq!((c.strike, c.balance), (-1, 2));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Colours {
    /// The run at the end: +n for n Whites, −n for n Blacks.
    pub strike: i32,
    /// Whites less Blacks.
    pub balance: i32,
}

impl Colours {
    /// The history of games played with White (`true`) or Black, in
    /// order.
    pub fn of(whites: &[bool]) -> Colours {
        let mut c = Colours::default();
        for &white in whites {
            if white {
                c.strike = c.strike.max(0) + 1;
                c.balance += 1;
            } else {
                c.strike = c.strike.min(0) - 1;
                c.balance -= 1;
            }
        }
        c
    }

    /// Whether the two may meet: not both due the same colour.
    pub fn could_play(self, other: Colours) -> bool {
        !(self.strike >= MAX_STRIKE && other.strike >= MAX_STRIKE
            || self.strike <= -MAX_STRIKE && other.strike <= -MAX_STRIKE)
    }

    /// Whether this player should have White against `other`: `None`
    /// when it is for the lot.
    pub fn gets_white(self, other: Colours) -> Option<bool> {
        match (self.strike, self.balance).cmp(&(other.strike, other.balance)) {
            std::cmp::Ordering::Less => Some(true),
            std::cmp::Ordering::Greater => Some(false),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// A player waiting for a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// The account.
    pub id: i64,
    /// Their opponent in their last game.
    pub last_opponent: Option<i64>,
    /// Their colours so far.
    pub colours: Colours,
}

/// Pairs `waiting` (in ranking order, the leader first): each player
/// not yet paired with the nearest below them they may meet; `duel`
/// (only two players in the arena) lets the last opponents meet again.
/// White first in each pair; `lot` decides equal colour histories.
///
/// ```
/// use rochade_server::tournaments::arena::pairing::{pair, Colours, Waiting};
/// let w = |id, last| Waiting { id, last_opponent: last, colours: Colours::default() };
/// // 1 and 2 just met: 1 plays 3, 2 plays 4.
/// let pairs = pair(&[w(1, Some(2)), w(2, Some(1)), w(3, None), w(4, None)], false, || true);
/// assert_eq!(pairs, vec![(1, 3), (2, 4)]);
/// ```
pub fn pair(waiting: &[Waiting], duel: bool, mut lot: impl FnMut() -> bool) -> Vec<(i64, i64)> {
    let mut taken = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    for i in 0..waiting.len() {
        if taken[i] {
            continue;
        }
        let a = &waiting[i];
        let found = (i + 1..waiting.len()).find(|&j| {
            let b = &waiting[j];
            !taken[j]
                && (duel || (a.last_opponent != Some(b.id) && b.last_opponent != Some(a.id)))
                && a.colours.could_play(b.colours)
        });
        let Some(j) = found else { continue };
        taken[i] = true;
        taken[j] = true;
        let b = &waiting[j];
        let a_white = a.colours.gets_white(b.colours).unwrap_or_else(&mut lot);
        pairs.push(if a_white { (a.id, b.id) } else { (b.id, a.id) });
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: i64, last: Option<i64>, whites: &[bool]) -> Waiting {
        Waiting {
            id,
            last_opponent: last,
            colours: Colours::of(whites),
        }
    }

    #[test]
    fn colour_history_counts_the_run_and_the_balance() {
        let of = |s: &str| {
            let c = Colours::of(&s.chars().map(|c| c == 'W').collect::<Vec<_>>());
            (c.strike, c.balance)
        };
        assert_eq!(of("WWW"), (3, 3));
        assert_eq!(of("BBB"), (-3, -3));
        assert_eq!(of("BBBW"), (1, -2));
        assert_eq!(of("WWWBBB"), (-3, 0));
    }

    #[test]
    fn neighbours_in_the_ranking_meet() {
        let players = [
            w(1, None, &[]),
            w(2, None, &[]),
            w(3, None, &[]),
            w(4, None, &[]),
        ];
        assert_eq!(pair(&players, false, || true), vec![(1, 2), (3, 4)]);
        // An odd one out waits.
        assert_eq!(pair(&players[..3], false, || false), vec![(2, 1)]);
    }

    #[test]
    fn last_opponents_do_not_meet_again_but_in_a_duel() {
        let players = [w(1, Some(2), &[true]), w(2, Some(1), &[false])];
        assert!(pair(&players, false, || true).is_empty());
        // Black last time: White now.
        assert_eq!(pair(&players, true, || true), vec![(2, 1)]);
    }

    #[test]
    fn the_colour_due_decides_white_and_three_in_a_row_keep_two_apart() {
        let players = [
            w(1, None, &[true, true, true]),
            w(2, None, &[true, true, true]),
        ];
        assert!(pair(&players, false, || true).is_empty());
        let players = [
            w(1, None, &[true, true]),
            w(2, None, &[false]),
            w(3, None, &[]),
        ];
        assert_eq!(pair(&players, false, || true), vec![(2, 1)]);
    }
}
