//! Acknowledged moves against stored ones: the load tool's one measure of
//! lost and duplicated moves, applied to every acknowledgement during a
//! run and to every game's stored record after it.
//!
//! A move is *acknowledged* once the tool has seen a state that holds it
//! at its ply (the state that answered it, or one read after the socket
//! broke). Each acknowledged move must then stand exactly once in the
//! game, in its place. The one move in flight (sent, not yet
//! acknowledged) may be stored or not: both are right.
//!
//! ```
//! use rochade_loadtest::check::{MoveCheck, compare};
//! let moves = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
//! // The move in flight was stored, its acknowledgement never came: fine.
//! let check = compare(&moves("e2e4 e7e5"), Some("g1f3"), &moves("e2e4 e7e5 g1f3"));
//! assert_eq!(check, MoveCheck::default());
//! // An acknowledged move missing, another stored twice.
//! let check = compare(&moves("e2e4 e7e5 g1f3"), None, &moves("e2e4 e2e4 g1f3"));
//! assert_eq!(check, MoveCheck { lost: 1, duplicated: 1 });
//! ```

/// Lost and duplicated moves of one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveCheck {
    /// Acknowledged moves the stored game does not hold in their order.
    pub lost: u64,
    /// Stored moves that match no acknowledged one (the move in flight
    /// aside): a move stored twice, or one the tool was never told of.
    pub duplicated: u64,
}

impl MoveCheck {
    /// Whether nothing was lost or duplicated.
    pub fn is_clean(&self) -> bool {
        self.lost == 0 && self.duplicated == 0
    }

    /// Both counts of `self` and `other` together.
    pub fn add(&mut self, other: MoveCheck) {
        self.lost += other.lost;
        self.duplicated += other.duplicated;
    }
}

/// Compares the moves the tool was acknowledged (`acked`, in order), the
/// move it had in flight, if any, and the moves `stored` in the game.
///
/// The moves are matched in order (a longest common subsequence: a game
/// may repeat a move, `g1f3` then later `g1f3` again); acknowledged moves
/// left unmatched are lost, stored moves left unmatched are duplicated.
/// The move in flight is set aside when it stands right after the
/// acknowledged moves, its own ply.
pub fn compare(acked: &[String], in_flight: Option<&str>, stored: &[String]) -> MoveCheck {
    let flight_stored =
        in_flight.is_some() && stored.get(acked.len()).map(String::as_str) == in_flight;
    let stored: Vec<&str> = stored
        .iter()
        .enumerate()
        .filter(|(i, _)| !(flight_stored && *i == acked.len()))
        .map(|(_, m)| m.as_str())
        .collect();
    let matched = common_in_order(acked, &stored);
    MoveCheck {
        lost: (acked.len() - matched) as u64,
        duplicated: (stored.len() - matched) as u64,
    }
}

/// The length of the longest common subsequence of `a` and `b` (one row
/// of the table at a time: games are short, at most a few hundred plies).
fn common_in_order(a: &[String], b: &[&str]) -> usize {
    if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y) {
        return a.len();
    }
    let mut previous = vec![0usize; b.len() + 1];
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            row[j + 1] = if x == y {
                previous[j] + 1
            } else {
                row[j].max(previous[j + 1])
            };
        }
        std::mem::swap(&mut previous, &mut row);
    }
    previous[b.len()]
}

/// What a state read after a failure says of the move in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The game holds every acknowledged move and the move in flight
    /// after them: it is acknowledged now.
    Stored,
    /// The game holds every acknowledged move and nothing after them: the
    /// move in flight was not stored; send it again at the same ply.
    NotStored,
    /// The game does not hold what was acknowledged.
    Broken(MoveCheck),
}

