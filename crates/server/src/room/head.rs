//! The head of a room's state ([`Head`]) as JSON, kept between states: a
//! move does not change it, and writing it anew for every move (the
//! players, the start position's FEN) was a tenth of the state's cost.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{ByColor, Color};

use crate::record::Record;
use crate::setup::Player;
use crate::state::{Head, to_string};

/// What a kept head was written from, besides what a game never changes
/// (its id, rules, mode, start position, robot, event).
#[derive(Debug)]
struct Written {
    /// Which seats had a socket.
    connected: ByColor<bool>,
    /// The players with accounts (a seat taken changes them).
    players: ByColor<Option<Player>>,
    /// Who went berserk.
    berserk: ByColor<bool>,
}

/// The head last written, and what from.
#[derive(Debug, Default)]
pub(super) struct HeadKept {
    kept: Option<(Written, Arc<str>)>,
}

impl HeadKept {
    /// The head of `record`'s state at game time `now` with `connected`
    /// seats, as JSON: the kept one while what it was written from holds.
    /// A head with director's decisions is written each time: it says how
    /// long ago each was.
    pub(super) fn json(
        &mut self,
        record: &Record,
        now: Duration,
        connected: ByColor<bool>,
    ) -> Arc<str> {
        let fresh = || Arc::<str>::from(to_string(&Head::of(record, now, connected)));
        if !record.decisions.is_empty() {
            self.kept = None;
            return fresh();
        }
        if let Some((written, json)) = &self.kept
            && written.connected == connected
            && written.berserk == record.berserk
            && [Color::White, Color::Black]
                .into_iter()
                .all(|c| written.players[c].as_ref() == record.setup.player(c))
        {
            // Every test runs this: a field added to the head and not to
            // `Written` fails here.
            debug_assert_eq!(*json, fresh(), "the kept head is out of date");
            return Arc::clone(json);
        }
        let json = fresh();
        let written = Written {
            connected,
            players: ByColor::new_with(|c| record.setup.player(c).cloned()),
            berserk: record.berserk,
        };
        self.kept = Some((written, Arc::clone(&json)));
        json
    }
}
