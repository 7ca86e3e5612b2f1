//! The robot player: the built-in engine at a level, or an external UCI
//! engine (`--engine`). It thinks on tokio's blocking pool so that a search
//! never stalls other games, with a time budget from its own clock.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rochade_engine::robot::{Level, Robot, RobotClock};
use rochade_engine::search::hash;
use rochade_laws::clock::Clock;
use rochade_laws::notation::write_uci;
use shakmaty::{CastlingMode, Chess, Color, Move};

/// Something that chooses the robot's moves.
pub trait Brain: Send {
    /// A move in `pos` (`history`: keys of earlier positions; `clock`: the
    /// robot's time), or `None` when there is none or the brain failed.
    fn choose(
        &mut self,
        pos: &Chess,
        history: &[u64],
        clock: Option<RobotClock>,
        stop: &AtomicBool,
    ) -> Option<Move>;
}

impl Brain for Robot {
    fn choose(
        &mut self,
        pos: &Chess,
        history: &[u64],
        clock: Option<RobotClock>,
        stop: &AtomicBool,
    ) -> Option<Move> {
        self.choose_move(pos, history, clock, stop)
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
            EngineChoice::External(path) => {
                Box::new(crate::external::External::new(path.clone(), level))
            }
        }
    }

    /// An external UCI engine at `path`, once it has shown that it starts
    /// and speaks UCI.
    ///
    /// # Errors
    ///
    /// [`crate::external::ExternalError`] saying why it cannot be used.
    pub fn external(
        path: &std::path::Path,
    ) -> Result<EngineChoice, crate::external::ExternalError> {
        crate::external::check(path)?;
        Ok(EngineChoice::External(path.to_owned()))
    }
}

/// A request to think: everything the search needs, copied out of the room.
#[derive(Debug, Clone)]
pub struct Think {
    /// The position.
    pub pos: Chess,
    /// Keys of the earlier positions.
    pub history: Vec<u64>,
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
        let increment = crate::state::increment(clock.control(), clock.period(color));
        Think {
            pos: game.position().clone(),
            history: earlier.iter().map(hash).collect(),
            clock: remaining.map(|remaining| RobotClock {
                remaining,
                increment,
                moves_to_go: clock.moves_to_go(color),
            }),
            castling: game.castling_mode(),
        }
    }
}

/// The robot of one game: its brain is made on first use and kept (with
/// its hash table) for the game's later moves.
#[derive(Clone)]
pub struct RobotPlayer {
    /// The level.
    level: Level,
    /// The engine.
    engine: EngineChoice,
    /// The brain, once made.
    brain: Arc<Mutex<Option<Box<dyn Brain>>>>,
}

impl std::fmt::Debug for RobotPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RobotPlayer(level {})", self.level)
    }
}

impl RobotPlayer {
    /// A robot at `level` played by `engine`.
    pub fn new(level: Level, engine: EngineChoice) -> RobotPlayer {
        RobotPlayer {
            level,
            engine,
            brain: Arc::new(Mutex::new(None)),
        }
    }

    /// Thinks on the blocking pool; the answer is the move in UCI.
    pub async fn think(&self, think: Think, stop: Arc<AtomicBool>) -> Option<String> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || {
            let mut slot = this.brain.lock().unwrap_or_else(|e| e.into_inner());
            let brain = slot.get_or_insert_with(|| this.engine.brain(this.level));
            brain
                .choose(&think.pos, &think.history, think.clock, &stop)
                .map(|m| write_uci(m, think.castling))
        })
        .await
        .ok()
        .flatten()
    }
}
