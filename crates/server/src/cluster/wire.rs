//! What nodes tell each other over Redis, as JSON: a request to the node
//! that owns a game (or holds a seek) and its answer (on the channel of
//! each node), a room's news (on the channel of its game), and news for an
//! account, tournament changes and the lobby's seeks (on channels every
//! node hears).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use shakmaty::Color;

use crate::challenges::ColorChoice;
use crate::error::ActionError;
use crate::lobby::Seek;
use crate::protocol::ClientMessage;
use crate::room::Out;
use crate::setup::{GameSetup, Player, Seats, Side};
use crate::state::LazyState;

/// A node's channel: requests for the games it owns, and answers.
pub fn node_channel(node: &str) -> String {
    format!("rochade:node:{node}")
}

/// A game's channel: what its room sends to its sockets.
pub fn game_channel(game: &str) -> String {
    format!("rochade:game:{game}")
}

/// The channel of news for accounts, which every node hears.
pub const NEWS: &str = "rochade:news";

/// The channel of tournament changes, which every node hears.
pub const TOURNAMENTS: &str = "rochade:tournaments";

/// The channel of the lobby's seeks, which every node hears.
pub const SEEKS: &str = "rochade:seeks";

/// A tournament changed, as node `from` tells the others.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Changed {
    /// The telling node.
    pub from: String,
    /// The tournament.
    pub id: String,
    /// Whether the clockwork must look at it again (or only its pages).
    pub look: bool,
}

/// Seats on the wire, by name.
mod seats {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::setup::Seats;

    pub fn serialize<S: Serializer>(seats: &Seats, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(seats.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Seats, D::Error> {
        let name = String::deserialize(d)?;
        Seats::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("seats {name:?}")))
    }
}

/// What one node asks the node that owns a game: one [`crate::room::Command`]
/// each, without its answer channel.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Ask {
    /// A socket says hello with `token`.
    Join {
        /// The seat token.
        token: String,
    },
    /// A socket with `seats` closed.
    Leave {
        /// Its seats.
        #[serde(with = "seats")]
        seats: Seats,
    },
    /// A player acts.
    Act {
        /// The acting socket's seats.
        #[serde(with = "seats")]
        seats: Seats,
        /// The message.
        message: ClientMessage,
    },
    /// The state now.
    State,
    /// The game as PGN.
    Pgn {
        /// ICCF numeric notation.
        numeric: bool,
    },
    /// An invitation is used.
    TakeSeat {
        /// The account taking the seat.
        player: Option<Player>,
    },
    /// A move for whatever the position is now.
    Play {
        /// The acting seat.
        #[serde(with = "seats")]
        seats: Seats,
        /// The move, UCI.
        uci: String,
        /// A draw offer with it.
        offer_draw: bool,
    },
    /// The clocks stop for a leave.
    Pause {
        /// Whose leave.
        user: i64,
        /// From (Unix ms).
        from: u64,
        /// To (Unix ms).
        to: u64,
    },
    /// A director's decision.
    Direct {
        /// What.
        decision: crate::director::Act,
        /// Who.
        by: String,
        /// Why.
        reason: String,
    },
    /// Settings, state, beginning.
    Describe,
    /// Something may be due.
    Wake,
    /// The seek (the request's `game`) is taken.
    TakeSeek {
        /// Who takes it.
        taker: Player,
        /// Their rating in the seek's category.
        rating: i64,
        /// Their address, for the games it may start.
        address: std::net::IpAddr,
    },
    /// The seek (the request's `game`) is withdrawn by its owner.
    CancelSeek {
        /// The owner's account.
        owner: i64,
    },
}

/// What the owning node answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Answer {
    /// To `join`.
    Joined {
        /// The entry, or why not.
        joined: Result<RemoteJoin, ActionError>,
    },
    /// To `act`, `play`, `pause`, `direct`.
    Done {
        /// Done, or why not.
        done: Result<(), ActionError>,
    },
    /// To `state` and `pgn`.
    Text {
        /// The JSON state, or the PGN.
        text: String,
    },
    /// To `take_seat`.
    Seat {
        /// The colour and token.
        seat: Result<(Side, String), ActionError>,
    },
    /// To `describe`.
    Described {
        /// The settings.
        setup: Box<GameSetup>,
        /// The state now.
        state: String,
        /// The time line's zero.
        epoch: u64,
    },
    /// To `wake` (and `leave`, which no one waits for).
    Woke,
    /// To `take_seek`: the game it started.
    Started {
        /// The game.
        game: String,
    },
    /// The owner could not ask its room.
    Failed {
        /// Why.
        error: ActionError,
    },
}

