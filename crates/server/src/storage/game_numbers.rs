//! Each game's number: the integer `games.num` that keys its events.
//!
//! `events` is keyed by (game number, seq) rather than by the game's id as
//! text: the writer descends that B-tree twice a move (the event's insert,
//! the now row's update), and comparing 8 characters of text at every
//! level was a fifth of its instructions (issue 20, docs/performance.md).
//! A game's number never changes, so the writer keeps the numbers of the
//! games it writes ([`GameNumbers`]) and looks one up in `games` only the
//! first time. What a transaction learns is kept only once it commits: a
//! rolled-back game's number may be given again.

use std::collections::HashMap;
use std::sync::Mutex;

use super::StorageError;
use super::sql::{Conn, vals};

/// The most numbers kept: past it they are all forgotten (and looked up
/// again as needed). Unfinished games alone are kept, a few bytes each.
const MOST_KEPT: usize = 1 << 20;

/// The numbers of the games the writer has written to, by id.
#[derive(Debug, Default)]
pub(super) struct GameNumbers {
    /// Each game's number, for games written in committed transactions.
    known: Mutex<HashMap<String, i64>>,
}

impl GameNumbers {
    /// Runs one transaction's writes with the numbers known (`f` gets a
    /// [`Numbering`]); keeps what it learned if `run` answers `Ok` (the
    /// transaction committed).
    pub(super) fn within<T>(
        &self,
        run: impl FnOnce(&mut Numbering<'_>) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        let mut numbering = Numbering {
            known: &known,
            learned: Vec::new(),
            ended: Vec::new(),
            purged: false,
        };
        let answer = run(&mut numbering)?;
        let Numbering {
            learned,
            ended,
            purged,
            ..
        } = numbering;
        if purged || known.len() + learned.len() > MOST_KEPT {
            known.clear();
        }
        known.extend(learned);
        for game in &ended {
            known.remove(game);
        }
        Ok(answer)
    }
}

/// The game numbers within one transaction: those known from before, and
/// what this one learns (kept only if it commits).
#[derive(Debug)]
pub(super) struct Numbering<'a> {
    /// The numbers of committed games.
    known: &'a HashMap<String, i64>,
    /// Numbers this transaction gave or looked up.
    learned: Vec<(String, i64)>,
    /// Games that ended in this transaction: their numbers are not kept.
    ended: Vec<String>,
    /// Games were deleted: every number kept is forgotten.
    purged: bool,
}

impl Numbering<'_> {
    /// The number of game `game`, looked up in `games` if not known.
    ///
    /// # Errors
    ///
    /// [`StorageError::Refused`] when no game has that id; the database's
    /// errors.
    pub(super) fn of(&mut self, tx: &mut dyn Conn, game: &str) -> Result<i64, StorageError> {
        if let Some(num) = self.known.get(game) {
            return Ok(*num);
        }
        if let Some((_, num)) = self.learned.iter().rev().find(|(id, _)| id == game) {
            return Ok(*num);
        }
        let num = tx
            .query_opt("SELECT num FROM games WHERE id = ?1", vals![game])?
            .ok_or_else(|| StorageError::Refused(format!("no game {game} is stored")))?
            .int(0)?;
        self.learned.push((game.to_owned(), num));
        Ok(num)
    }

    /// Game `game` was given number `num` in this transaction.
    pub(super) fn given(&mut self, game: &str, num: i64) {
        self.learned.push((game.to_owned(), num));
    }

    /// Game `game` ended: its number need not be kept.
    pub(super) fn ended(&mut self, game: &str) {
        self.ended.push(game.to_owned());
    }

    /// Games were deleted: their numbers may be given again (SQLite gives
    /// the next after the largest), so none is kept.
    pub(super) fn purged(&mut self) {
        self.purged = true;
    }
}

#[cfg(test)]
mod tests {
    use crate::storage::{SqlStorage, Storage, StorageError, WriteOp, test_create, test_move};

    /// Game `game`'s first move.
    fn first_move(game: &str) -> WriteOp {
        test_move(game, 0, "e2e4")
    }

    /// A game made in a transaction that failed leaves no number behind:
    /// SQLite gives the same number to the next game made, and a move of
    /// the game that was never stored is refused, not stored as the
    /// other game's.
    #[test]
    fn a_number_given_in_a_transaction_that_failed_is_not_kept() {
        let dir = crate::storage::scratch_dir("numbers-test");
        let storage = SqlStorage::open(&dir.join("games.sqlite")).expect("opens");
        let (lost, make_lost) = test_create();
        let refused = Storage::write(&storage, &[make_lost, first_move("nowhere")], 1);
        assert!(
            matches!(refused, Err(StorageError::Refused(_))),
            "{refused:?}"
        );
        let (kept, make_kept) = test_create();
        Storage::write(&storage, &[make_kept], 2).expect("stores");
        let refused = Storage::write(&storage, &[first_move(&lost)], 3);
        assert!(
            matches!(refused, Err(StorageError::Refused(_))),
            "{refused:?}"
        );
        Storage::write(&storage, &[first_move(&kept)], 4).expect("stores");
        let stored = storage.load(&kept).expect("reads").expect("stored");
        assert_eq!(stored.events.len(), 1);
        assert!(storage.load(&lost).expect("reads").is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Numbers stay right across commits and games: each game's moves
    /// come back as its own.
    #[test]
    fn each_game_reads_back_its_own_events() {
        let dir = crate::storage::scratch_dir("numbers-games");
        let storage = SqlStorage::open(&dir.join("games.sqlite")).expect("opens");
        let (a, make_a) = test_create();
        let (b, make_b) = test_create();
        Storage::write(&storage, &[make_a], 1).expect("stores");
        Storage::write(&storage, &[make_b, first_move(&a), first_move(&b)], 2).expect("stores");
        Storage::write(&storage, &[test_move(&b, 1, "e7e5")], 3).expect("stores");
        let a = storage.load(&a).expect("reads").expect("stored");
        let b = storage.load(&b).expect("reads").expect("stored");
        assert_eq!((a.events.len(), b.events.len()), (1, 2));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
