//! A live game: one task owns the [`Record`] and its clock, takes actions
//! from the sockets one at a time, stores each before anyone hears of it,
//! then broadcasts the new state. A timer watches the running flag (6.9)
//! and the robot thinks on the blocking pool.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rochade_engine::robot::Level;
use rochade_laws::Language;
use rochade_laws::clock::Flag;
use rochade_laws::notation::{read_move, write_uci};
use rochade_laws::pgn::{self, Tags, WriteOptions};
use shakmaty::Color;
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::time::Instant;

use crate::error::{ActionError, ErrorCode};
use crate::event::{Event, OfferAction, Timed};
use crate::protocol::ClientMessage;
use crate::record::{Record, index, move_error};
use crate::robot::{RobotPlayer, Think};
use crate::rooms::Shared;
use crate::setup::{Mode, Seats, Side};
use crate::state::GameState;
use crate::storage::{WriteOp, wall_ms};

/// How long a finished game with nobody watching stays in memory.
const IDLE: Duration = Duration::from_secs(30);

/// What a room sends to its sockets.
#[derive(Debug, Clone)]
pub enum Out {
    /// A new state (JSON without `you`).
    State(Arc<String>),
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

/// A socket's entry into a room.
#[derive(Debug)]
pub struct Joined {
    /// The state now.
    pub state: Arc<String>,
    /// Every later state.
    pub updates: broadcast::Receiver<Out>,
    /// The seats the token holds.
    pub seats: Seats,
}

/// What a room is asked to do.
#[derive(Debug)]
pub enum Command {
    /// A socket opens with `token`.
    Join {
        /// The seat token (empty for a spectator).
        token: String,
        /// The answer.
        reply: oneshot::Sender<Joined>,
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
        /// The answer.
        reply: oneshot::Sender<String>,
    },
    /// An invitation is used: take the free seat.
    TakeSeat {
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
}

/// A live game.
struct Room {
    /// The game.
    record: Record,
    /// Game time at `started`.
    offset: Duration,
    /// When this room began counting.
    started: Instant,
    /// Server-wide handles.
    shared: Arc<Shared>,
    /// To the sockets.
    out: broadcast::Sender<Out>,
    /// Sockets per seat (white, black).
    connected: [u32; 2],
    /// The last state sent.
    state: Arc<String>,
    /// The robot, in robot games.
    robot: Option<RobotPlayer>,
    /// The robot's current search: its number and stop flag.
    thinking: Option<(u64, Arc<AtomicBool>)>,
    /// Searches started so far.
    searches: u64,
    /// The room's own queue, for the robot's answers.
    inbox: mpsc::WeakSender<Command>,
    /// Time lines moved forward by hand ([`Shared::advance_clocks`]).
    skew: watch::Receiver<Duration>,
    /// The advance already there when the room started.
    base_skew: Duration,
}

/// Starts the room of `record` whose game time is `offset` now; returns
/// its queue.
pub fn spawn(record: Record, offset: Duration, shared: Arc<Shared>) -> mpsc::Sender<Command> {
    let (tx, rx) = mpsc::channel(256);
    let (out, _) = broadcast::channel(64);
    let robot = record.setup.robot.and_then(|(level, _)| {
        Level::new(level)
            .ok()
            .map(|level| RobotPlayer::new(level, shared.engine.clone()))
    });
    let skew = shared.skew();
    let base_skew = *skew.borrow();
    let mut room = Room {
        skew,
        base_skew,
        record,
        offset,
        started: Instant::now(),
        shared,
        out,
        connected: [0; 2],
        state: Arc::new(String::new()),
        robot,
        thinking: None,
        searches: 0,
        inbox: tx.downgrade(),
    };
    room.state = room.make_state();
    tokio::spawn(async move { room.run(rx).await });
    tx
}

impl Room {
    /// Game time now.
    fn now(&self) -> Duration {
        self.offset + self.started.elapsed() + self.skew.borrow().saturating_sub(self.base_skew)
    }

