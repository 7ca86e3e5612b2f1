//! The robot: the engine at one of eight levels, for the game page and
//! for anyone who wants a move without speaking UCI.
//!
//! Level 8 is full strength. Lower levels search less deep and fewer
//! nodes, and draw their move among the best few lines, more freely the
//! lower the level (see [`crate::search::strength`] and
//! docs/robot-levels.md); the UCI options `Level`, `Skill Level` and
//! `UCI_Elo` use the same levels. A [`Robot`] keeps its transposition table
//! between moves, so keep one per game.
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use rochade_engine::robot::{Level, Robot};
//! use shakmaty::{Chess, Position};
//!
//! let mut robot = Robot::new(Level::new(1)?);
//! let pos = Chess::default();
//! let stop = AtomicBool::new(false);
//! let m = robot.choose_move(&pos, &[], None, &stop).expect("a legal move");
//! assert!(pos.is_legal(m));
//! # Ok::<(), rochade_engine::robot::LevelError>(())
//! ```

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rochade_uci::{GoParams, SideClock};
use shakmaty::{Chess, Move, Position};

use crate::engine::DEFAULT_HASH_MB;
use crate::search::tt::TranspositionTable;
use crate::search::{Learnt, SearchClock, SearchContext, SearchParams, search_in};
use crate::time::TimeLimits;

/// Time kept in reserve for the way from the search to the clock.
const ROBOT_OVERHEAD: Duration = Duration::from_millis(30);

/// How long a robot thinks when its game has no clock.
const UNTIMED_THINK: Duration = Duration::from_secs(2);

/// A level of play, 1 (beginner) to 8 (full strength).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level outside 1–8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("robot level {0} is not between 1 and 8")]
pub struct LevelError(pub u32);

impl Level {
    /// The weakest level.
    pub const MIN: Self = Self(1);
    /// Full strength.
    pub const MAX: Self = Self(8);

    /// The level `n`, if it is between 1 and 8.
    ///
    /// # Errors
    ///
    /// [`LevelError`] for anything else.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::robot::Level;
    /// assert_eq!(Level::new(8).map(Level::get), Ok(8));
    /// assert!(Level::new(9).is_err());
    /// ```
    pub fn new(n: u32) -> Result<Self, LevelError> {
        match u8::try_from(n) {
            Ok(v @ 1..=8) => Ok(Self(v)),
            _ => Err(LevelError(n)),
        }
    }

    /// The level's number, 1–8.
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }

    /// The node budget of one move; `None` at full strength.
    #[must_use]
    pub fn node_budget(self) -> Option<u64> {
        self.strength().nodes
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The robot's own clock when it chooses a move: the time left, the
/// increment (or delay) per move and the moves to the next time control.
/// The same type as UCI's [`SideClock`], so that a robot's clock goes into
/// `go` with [`GoParams::with_clock`].
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_engine::robot::RobotClock;
/// use rochade_uci::GoParams;
/// use shakmaty::Color;
///
/// let clock = RobotClock {
///     remaining: Duration::from_secs(60),
///     increment: Duration::from_secs(1),
///     moves_to_go: None,
/// };
/// let go = GoParams::default().with_clock(Color::White, clock);
/// assert_eq!(go.to_string(), "go wtime 60000 winc 1000");
/// ```
pub type RobotClock = SideClock;

/// The engine at one level, with its transposition table and the
/// move-ordering statistics of the game so far.
#[derive(Debug)]
pub struct Robot {
    level: Level,
    tt: TranspositionTable,
    learnt: Learnt,
}

impl Robot {
    /// A robot at `level` with a fresh table.
    #[must_use]
    pub fn new(level: Level) -> Self {
        Self {
            level,
            tt: TranspositionTable::new(DEFAULT_HASH_MB),
            learnt: Learnt::default(),
        }
    }

    /// The robot's level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// Chooses a move in `pos`; `history` holds the [`crate::search::hash`]
    /// keys of the game's earlier positions, oldest first, so that the robot
    /// sees repetitions. With a `clock` the robot budgets its time from it;
    /// without one it thinks at most two seconds. Setting `stop` ends the
    /// search early (it still answers). `None` only when there is no legal
    /// move.
    pub fn choose_move(
        &mut self,
        pos: &Chess,
        history: &[u64],
        clock: Option<RobotClock>,
        stop: &AtomicBool,
    ) -> Option<Move> {
        let limits = match clock {
            Some(clock) => {
                let go = GoParams::default().with_clock(pos.turn(), clock);
                TimeLimits::from_go(&go, pos.turn(), ROBOT_OVERHEAD)
            }
            None => TimeLimits {
                soft: Some(UNTIMED_THINK / 2),
                hard: Some(UNTIMED_THINK),
                ..TimeLimits::default()
            },
        };
        let params = SearchParams {
            pos: pos.clone(),
            history: history.to_vec(),
            limits,
            level: self.level,
            ..SearchParams::default()
        };
        let clock = SearchClock::new(false);
        let ctx = SearchContext {
            learnt: Some(&self.learnt),
            ..SearchContext::new(&self.tt, stop, &clock)
        };
        let outcome = search_in(params, &ctx, |_| {});
        outcome.best.filter(|m| pos.is_legal(*m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_one_to_eight() {
        assert_eq!(Level::new(0), Err(LevelError(0)));
        assert_eq!(Level::new(300), Err(LevelError(300)));
        assert_eq!(Level::MIN.get(), 1);
        assert_eq!(Level::MAX.get(), 8);
        assert_eq!(Level::MAX.node_budget(), None);
    }

    #[test]
    fn lower_levels_search_less() {
        let budgets: Vec<u64> = (1..=7)
            .filter_map(|n| Level::new(n).ok()?.node_budget())
            .collect();
        assert_eq!(budgets.len(), 7);
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
    }

    #[test]
    fn no_move_when_mated() {
        // Fool's mate: White is checkmated.
        let fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let mut robot = Robot::new(Level::MAX);
        assert_eq!(
            robot.choose_move(&pos, &[], None, &AtomicBool::new(false)),
            None
        );
    }
}
