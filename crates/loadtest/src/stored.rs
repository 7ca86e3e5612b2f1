//! After the run: every game the tool played read back from the server
//! (`GET /api/games/{id}`, the state a spectator sees, through the same
//! address as the games: behind a proxy, whichever node owns the game
//! now), its stored moves compared with those the tool was acknowledged,
//! and whether it is finished, could go on (the server loaded it), or
//! could not be read at all.

use std::time::Duration;

use futures_util::StreamExt;
use serde::Serialize;
use serde_json::Value;
use tokio::time::Instant;

use crate::check::{MoveCheck, compare};
use crate::client::get_json;
use crate::resilience::Backoff;
use crate::seat::ANSWER_WAIT;
use crate::state::{is_over, moves_of};
use crate::tally::GameLog;

/// Games read at once.
const READERS: usize = 16;

/// What the games' stored records say.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StoredCheck {
    /// Games read back: every game the tool made.
    pub games: u64,
    /// Games over: a result, aborted, or closed by the server.
    pub finished: u64,
    /// Games not over whose state the server gave (it could load them):
    /// they go on when their players come back.
    pub unfinished_resumable: u64,
    /// Games whose state the server did not give within the window, or
    /// that it does not know (`404`): not resumable.
    pub unfinished_unreachable: u64,
    /// Acknowledged moves the stored games do not hold in their order
    /// (all of a game the server does not know).
    pub lost: u64,
    /// Stored moves that match no acknowledged one (the move that was in
    /// flight when the tool gave up aside).
    pub duplicated: u64,
    /// How long the check took, s.
    pub seconds: f64,
    /// The first games (at most `SHOWN`, 20) that lost or duplicated a move
    /// or could not be read, to look for in the server's logs.
    pub bad_games: Vec<BadGame>,
}

/// Bad games listed in a [`StoredCheck`], at most.
pub const SHOWN: usize = 20;

/// A game that failed the check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadGame {
    /// Its id.
    pub id: String,
    /// Moves acknowledged.
    pub acked: usize,
    /// Moves stored (`None`: not read).
    pub stored: Option<usize>,
    /// Acknowledged moves it does not hold.
    pub lost: u64,
    /// Stored moves beyond those acknowledged.
    pub duplicated: u64,
    /// The last acknowledgements (at most `TAIL`, 3), oldest first: to find
    /// a lost move in the server's logs.
    pub last_acked: Vec<AckShown>,
    /// The last stored moves (at most `TAIL`, 3; UCI), oldest first.
    pub stored_tail: Vec<String>,
}

/// Acknowledgements and stored moves a [`BadGame`] shows, at most.
pub const TAIL: usize = 3;

/// One acknowledged move, as a [`BadGame`] shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AckShown {
    /// Its ply (0: White's first move).
    pub ply: usize,
    /// The move (UCI).
    pub uci: String,
    /// `answer`: by the state that answered the move; `reopened`: by the
    /// first state of a socket opened again after the answer went missing.
    pub via: &'static str,
    /// When the tool took it as acknowledged (Unix ms).
    pub at_ms: u64,
    /// The beginning of the message that acknowledged it.
    pub said: String,
}

impl AckShown {
    /// The last [`TAIL`] acknowledgements of `log`.
    fn tail_of(log: &GameLog) -> Vec<AckShown> {
        let from = log.acked.len().saturating_sub(TAIL);
        log.acked
            .iter()
            .zip(&log.how)
            .enumerate()
            .skip(from)
            .map(|(ply, (uci, how))| AckShown {
                ply,
                uci: uci.clone(),
                via: if how.reopened { "reopened" } else { "answer" },
                at_ms: how.at_ms,
                said: how.said.clone(),
            })
            .collect()
    }
}

impl StoredCheck {
    /// Whether no move was lost or duplicated and every game is finished
    /// or resumable.
    pub fn is_clean(&self) -> bool {
        self.lost == 0 && self.duplicated == 0 && self.unfinished_unreachable == 0
    }

    /// Adds one game's figures (`seconds` aside).
    fn add(&mut self, other: &StoredCheck) {
        self.games += other.games;
        self.finished += other.finished;
        self.unfinished_resumable += other.unfinished_resumable;
        self.unfinished_unreachable += other.unfinished_unreachable;
        self.lost += other.lost;
        self.duplicated += other.duplicated;
        let room = SHOWN.saturating_sub(self.bad_games.len());
        self.bad_games
            .extend(other.bad_games.iter().take(room).cloned());
    }
}

/// What reading a game gave.
#[derive(Debug, Clone, PartialEq)]
enum Read {
    /// Its state.
    State(Value),
    /// `404`: the server does not know it.
    Missing,
    /// No state within the window.
    Unreachable,
}

/// Reads every game of `logs` from `host`, [`READERS`] at once, trying
/// again within `window` (one window for them all: a server that answers
/// nothing holds the check up no longer), and compares.
pub(crate) async fn check_stored(host: &str, logs: Vec<GameLog>, window: Duration) -> StoredCheck {
    let began = Instant::now();
    let until = began + window;
    let mut total = futures_util::stream::iter(logs)
        .map(|log| async move {
            let read = read(host, &log.id, until).await;
            judge_game(&log, &read)
        })
        .buffer_unordered(READERS)
        .fold(StoredCheck::default(), |mut total, one| async move {
            total.add(&one);
            total
        })
        .await;
    total.seconds = began.elapsed().as_secs_f64();
    total
}

