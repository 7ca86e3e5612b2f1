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

use crate::json_out::{
    push_number, push_opt_number, push_opt_side, push_opt_text, push_pairs, push_text, side,
};
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

    /// The glance as JSON text, as stored: what serde_json writes from
    /// the derived `Serialize`, written directly (every move stores one,
    /// and serde_json's field by field writing was a tenth of what a room
    /// computes for a move: `benches/room_move.rs`).
    ///
    /// ```
    /// # use rochade_server::glance::Glance;
    /// # use rochade_server::record::Record;
    /// # use rochade_server::setup::{GameSetup, NewGame};
    /// let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"5+3"}"#)?;
    /// let glance = Glance::of(&Record::new(GameSetup::from_request(&req, &Default::default())?)?, 0);
    /// assert_eq!(glance.to_json(), serde_json::to_string(&glance)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(192 + self.fen.len());
        out.push_str("{\"fen\":");
        push_text(&mut out, &self.fen);
        out.push_str(",\"turn\":");
        out.push_str(side(self.turn));
        out.push_str(",\"ply\":");
        push_number(&mut out, self.ply as u64);
        out.push_str(",\"last_move\":");
        push_opt_text(&mut out, self.last_move.as_deref());
        for (key, value) in [(",\"white\":", self.white), (",\"black\":", self.black)] {
            out.push_str(key);
            push_opt_number(&mut out, value);
        }
        out.push_str(",\"running\":");
        push_opt_side(&mut out, self.running);
        out.push_str(",\"flag_at\":");
        push_opt_number(&mut out, self.flag_at);
        if !self.pauses.is_empty() {
            out.push_str(",\"pauses\":");
            push_pairs(&mut out, &self.pauses);
        }
        out.push_str(",\"at\":");
        push_number(&mut out, self.at);
        if let Some(moved) = self.moved {
            out.push_str(",\"moved\":");
            push_number(&mut out, moved);
        }
        if !self.berserk.is_empty() {
            out.push_str(",\"berserk\":[");
            for (i, s) in self.berserk.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(side(*s));
            }
            out.push(']');
        }
        out.push('}');
        out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{test_random_move, test_record};

    /// [`Glance::to_json`] writes what serde_json writes from the derived
    /// `Serialize`, byte for byte, and reads back as the same glance: after
    /// every ply of random games, with and without clocks, with booked
    /// stops and with numbers of every size.
    #[test]
    fn the_glance_as_json_is_what_serde_json_writes() {
        let mut seed: u64 = 11;
        for body in [
            r#"{"opponent":"local","time_control":"5+3"}"#,
            r#"{"opponent":"local"}"#,
            r#"{"opponent":"local","time_control":"3d/move"}"#,
        ] {
            for _ in 0..10 {
                let mut record = test_record(body);
                for ply in 0..120_u64 {
                    let plain = Glance::of(&record, 1000 * ply);
                    let full = Glance {
                        pauses: vec![[1, u64::MAX], [0, 10]],
                        berserk: vec![Side::Black, Side::White],
                        flag_at: Some(u64::MAX),
                        ..plain.clone()
                    };
                    for g in [plain, full] {
                        let json = g.to_json();
                        assert_eq!(json, serde_json::to_string(&g).expect("JSON"));
                        assert_eq!(serde_json::from_str::<Glance>(&json).expect("reads"), g);
                    }
                    if record.is_over() {
                        break;
                    }
                    test_random_move(&mut record, &mut seed, 1000 * ply + 500);
                }
            }
        }
    }
}
