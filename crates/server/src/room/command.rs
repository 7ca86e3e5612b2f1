//! What a room is asked, and what it sends out.

use std::sync::Arc;

use tokio::sync::{broadcast, oneshot};

use crate::error::ActionError;
use crate::protocol::ClientMessage;
use crate::setup::{Seats, Side};

/// What a room sends to its sockets.
#[derive(Debug, Clone)]
pub enum Out {
    /// A new state (JSON without `you`).
    State(Arc<String>),
    /// A new state one move on from the last: the whole state (JSON
    /// without `you`), and the move message for the sockets that asked
    /// for them ([`crate::state::moved_message`]).
    Moved {
        /// The whole state, written when a socket first asks for it.
        state: Arc<crate::state::LazyState>,
        /// The move message.
        moved: Arc<String>,
    },
    /// A line of chat.
    Chat {
        /// Who spoke.
        color: shakmaty::Color,
        /// Their account's name, if they have one.
        name: Option<String>,
        /// What they said.
        text: Arc<str>,
    },
    /// The conditional moves of `color` changed (entered, followed,
    /// dropped): only sockets holding that seat are told.
    Conditional {
        /// Whose.
        color: shakmaty::Color,
        /// The lines left, UCI.
        lines: Arc<Vec<String>>,
    },
    /// A rematch was agreed: the new game and its seat tokens.
    Rematch {
        /// The new game.
        game: String,
        /// White's token in it.
        white: String,
        /// Black's token in it.
        black: String,
    },
}

impl Out {
    /// The whole state this news brings, if it brings one (JSON without
    /// `you`).
    pub fn state(&self) -> Option<Arc<String>> {
        match self {
            Out::State(json) => Some(json.clone()),
            Out::Moved { state, .. } => Some(state.json()),
            _ => None,
        }
    }
}

/// A socket's entry into a room.
#[derive(Debug)]
pub struct Joined {
    /// The state now.
    pub state: Arc<String>,
    /// Every later state.
    pub updates: broadcast::Receiver<Out>,
    /// The seats the token holds.
    pub seats: Seats,
    /// The conditional moves of the seat's colour (one seat only), UCI lines.
    pub conditional: Option<(shakmaty::Color, Vec<String>)>,
}

/// What a join's answer is also told to, from within the room, before
/// the room sends anything after it. A join another node asked for is
/// answered so ([`crate::cluster::inbox`]): its answer then goes out on
/// the same ordered channel as the room's news, ahead of every state
/// that follows the one it carries, and the asking node starts its
/// socket's news with the next.
pub struct JoinTold(Box<dyn FnOnce(&JoinAnswer) + Send>);

/// A room's answer to a join.
pub type JoinAnswer = Result<Joined, ActionError>;

impl JoinTold {
    /// Tells `tell` the answer.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use rochade_server::room::JoinTold;
    /// let seen = Arc::new(Mutex::new(None));
    /// let s = seen.clone();
    /// let told = JoinTold::new(move |answer| *s.lock().unwrap() = Some(answer.is_ok()));
    /// told.tell(&Err(rochade_server::error::ActionError::new(
    ///     rochade_server::error::ErrorCode::Busy,
    ///     "try again",
    /// )));
    /// assert_eq!(*seen.lock().unwrap(), Some(false));
    /// ```
    pub fn new(tell: impl FnOnce(&JoinAnswer) + Send + 'static) -> JoinTold {
        JoinTold(Box::new(tell))
    }

    /// Tells it `answer`.
    pub fn tell(self, answer: &JoinAnswer) {
        (self.0)(answer);
    }
}

impl std::fmt::Debug for JoinTold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JoinTold")
    }
}

/// A game described: settings, state, beginning.
#[derive(Debug, Clone)]
pub struct Described {
    /// The settings.
    pub setup: crate::setup::GameSetup,
    /// The state now (JSON without `you`).
    pub state: Arc<String>,
    /// Server time (Unix ms) at which its time line began.
    pub epoch: u64,
}

/// What a room is asked to do.
#[derive(Debug)]
pub enum Command {
    /// A socket says hello with `token`.
    Join {
        /// The seat token (empty for a spectator).
        token: String,
        /// The answer: refused when the seat has too many sockets.
        reply: oneshot::Sender<Result<Joined, ActionError>>,
        /// Told the answer by the room itself, before anything the room
        /// sends after it (a join asked by another node is answered so).
        told: Option<JoinTold>,
    },
    /// A socket with `seats` closed.
    Leave {
        /// Its seats.
        seats: Seats,
    },
    /// A player acts.
    Act {
        /// The acting socket's seats.
        seats: Seats,
        /// The message.
        message: ClientMessage,
        /// Refusal or success.
        reply: oneshot::Sender<Result<(), ActionError>>,
    },
    /// The current state (JSON without `you`).
    State {
        /// The answer.
        reply: oneshot::Sender<Arc<String>>,
    },
    /// The game as PGN.
    Pgn {
        /// Moves in ICCF numeric notation (A.18) instead of SAN.
        numeric: bool,
        /// The answer.
        reply: oneshot::Sender<String>,
    },
    /// An invitation is used: take the free seat.
    TakeSeat {
        /// The signed-in account taking it, if any.
        player: Option<crate::setup::Player>,
        /// The colour and token of the seat.
        reply: oneshot::Sender<Result<(Side, String), ActionError>>,
    },
    /// The robot found a move for the search numbered `search`.
    RobotMove {
        /// Which search it answers.
        search: u64,
        /// The move, if any.
        uci: Option<String>,
    },
    /// A move for whatever the position is now (the API, which sends no ply).
    Play {
        /// The acting seat.
        seats: Seats,
        /// The move in UCI.
        uci: String,
        /// A draw offer made with the move (9.1.2.1).
        offer_draw: bool,
        /// Refusal or success.
        reply: oneshot::Sender<Result<(), ActionError>>,
    },
    /// Both clocks stop from `from` to `to` (server time, Unix ms) for the
    /// leave of account `user` (ICCF 10.1); nothing when the account does
    /// not play here, the game is over or the span already past.
    Pause {
        /// Whose leave.
        user: i64,
        /// When the clocks stop.
        from: u64,
        /// When they run again.
        to: u64,
        /// Refusal or success.
        reply: oneshot::Sender<Result<(), ActionError>>,
    },
    /// The tournament director decides (ICCF 14): applied, stored and
    /// broadcast like a player's act.
    Direct {
        /// What was decided.
        decision: crate::director::Act,
        /// The director's name.
        by: String,
        /// Why.
        reason: String,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), ActionError>>,
    },
    /// The game's settings, its state now, and when it began.
    Describe {
        /// The answer.
        reply: oneshot::Sender<Described>,
    },
    /// The scheduler's call: something may be due (a flag, an expiry, the
    /// robot's move).
    Wake {
        /// Answered once looked at.
        reply: oneshot::Sender<()>,
    },
    /// Close: one node of several lost its lease, and another may have
    /// moved the game on (`cluster::lease`).
    Close,
}
