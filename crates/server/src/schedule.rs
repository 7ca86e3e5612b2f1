//! When each game that has no room loaded must be looked at next: its
//! flag falls, its invitation expires, it has been idle too long, or the
//! robot is to move. One ordered set for the whole server, so the next
//! deadline is found in O(log n) and a hundred thousand idle games cost
//! no task and no timer, only an entry here.
//!
//! ```
//! use rochade_server::schedule::Schedule;
//! let mut schedule = Schedule::default();
//! schedule.set("a", 300);
//! schedule.set("b", 100);
//! schedule.set("a", 50);
//! assert_eq!(schedule.next(), Some(50));
//! assert_eq!(schedule.due(100), vec!["a".to_owned(), "b".to_owned()]);
//! assert_eq!(schedule.next(), None);
//! ```

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;

use tokio::sync::Notify;

/// Deadlines (server time, Unix ms) by game.
#[derive(Debug, Default)]
pub struct Schedule {
    /// Deadline and game, in order.
    by_time: BTreeSet<(u64, String)>,
    /// Each game's deadline.
    by_game: HashMap<String, u64>,
}

impl Schedule {
    /// Game `id` is to be looked at by `at`, replacing its earlier deadline.
    pub fn set(&mut self, id: &str, at: u64) {
        self.remove(id);
        self.by_time.insert((at, id.to_owned()));
        self.by_game.insert(id.to_owned(), at);
    }

    /// Game `id` needs no look (its room is loaded, or it is over).
    pub fn remove(&mut self, id: &str) {
        if let Some(at) = self.by_game.remove(id) {
            self.by_time.remove(&(at, id.to_owned()));
        }
    }

    /// The earliest deadline.
    pub fn next(&self) -> Option<u64> {
        self.by_time.first().map(|(at, _)| *at)
    }

    /// Takes out and returns every game due by `now`, earliest first.
    pub fn due(&mut self, now: u64) -> Vec<String> {
        let mut due = Vec::new();
        while let Some((at, _)) = self.by_time.first()
            && *at <= now
        {
            if let Some((_, id)) = self.by_time.pop_first() {
                self.by_game.remove(&id);
                due.push(id);
            }
        }
        due
    }

    /// How many games wait.
    pub fn len(&self) -> usize {
        self.by_game.len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.by_game.is_empty()
    }
}

/// The server's one [`Schedule`], shared by the rooms (which add their
/// game when they unload) and the task that loads games as they come due.
#[derive(Debug, Default)]
pub struct Scheduler {
    /// The deadlines.
    schedule: Mutex<Schedule>,
    /// Wakes the task when an earlier deadline arrives.
    earlier: Notify,
}

impl Scheduler {
    /// Locks the schedule.
    fn lock(&self) -> std::sync::MutexGuard<'_, Schedule> {
        self.schedule.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `id` is to be looked at by server time `at`.
    pub fn set(&self, id: &str, at: u64) {
        let mut schedule = self.lock();
        let earlier = schedule.next().is_none_or(|next| at < next);
        schedule.set(id, at);
        drop(schedule);
        if earlier {
            self.earlier.notify_one();
        }
    }

    /// Game `id` needs no look.
    pub fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// The earliest deadline.
    pub fn next(&self) -> Option<u64> {
        self.lock().next()
    }

    /// Takes out every game due by `now`.
    pub fn due(&self, now: u64) -> Vec<String> {
        self.lock().due(now)
    }

    /// How many games wait.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Completes when a deadline earlier than all others is set.
    pub async fn earlier(&self) {
        self.earlier.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_deadline_replaces_an_earlier_one() {
        let mut s = Schedule::default();
        s.set("g", 10);
        s.set("g", 20);
        assert_eq!(s.len(), 1);
        assert!(s.due(15).is_empty());
        assert_eq!(s.due(20), ["g"]);
        assert!(s.is_empty());
    }

    #[test]
    fn removed_games_never_come_due() {
        let mut s = Schedule::default();
        s.set("g", 10);
        s.set("h", 10);
        s.remove("g");
        assert_eq!(s.due(u64::MAX), ["h"]);
    }
}
