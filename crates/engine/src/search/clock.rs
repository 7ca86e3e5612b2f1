//! The search clock: when the time budget started counting, and whether
//! the search is still pondering (then the budget does not run at all).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The origin of a search's time budget, shared between the thread that
/// reads the GUI (which calls [`ponder_hit`](Self::ponder_hit)) and the
/// search threads.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_engine::search::SearchClock;
///
/// let clock = SearchClock::new(true);
/// assert!(!clock.past(Duration::ZERO), "no budget runs while pondering");
/// clock.ponder_hit();
/// assert!(clock.past(Duration::ZERO));
/// ```
#[derive(Debug)]
pub struct SearchClock {
    origin: Mutex<Instant>,
    pondering: AtomicBool,
}

impl SearchClock {
    /// A clock whose budget starts now, or at the ponder hit if `pondering`.
    #[must_use]
    pub fn new(pondering: bool) -> Self {
        Self {
            origin: Mutex::new(Instant::now()),
            pondering: AtomicBool::new(pondering),
        }
    }

    /// Starts the budget again from now (a new search).
    pub fn restart(&self, pondering: bool) {
        *self.lock() = Instant::now();
        self.pondering.store(pondering, Ordering::SeqCst);
    }

    /// The expected move was played: the budget counts from now. Outside
    /// pondering this does nothing (a stray `ponderhit` does not give a
    /// search more time).
    pub fn ponder_hit(&self) {
        let mut origin = self.lock();
        if self.pondering.swap(false, Ordering::SeqCst) {
            *origin = Instant::now();
        }
    }

    /// Whether the search is pondering (before the ponder hit).
    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::SeqCst)
    }

    /// Whether `budget` has run out; never while pondering.
    #[must_use]
    pub fn past(&self, budget: Duration) -> bool {
        !self.is_pondering() && self.lock().elapsed() >= budget
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Instant> {
        self.origin
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Default for SearchClock {
    fn default() -> Self {
        Self::new(false)
    }
}
