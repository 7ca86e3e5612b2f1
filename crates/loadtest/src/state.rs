//! What the tool reads from the server's `state` object
//! (docs/protocol.md): the ply, the moves, whether the game is over, and
//! a random legal move to play next.

use std::borrow::Cow;

use rand::seq::IndexedRandom;
use rochade_laws::notation::write_uci;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The half-moves played (`0` when the state has none).
pub(crate) fn ply_of(state: &Value) -> u64 {
    state["ply"].as_u64().unwrap_or(0)
}

/// The moves of a state, in UCI.
pub(crate) fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["uci"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the game is over: a result, aborted, or closed by the server.
pub(crate) fn is_over(state: &Value) -> bool {
    !state["outcome"].is_null() || state["aborted"] == true || !state["closed"].is_null()
}

/// The state a move message (`{"t":"move","move":{…},"state":{…}}`,
/// docs/protocol.md) makes of `before`: the move added to its list and
/// the rest taken from the message; `None` when the message does not
/// follow `before` (its ply is not the next).
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// let before = json!({"ply": 0, "moves": [], "fen": "start"});
/// let message = json!({"t": "move", "move": {"uci": "e2e4", "san": "e4"},
///                      "state": {"ply": 1, "fen": "after"}});
/// let next = rochade_loadtest::apply_move(before, &message).unwrap();
/// assert_eq!(next["moves"][0]["san"], "e4");
/// assert_eq!(next["fen"], "after");
/// ```
pub fn apply_move(mut before: Value, message: &Value) -> Option<Value> {
    let now = message["state"].as_object()?;
    if now.get("ply")?.as_u64()? != ply_of(&before) + 1 {
        return None;
    }
    let state = before.as_object_mut()?;
    state
        .get_mut("moves")?
        .as_array_mut()?
        .push(message["move"].clone());
    for (key, value) in now {
        state.insert(key.clone(), value.clone());
    }
    Some(before)
}

/// A game as one socket has been told it: what the tool plays by (the
/// moves in UCI, the ply, the position, whether the side to move has a
/// move and whether the game is over). A move message is read into these
/// alone, its other fields skipped unread, so that following a game costs
/// the tool no copy of its state and no JSON value a move: the tool's own
/// CPU a move must stay well below the server's for one core of it to
/// load one core of the server (docs/performance.md).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracked {
    /// The moves, in UCI.
    moves: Vec<String>,
    /// The half-moves played.
    ply: u64,
    /// The position (FEN).
    fen: String,
    /// The state's legal moves were not an empty map.
    can_move: bool,
    /// The state had an outcome.
    over: bool,
}

/// A move message (docs/protocol.md), as far as the tool reads it.
#[derive(Debug, Deserialize)]
struct MoveMessage<'a> {
    /// The move.
    #[serde(rename = "move", borrow)]
    played: Played<'a>,
    /// What the move changed.
    #[serde(borrow)]
    state: MoveNow<'a>,
}

/// A move message's move.
#[derive(Debug, Deserialize)]
struct Played<'a> {
    /// In UCI.
    #[serde(borrow)]
    uci: Cow<'a, str>,
}

/// A move message's state, as far as the tool reads it.
#[derive(Debug, Deserialize)]
struct MoveNow<'a> {
    /// The half-moves played.
    ply: u64,
    /// The position.
    #[serde(borrow)]
    fen: Cow<'a, str>,
    /// Whether the legal moves are a map with a move in it.
    #[serde(default)]
    dests: CanMove,
    /// The outcome, if any (not read).
    #[serde(default)]
    outcome: Option<IgnoredAny>,
}

/// Whether a state's `dests` let the side to move move: anything but an
/// empty map does, as a missing `dests` does (the whole state's reading:
/// `dests != {}`).
#[derive(Debug)]
struct CanMove(bool);

impl Default for CanMove {
    fn default() -> CanMove {
        CanMove(true)
    }
}

impl<'de> Deserialize<'de> for CanMove {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CanMove, D::Error> {
        /// Reads the first key of a map and skips the rest.
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = CanMove;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("the legal moves")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CanMove, A::Error> {
                let any = map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some();
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(CanMove(any))
            }
            fn visit_unit<E>(self) -> Result<CanMove, E> {
                Ok(CanMove(true))
            }
        }
        deserializer.deserialize_any(Visit)
    }
}

impl Tracked {
    /// A whole state (`{"t":"state"}`'s `state`).
    pub(crate) fn of_state(state: &Value) -> Tracked {
        Tracked {
            moves: moves_of(state),
            ply: ply_of(state),
            fen: state["fen"].as_str().unwrap_or_default().to_owned(),
            can_move: state["dests"] != Value::Object(serde_json::Map::new()),
            over: !state["outcome"].is_null(),
        }
    }

