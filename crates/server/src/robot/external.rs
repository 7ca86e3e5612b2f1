//! The robot played by an external UCI engine (`rochade serve --engine
//! PATH`), through `rochade_uci::UciClient`. Levels map to Stockfish's
//! `Skill Level` when the engine has it, and always to a node budget, the
//! same budgets as the built-in robot's levels.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rochade_engine::robot::{Level, Robot, RobotClock};
use rochade_uci::{GoParams, PositionBase, PositionSpec, UciClient};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::{Brain, Think};

/// How long the engine may take to start and answer `uci`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// How often a search looks at its stop flag.
const POLL: Duration = Duration::from_millis(50);

/// The engine's thinking time without a clock.
const UNTIMED: Duration = Duration::from_secs(1);

/// Time kept back from the robot's clock for the way to the board.
const OVERHEAD: Duration = Duration::from_millis(50);

/// An external engine that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("external engine {}: {reason}", path.display())]
pub struct ExternalError {
    /// The program.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: String,
}

/// Checks that `path` starts and speaks UCI.
///
/// # Errors
///
/// [`ExternalError`] saying why not.
pub fn check(path: &Path) -> Result<(), ExternalError> {
    let client = UciClient::spawn(path, &[] as &[&str], HANDSHAKE).map_err(|e| ExternalError {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    client.quit(Duration::from_secs(1));
    Ok(())
}

/// Stockfish's `Skill Level` (0–20) for a level 1–8.
fn skill(level: Level) -> u8 {
    [0, 3, 6, 9, 12, 15, 18, 20][usize::from(level.get() - 1)]
}

/// The robot as an external engine, with the built-in one as a stand-in
/// when the engine fails.
pub struct External {
    /// The running engine, once started.
    client: Option<UciClient>,
    /// The program.
    path: PathBuf,
    /// The level.
    level: Level,
    /// Plays when the engine cannot.
    fallback: Robot,
}

impl External {
    /// A robot at `level` played by the engine at `path` (started on
    /// first use).
    pub fn new(path: PathBuf, level: Level) -> External {
        External {
            client: None,
            path,
            level,
            fallback: Robot::new(level),
        }
    }

    /// Starts the engine and sets its strength.
    fn start(&self, chess960: bool) -> Result<UciClient, rochade_uci::ClientError> {
        let mut client = UciClient::spawn(&self.path, &[] as &[&str], HANDSHAKE)?;
        if client.option("Skill Level").is_some() {
            client.set_option("Skill Level", Some(&skill(self.level).to_string()))?;
        }
        if chess960 && client.option("UCI_Chess960").is_some() {
            client.set_option("UCI_Chess960", Some("true"))?;
        }
        client.is_ready(HANDSHAKE)?;
        Ok(client)
    }

    /// One search by the engine.
    fn search(
        &mut self,
        think: &Think,
        stop: &AtomicBool,
    ) -> Result<Option<Move>, rochade_uci::ClientError> {
        let (pos, clock) = (&think.pos, think.clock);
        let chess960 = pos.castles().mode().is_chess960();
        if self.client.is_none() {
            self.client = Some(self.start(chess960)?);
        }
        let Some(client) = self.client.as_mut() else {
            return Ok(None);
        };
        // The whole game, so that the engine sees repetitions.
        let base = if think.start == Chess::default() && !chess960 {
            PositionBase::StartPos
        } else {
            PositionBase::Fen(Fen::from_position(&think.start, EnPassantMode::Legal))
        };
        client.position(&PositionSpec {
            base,
            moves: think.moves.clone(),
        })?;
        let mut go = GoParams {
            nodes: self.level.node_budget(),
            ..GoParams::default()
        };
        match clock {
            Some(c) => {
                let remaining = c
                    .remaining
                    .saturating_sub(OVERHEAD)
                    .max(Duration::from_millis(10));
                go = go.with_clock(pos.turn(), RobotClock { remaining, ..c });
            }
            None => go.movetime = Some(UNTIMED),
        }
        client.start_search(&go)?;
        let result = loop {
            if stop.load(Ordering::Relaxed) {
                break client.stop(HANDSHAKE)?;
            }
            match client.wait_bestmove(POLL) {
                Ok(result) => break result,
                Err(rochade_uci::ClientError::Timeout { .. }) => {}
                Err(e) => return Err(e),
            }
        };
        Ok(result.best.to_move(pos).ok())
    }
}

impl Brain for External {
    fn choose(&mut self, think: &Think, stop: &AtomicBool) -> Option<Move> {
        match self.search(think, stop) {
            Ok(Some(m)) if think.pos.is_legal(m) => Some(m),
            _ => {
                // A dead or confused engine must not stall the game.
                self.client = None;
                self.fallback.choose(think, stop)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rochade_laws::clock::{Clock, TimeControl};
    use rochade_laws::{Game, RuleSet};

    /// A UCI engine in a few lines of shell: it writes every command it
    /// hears to `log` and always plays `bestmove`.
    fn scripted_engine(dir: &Path, bestmove: &str) -> (PathBuf, PathBuf) {
        let log = dir.join("heard.txt");
        let script = dir.join("engine.sh");
        let text = format!(
            "#!/bin/sh\nwhile read -r line; do\n  echo \"$line\" >> '{log}'\n  case \"$line\" in\n    uci) echo 'id name scripted'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) echo 'bestmove {bestmove}' ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
            log = log.display()
        );
        std::fs::write(&script, text).expect("writes the script");
        let status = std::process::Command::new("chmod")
            .arg("+x")
            .arg(&script)
            .status()
            .expect("chmod runs");
        assert!(status.success());
        (script, log)
    }

    /// 9 (issue): the engine is told the game's moves, not only a FEN,
    /// so that it sees repetitions (9.2).
    #[test]
    fn art_9_2_the_external_engine_hears_the_whole_game() {
        let dir = std::env::temp_dir().join(format!("rochade-external-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (script, log) = scripted_engine(&dir, "g1f3");
        let mut game = Game::new(RuleSet::Fide);
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.play_uci(uci).expect("legal");
        }
        let clock = Clock::new(TimeControl::parse("5+3").expect("control"), Duration::ZERO);
        let think = Think::new(&game, &clock, shakmaty::Color::White, Duration::ZERO);
        let mut external = External::new(script, Level::new(3).expect("level"));
        let chosen = external.choose(&think, &AtomicBool::new(false));
        assert_eq!(
            chosen.map(|m| shakmaty::uci::UciMove::from_standard(m).to_string()),
            Some("g1f3".to_owned())
        );
        let heard = std::fs::read_to_string(&log).expect("the engine heard us");
        assert!(
            heard.contains("position startpos moves g1f3 g8f6 f3g1 f6g8"),
            "{heard}"
        );
        assert!(heard.contains("go wtime 299950 winc 3000"), "{heard}");
    }
}
