//! The `moves` array of a state, kept as JSON between states: a room
//! writes each ply once instead of the whole list after every move.

use std::sync::{Arc, Mutex};

use crate::record::{Ply, Record};

/// One ply as JSON: `{"uci":"e2e4","san":"e4"}`, with `"offer":true` when
/// a draw offer went with it.
pub(crate) fn write_ply(ply: &Ply) -> String {
    super::to_string(ply)
}

/// Every ply as a JSON array.
pub(crate) fn write_all(plies: &[Ply]) -> String {
    super::to_string(&plies)
}

/// The moves of one game as a JSON array, kept between its states. Every
/// ply but the last is written once and kept (a draw offer can still
/// mark the last one); a take-back, which rewrites the list, is seen in
/// [`Record::rewrites`] and starts the list again. The kept plies are
/// shared with the [`MovesSnapshot`]s handed out, which put the array
/// together only when asked: after a move, most sockets take only the
/// move message and never need the whole list.
///
/// # Examples
///
/// ```
/// use rochade_server::event::{Event, Timed};
/// use rochade_server::record::Record;
/// use rochade_server::setup::{GameSetup, NewGame};
/// use rochade_server::state::MovesJson;
///
/// let request: NewGame = serde_json::from_str(r#"{"opponent":"local"}"#).unwrap();
/// let setup = GameSetup::from_request(&request, &Default::default()).unwrap();
/// let mut record = Record::new(setup).unwrap();
/// let mut moves = MovesJson::default();
/// assert_eq!(moves.write(&record), "[]");
/// let e4 = Event::Move { uci: "e2e4".into() };
/// record.apply(Timed { at: 1000, event: e4 }).unwrap();
/// let snapshot = moves.snapshot(&record);
/// assert_eq!(snapshot.last(), Some(r#"{"uci":"e2e4","san":"e4"}"#));
/// assert_eq!(snapshot.json(), r#"[{"uci":"e2e4","san":"e4"}]"#);
/// ```
#[derive(Debug)]
pub struct MovesJson {
    /// `[` and the kept plies, each followed by a comma; it only grows
    /// (a take-back starts a new one), so a snapshot is its length.
    kept: Arc<Mutex<String>>,
    /// How many plies `kept` holds.
    count: usize,
    /// The record's [`Record::rewrites`] when they were written.
    rewrites: u64,
}

/// The moves of a game at one state, as [`MovesJson`] handed them out:
/// the kept plies up to a length, and the last ply.
#[derive(Debug, Clone)]
pub struct MovesSnapshot {
    /// The game's kept plies.
    kept: Arc<Mutex<String>>,
    /// How much of `kept` is this state's.
    len: usize,
    /// The last ply as JSON, if there is one.
    last: Option<String>,
}

impl Default for MovesJson {
    fn default() -> MovesJson {
        MovesJson {
            kept: Arc::new(Mutex::new(String::from("["))),
            count: 0,
            rewrites: 0,
        }
    }
}

impl MovesJson {
    /// The moves of `record` as a JSON array.
    pub fn write(&mut self, record: &Record) -> String {
        self.snapshot(record).json()
    }

    /// The moves of `record`, to be written when asked for.
    pub fn snapshot(&mut self, record: &Record) -> MovesSnapshot {
        let plies = &record.plies;
        if record.rewrites != self.rewrites || plies.len() < self.count {
            *self = MovesJson {
                rewrites: record.rewrites,
                ..MovesJson::default()
            };
        }
        let before = plies.len().saturating_sub(1);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        for ply in &plies[self.count.min(before)..before] {
            kept.push_str(&write_ply(ply));
            kept.push(',');
        }
        let len = kept.len();
        drop(kept);
        self.count = before;
        MovesSnapshot {
            kept: self.kept.clone(),
            len,
            last: plies.last().map(write_ply),
        }
    }
}

impl MovesSnapshot {
    /// The last ply as JSON (`{"uci":"e2e4","san":"e4"}`), if any.
    pub fn last(&self) -> Option<&str> {
        self.last.as_deref()
    }

    /// The moves as a JSON array.
    pub fn json(&self) -> String {
        let Some(last) = &self.last else {
            return String::from("[]");
        };
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let mut json = String::with_capacity(self.len + last.len() + 1);
        json.push_str(&kept[..self.len]);
        json.push_str(last);
        json.push(']');
        json
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::OfferAction;
    use crate::event::{Event, Timed};
    use crate::record::test_record;
    use crate::setup::Side;

    fn play(record: &mut Record, uci: &str) {
        let at = record.last_at() + 1000;
        record
            .apply(Timed {
                at,
                event: Event::Move { uci: uci.into() },
            })
            .expect("legal move");
    }

    #[test]
    fn each_state_has_the_moves_written_whole() {
        let mut record = test_record(r#"{"opponent":"local","time_control":"-"}"#);
        let mut moves = MovesJson::default();
        assert_eq!(moves.write(&record), write_all(&record.plies));
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            play(&mut record, uci);
            assert_eq!(moves.write(&record), write_all(&record.plies));
        }
        // A draw offer made with the last move marks it after it was written.
        let at = record.last_at() + 10;
        record
            .apply(Timed {
                at,
                event: Event::Draw {
                    color: Side::Black,
                    action: OfferAction::Offer,
                },
            })
            .expect("an offer");
        assert!(record.plies.last().expect("a ply").offer);
        assert_eq!(moves.write(&record), write_all(&record.plies));
        play(&mut record, "f1b5");
        assert_eq!(moves.write(&record), write_all(&record.plies));
    }

    #[test]
    fn an_earlier_snapshot_keeps_its_own_moves() {
        let mut record = test_record(r#"{"opponent":"local","time_control":"-"}"#);
        let mut moves = MovesJson::default();
        let mut snapshots = vec![(moves.snapshot(&record), write_all(&record.plies))];
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"] {
            play(&mut record, uci);
            snapshots.push((moves.snapshot(&record), write_all(&record.plies)));
        }
        // Written after every later move was kept: each is its own state's.
        for (snapshot, then) in &snapshots {
            assert_eq!(snapshot.json(), *then);
        }
        assert_eq!(snapshots[0].0.last(), None);
        assert_eq!(
            snapshots[5].0.last(),
            Some(write_ply(record.plies.last().expect("a ply")).as_str())
        );
    }

    #[test]
    fn a_take_back_starts_the_list_again() {
        let mut record = test_record(r#"{"opponent":"local","time_control":"-"}"#);
        let mut moves = MovesJson::default();
        for uci in ["e2e4", "e7e5", "g1f3"] {
            play(&mut record, uci);
            moves.write(&record);
        }
        // The same number of plies as before, other moves.
        let mut other = test_record(r#"{"opponent":"local","time_control":"-"}"#);
        for uci in ["d2d4", "d7d5", "c2c4"] {
            play(&mut other, uci);
        }
        let before = moves.snapshot(&record);
        other.rewrites = record.rewrites + 1;
        assert_eq!(moves.write(&other), write_all(&other.plies));
        // What was handed out before the take-back still reads as it was.
        assert_eq!(before.json(), write_all(&record.plies));
    }
}