    /// The state JSON now.
    fn make_state(&self) -> Arc<String> {
        let connected = self.connected.map(|n| n > 0);
        Arc::new(GameState::of(&self.record, self.now(), connected).to_json())
    }

    /// Sends the new state to every socket.
    fn broadcast(&mut self) {
        self.state = self.make_state();
        let _ = self.out.send(Out::State(self.state.clone()));
    }

    /// When the running player's flag would fall, if a clock runs.
    fn flag_deadline(&self) -> Option<Instant> {
        if self.record.is_over() {
            return None;
        }
        let clock = self.record.timed.clock();
        if clock.is_stopped() {
            return None;
        }
        let left = clock.remaining(clock.turn(), self.now())?;
        Some(Instant::now() + left + Duration::from_millis(1))
    }

    /// The room's loop: commands, the flag timer, the idle timer, shutdown.
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut shutdown = self.shared.shutdown.clone();
        self.start_robot();
        loop {
            let deadline = self.flag_deadline();
            let idle = self.record.is_over() && self.connected == [0, 0];
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = sleep_until(deadline) => self.observe_flag().await,
                () = tokio::time::sleep(IDLE), if idle => break,
                _ = self.skew.changed() => self.observe_flag().await,
                _ = shutdown.changed() => break,
            }
        }
        if let Some((_, stop)) = &self.thinking {
            stop.store(true, Ordering::Relaxed);
        }
        self.shared.forget(&self.record.setup.id);
    }