/// A socket's entry into a room on another node.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RemoteJoin {
    /// The state now.
    pub state: String,
    /// The seats the token holds.
    #[serde(with = "seats")]
    pub seats: Seats,
    /// The conditional moves of the seat's colour: white's?, its lines.
    pub conditional: Option<(bool, Vec<String>)>,
}

/// Everything on a node's channel.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Envelope {
    /// A request about `game`, from node `from`; `id` 0 wants no answer.
    Request {
        /// Its number at the asking node.
        id: u64,
        /// The asking node.
        from: String,
        /// The game.
        game: String,
        /// What is asked.
        ask: Ask,
    },
    /// The answer to request `id`.
    Reply {
        /// The request's number.
        id: u64,
        /// The answer.
        answer: Answer,
    },
}

/// A room's news on its game's channel.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Broadcast {
    /// A new state.
    State {
        /// The JSON.
        state: String,
    },
    /// A new state one move on, and its move message.
    Moved {
        /// The state's JSON.
        state: String,
        /// The move message.
        moved: String,
    },
    /// A line of chat.
    Chat {
        /// White spoke?
        white: bool,
        /// The account's name.
        name: Option<String>,
        /// The words.
        text: String,
    },
    /// Conditional moves changed.
    Conditional {
        /// White's?
        white: bool,
        /// The lines.
        lines: Vec<String>,
    },
    /// A rematch was agreed.
    Rematch {
        /// The new game.
        game: String,
        /// White's token.
        white: String,
        /// Black's token.
        black: String,
    },
    /// The room on node `node` closed: the sockets relayed to it close,
    /// and their pages come back.
    Closed {
        /// The node whose room it was.
        node: String,
    },
}

impl Broadcast {
    /// The wire form of a room's `out`.
    pub fn of(out: &Out) -> Broadcast {
        match out {
            Out::State(state) => Broadcast::State {
                state: state.as_ref().clone(),
            },
            Out::Moved { state, moved } => Broadcast::Moved {
                state: state.json().as_ref().clone(),
                moved: moved.as_ref().clone(),
            },
            Out::Chat { color, name, text } => Broadcast::Chat {
                white: color.is_white(),
                name: name.clone(),
                text: text.to_string(),
            },
            Out::Conditional { color, lines } => Broadcast::Conditional {
                white: color.is_white(),
                lines: lines.as_ref().clone(),
            },
            Out::Rematch { game, white, black } => Broadcast::Rematch {
                game: game.clone(),
                white: white.clone(),
                black: black.clone(),
            },
        }
    }

    /// The room's news again, or `None` for [`Broadcast::Closed`].
    pub fn into_out(self) -> Option<Out> {
        Some(match self {
            Broadcast::State { state } => Out::State(Arc::new(state)),
            Broadcast::Moved { state, moved } => Out::Moved {
                state: Arc::new(LazyState::ready(Arc::new(state))),
                moved: Arc::new(moved),
            },
            Broadcast::Chat { white, name, text } => Out::Chat {
                color: Color::from_white(white),
                name,
                text: text.into(),
            },
            Broadcast::Conditional { white, lines } => Out::Conditional {
                color: Color::from_white(white),
                lines: Arc::new(lines),
            },
            Broadcast::Rematch { game, white, black } => Out::Rematch { game, white, black },
            Broadcast::Closed { .. } => return None,
        })
    }
}

/// An open seek as it crosses the wire.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OpenSeek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub owner: Player,
    /// The time control (`5+3`).
    pub control: String,
    /// Rated or casual.
    pub rated: bool,
    /// The owner's colour (`white`, `black`, `random`).
    pub color: String,
    /// A Chess960 game.
    pub chess960: bool,
    /// The opponents' ratings allowed.
    pub range: Option<(i64, i64)>,
}