    /// Takes in a move message (its text); false (and nothing changed)
    /// when it is unreadable or does not follow (its ply is not the next).
    pub(crate) fn take_move(&mut self, text: &str) -> bool {
        let Ok(message) = serde_json::from_str::<MoveMessage<'_>>(text) else {
            return false;
        };
        if message.state.ply != self.ply + 1 {
            return false;
        }
        self.moves.push(message.played.uci.into_owned());
        self.ply = message.state.ply;
        self.fen = message.state.fen.into_owned();
        self.can_move = message.state.dests.0;
        self.over = message.state.outcome.is_some();
        true
    }

    /// The half-moves played.
    pub(crate) fn ply(&self) -> u64 {
        self.ply
    }

    /// The moves, in UCI.
    pub(crate) fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The position (FEN).
    pub(crate) fn fen(&self) -> &str {
        &self.fen
    }

    /// Whether the side to move has a legal move, as the state said.
    pub(crate) fn can_move(&self) -> bool {
        self.can_move
    }

    /// Whether the state had an outcome.
    pub(crate) fn over(&self) -> bool {
        self.over
    }
}

/// A random legal move in the position `fen`, in UCI.
pub(crate) fn random_move(fen: &str) -> Option<String> {
    let fen: Fen = fen.parse().ok()?;
    let pos: Chess = fen.into_position(CastlingMode::Standard).ok()?;
    let moves = pos.legal_moves();
    let m = moves.choose(&mut rand::rng())?;
    Some(write_uci(*m, CastlingMode::Standard))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_state_is_read() {
        let state = json!({
            "ply": 2,
            "fen": "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "moves": [{"uci": "e2e4", "san": "e4"}, {"uci": "e7e5", "san": "e5"}],
            "outcome": null, "aborted": false, "closed": null
        });
        assert_eq!(ply_of(&state), 2);
        assert_eq!(moves_of(&state), ["e2e4", "e7e5"]);
        assert!(!is_over(&state));
        let m = random_move(state["fen"].as_str().expect("a FEN")).expect("a legal move");
        assert!(m.len() == 4 && m.as_bytes()[1] <= b'2', "White's move: {m}");
    }

    #[test]
    fn a_move_message_makes_the_next_state() {
        let before = json!({"you": "white", "ply": 1, "moves": [{"uci": "e2e4", "san": "e4"}],
                            "fen": "x", "outcome": null});
        let message = json!({"t": "move", "move": {"uci": "e7e5", "san": "e5"},
                             "state": {"ply": 2, "fen": "y"}});
        let next = apply_move(before.clone(), &message).expect("follows");
        assert_eq!(next["you"], "white");
        assert_eq!(next["fen"], "y");
        assert_eq!(moves_of(&next), ["e2e4", "e7e5"]);
        // A move missed: the message does not follow.
        let later = json!({"t": "move", "move": {"uci": "g1f3", "san": "Nf3"},
                           "state": {"ply": 3}});
        assert!(apply_move(before, &later).is_none());
    }

    #[test]
    fn a_tracked_game_follows_move_messages_as_apply_move_does() {
        let before = json!({"you": "white", "ply": 1, "moves": [{"uci": "e2e4", "san": "e4"}],
                            "fen": "x", "outcome": null, "dests": {"e7": ["e5"]}});
        let message = json!({"t": "move", "move": {"uci": "e7e5", "san": "e5"},
                             "state": {"ply": 2, "fen": "y", "dests": {"g1": ["f3", "h3"]},
                                       "clock": {"white": 1}, "outcome": null}});
        let mut tracked = Tracked::of_state(&before);
        assert_eq!(
            (tracked.ply(), tracked.fen(), tracked.can_move()),
            (1, "x", true)
        );
        assert!(tracked.take_move(&message.to_string()));
        let next = apply_move(before, &message).expect("follows");
        assert_eq!(tracked.moves(), moves_of(&next));
        assert_eq!((tracked.ply(), tracked.fen()), (2, "y"));
        assert!(tracked.can_move() && !tracked.over());
        // A move missed, a message without a move, one unreadable: nothing changes.
        let later = json!({"t": "move", "move": {"uci": "b8c6", "san": "Nc6"},
                           "state": {"ply": 4, "fen": "z"}});
        assert!(!tracked.take_move(&later.to_string()));
        assert!(!tracked.take_move(r#"{"t":"move","state":{"ply":3,"fen":"z"}}"#));
        assert!(!tracked.take_move("{"));
        assert_eq!(
            (tracked.ply(), tracked.moves().len(), tracked.fen()),
            (2, 2, "y")
        );
        // Mate: no legal moves, an outcome.
        let mate = json!({"t": "move", "move": {"uci": "d8h4", "san": "Qh4#"},
                          "state": {"ply": 3, "fen": "m", "dests": {},
                                    "outcome": {"result": "0-1"}}});
        assert!(tracked.take_move(&mate.to_string()));
        assert!(!tracked.can_move() && tracked.over());
        let whole = Tracked::of_state(&json!({"ply": 0, "fen": "s", "moves": [], "dests": {}}));
        assert!(!whole.can_move() && !whole.over());
    }

    #[test]
    fn a_game_is_over_by_a_result_an_abort_or_the_server() {
        assert!(is_over(&json!({"outcome": {"result": "1-0"}})));
        assert!(is_over(&json!({"outcome": null, "aborted": true})));
        assert!(is_over(&json!({"outcome": null, "closed": "idle"})));
        assert!(!is_over(&json!({})));
    }
}