/// The state of game `id`, trying again (a node that just died, `busy`)
/// until `until`.
async fn read(host: &str, id: &str, until: Instant) -> Read {
    let mut backoff = Backoff::new(until.saturating_duration_since(Instant::now()));
    let path = format!("/api/games/{id}");
    loop {
        match tokio::time::timeout(ANSWER_WAIT, get_json(host, &path)).await {
            Ok(Ok((200, state))) => return Read::State(state),
            Ok(Ok((404, _))) => return Read::Missing,
            _ => {}
        }
        if !backoff.pause().await {
            return Read::Unreachable;
        }
    }
}

/// One game's figures from what reading it gave.
fn judge_game(log: &GameLog, read: &Read) -> StoredCheck {
    let mut one = StoredCheck {
        games: 1,
        ..StoredCheck::default()
    };
    let mut stored = None;
    let mut stored_tail = Vec::new();
    let check = match read {
        Read::State(state) => {
            if is_over(state) {
                one.finished = 1;
            } else {
                one.unfinished_resumable = 1;
            }
            let moves = moves_of(state);
            stored = Some(moves.len());
            stored_tail = moves[moves.len().saturating_sub(TAIL)..].to_vec();
            compare(&log.acked, log.in_flight.as_deref(), &moves)
        }
        Read::Missing => {
            one.unfinished_unreachable = 1;
            compare(&log.acked, None, &[])
        }
        Read::Unreachable => {
            one.unfinished_unreachable = 1;
            MoveCheck::default()
        }
    };
    one.lost = check.lost;
    one.duplicated = check.duplicated;
    if !one.is_clean() {
        one.bad_games.push(BadGame {
            id: log.id.clone(),
            acked: log.acked.len(),
            stored,
            lost: check.lost,
            duplicated: check.duplicated,
            last_acked: AckShown::tail_of(log),
            stored_tail,
        });
    }
    one
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn log(acked: &str, in_flight: Option<&str>) -> GameLog {
        let mut log = GameLog::new("g");
        for (i, uci) in acked.split_whitespace().enumerate() {
            log.acknowledge(uci.to_owned(), i % 2 == 1, "");
        }
        log.in_flight = in_flight.map(str::to_owned);
        log
    }

    fn state(moves: &[&str], over: bool) -> Read {
        let moves: Vec<Value> = moves.iter().map(|m| json!({"uci": m})).collect();
        let outcome = if over {
            json!({"result": "0-1"})
        } else {
            Value::Null
        };
        Read::State(json!({"moves": moves, "outcome": outcome}))
    }

    #[test]
    fn a_resigned_game_holding_its_moves_is_finished_and_clean() {
        let one = judge_game(&log("e2e4 e7e5", None), &state(&["e2e4", "e7e5"], true));
        assert_eq!(
            (one.games, one.finished, one.lost, one.duplicated),
            (1, 1, 0, 0)
        );
        assert!(one.is_clean());
    }

    #[test]
    fn a_game_given_up_with_a_move_in_flight_is_resumable() {
        let given_up = log("e2e4", Some("e7e5"));
        for stored in [&["e2e4"][..], &["e2e4", "e7e5"][..]] {
            let one = judge_game(&given_up, &state(stored, false));
            assert_eq!(one.unfinished_resumable, 1);
            assert!(one.is_clean(), "{stored:?}: {one:?}");
        }
    }

    #[test]
    fn stored_moves_are_compared_with_those_acknowledged() {
        let one = judge_game(
            &log("e2e4 e7e5 g1f3", None),
            &state(&["e2e4", "e7e5"], true),
        );
        assert_eq!((one.lost, one.duplicated), (1, 0));
        let [bad] = &one.bad_games[..] else {
            panic!("one bad game: {:?}", one.bad_games);
        };
        assert_eq!(
            (&bad.id[..], bad.acked, bad.stored, bad.lost, bad.duplicated),
            ("g", 3, Some(2), 1, 0)
        );
        // The lost move is told with how it was acknowledged, beside the
        // moves stored.
        let shown: Vec<_> = bad
            .last_acked
            .iter()
            .map(|a| (a.ply, &a.uci[..], a.via))
            .collect();
        assert_eq!(
            shown,
            [
                (0, "e2e4", "answer"),
                (1, "e7e5", "reopened"),
                (2, "g1f3", "answer")
            ]
        );
        assert!(bad.last_acked.iter().all(|a| a.at_ms > 0));
        assert_eq!(bad.stored_tail, ["e2e4", "e7e5"]);
        let one = judge_game(
            &log("e2e4 e7e5", None),
            &state(&["e2e4", "e7e5", "e7e5"], true),
        );
        assert_eq!((one.lost, one.duplicated), (0, 1));
        assert!(!one.is_clean());
    }

    #[test]
    fn a_game_not_read_is_unreachable_and_a_missing_one_lost_its_moves() {
        let played = log("e2e4 e7e5", Some("g1f3"));
        let one = judge_game(&played, &Read::Unreachable);
        assert_eq!((one.unfinished_unreachable, one.lost), (1, 0));
        let one = judge_game(&played, &Read::Missing);
        assert_eq!((one.unfinished_unreachable, one.lost), (1, 2));
        assert!(!one.is_clean());
        assert_eq!(one.bad_games[0].stored, None);
    }

    #[test]
    fn figures_add_up() {
        let mut total = StoredCheck::default();
        total.add(&judge_game(&log("e2e4", None), &state(&["e2e4"], true)));
        total.add(&judge_game(&log("d2d4", None), &Read::Unreachable));
        assert_eq!(
            (total.games, total.finished, total.unfinished_unreachable),
            (2, 1, 1)
        );
        assert_eq!(total.bad_games.len(), 1);
        for _ in 0..SHOWN {
            total.add(&judge_game(&log("d2d4", None), &Read::Unreachable));
        }
        assert_eq!(total.bad_games.len(), SHOWN);
    }
}