impl OpenSeek {
    /// `seek` for the wire.
    pub fn of(seek: &Seek) -> OpenSeek {
        OpenSeek {
            id: seek.id.clone(),
            owner: seek.owner.clone(),
            control: seek.control.to_string(),
            rated: seek.rated,
            color: seek.color.as_str().to_owned(),
            chess960: seek.chess960,
            range: seek.range,
        }
    }

    /// The seek held by node `node`, heard now; `None` when its control
    /// or colour does not read.
    pub fn into_seek(self, node: &str) -> Option<Seek> {
        Some(Seek {
            id: self.id,
            owner: self.owner,
            control: self.control.parse().ok()?,
            rated: self.rated,
            color: ColorChoice::parse(Some(&self.color)).ok()?,
            chess960: self.chess960,
            range: self.range,
            holder: 0,
            node: Some(node.to_owned()),
            made: tokio::time::Instant::now(),
        })
    }
}

/// What a node tells the others of the seeks it holds, on [`SEEKS`].
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum SeekNews {
    /// `from` opened `seek`.
    Opened {
        /// The telling node.
        from: String,
        /// The seek.
        seek: OpenSeek,
    },
    /// `from`'s seek `id` was taken, withdrawn or released.
    Gone {
        /// The telling node.
        from: String,
        /// The seek.
        id: String,
    },
    /// `from` holds `seeks` and no others.
    All {
        /// The telling node.
        from: String,
        /// Its seeks.
        seeks: Vec<OpenSeek>,
    },
    /// `from` asks every node for [`SeekNews::All`] (it started, or saw a
    /// node come back).
    Wanted {
        /// The asking node.
        from: String,
    },
}

/// News for account `user`, from node `from` (which told its own
/// listeners already).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct News {
    /// The telling node.
    pub from: String,
    /// The account.
    pub user: i64,
    /// One lichess event object.
    pub news: Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ask_and_answer_crosses_the_wire_unchanged() {
        let asks = [
            Ask::Join { token: "t".into() },
            Ask::Leave {
                seats: Seats::One(Color::Black),
            },
            Ask::Act {
                seats: Seats::Both,
                message: ClientMessage::Move {
                    ply: 3,
                    uci: Some("e2e4".into()),
                    san: None,
                    lang: None,
                    offer_draw: false,
                },
            },
            Ask::Wake,
        ];
        for ask in asks {
            let envelope = Envelope::Request {
                id: 7,
                from: "n1".into(),
                game: "g".into(),
                ask,
            };
            let text = serde_json::to_string(&envelope).expect("serializes");
            let back: Envelope = serde_json::from_str(&text).expect("parses");
            assert_eq!(serde_json::to_string(&back).expect("serializes"), text);
        }
        let answer = Answer::Joined {
            joined: Ok(RemoteJoin {
                state: "{}".into(),
                seats: Seats::Spectator,
                conditional: Some((true, vec!["e2e4 e7e5".into()])),
            }),
        };
        let text = serde_json::to_string(&answer).expect("serializes");
        let back: Answer = serde_json::from_str(&text).expect("parses");
        assert!(matches!(back, Answer::Joined { joined: Ok(j) } if j.seats == Seats::Spectator));
    }

    #[test]
    fn a_rooms_news_crosses_the_wire_unchanged() {
        let outs = [
            Out::State(Arc::new("{\"ply\":1}".into())),
            Out::Moved {
                state: Arc::new(LazyState::ready(Arc::new("{\"ply\":2}".into()))),
                moved: Arc::new("{\"t\":\"move\"}".into()),
            },
            Out::Chat {
                color: Color::Black,
                name: Some("Reti".into()),
                text: "good game".into(),
            },
            Out::Rematch {
                game: "g2".into(),
                white: "w".into(),
                black: "b".into(),
            },
        ];
        for out in outs {
            let text = serde_json::to_string(&Broadcast::of(&out)).expect("serializes");
            let back: Broadcast = serde_json::from_str(&text).expect("parses");
            let again = back.into_out().expect("not closed");
            assert_eq!(format!("{again:?}"), format!("{out:?}"));
        }
        let closed: Broadcast =
            serde_json::from_str("{\"t\":\"closed\",\"node\":\"n1\"}").expect("parses");
        assert!(closed.into_out().is_none());
    }
}
