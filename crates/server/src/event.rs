//! The events of a game as stored, one per accepted action, in order. A
//! game is its setup plus its events: replaying them rebuilds it exactly,
//! clocks included, because each event carries the moment it happened on
//! the game's own time line.

use serde::{Deserialize, Serialize};

use crate::setup::Side;

/// An answer to an offer, or the offer itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferAction {
    /// Make the offer.
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline it.
    Decline,
}

/// The kinds of draw claim (9.2, 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// 9.2: threefold repetition.
    Threefold,
    /// 9.3: fifty moves.
    Fifty,
}

impl From<Claim> for rochade_laws::ClaimKind {
    fn from(c: Claim) -> Self {
        match c {
            Claim::Threefold => rochade_laws::ClaimKind::ThreefoldRepetition,
            Claim::Fifty => rochade_laws::ClaimKind::FiftyMoves,
        }
    }
}

/// What a tablebase claim says (ICCF 5.1.3, 5.2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TablebaseKind {
    /// 5.1.3: the claimant wins.
    Win,
    /// 5.2.4: the position is drawn.
    Draw,
}

impl From<TablebaseKind> for rochade_laws::TablebaseClaim {
    fn from(k: TablebaseKind) -> Self {
        match k {
            TablebaseKind::Win => rochade_laws::TablebaseClaim::Win,
            TablebaseKind::Draw => rochade_laws::TablebaseClaim::Draw,
        }
    }
}

/// What the tables gave for the side to move, as stored with a claim (so
/// that a replay needs no tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TablebaseSays {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl From<TablebaseSays> for rochade_laws::TablebaseValue {
    fn from(v: TablebaseSays) -> Self {
        match v {
            TablebaseSays::Win => rochade_laws::TablebaseValue::Win,
            TablebaseSays::Draw => rochade_laws::TablebaseValue::Draw,
            TablebaseSays::Loss => rochade_laws::TablebaseValue::Loss,
        }
    }
}

impl From<rochade_laws::TablebaseValue> for TablebaseSays {
    fn from(v: rochade_laws::TablebaseValue) -> Self {
        match v {
            rochade_laws::TablebaseValue::Win => TablebaseSays::Win,
            rochade_laws::TablebaseValue::Draw => TablebaseSays::Draw,
            rochade_laws::TablebaseValue::Loss => TablebaseSays::Loss,
        }
    }
}

/// Why the server closed a game that nobody finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CloseReason {
    /// Nobody took the friend's seat in time.
    Unjoined,
    /// Nothing happened in the game for too long.
    Idle,
}

impl CloseReason {
    /// The reason's snake_case name, as in the protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            CloseReason::Unjoined => "unjoined",
            CloseReason::Idle => "idle",
        }
    }
}

/// One accepted action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum Event {
    /// The side to move played `uci`.
    Move {
        /// The move in UCI notation.
        uci: String,
    },
    /// A draw offer or its answer (9.1).
    Draw {
        /// Who acted.
        color: Side,
        /// What they did.
        action: OfferAction,
    },
    /// A draw claim, perhaps with the intended move (9.2, 9.3).
    Claim {
        /// The claimant.
        color: Side,
        /// What is claimed.
        kind: Claim,
        /// The intended move in UCI notation.
        uci: Option<String>,
    },
    /// A tablebase claim by the player on move (ICCF 5.1.3, 5.2.4) and
    /// what the server's tables gave then (`None`: not in them). A correct
    /// claim ends the game; a wrong one changes nothing (9.4.3).
    TablebaseClaim {
        /// The claimant.
        color: Side,
        /// What is claimed.
        claim: TablebaseKind,
        /// The tables' value for the side to move.
        value: Option<TablebaseSays>,
    },
    /// A player resigned (5.1.2).
    Resign {
        /// Who resigned.
        color: Side,
    },
    /// The game was abandoned before both sides had moved; no result.
    Abort {
        /// Who aborted it.
        color: Side,
    },
    /// A flag was seen fallen (6.9, 6.11).
    Flag,
    /// The server ended a game nobody finished; no result.
    Close {
        /// Why.
        reason: CloseReason,
    },
    /// A take-back request or its answer.
    Takeback {
        /// Who acted.
        color: Side,
        /// What they did.
        action: OfferAction,
    },
    /// A seat was taken (friend games: the clock starts once both are).
    Seat {
        /// The seat.
        color: Side,
        /// The signed-in account that took it, if any: the game is then
        /// recorded under its name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<crate::setup::Player>,
    },
    /// The player of `color` left the game (no connection for the server's
    /// `gone_claim` time) and the opponent claimed the win: the server, as
    /// arbiter, declares the game lost (a forfeit).
    Left {
        /// Who left.
        color: Side,
    },
    /// The player of `color` of a tournament game had not made their
    /// first move at the event's default time (6.7.1: not arrived): the
    /// server, as arbiter, declares the game lost by default
    /// ([`crate::room::finish`]).
    Absent {
        /// Who did not come.
        color: Side,
    },
    /// The player of `color` went berserk (an arena game, before their
    /// first move): half their initial time and their increment given up
    /// ([`crate::tournaments::arena::berserk`]).
    Berserk {
        /// Who.
        color: Side,
    },
    /// A line of chat between the players.
    Chat {
        /// Who spoke.
        color: Side,
        /// What they said.
        text: String,
    },
    /// Both clocks stand still from `from` to `to` (game time, ms) for
    /// the leave of the player of `color` (ICCF 10.1).
    Pause {
        /// Whose leave.
        color: Side,
        /// When the clocks stop.
        from: u64,
        /// When they run again.
        to: u64,
    },
    /// The player of `color` entered conditional moves (`lines` in UCI,
    /// each alternating the opponent's move and the answer from the
    /// position then), replacing any earlier ones; none: withdrawn.
    Conditional {
        /// Whose.
        color: Side,
        /// The lines.
        lines: Vec<String>,
    },
    /// A rematch offer or its answer.
    Rematch {
        /// Who acted.
        color: Side,
        /// What they did.
        action: OfferAction,
        /// The new game once agreed.
        game: Option<String>,
    },
    /// The tournament director decided (ICCF 14; see [`crate::director`]).
    Decide {
        /// What was decided.
        decision: crate::director::Act,
        /// The director's name.
        by: String,
        /// Why, as the players are told.
        reason: String,
    },
}

/// An event and when it happened: milliseconds on the game's time line,
/// which runs only while the server does (6.12: the clocks stop while the
/// game is interrupted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timed {
    /// Milliseconds since the game was created, server downtime excluded.
    pub at: u64,
    /// What happened.
    pub event: Event,
}
