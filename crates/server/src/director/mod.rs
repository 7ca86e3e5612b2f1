//! The tournament director's decisions on a game (ICCF 14), as the game
//! records them: stopping and restarting its clocks (6.10), setting a
//! clock and its move counter (6.11), adjudicating (11.1; 5.1.4, 5.2.6),
//! and forfeits (6.6, 13.3, a withdrawal; both players: 6.9).
//!
//! Each decision is an [`crate::event::Event::Decide`] in the game's log
//! with the director's reason, so a replay rebuilds it; the decisions
//! table lists them for the players, who may appeal ([`http`]). Who
//! directs a game: the director of its tournament, or for a
//! correspondence game of no tournament, the site's directors
//! (`rochade user director NAME`).
//!
//! - [`http`]: the director's endpoints and the players' requests.
//! - [`attention`]: the games that need the director.

pub mod attention;
pub mod http;

use std::time::Duration;

use rochade_laws::GameResult;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::record::Record;
use crate::setup::Side;

/// What a director decides about a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case", deny_unknown_fields)]
pub enum Act {
    /// 6.10 a: both clocks stop, and no move can be made, until
    /// [`Act::StartClocks`].
    StopClocks,
    /// 6.10 c: the game resumes.
    StartClocks,
    /// 6.11: a player's time left and, if given, their move counter.
    SetClock {
        /// Whose clock.
        color: Side,
        /// The time left, ms.
        #[serde(default)]
        left_ms: Option<u64>,
        /// Moves made, as the clock counts them.
        #[serde(default)]
        moves: Option<u32>,
    },
    /// 11.1: the game ends with `result` (`1-0`, `0-1` or `1/2-1/2`).
    Adjudicate {
        /// The result.
        result: String,
    },
    /// The game is lost by `color` (an upheld flag claim, 6.6; a penalty,
    /// 13.3; a withdrawal).
    Forfeit {
        /// The loser.
        color: Side,
    },
    /// 6.9: both players lose.
    DoubleForfeit,
}

impl Act {
    /// Its name, as in JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Act::StopClocks => "stop_clocks",
            Act::StartClocks => "start_clocks",
            Act::SetClock { .. } => "set_clock",
            Act::Adjudicate { .. } => "adjudicate",
            Act::Forfeit { .. } => "forfeit",
            Act::DoubleForfeit => "double_forfeit",
        }
    }

    /// Whether it ends the game.
    pub fn ends(&self) -> bool {
        matches!(
            self,
            Act::Adjudicate { .. } | Act::Forfeit { .. } | Act::DoubleForfeit
        )
    }
}

/// The result named `text`, for an adjudication.
fn adjudged(text: &str) -> Result<GameResult, ActionError> {
    match GameResult::parse(text) {
        Some(result) if result != GameResult::BothLose => Ok(result),
        _ => Err(ActionError::new(
            ErrorCode::BadRequest,
            format!(
                "result `{text}`: an adjudication gives 1-0, 0-1 or 1/2-1/2 \
                 (a loss for both is a double_forfeit)"
            ),
        )),
    }
}

/// Applies the director's `act` to `record` at game time `at`.
///
/// # Errors
///
/// `game_over` after the end; `not_allowed` for stopping clocks already
/// stopped or in a Triple Block game (6.10 a), or starting running ones;
/// `bad_request` for a result that is not one.
///
/// # Examples
///
/// ```
/// use rochade_server::director::{Act, decide};
/// use rochade_server::record::Record;
/// use rochade_server::setup::{GameSetup, NewGame};
/// let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"3d/move"}"#)?;
/// let mut record = Record::new(GameSetup::from_request(&req, &Default::default())?)?;
/// decide(&mut record, &Act::Adjudicate { result: "1/2-1/2".into() }, 1_000)?;
/// assert!(record.is_over());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decide(record: &mut Record, act: &Act, at: u64) -> Result<(), ActionError> {
    let refuse = |code, m: &str| Err(ActionError::new(code, m));
    if record.is_over() {
        return refuse(ErrorCode::GameOver, "the game is over");
    }
    let now = Duration::from_millis(at);
    match act {
        Act::StopClocks => {
            if record
                .setup
                .tournament
                .as_ref()
                .is_some_and(|t| t.triple_block)
            {
                return refuse(
                    ErrorCode::NotAllowed,
                    "the clocks of a Triple Block game are never stopped (6.10 a)",
                );
            }
            if record.halted {
                return refuse(ErrorCode::NotAllowed, "the clocks are already stopped");
            }
            record.timed.clock_mut().stop(now);
            record.halted = true;
        }
        Act::StartClocks => {
            if !record.halted {
                return refuse(
                    ErrorCode::NotAllowed,
                    "the director has not stopped this game's clocks",
                );
            }
            record.halted = false;
            if record.seated.iter().all(|s| *s) {
                record.timed.clock_mut().start(now);
            }
        }
        Act::SetClock {
            color,
            left_ms,
            moves,
        } => {
            if left_ms.is_none() && moves.is_none() {
                return refuse(
                    ErrorCode::BadRequest,
                    "set_clock: give left_ms, moves or both (6.11)",
                );
            }
            let color = Color::from(*color);
            if let Some(moves) = moves {
                record.timed.clock_mut().set_moves(color, *moves);
            }
            if let Some(left) = left_ms {
                record
                    .timed
                    .clock_mut()
                    .set_time(color, Duration::from_millis(*left), now);
            }
        }
        Act::Adjudicate { result } => {
            let result = adjudged(result)?;
            let _ = record.timed.game_mut().adjudicate(result);
            record.timed.clock_mut().stop(now);
        }
        Act::Forfeit { color } => {
            let _ = record.timed.game_mut().forfeit((*color).into());
            record.timed.clock_mut().stop(now);
        }
        Act::DoubleForfeit => {
            let _ = record.timed.game_mut().double_forfeit();
            record.timed.clock_mut().stop(now);
        }
    }
    Ok(())
}
