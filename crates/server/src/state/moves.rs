//! The `moves` array of a state, kept as JSON between states: a room
//! writes each ply once instead of the whole list after every move.

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
/// [`Record::rewrites`] and starts the list again.
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
/// assert_eq!(moves.write(&record), r#"[{"uci":"e2e4","san":"e4"}]"#);
/// ```
#[derive(Debug, Default, Clone)]
pub struct MovesJson {
    /// `[` and the kept plies, each followed by a comma.
    kept: String,
    /// How many plies `kept` holds.
    count: usize,
    /// The record's [`Record::rewrites`] when they were written.
    rewrites: u64,
}

impl MovesJson {
    /// The moves of `record` as a JSON array.
    pub fn write(&mut self, record: &Record) -> String {
        let plies = &record.plies;
        if record.rewrites != self.rewrites || plies.len() < self.count || self.kept.is_empty() {
            self.kept = String::from("[");
            self.count = 0;
            self.rewrites = record.rewrites;
        }
        let Some((last, before)) = plies.split_last() else {
            return String::from("[]");
        };
        for ply in &before[self.count..] {
            self.kept.push_str(&write_ply(ply));
            self.kept.push(',');
        }
        self.count = before.len();
        let last = write_ply(last);
        let mut json = String::with_capacity(self.kept.len() + last.len() + 1);
        json.push_str(&self.kept);
        json.push_str(&last);
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
        other.rewrites = record.rewrites + 1;
        assert_eq!(moves.write(&other), write_all(&other.plies));
    }
}
