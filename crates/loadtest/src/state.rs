//! What the tool reads from the server's `state` object
//! (docs/protocol.md): the ply, the moves, whether the game is over, and
//! a random legal move to play next.

use rand::seq::IndexedRandom;
use rochade_laws::notation::write_uci;
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

/// A game as one socket has been told it: the moves in UCI and the rest
/// of the last state. A move message is taken in by moving its values in,
/// so that following a game costs the tool no copy of its state a move:
/// the tool's own CPU a move must stay well below the server's for one
/// core of it to load one core of the server (docs/performance.md).
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracked {
    /// The moves, in UCI.
    moves: Vec<String>,
    /// The last state but its moves (a JSON object).
    now: Value,
}

impl Tracked {
    /// A whole state (`{"t":"state"}`'s `state`).
    pub(crate) fn of_state(mut state: Value) -> Tracked {
        let moves = moves_of(&state);
        if let Some(object) = state.as_object_mut() {
            object.remove("moves");
        }
        Tracked { moves, now: state }
    }

    /// Takes in a move message; false (and nothing changed) when it does
    /// not follow (its ply is not the next).
    pub(crate) fn take_move(&mut self, mut message: Value) -> bool {
        let follows = message["state"]["ply"].as_u64() == Some(self.ply() + 1);
        let (Some(uci), true) = (message["move"]["uci"].as_str(), follows) else {
            return false;
        };
        self.moves.push(uci.to_owned());
        if let (Value::Object(now), Value::Object(changed)) =
            (&mut self.now, message["state"].take())
        {
            now.extend(changed);
        }
        true
    }

    /// The half-moves played.
    pub(crate) fn ply(&self) -> u64 {
        ply_of(&self.now)
    }

    /// The moves, in UCI.
    pub(crate) fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The last state, without its moves.
    pub(crate) fn now(&self) -> &Value {
        &self.now
    }
}

/// A random legal move in the state's position, in UCI.
pub(crate) fn random_move(state: &Value) -> Option<String> {
    let fen: Fen = state["fen"].as_str()?.parse().ok()?;
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
        let m = random_move(&state).expect("a legal move");
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
                            "fen": "x", "outcome": null});
        let message = json!({"t": "move", "move": {"uci": "e7e5", "san": "e5"},
                             "state": {"ply": 2, "fen": "y"}});
        let mut tracked = Tracked::of_state(before.clone());
        assert!(tracked.take_move(message.clone()));
        let next = apply_move(before, &message).expect("follows");
        assert_eq!(tracked.moves(), moves_of(&next));
        assert_eq!(tracked.ply(), 2);
        assert_eq!(tracked.now()["fen"], "y");
        assert_eq!(tracked.now()["you"], "white");
        assert!(tracked.now().get("moves").is_none());
        // A move missed, or a message without a move: nothing changes.
        let later = json!({"t": "move", "move": {"uci": "b8c6", "san": "Nc6"},
                           "state": {"ply": 4, "fen": "z"}});
        assert!(!tracked.take_move(later));
        assert!(!tracked.take_move(json!({"t": "move", "state": {"ply": 3}})));
        assert_eq!((tracked.ply(), tracked.moves().len()), (2, 2));
        assert_eq!(tracked.now()["fen"], "y");
    }

    #[test]
    fn a_game_is_over_by_a_result_an_abort_or_the_server() {
        assert!(is_over(&json!({"outcome": {"result": "1-0"}})));
        assert!(is_over(&json!({"outcome": null, "aborted": true})));
        assert!(is_over(&json!({"outcome": null, "closed": "idle"})));
        assert!(!is_over(&json!({})));
    }
}
