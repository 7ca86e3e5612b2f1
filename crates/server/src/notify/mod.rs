//! Telling correspondence players what happened while they were away: it
//! is their move, a draw is offered, their time is running low. Each
//! notice goes to the player's open pages at once (the account's news, as
//! `{"type": "notice", …}`) and waits for the next e-mail digest when the
//! player gave an address and the server has an SMTP relay (`--smtp`): at
//! most one digest an hour per player ([`mail`]), in the player's language
//! ([`words`]).

pub mod mail;
pub mod settings;
pub mod thresholds;
pub mod words;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::hub::Hub;
use crate::storage::Storage;

/// What a player is told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// It is the player's move; `deadline` (Unix ms) is when their flag
    /// falls if they do not move.
    YourMove {
        /// The opponent's name.
        opponent: String,
        /// When the flag falls.
        deadline: Option<u64>,
    },
    /// The opponent offered a draw with their move (9.1.2.1).
    DrawOffered {
        /// The opponent's name.
        opponent: String,
    },
    /// The player's time is running low.
    TimeLow {
        /// The opponent's name.
        opponent: String,
        /// When the flag falls.
        deadline: u64,
    },
    /// The tournament director decided about the player's game or about
    /// the player (ICCF 14; see [`crate::director`]).
    Decision {
        /// The director's name.
        director: String,
        /// What was decided ([`crate::director::Act::name`], `warning`,
        /// `withdrawal`, `leave_granted`).
        act: String,
        /// The director's reason.
        reason: String,
    },
    /// The opponent booked leave (10.1): both clocks stop from `from` to
    /// `to` (Unix ms; `to` is the moment after the last day).
    Leave {
        /// The opponent's name.
        player: String,
        /// When the leave begins.
        from: u64,
        /// When it ends.
        to: u64,
    },
    /// The opponent's leave begins today: both clocks stand still until
    /// `to` (Unix ms, the moment after its last day).
    LeaveBegins {
        /// The opponent's name.
        player: String,
        /// When it ends.
        to: u64,
    },
    /// The opponent's leave is over: the clocks run again.
    LeaveEnds {
        /// The opponent's name.
        player: String,
    },
    /// A live tournament the player entered begins soon: its first
    /// round is paired at `starts_at` (Unix ms).
    TournamentSoon {
        /// The tournament's id.
        tournament: String,
        /// Its name.
        name: String,
        /// When it begins.
        starts_at: u64,
    },
    /// The director answered the player's appeal or claim.
    Answered {
        /// The director's name.
        director: String,
        /// The answer.
        answer: String,
    },
}

impl Notice {
    /// Its kind, as in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::YourMove { .. } => "your_move",
            Notice::DrawOffered { .. } => "draw_offered",
            Notice::TimeLow { .. } => "time_low",
            Notice::Leave { .. } => "leave",
            Notice::LeaveBegins { .. } => "leave_begins",
            Notice::LeaveEnds { .. } => "leave_ends",
            Notice::Decision { .. } => "decision",
            Notice::Answered { .. } => "answered",
            Notice::TournamentSoon { .. } => "tournament_soon",
        }
    }
}

/// Tells account `user` `notice` about `game` at `ply` (Unix ms `at`): on
/// its pages now, and into its next digest. A notice of one kind is kept
/// once per game and ply, so a reloaded room never tells twice.
pub fn tell(
    hub: &Hub,
    storage: &Arc<dyn Storage>,
    user: i64,
    game: &str,
    ply: usize,
    notice: Notice,
    at: u64,
) {
    hub.tell(
        user,
        json!({"type": "notice", "gameId": game, "notice": &notice}),
    );
    let key = format!("{}:{game}:{ply}", notice.kind());
    let body = serde_json::to_string(&notice).unwrap_or_default();
    let storage = storage.clone();
    let game = game.to_owned();
    tokio::task::spawn_blocking(move || {
        if let Err(e) = storage.add_notice(user, &key, &game, &body, at) {
            tracing::warn!(user, error = %e, "keeping a notice");
        }
    });
}

/// Like [`tell`], but only if no notice with the same `key` (kind, game
/// and `key`) was kept before: a reminder that a reloaded room or a
/// restarted server may see fall due again is told once.
pub fn tell_once(
    hub: &std::sync::Arc<Hub>,
    storage: &Arc<dyn Storage>,
    user: i64,
    game: &str,
    key: &str,
    notice: Notice,
    at: u64,
) {
    let key = format!("{}:{game}:{key}", notice.kind());
    let body = serde_json::to_string(&notice).unwrap_or_default();
    let (hub, storage, game) = (hub.clone(), storage.clone(), game.to_owned());
    tokio::spawn(async move {
        let stored = {
            let game = game.clone();
            tokio::task::spawn_blocking(move || storage.add_notice(user, &key, &game, &body, at))
                .await
        };
        match stored {
            Ok(Ok(true)) => hub.tell(
                user,
                json!({"type": "notice", "gameId": game, "notice": &notice}),
            ),
            Ok(Ok(false)) => {}
            Ok(Err(e)) => tracing::warn!(user, error = %e, "keeping a notice"),
            Err(e) => tracing::warn!(user, error = %e, "keeping a notice"),
        }
    });
}

/// Account `user` moved in `game`: its unsent notices about it are stale.
pub fn moved(storage: &Arc<dyn Storage>, user: i64, game: &str) {
    let storage = storage.clone();
    let game = game.to_owned();
    tokio::task::spawn_blocking(move || {
        if let Err(e) = storage.dismiss_notices(user, &game) {
            tracing::warn!(user, error = %e, "dropping stale notices");
        }
    });
}
