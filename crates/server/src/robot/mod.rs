//! The robot player: the built-in engine at a level, or an external UCI
//! engine (`--engine`). Every search goes through one bounded
//! [`RobotQueue`] served by a fixed number of worker threads, and none
//! runs longer than the server's cap ([`crate::limits::Limits::robot_think`]),
//! whatever the game's clock would allow.

mod external;
mod queue;

pub use external::{External, ExternalError};
pub use queue::RobotQueue;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rochade_engine::robot::{Level, Robot, RobotClock};
use rochade_engine::search::hash;
use rochade_laws::clock::Clock;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move};

/// Something that chooses the robot's moves.
pub trait Brain: Send {
    /// A move for `think`'s position, or `None` when there is none or the
    /// brain failed; it stops soon after `stop` turns true.
    fn choose(&mut self, think: &Think, stop: &AtomicBool) -> Option<Move>;
}

impl Brain for Robot {
    fn choose(&mut self, think: &Think, stop: &AtomicBool) -> Option<Move> {
        self.choose_move(&think.pos, &think.history, think.clock, stop)
    }
}

/// Which engine plays the robot's levels.
#[derive(Debug, Clone, Default)]
pub enum EngineChoice {
    /// Rochade's own engine.
    #[default]
    Builtin,
    /// An external UCI engine.
    External(std::path::PathBuf),
}

impl EngineChoice {
    /// A fresh brain at `level`.
    pub fn brain(&self, level: Level) -> Box<dyn Brain> {
        match self {
            EngineChoice::Builtin => Box::new(Robot::new(level)),
            EngineChoice::External(path) => Box::new(External::new(path.clone(), level)),
        }
    }

    /// An external UCI engine at `path`, once it has shown that it starts
    /// and speaks UCI.
    ///
    /// # Errors
    ///
    /// [`ExternalError`] saying why it cannot be used.
    pub fn external(path: &std::path::Path) -> Result<EngineChoice, ExternalError> {
        external::check(path)?;
        Ok(EngineChoice::External(path.to_owned()))
    }
}

/// A request to think: everything a search needs, copied out of the room.
#[derive(Debug, Clone)]
pub struct Think {
    /// The position now.
    pub pos: Chess,
    /// Keys of the earlier positions (for the built-in engine's repetition checks).
    pub history: Vec<u64>,
    /// The position the game started from.
    pub start: Chess,
    /// The game's moves from `start`, so that an external engine sees
    /// repetitions as well.
    pub moves: Vec<UciMove>,
    /// The robot's clock.
    pub clock: Option<RobotClock>,
    /// How castling moves are written.
    pub castling: CastlingMode,
}

impl Think {
    /// What the robot needs to move in `game` on `clock` at `now`.
    pub fn new(game: &rochade_laws::Game, clock: &Clock, color: Color, now: Duration) -> Think {
        let positions = game.history().positions();
        let earlier = &positions[..positions.len().saturating_sub(1)];
        let remaining = clock.remaining(color, now);
        let castling = game.castling_mode();
        Think {
            pos: game.position().clone(),
            history: earlier.iter().map(hash).collect(),
            start: game.history().start().clone(),
            moves: game
                .moves()
                .iter()
                .map(|m| UciMove::from_move(*m, castling))
                .collect(),
            clock: remaining.map(|remaining| RobotClock {
                remaining,
                increment: clock.bonus(color),
                moves_to_go: clock.moves_to_go(color),
            }),
            castling,
        }
    }
}

/// The robot of one game: its brain is made on first use and kept (with
/// its hash table) for the game's later moves.
#[derive(Clone)]
pub struct RobotPlayer {
    /// The level.
    level: Level,
    /// The brain, once made.
    brain: Arc<Mutex<Option<Box<dyn Brain>>>>,
}

impl std::fmt::Debug for RobotPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RobotPlayer(level {})", self.level)
    }
}

impl RobotPlayer {
    /// A robot at `level`.
    pub fn new(level: Level) -> RobotPlayer {
        RobotPlayer {
            level,
            brain: Arc::new(Mutex::new(None)),
        }
    }

    /// Thinks on the calling thread (a queue worker) with `engine`; the
    /// answer is the move in UCI.
    fn think(&self, engine: &EngineChoice, think: &Think, stop: &AtomicBool) -> Option<String> {
        let mut slot = self.brain.lock().unwrap_or_else(|e| e.into_inner());
        let brain = slot.get_or_insert_with(|| engine.brain(self.level));
        brain
            .choose(think, stop)
            .map(|m| UciMove::from_move(m, think.castling).to_string())
    }
}