/// Judges the move `in_flight` by the `stored` moves of a state read
/// after its answer went missing (a broken socket, `busy`, a stale ply).
pub fn judge(acked: &[String], in_flight: &str, stored: &[String]) -> Verdict {
    let check = compare(acked, Some(in_flight), stored);
    if !check.is_clean() {
        Verdict::Broken(check)
    } else if stored.len() > acked.len() {
        Verdict::Stored
    } else {
        Verdict::NotStored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn check(lost: u64, duplicated: u64) -> MoveCheck {
        MoveCheck { lost, duplicated }
    }

    #[test]
    fn the_same_moves_are_clean() {
        let m = moves("e2e4 e7e5 g1f3 b8c6");
        assert_eq!(compare(&m, None, &m), check(0, 0));
        assert_eq!(compare(&[], None, &[]), check(0, 0));
    }

    #[test]
    fn the_move_in_flight_may_be_stored_or_not() {
        let acked = moves("e2e4 e7e5");
        assert_eq!(
            compare(&acked, Some("g1f3"), &moves("e2e4 e7e5 g1f3")),
            check(0, 0)
        );
        assert_eq!(
            compare(&acked, Some("g1f3"), &moves("e2e4 e7e5")),
            check(0, 0)
        );
    }

    #[test]
    fn a_move_after_the_acknowledged_ones_is_duplicated_unless_in_flight() {
        let acked = moves("e2e4 e7e5");
        let stored = moves("e2e4 e7e5 g1f3");
        assert_eq!(compare(&acked, None, &stored), check(0, 1));
        assert_eq!(compare(&acked, Some("d2d4"), &stored), check(0, 1));
        // The move in flight stored twice: once is its own, once too many.
        assert_eq!(
            compare(&acked, Some("g1f3"), &moves("e2e4 e7e5 g1f3 g1f3")),
            check(0, 1)
        );
    }

    #[test]
    fn a_missing_acknowledged_move_is_lost() {
        let acked = moves("e2e4 e7e5 g1f3");
        assert_eq!(compare(&acked, None, &moves("e2e4 e7e5")), check(1, 0));
        assert_eq!(compare(&acked, None, &moves("e2e4 g1f3")), check(1, 0));
        assert_eq!(compare(&acked, Some("b8c6"), &[]), check(3, 0));
    }

    #[test]
    fn a_move_stored_twice_in_the_middle_is_one_duplicate() {
        let acked = moves("e2e4 e7e5 g1f3");
        assert_eq!(
            compare(&acked, None, &moves("e2e4 e7e5 e7e5 g1f3")),
            check(0, 1)
        );
    }

    #[test]
    fn repeated_moves_are_matched_in_order() {
        // A knight out and back twice: the same text at several plies.
        let acked = moves("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6");
        assert_eq!(compare(&acked, None, &acked), check(0, 0));
        assert_eq!(
            compare(&acked, None, &moves("g1f3 g8f6 f3g1 f6g8 g1f3")),
            check(1, 0)
        );
        assert_eq!(
            compare(&acked, None, &moves("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 g1f3")),
            check(0, 1)
        );
    }

    #[test]
    fn another_move_in_an_acknowledged_place_is_lost_and_duplicated() {
        let acked = moves("e2e4 e7e5 g1f3");
        assert_eq!(compare(&acked, None, &moves("e2e4 e7e5 d2d4")), check(1, 1));
    }

    #[test]
    fn a_state_read_again_judges_the_move_in_flight() {
        let acked = moves("e2e4 e7e5");
        assert_eq!(
            judge(&acked, "g1f3", &moves("e2e4 e7e5 g1f3")),
            Verdict::Stored
        );
        assert_eq!(
            judge(&acked, "g1f3", &moves("e2e4 e7e5")),
            Verdict::NotStored
        );
        assert_eq!(
            judge(&acked, "g1f3", &moves("e2e4")),
            Verdict::Broken(check(1, 0))
        );
        assert_eq!(
            judge(&acked, "g1f3", &moves("e2e4 e7e5 d2d4")),
            Verdict::Broken(check(0, 1))
        );
    }

    #[test]
    fn counts_add_up() {
        let mut total = MoveCheck::default();
        total.add(check(1, 2));
        total.add(check(3, 0));
        assert_eq!(total, check(4, 2));
        assert!(!total.is_clean());
    }
}
