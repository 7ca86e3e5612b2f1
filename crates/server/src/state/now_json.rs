//! [`Now`] as JSON, written directly: the same text as serde_json writes
//! from its `Serialize` (the reference it is tested against), made after
//! every move for every game, without serde's machinery.

use super::{Claimable, ClockState, Now, Offers, OutcomeState};
use crate::json_out::{
    push_bool, push_number, push_opt_number, push_opt_side, push_opt_text, push_pairs, push_text,
    side,
};

impl Now<'_> {
    /// As JSON, as a state or a move message carries it.
    pub fn into_json(self) -> String {
        let mut out = String::with_capacity(400 + self.fen.len() + self.dests.json_len());
        out.push_str("{\"fen\":");
        push_text(&mut out, &self.fen);
        out.push_str(",\"ply\":");
        push_number(&mut out, self.ply as u64);
        out.push_str(",\"turn\":");
        out.push_str(side(self.turn));
        out.push_str(",\"check\":");
        push_bool(&mut out, self.check);
        out.push_str(",\"last_move\":");
        push_opt_text(&mut out, self.last_move);
        out.push_str(",\"dests\":");
        self.dests.push_json(&mut out);
        out.push_str(",\"clock\":");
        match &self.clock {
            Some(clock) => push_clock(&mut out, clock),
            None => out.push_str("null"),
        }
        out.push_str(",\"offers\":");
        push_offers(&mut out, &self.offers);
        out.push_str(",\"claimable\":");
        push_claimable(&mut out, &self.claimable);
        out.push_str(",\"outcome\":");
        match &self.outcome {
            Some(outcome) => push_outcome(&mut out, outcome),
            None => out.push_str("null"),
        }
        out.push_str(",\"aborted\":");
        push_bool(&mut out, self.aborted);
        out.push_str(",\"closed\":");
        push_opt_text(&mut out, self.closed);
        out.push_str(",\"left\":");
        push_opt_side(&mut out, self.left);
        out.push_str(",\"rematch\":");
        push_opt_text(&mut out, self.rematch);
        if self.halted {
            out.push_str(",\"halted\":true");
        }
        out.push('}');
        out
    }
}

/// The clocks.
fn push_clock(out: &mut String, clock: &ClockState) {
    out.push_str("{\"control\":");
    push_text(out, &clock.control);
    out.push_str(",\"category\":");
    push_text(out, clock.category);
    for (key, value) in [(",\"white\":", clock.white), (",\"black\":", clock.black)] {
        out.push_str(key);
        push_number(out, value);
    }
    out.push_str(",\"running\":");
    push_opt_side(out, clock.running);
    out.push_str(",\"increment\":");
    push_number(out, clock.increment);
    out.push_str(",\"flag_in\":");
    push_opt_number(out, clock.flag_in);
    out.push_str(",\"pauses\":");
    push_pairs(out, &clock.pauses);
    if let Some(default_in) = clock.default_in {
        out.push_str(",\"default_in\":");
        push_number(out, default_in);
    }
    out.push('}');
}

/// The pending offers.
fn push_offers(out: &mut String, offers: &Offers) {
    let fields = [
        ("{\"draw\":", offers.draw),
        (",\"takeback\":", offers.takeback),
        (",\"rematch\":", offers.rematch),
    ];
    for (key, value) in fields {
        out.push_str(key);
        push_opt_side(out, value);
    }
    out.push('}');
}

/// What the side to move could claim.
fn push_claimable(out: &mut String, claimable: &Claimable) {
    let fields = [
        ("{\"threefold\":", claimable.threefold),
        (",\"fifty\":", claimable.fifty),
        (",\"tablebase_win\":", claimable.tablebase_win),
        (",\"tablebase_draw\":", claimable.tablebase_draw),
    ];
    for (key, value) in fields {
        out.push_str(key);
        push_bool(out, value);
    }
    out.push('}');
}

/// The end of the game.
fn push_outcome(out: &mut String, outcome: &OutcomeState) {
    out.push_str("{\"result\":");
    push_text(out, outcome.result);
    out.push_str(",\"winner\":");
    push_opt_side(out, outcome.winner);
    out.push_str(",\"reason\":");
    push_text(out, outcome.reason);
    out.push_str(",\"reason_id\":");
    push_number(out, u64::from(outcome.reason_id));
    out.push_str(",\"article\":");
    push_text(out, outcome.article);
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::super::{Dests, to_string};
    use super::*;
    use crate::setup::Side;

    /// Every field set, each optional one both ways.
    #[test]
    fn every_field_as_serde_json_writes_it() {
        let clock = |default_in, pauses: Vec<[u64; 2]>, running| ClockState {
            control: "40/90+30, 30+30".into(),
            category: "standard",
            white: 5_400_000,
            black: 0,
            running,
            increment: 30_000,
            flag_in: None,
            pauses,
            default_in,
        };
        let outcome = OutcomeState {
            result: "1/2-1/2",
            winner: None,
            reason: "agreement",
            reason_id: 65_535,
            article: "9.1.2.1",
        };
        let nows = [
            Now {
                fen: "a \"fen\" with\tescapes\u{1}".into(),
                ply: usize::MAX,
                turn: Side::Black,
                check: true,
                last_move: Some("e7e8q"),
                dests: Dests::default(),
                clock: Some(clock(Some(1), vec![[0, 5], [7, 9]], Some(Side::White))),
                offers: Offers {
                    draw: Some(Side::White),
                    takeback: Some(Side::Black),
                    rematch: None,
                },
                claimable: Claimable {
                    threefold: true,
                    fifty: false,
                    tablebase_win: true,
                    tablebase_draw: false,
                },
                outcome: Some(outcome),
                aborted: true,
                closed: Some("idle"),
                left: Some(Side::White),
                rematch: Some("Ab3dEf9h"),
                halted: true,
            },
            Now {
                fen: String::new(),
                ply: 0,
                turn: Side::White,
                check: false,
                last_move: None,
                dests: Dests::default(),
                clock: Some(clock(None, Vec::new(), None)),
                offers: Offers {
                    draw: None,
                    takeback: None,
                    rematch: Some(Side::Black),
                },
                claimable: Claimable {
                    threefold: false,
                    fifty: true,
                    tablebase_win: false,
                    tablebase_draw: true,
                },
                outcome: None,
                aborted: false,
                closed: None,
                left: None,
                rematch: None,
                halted: false,
            },
        ];
        for now in nows {
            let reference = to_string(&now);
            assert_eq!(now.into_json(), reference);
        }
    }
}
