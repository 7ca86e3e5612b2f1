//! A game at a glance: what a player's list of games shows of it (the
//! position, whose turn, the clocks and the deadline), stored with the
//! game in the commit of each change, so that the list of a player's games
//! is one query and loads no room: a correspondence player with hundreds of
//! games opens it as fast as one with two.
//!
//! ```
//! use rochade_server::glance::Glance;
//! use rochade_server::record::Record;
//! use rochade_server::setup::{GameSetup, NewGame};
//!
//! let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"3d/move"}"#)?;
//! let record = Record::new(GameSetup::from_request(&req, &Default::default())?)?;
//! let glance = Glance::of(&record, 0);
//! // An hour later, White has an hour less and the flag is an hour nearer.
//! let state = glance.state_at(3_600_000);
//! assert_eq!(state["turn"], "white");
//! assert_eq!(state["clock"]["white"], 3 * 86_400_000 - 3_600_000);
//! assert_eq!(state["clock"]["flag_in"], 3 * 86_400_000 - 3_600_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use shakmaty::Color;

use crate::record::Record;
use crate::room::finish::flag_falls_at;
use crate::setup::Side;

/// A game at one moment, as its list entry needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Glance {
    /// The position (FEN).
    pub fen: String,
    /// The side to move.
    pub turn: Side,
    /// Half-moves played.
    pub ply: usize,
    /// The last move, UCI.
    pub last_move: Option<String>,
    /// White's time left then, ms (no clock: none).
    pub white: Option<u64>,
    /// Black's time left then, ms.
    pub black: Option<u64>,
    /// Whose clock ran.
    pub running: Option<Side>,
    /// When the running flag falls if nobody moves (game time, ms; leave
    /// included).
    pub flag_at: Option<u64>,
    /// Booked stops of both clocks not over then (leave, 10.1), game time ms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pauses: Vec<[u64; 2]>,
    /// The game time it was taken at, ms.
    pub at: u64,
    /// The game time of the last move, ms (none before the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<u64>,
    /// Who went berserk (an arena's game).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub berserk: Vec<Side>,
}

/// Milliseconds of a duration.
fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Glance {
    /// `record` at game time `now`.
    pub fn of(record: &Record, now: u64) -> Glance {
        let game = record.timed.game();
        let clock = record.timed.clock();
        let at = Duration::from_millis(now);
        let running = (!record.is_over() && !clock.is_stopped()).then(|| clock.turn());
        Glance {
            fen: record.fen(),
            turn: game.turn().into(),
            ply: record.plies.len(),
            last_move: record.plies.last().map(|p| p.uci.clone()),
            white: clock.remaining(Color::White, at).map(ms),
            black: clock.remaining(Color::Black, at).map(ms),
            running: running.map(Side::from),
            flag_at: running.and_then(|_| flag_falls_at(clock, now)),
            pauses: clock
                .pauses()
                .iter()
                .filter(|p| p.to > at)
                .map(|p| [ms(p.from), ms(p.to)])
                .collect(),
            at: now,
            moved: record
                .plies
                .last()
                .and_then(|p| record.events.get(p.event))
                .map(|e| e.at),
            berserk: [Color::White, Color::Black]
                .into_iter()
                .filter(|c| record.berserk[*c])
                .map(Side::from)
                .collect(),
        }
    }

    /// The glance as JSON text, as stored.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The part of the protocol's state object a list entry reads
    /// (`fen`, `turn`, `ply`, `last_move`, `clock`), at game time `now`:
    /// the running clock counted down since the glance, to its flag.
    pub fn state_at(&self, now: u64) -> Value {
        // The clock ran from the glance to now, except while paused.
        let paused: u64 = self
            .pauses
            .iter()
            .map(|[from, to]| (*to).min(now).saturating_sub((*from).max(self.at)))
            .sum();
        let ran = now.saturating_sub(self.at).saturating_sub(paused);
        let flag_in = self.flag_at.map(|at| at.saturating_sub(now));
        let left = |side: Side, then: Option<u64>| match self.running {
            Some(running) if running == side => then.map(|t| t.saturating_sub(ran)),
            _ => then,
        };
        let clock = match (self.white, self.black) {
            (Some(_), Some(_)) => json!({
                "white": left(Side::White, self.white),
                "black": left(Side::Black, self.black),
                "running": self.running,
                "flag_in": flag_in,
            }),
            _ => Value::Null,
        };
        json!({
            "fen": self.fen,
            "turn": self.turn,
            "ply": self.ply,
            "last_move": self.last_move,
            "clock": clock,
        })
    }
}