    /// One command.
    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { token, reply } => {
                let seats = self.record.setup.seats_of(&token);
                self.join(seats).await;
                let _ = reply.send(Joined {
                    state: self.state.clone(),
                    updates: self.out.subscribe(),
                    seats,
                });
            }
            Command::Leave { seats } => {
                for color in [Color::White, Color::Black] {
                    if seats.holds(color) {
                        self.connected[index(color)] =
                            self.connected[index(color)].saturating_sub(1);
                    }
                }
                if seats != Seats::Spectator {
                    self.broadcast();
                }
            }
            Command::Act {
                seats,
                message,
                reply,
            } => {
                self.observe_flag().await;
                let result = self.act(seats, message).await;
                let _ = reply.send(result);
            }
            Command::State { reply } => {
                let _ = reply.send(self.make_state());
            }
            Command::Pgn { reply } => {
                let _ = reply.send(self.pgn());
            }
            Command::TakeSeat { reply } => {
                let _ = reply.send(self.take_seat().await);
            }
            Command::RobotMove { search, uci } => {
                if self.thinking.as_ref().is_some_and(|(n, _)| *n == search) {
                    self.thinking = None;
                    self.observe_flag().await;
                    if let Some(uci) = uci
                        && !self.record.is_over()
                    {
                        let _ = self.commit(Event::Move { uci }).await;
                    }
                }
            }
        }
    }

    /// A socket with `seats` opened: count it, and in a friend game the
    /// first opening of a seat's link takes the seat.
    async fn join(&mut self, seats: Seats) {
        let mut changed = false;
        for color in [Color::White, Color::Black] {
            if seats.holds(color) {
                self.connected[index(color)] += 1;
                changed = true;
                if !self.record.seated[index(color)] {
                    let _ = self
                        .commit(Event::Seat {
                            color: color.into(),
                        })
                        .await;
                }
            }
        }
        if changed {
            self.broadcast();
        }
    }

    /// An invitation takes whichever seat is free.
    async fn take_seat(&mut self) -> Result<(Side, String), ActionError> {
        let free = [Color::White, Color::Black]
            .into_iter()
            .find(|c| !self.record.seated[index(*c)])
            .ok_or_else(|| ActionError::new(ErrorCode::SeatTaken, "both seats are taken"))?;
        self.commit(Event::Seat { color: free.into() }).await?;
        let token = match free {
            Color::White => self.record.setup.white_token.clone(),
            Color::Black => self.record.setup.black_token.clone(),
        };
        Ok((free.into(), token))
    }

    /// Applies, stores and broadcasts one event.
    async fn commit(&mut self, event: Event) -> Result<(), ActionError> {
        let at = self.now().as_millis() as u64;
        self.record.apply(Timed {
            at,
            event: event.clone(),
        })?;
        let op = WriteOp::Append {
            game: self.record.setup.id.clone(),
            seq: self.record.events.len() - 1,
            event: Timed { at, event },
            finished: self.record.is_over(),
        };
        self.store(vec![op]).await?;
        self.after_change();
        Ok(())
    }

    /// Stores `ops`; if that fails the record is rebuilt from storage, so
    /// that memory never runs ahead of the disk.
    async fn store(&mut self, ops: Vec<WriteOp>) -> Result<(), ActionError> {
        if let Err(e) = self.shared.writer.write(ops).await {
            if let Ok(Some(stored)) = self.shared.storage.load(&self.record.setup.id)
                && let Ok(record) = Record::replay(stored.setup, stored.events)
            {
                self.record = record;
            }
            return Err(e.into());
        }
        Ok(())
    }

    /// After a stored change: stop a search that no longer fits, tell
    /// everyone, let the robot answer.
    fn after_change(&mut self) {
        if let Some((_, stop)) = &self.thinking
            && (self.record.is_over()
                || Some(self.record.turn()) != self.record.setup.robot_color())
        {
            stop.store(true, Ordering::Relaxed);
            self.thinking = None;
        }
        self.broadcast();
        self.start_robot();
    }

    /// Starts the robot's search if it is on move.
    fn start_robot(&mut self) {
        let Some(robot) = &self.robot else { return };
        let Some(color) = self.record.setup.robot_color() else {
            return;
        };
        let clock = self.record.timed.clock();
        if self.thinking.is_some()
            || self.record.is_over()
            || self.record.turn() != color
            || clock.is_stopped()
        {
            return;
        }
        let think = Think::new(self.record.timed.game(), clock, color, self.now());
        self.searches += 1;
        let search = self.searches;
        let stop = Arc::new(AtomicBool::new(false));
        self.thinking = Some((search, stop.clone()));
        let robot = robot.clone();
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let uci = robot.think(think, stop).await;
            if let Some(inbox) = inbox.upgrade() {
                let _ = inbox.send(Command::RobotMove { search, uci }).await;
            }
        });
    }

    /// Ends the game if the running flag has fallen (6.9, 6.11).
    async fn observe_flag(&mut self) {
        if self.record.is_over() {
            return;
        }
        let flag = self.record.timed.clock().flag(self.now());
        if matches!(
            flag,
            Flag::Fallen(_)
                | Flag::BothFallen {
                    in_last_period: true
                }
        ) {
            let _ = self.commit(Event::Flag).await;
        }
    }

    /// The colour a socket acts for: the one it holds, or for a local
    /// token the one named, else `default`.
    fn actor(seats: Seats, named: Option<Side>, default: Color) -> Result<Color, ActionError> {
        match seats {
            Seats::Spectator => Err(ActionError::new(
                ErrorCode::Spectator,
                "spectators watch; they cannot act",
            )),
            Seats::One(color) => match named {
                Some(side) if Color::from(side) != color => Err(ActionError::new(
                    ErrorCode::NotYourTurn,
                    format!("this seat plays {color}, not {}", Color::from(side)),
                )),
                _ => Ok(color),
            },
            Seats::Both => Ok(named.map_or(default, Color::from)),
        }
    }

    /// One player's action.
    async fn act(&mut self, seats: Seats, message: ClientMessage) -> Result<(), ActionError> {
        let turn = self.record.turn();
        let robot = self.record.setup.robot_color();
        match message {
            ClientMessage::Ping => Ok(()),
            ClientMessage::Move {
                ply,
                uci,
                san,
                lang,
            } => {
                let color = Self::actor(seats, None, turn)?;
                if self.record.is_over() {
                    return Err(ActionError::new(ErrorCode::GameOver, "the game is over"));
                }
                if color != turn {
                    return Err(ActionError::new(
                        ErrorCode::NotYourTurn,
                        format!("{turn} is to move"),
                    ));
                }
                if ply != self.record.plies.len() {
                    return Err(ActionError::new(
                        ErrorCode::StalePly,
                        format!(
                            "the move answers ply {ply}, but the game is at ply {}",
                            self.record.plies.len()
                        ),
                    ));
                }
                let uci = self.move_text(uci, san, lang)?;
                self.commit(Event::Move { uci }).await
            }
            ClientMessage::Draw { action, color } => {
                let color = Self::actor(seats, color, turn)?;
                self.commit(Event::Draw {
                    color: color.into(),
                    action,
                })
                .await?;
                if action == OfferAction::Offer && robot == Some(color.other()) {
                    // The robot plays on.
                    self.commit(Event::Draw {
                        color: color.other().into(),
                        action: OfferAction::Decline,
                    })
                    .await?;
                }
                Ok(())
            }
            ClientMessage::Claim { kind, uci, color } => {
                let color = Self::actor(seats, color, turn)?;
                if color != turn && !self.record.is_over() {
                    return Err(ActionError::new(
                        ErrorCode::NotYourTurn,
                        "only the player on move may claim a draw (9.2, 9.3)",
                    ));
                }
                self.commit(Event::Claim {
                    color: color.into(),
                    kind,
                    uci,
                })
                .await
            }
            ClientMessage::Resign { color } => {
                let color = Self::actor(seats, color, turn)?;
                self.commit(Event::Resign {
                    color: color.into(),
                })
                .await
            }
            ClientMessage::Abort { color } => {
                let color = Self::actor(seats, color, turn)?;
                self.commit(Event::Abort {
                    color: color.into(),
                })
                .await
            }
            ClientMessage::Takeback { action, color } => {
                // A local player takes back the move just made.
                let default = if seats == Seats::Both {
                    turn.other()
                } else {
                    turn
                };
                let color = Self::actor(seats, color, default)?;
                let action = OfferAction::from(action);
                self.commit(Event::Takeback {
                    color: color.into(),
                    action,
                })
                .await?;
                if action == OfferAction::Offer
                    && (robot == Some(color.other()) || seats == Seats::Both)
                {
                    self.commit(Event::Takeback {
                        color: color.other().into(),
                        action: OfferAction::Accept,
                    })
                    .await?;
                }
                Ok(())
            }
            ClientMessage::Rematch { action, color } => {
                let color = Self::actor(seats, color, turn)?;
                self.rematch(
                    color,
                    action,
                    seats == Seats::Both || robot == Some(color.other()),
                )
                .await
            }
        }
    }

    /// The UCI text of a move sent in UCI or in SAN of a language.
    fn move_text(
        &self,
        uci: Option<String>,
        san: Option<String>,
        lang: Option<String>,
    ) -> Result<String, ActionError> {
        let game = self.record.timed.game();
        match (uci, san) {
            (Some(uci), None) => Ok(uci),
            (None, Some(san)) => {
                let language: Language = lang
                    .as_deref()
                    .unwrap_or("en")
                    .parse()
                    .map_err(|e| ActionError::new(ErrorCode::BadJson, format!("lang: {e}")))?;
                let m = read_move(game.position(), &san, language, game.castling_mode())
                    .map_err(|e| move_error(&e.into()))?;
                Ok(write_uci(m, game.castling_mode()))
            }
            _ => Err(ActionError::new(
                ErrorCode::BadJson,
                "a move has either `uci` or `san`",
            )),
        }
    }

    /// A rematch offer or answer; `agreed` when the other side always
    /// accepts (the robot, or one person at one device).
    async fn rematch(
        &mut self,
        color: Color,
        action: OfferAction,
        agreed: bool,
    ) -> Result<(), ActionError> {
        match action {
            OfferAction::Offer if agreed => self.agree_rematch(color).await,
            OfferAction::Accept => match self.record.rematch_offer {
                Some(by) if by != color => self.agree_rematch(by).await,
                _ => Err(ActionError::new(
                    ErrorCode::NoOffer,
                    "no rematch offer to answer",
                )),
            },
            _ => {
                self.commit(Event::Rematch {
                    color: color.into(),
                    action,
                    game: None,
                })
                .await
            }
        }
    }

    /// Creates the rematch game (colours swapped) and records the
    /// agreement, all in one commit.
    async fn agree_rematch(&mut self, offerer: Color) -> Result<(), ActionError> {
        let setup = self.record.setup.rematch();
        let game = setup.id.clone();
        let at = self.now().as_millis() as u64;
        let mut events = Vec::new();
        if self.record.rematch_offer != Some(offerer) {
            events.push(Event::Rematch {
                color: offerer.into(),
                action: OfferAction::Offer,
                game: None,
            });
        }
        events.push(Event::Rematch {
            color: offerer.other().into(),
            action: OfferAction::Accept,
            game: Some(game.clone()),
        });
        let mut new_record = Record::new(setup.clone())?;
        let mut ops = vec![WriteOp::Create {
            setup: Box::new(setup.clone()),
            epoch: wall_ms(),
        }];
        if let (Mode::Friend, Some(creator)) = (setup.mode, setup.creator) {
            // Both friends are here: the other seat is taken at once.
            let other = if creator == Side::White {
                Side::Black
            } else {
                Side::White
            };
            let seat = Timed {
                at: 0,
                event: Event::Seat { color: other },
            };
            new_record.apply(seat.clone())?;
            ops.push(WriteOp::Append {
                game: game.clone(),
                seq: 0,
                event: seat,
                finished: false,
            });
        }
        for event in events {
            let timed = Timed { at, event };
            self.record.apply(timed.clone())?;
            ops.push(WriteOp::Append {
                game: self.record.setup.id.clone(),
                seq: self.record.events.len() - 1,
                event: timed,
                finished: true,
            });
        }
        self.store(ops).await?;
        self.shared.adopt(new_record, Duration::ZERO);
        let _ = self.out.send(Out::Rematch {
            game,
            white: setup.white_token,
            black: setup.black_token,
        });
        self.broadcast();
        Ok(())
    }

    /// The game record as PGN with clock comments.
    fn pgn(&self) -> String {
        let game = self.record.timed.game();
        let setup = &self.record.setup;
        let mut tags = Tags::new();
        tags.set("Event", "Rochade game");
        tags.set("Site", &format!("/g/{}", setup.id));
        let name = |color: Color| match setup.robot {
            Some((level, side)) if Color::from(side) == color => {
                format!("Rochade robot level {level}")
            }
            _ => format!("{color}").to_owned(),
        };
        tags.set("White", &name(Color::White));
        tags.set("Black", &name(Color::Black));
        if let Some(tc) = self.record.timed.clock().control().to_pgn() {
            tags.set("TimeControl", &tc);
        }
        if self.record.aborted {
            tags.set("Result", "*");
            tags.set("Annotator", "aborted");
        }
        let clocks = self.record.timed.clock_times();
        let options = WriteOptions {
            clocks: &clocks,
            ..WriteOptions::default()
        };
        pgn::write_game(game, &tags, &options)
    }
}

/// Sleeps until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// The setup of a stored game and the game time to resume it at.
pub fn resume_point(record: &Record, epoch: u64, last_alive: Option<u64>) -> Duration {
    // 6.12: the clocks stopped when the server was last known to run.
    let alive = last_alive.map_or(0, |alive| alive.saturating_sub(epoch));
    Duration::from_millis(alive.max(record.last_at()))
}
