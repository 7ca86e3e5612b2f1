//! A game's whole state as JSON, put together the first time it is asked
//! for: after a move, the sockets that asked for move messages take only
//! the move, and the whole state (every move of the game again) is then
//! never written.

use std::sync::{Arc, LazyLock};

use super::moves::MovesSnapshot;

/// What puts the state together.
type Assembly = Box<dyn FnOnce() -> Arc<String> + Send>;

/// A game's state at one moment as JSON (without `you`), written when
/// first asked for and then kept.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use rochade_server::state::LazyState;
///
/// let state = LazyState::ready(Arc::new(r#"{"ply":0}"#.to_owned()));
/// assert_eq!(state.json().as_str(), r#"{"ply":0}"#);
/// ```
pub struct LazyState(LazyLock<Arc<String>, Assembly>);

impl LazyState {
    /// The state of `head`, `moves` and `now` (JSON objects but the moves),
    /// as [`super::assemble`] writes it.
    pub fn new(head: Arc<str>, moves: MovesSnapshot, now: String) -> LazyState {
        LazyState(LazyLock::new(Box::new(move || {
            Arc::new(super::assemble(&head, &moves.json(), &now))
        })))
    }

    /// A state already written.
    pub fn ready(json: Arc<String>) -> LazyState {
        LazyState(LazyLock::new(Box::new(move || json)))
    }

    /// The state as JSON.
    pub fn json(&self) -> Arc<String> {
        Arc::clone(&self.0)
    }
}

impl std::fmt::Debug for LazyState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LazyState")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::test_record;
    use crate::state::MovesJson;

    #[test]
    fn written_when_asked_as_assemble_writes_it() {
        let record = test_record(r#"{"opponent":"local","time_control":"-"}"#);
        let mut moves = MovesJson::default();
        let state = LazyState::new(
            Arc::from(r#"{"id":"x"}"#),
            moves.snapshot(&record),
            r#"{"ply":0}"#.to_owned(),
        );
        let json = state.json();
        assert_eq!(json.as_str(), r#"{"id":"x","moves":[],"ply":0}"#);
        // Written once: the second time is the same string.
        assert!(Arc::ptr_eq(&json, &state.json()));
    }
}
