//! Arenas as lichess runs them: for a fixed time from the start, the
//! players who wait are paired at once with a neighbour in the ranking
//! ([`pairing`]), each game scored on the player's sheet with streaks
//! and berserk ([`sheet`], [`berserk`]); ranked by points, then by
//! performance ([`ranking`]). Players join and leave (a pause: they are
//! no longer paired, and may come back) while it runs. No game is paired
//! in the last moments; games still going when the time is up are
//! finished by the players but do not count.
//!
//! The arena's state is its games, stored with the tournament
//! ([`ArenaLog`]) before they are made, as a Swiss round is; the sheets
//! are read again from the games' results whenever they are needed.
//!
//! - [`play`]: the start, the pairing of those waiting, the end.
//! - [`ranking`]: the sheets, the standings and the page's view.
//! - [`settings`]: the organiser's settings, checked.

pub mod berserk;
pub mod pairing;
pub mod play;
pub mod ranking;
pub mod settings;
pub mod sheet;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::Tournament;

/// The shortest arena, in minutes.
pub const MIN_MINUTES: u16 = 5;

/// The longest arena, in minutes (lichess's twelve hours).
pub const MAX_MINUTES: u16 = 720;

/// Most players an arena may have.
pub const MAX_ARENA_PLAYERS: usize = 1000;

/// A game the server started in an arena.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// The game.
    pub game: String,
    /// White's account.
    pub white: i64,
    /// Black's account.
    pub black: i64,
    /// When it was paired (server time, Unix ms).
    pub paired: u64,
}

/// An arena's games, in the order paired.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaLog {
    /// The games.
    #[serde(default)]
    pub games: Vec<ArenaGame>,
    /// Games still going when the time was up: they do not count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub late: Vec<String>,
    /// Games lost by a player who made no first move (6.7.1), whose
    /// player was paused for it ([`play::advance`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
}

impl ArenaLog {
    /// Whether there is nothing to store.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty() && self.late.is_empty() && self.absent.is_empty()
    }
}

/// Each player's games in the arena, in the order paired, by account: one
/// pass over the log, for what looks at every player's games.
pub fn games_by_player(tournament: &Tournament) -> HashMap<i64, Vec<&ArenaGame>> {
    let mut by: HashMap<i64, Vec<&ArenaGame>> = HashMap::new();
    for game in &tournament.arena.games {
        by.entry(game.white).or_default().push(game);
        by.entry(game.black).or_default().push(game);
    }
    by
}

/// The arena's length in minutes; none for another system.
pub fn minutes(tournament: &Tournament) -> Option<u16> {
    match tournament.system {
        super::System::Arena { minutes } => Some(minutes),
        _ => None,
    }
}

/// When the arena's time is up (server time, Unix ms), once started.
pub fn ends_at(tournament: &Tournament) -> Option<u64> {
    let minutes = minutes(tournament)?;
    Some(tournament.started? + u64::from(minutes) * 60_000)
}

/// When pairing stops before the end, as lichess's: half the initial
/// time, at least 30 seconds and at most two minutes before it.
///
/// ```
/// use rochade_server::tournaments::arena::closing_ms;
/// assert_eq!(closing_ms("3+2"), 90_000);
/// assert_eq!(closing_ms("1+0"), 30_000);
/// assert_eq!(closing_ms("15+10"), 120_000);
/// ```
pub fn closing_ms(control: &str) -> u64 {
    let base = control
        .parse()
        .ok()
        .and_then(|c| berserk::base_and_increment(&c))
        .map_or(0, |(base, _)| {
            u64::try_from(base.as_millis()).unwrap_or(u64::MAX)
        });
    (base / 2).clamp(30_000, 120_000)
}

/// When the arena stops pairing (server time, Unix ms), once started.
pub fn closes_at(tournament: &Tournament) -> Option<u64> {
    Some(ends_at(tournament)?.saturating_sub(closing_ms(&tournament.time_control)))
}
