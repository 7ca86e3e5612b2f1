//! A live game: one task owns the [`Record`], takes commands one at a
//! time, stores every change before anyone hears of it, then broadcasts
//! the new state. The loop lives here and only routes; each negotiation
//! has its own file, as lila's round module has (`Drawer`, `Takebacker`,
//! `Rematcher`, `Finisher`):
//!
//! - [`act`]: a player's message, checked for who may act, into events;
//! - [`offers`]: draw offers and claims (9.1–9.4);
//! - [`takeback`]: take-backs in casual games;
//! - [`rematch`]: the rematch and its new game;
//! - [`finish`]: what the server itself ends (flags, expiries) and when
//!   the game must next be looked at;
//! - [`presence`]: who is connected, and when the players hear of it.
//!
//! A room gets only the handles it needs ([`RoomDeps`]), never the
//! registry: it closes itself when nobody has been there for a while,
//! leaving its next deadline with the scheduler, and the registry forgets
//! it when its task ends.

pub mod act;
mod command;
pub mod finish;
mod head;
pub mod offers;
pub mod presence;
pub mod rematch;
pub mod takeback;
#[cfg(test)]
mod tests;

pub use command::{Command, Described, JoinTold, Joined, Out};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rochade_engine::robot::Level;
use tokio::sync::{broadcast, mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::clock::ServerClock;
use crate::error::{ActionError, ErrorCode};
use crate::event::TablebaseKind;
use crate::event::{Event, Timed};
use crate::glance::Glance;
use crate::limits::Limits;
use crate::notify;
use crate::protocol::ClientMessage;
use crate::record::Record;
use crate::robot::{RobotPlayer, RobotQueue, Think};
use crate::schedule::Scheduler;
use crate::setup::{Player, Seats, Side};
use crate::state::{LazyState, MovesJson, Now};
use crate::storage::{Ended, Storage, StorageError, WriteOp, Writer};
use presence::Presence;
use rochade_laws::TablebaseValue;

/// How long the room waits before asking the robot queue again when it
/// was full, or when a search ended without a move.
const ROBOT_RETRY: Duration = Duration::from_millis(500);

/// The news a room keeps for a socket that reads slowly; one further
/// behind gets the whole state instead. Each room holds this many slots
/// from its start: 64 of them were 6 KB of a live game's memory.
const NEWS_KEPT: usize = 16;

/// The handles a room works with.
#[derive(Clone)]
pub struct RoomDeps {
    /// Reads (to rebuild the record when a write fails).
    pub storage: Arc<dyn Storage>,
    /// Writes, group-committed.
    pub writer: Writer,
    /// The robot's searches.
    pub robots: RobotQueue,
    /// The server's time.
    pub clock: Arc<ServerClock>,
    /// Where a closing room leaves its next deadline.
    pub schedule: Arc<Scheduler>,
    /// The limits.
    pub limits: Arc<Limits>,
    /// News for the players' accounts (a game ends).
    pub hub: Arc<crate::hub::Hub>,
    /// Turns true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Syzygy tables for tablebase claims, if the server has them.
    pub tablebase: Option<Arc<rochade_tablebase::Tablebase>>,
    /// When each correspondence player hears their time runs low.
    pub thresholds: Arc<crate::notify::thresholds::Thresholds>,
    /// Told when a tournament game ends.
    pub tournaments: Arc<crate::tournaments::runner::Runner>,
    /// The other nodes, when there are several: the room's news go to
    /// their sockets too.
    pub cluster: Option<Arc<crate::cluster::Cluster>>,
}

impl std::fmt::Debug for RoomDeps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RoomDeps")
    }
}

/// A live game.
struct Room {
    /// The game.
    record: Record,
    /// Server time (Unix ms) at which the game's time line is at zero.
    epoch: u64,
    /// The handles.
    deps: RoomDeps,
    /// To the sockets.
    out: broadcast::Sender<Out>,
    /// Who is connected.
    presence: Presence,
    /// The last state sent.
    state: Arc<LazyState>,
    /// The game's moves as JSON, kept between states.
    moves_json: MovesJson,
    /// The state's head as JSON, kept between states.
    head: head::HeadKept,
    /// What every socket's state has in common since the last broadcast,
    /// when they all do: then a move can be sent as a move message.
    shown: Option<Shown>,
    /// The robot, in robot games.
    robot: Option<RobotPlayer>,
    /// The robot's current search: its number and stop flag.
    thinking: Option<(u64, Arc<AtomicBool>)>,
    /// When to ask the robot queue again.
    robot_retry: Option<Instant>,
    /// The ply and threshold at which the player on move was last told
    /// their time runs low.
    told_low: Option<(usize, u64)>,
    /// The leave edges (whose leave, game time) already told in this
    /// room's life.
    told_edges: Vec<(shakmaty::Color, u64)>,
    /// Searches started so far.
    searches: u64,
    /// The room's own queue, for the robot's answers.
    inbox: mpsc::WeakSender<Command>,
    /// Memory may be ahead of the database (a commit failed and the game
    /// could not be read back, or it did not answer in time): the room
    /// closes after the act at hand, to be loaded again from what is stored.
    stale: bool,
}

/// Starts the room of `record`, whose time line is at zero at server time
/// `epoch`; returns its queue and its task (which ends when the room
/// closes).
pub fn spawn(
    record: Record,
    epoch: u64,
    deps: RoomDeps,
) -> (mpsc::Sender<Command>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(256);
    let (out, _) = broadcast::channel(NEWS_KEPT);
    let robot = record
        .setup
        .robot
        .and_then(|(level, _)| Level::new(level).ok().map(RobotPlayer::new));
    let presence = Presence::new(deps.limits.sockets_per_seat, deps.limits.presence_every);
    let mut room = Room {
        record,
        epoch,
        deps,
        out,
        presence,
        state: Arc::new(LazyState::ready(Arc::default())),
        moves_json: MovesJson::default(),
        head: head::HeadKept::default(),
        shown: None,
        robot,
        thinking: None,
        robot_retry: None,
        told_low: None,
        told_edges: Vec::new(),
        searches: 0,
        inbox: tx.downgrade(),
        stale: false,
    };
    room.state = room.made().0;
    tracing::debug!(
        game = %room.record.setup.id,
        events = room.record.events.len(),
        epoch,
        "a room opens"
    );
    // The loop's future itself, not one inside another: an `async` block
    // around it held the room twice (8 KB a room, now under 5).
    let task = tokio::spawn(room.run(rx));
    (tx, task)
}

/// What wakes a room.
enum Wake {
    /// A command.
    Command(Command),
    /// Something may have fallen due (a deadline, the clock moved).
    Due,
    /// Presence news to send.
    News,
    /// Time to ask the robot queue again.
    Robot,
}

/// The next change of `signal`: whether it came (not the sender gone),
/// and the receiver back to wait again.
async fn next_change<T>(mut signal: watch::Receiver<T>) -> (bool, watch::Receiver<T>) {
    let told = signal.changed().await.is_ok();
    (told, signal)
}

/// Sleeps until `deadline`, or forever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

impl Room {
    /// Game time now, in milliseconds.
    fn now_ms(&self) -> u64 {
        self.deps.clock.now_ms().saturating_sub(self.epoch)
    }

    /// The state JSON now.
    fn make_state(&mut self) -> Arc<String> {
        self.made().0.json()
    }

    /// The state JSON now, and the move message that tells sockets
    /// holding the state last broadcast of it: when it is that state and
    /// one more ply (no take-back between), with the same
    /// [`Head`](crate::state::Head). A
    /// state whose head differs from what was broadcast (a player's
    /// connection shown early to a socket that just joined) means the next
    /// broadcast is a whole state again.
    fn made(&mut self) -> (Arc<LazyState>, Option<Arc<String>>, Shown) {
        let now = Duration::from_millis(self.now_ms());
        let head = self.head.json(&self.record, now, self.presence.connected());
        let mut moment = Now::of(&self.record, now);
        let value = self.tablebase_value();
        moment.claimable.tablebase_win = value == Some(TablebaseValue::Win);
        moment.claimable.tablebase_draw = value == Some(TablebaseValue::Draw);
        let moment = moment.into_json();
        let moves = self.moves_json.snapshot(&self.record);
        let shown = Shown {
            head: head.clone(),
            ply: self.record.plies.len(),
            rewrites: self.record.rewrites,
        };
        let moved = match (&self.shown, moves.last()) {
            (Some(before), Some(last)) if shown.follows(before) => {
                Some(Arc::new(crate::state::moved_message(last, &moment)))
            }
            _ => None,
        };
        if self.shown.as_ref().is_some_and(|s| s.head != shown.head) {
            self.shown = None;
        }
        let full = Arc::new(LazyState::new(head, moves, moment));
        (full, moved, shown)
    }

    /// What the server's tables give the side to move now, where a
    /// tablebase claim can be made: ICCF rules, a game not over, seven or
    /// fewer pieces, a position the tables hold.
    fn tablebase_value(&self) -> Option<TablebaseValue> {
        let tables = self.deps.tablebase.as_ref()?;
        let game = self.record.timed.game();
        let pieces = shakmaty::Position::board(game.position())
            .occupied()
            .count();
        if self.record.setup.rules != rochade_laws::RuleSet::Iccf
            || self.record.is_over()
            || pieces > rochade_laws::tablebase::TABLEBASE_MAX_PIECES as usize
        {
            return None;
        }
        tables.verdict(game.position()).ok()?.value()
    }

    /// The player of `seats` claims what the tables give (ICCF 5.1.3,
    /// 5.2.4): the claim is stored with the tables' value; a wrong one
    /// changes nothing and is answered as refused (9.4.3: the game goes on).
    async fn claim_tablebase(
        &mut self,
        seats: Seats,
        claim: TablebaseKind,
        color: Option<Side>,
    ) -> Result<(), ActionError> {
        let color = act::actor(seats, color, self.record.turn())?;
        if self.deps.tablebase.is_none() {
            return Err(ActionError::new(
                ErrorCode::NotAllowed,
                "this server has no tablebases: a director decides such claims",
            ));
        }
        let value = self.tablebase_value();
        self.commit(vec![Event::TablebaseClaim {
            color: color.into(),
            claim,
            value: value.map(Into::into),
        }])
        .await?;
        if self.record.is_over() {
            return Ok(());
        }
        let says = match value {
            Some(TablebaseValue::Win) => "a win for the side to move",
            Some(TablebaseValue::Draw) => "a draw",
            Some(TablebaseValue::Loss) => "a loss for the side to move",
            None => "nothing: the position is not in them",
        };
        Err(ActionError::new(
            ErrorCode::NotAllowed,
            format!("the tablebases give {says}: the claim is wrong and the game goes on (9.4.3)"),
        ))
    }

    /// Sends `out` to every socket, here and on the other nodes.
    fn send_out(&self, out: Out) {
        if let Some(cluster) = &self.deps.cluster {
            cluster.broadcast(&self.record.setup.id, &out);
        }
        let _ = self.out.send(out);
    }

    /// Sends the new state to every socket: after a move, as a move
    /// message to the sockets that asked for them.
    fn broadcast(&mut self) {
        let (state, moved, shown) = self.made();
        self.state = state;
        self.shown = Some(shown);
        self.presence.shown();
        let out = match moved {
            Some(moved) => Out::Moved {
                state: self.state.clone(),
                moved,
            },
            None => Out::State(self.state.json()),
        };
        self.send_out(out);
    }

    /// When something falls due in this game (a flag, an expiry).
    fn deadline(&self) -> Option<Instant> {
        let at = finish::deadline(
            &self.record,
            self.now_ms(),
            &self.deps.limits,
            &self.low_times(),
        )?;
        Some(self.deps.clock.instant_of(self.epoch.saturating_add(at)))
    }

    /// The room's loop: commands, deadlines, presence news, the robot,
    /// closing when nobody has been there for a while, shutdown.
    async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let mut shutdown = self.deps.shutdown.clone();
        let skew = self.deps.clock.changes();
        let unload_after = self.deps.limits.unload_after;
        Box::pin(self.tick()).await;
        // One timer for the room's deadlines and one for its presence news,
        // moved as they change, and one wait for each of the server's
        // signals, kept from turn to turn (cheaper than new ones for each
        // command: a timer, or a place in the signal's list of waiters).
        let due = tokio::time::sleep_until(Instant::now());
        tokio::pin!(due);
        let news = tokio::time::sleep_until(Instant::now());
        tokio::pin!(news);
        let stop = shutdown.changed();
        tokio::pin!(stop);
        let skewed = next_change(skew);
        tokio::pin!(skewed);
        let mut skew_told = true;
        loop {
            // A change not stored (a move, or a flag or an expiry that
            // `tick` found): memory may be ahead of the database, so the
            // room serves no one more.
            if self.stale {
                break;
            }
            let unloadable =
                self.presence.is_empty() && self.thinking.is_none() && self.robot_retry.is_none();
            let deadline = self.deadline();
            if let Some(at) = deadline {
                due.as_mut().reset(at);
            }
            let news_due = self.presence.due();
            // News due now (the first socket of a seat came) goes out
            // before the next command: a move right after it then builds
            // on a state every socket has.
            if news_due.is_some_and(|at| at <= Instant::now()) {
                self.broadcast();
                continue;
            }
            if let Some(at) = news_due {
                news.as_mut().reset(at);
            }
            // What woke the room; it is handled below, once the waits of
            // the select are dropped.
            let wake = tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => Wake::Command(command),
                    None => break,
                },
                () = &mut due, if deadline.is_some() => Wake::Due,
                () = &mut news, if news_due.is_some() => Wake::News,
                () = sleep_until(self.robot_retry) => Wake::Robot,
                () = tokio::time::sleep(unload_after), if unloadable => break,
                (told, skew) = &mut skewed, if skew_told => {
                    // A clock that can no longer change is not waited on.
                    skew_told = told;
                    skewed.set(next_change(skew));
                    Wake::Due
                }
                _ = &mut stop => break,
            };
            // The handling's futures are on the heap while they run: held in
            // the room's task, their place (1.5 KB for a command, 0.6 for a
            // tick) was kept for the room's life.
            match wake {
                Wake::Command(command) => Box::pin(self.handle(command)).await,
                Wake::Due => Box::pin(self.tick()).await,
                Wake::News => self.broadcast(),
                Wake::Robot => {
                    self.robot_retry = None;
                    self.start_robot();
                }
            }
        }
        if let Some((_, stop)) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        tracing::debug!(
            game = %self.record.setup.id,
            events = self.record.events.len(),
            stale = self.stale,
            "a room closes"
        );
        if self.stale {
            // What is stored decides the next deadline: look again soon.
            let soon = self.deps.clock.now_ms().saturating_add(1000);
            self.deps.schedule.set(&self.record.setup.id, soon);
            return;
        }
        if let Some(at) = finish::wake_at(
            &self.record,
            self.now_ms(),
            &self.deps.limits,
            &self.low_times(),
        ) {
            self.deps
                .schedule
                .set(&self.record.setup.id, self.epoch.saturating_add(at));
        }
    }

    /// Records what has fallen due, and lets the robot move.
    async fn tick(&mut self) {
        if let Some(event) = finish::due(&self.record, self.now_ms(), &self.deps.limits) {
            let _ = self.commit(vec![event]).await;
        }
        self.notify_time_low();
        self.notify_leave_edges();
        self.start_robot();
    }

    /// The thresholds (ms) of the player on move: none in a live game,
    /// where nobody is told their time runs low (the lookup and its copy
    /// were made four times a move).
    fn low_times(&self) -> Vec<u64> {
        if !self.record.is_correspondence() {
            return Vec::new();
        }
        let player = self.record.setup.player(self.record.turn());
        self.deps.thresholds.of(player.map(|p| p.id))
    }

    /// A player's act: claims the room decides itself, the rest planned
    /// by [`act::plan`] and committed; the answer goes to `reply`.
    async fn act(
        &mut self,
        seats: Seats,
        message: ClientMessage,
        reply: tokio::sync::oneshot::Sender<Result<(), ActionError>>,
    ) {
        self.tick().await;
        if let ClientMessage::ClaimVictory { .. } = message {
            let result = self.claim_victory(seats).await;
            let _ = reply.send(result);
            return;
        }
        if let ClientMessage::TablebaseClaim { claim, color } = message {
            let result = self.claim_tablebase(seats, claim, color).await;
            let _ = reply.send(result);
            return;
        }
        let result = match act::plan(&self.record, seats, message) {
            Ok(act::Plan::Nothing) => Ok(()),
            Ok(act::Plan::Events(events)) => self.commit(events).await,
            Ok(act::Plan::Rematch { offerer }) => self.agree_rematch(offerer).await,
            Err(e) => Err(e),
        };
        let _ = reply.send(result);
    }

    /// One command.
    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { token, reply, told } => {
                let joined = self.join(&token).await;
                if let Some(told) = told {
                    told.tell(&joined);
                }
                let _ = reply.send(joined);
            }
            Command::Leave { seats } => self.presence.leave(seats),
            Command::Act {
                seats,
                message,
                reply,
            } => {
                let began = std::time::Instant::now();
                self.act(seats, message, reply).await;
                crate::metrics::METRICS.act_seconds.observe(began.elapsed());
            }
            Command::State { reply } => {
                let _ = reply.send(self.make_state());
            }
            Command::Pgn { numeric, reply } => {
                let _ = reply.send(crate::pgn::write_in(
                    &self.record,
                    numeric,
                    Some(self.epoch),
                ));
            }
            Command::TakeSeat { player, reply } => {
                let _ = reply.send(self.take_seat(player).await);
            }
            Command::RobotMove { search, uci } => {
                if self.thinking.as_ref().is_some_and(|(n, _)| *n == search) {
                    self.thinking = None;
                    self.tick().await;
                    match uci {
                        Some(uci) if !self.record.is_over() => {
                            let _ = self.commit(vec![Event::Move { uci }]).await;
                        }
                        _ => self.robot_retry = Some(Instant::now() + ROBOT_RETRY),
                    }
                }
            }
            Command::Play {
                seats,
                uci,
                offer_draw,
                reply,
            } => {
                self.tick().await;
                let message = crate::protocol::ClientMessage::Move {
                    ply: self.record.plies.len(),
                    uci: Some(uci),
                    san: None,
                    lang: None,
                    offer_draw,
                };
                let result = match act::plan(&self.record, seats, message) {
                    Ok(act::Plan::Events(events)) => self.commit(events).await,
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Command::Pause {
                user,
                from,
                to,
                reply,
            } => {
                self.tick().await;
                let leave = (from, to);
                let (from, to) = (
                    from.saturating_sub(self.epoch),
                    to.saturating_sub(self.epoch),
                );
                let color = self.record.setup.player_color(user);
                let result = if let Some(color) = color
                    && !self.record.is_over()
                    && self.record.is_correspondence()
                    && !self
                        .record
                        .setup
                        .tournament
                        .as_ref()
                        .is_some_and(|t| t.triple_block)
                    && to > self.now_ms()
                {
                    let done = self
                        .commit(vec![Event::Pause {
                            color: color.into(),
                            from,
                            to,
                        }])
                        .await;
                    if done.is_ok() {
                        self.tell_leave(color, leave);
                    }
                    done
                } else {
                    Ok(())
                };
                let _ = reply.send(result);
            }
            Command::Direct {
                decision,
                by,
                reason,
                reply,
            } => {
                // A flag that fell before the decision is recorded first.
                self.tick().await;
                let result = self
                    .commit(vec![Event::Decide {
                        decision,
                        by,
                        reason,
                    }])
                    .await;
                let _ = reply.send(result);
            }
            Command::Describe { reply } => {
                let _ = reply.send(Described {
                    setup: self.record.setup.clone(),
                    state: self.make_state(),
                    epoch: self.epoch,
                });
            }
            Command::Wake { reply } => {
                self.tick().await;
                let _ = reply.send(());
            }
            // What is stored may be ahead of this room: close, and let the
            // next request load the game again.
            Command::Close => self.stale = true,
        }
    }

    /// A socket says hello with `token`: count it, and in a friend game
    /// the first opening of a seat's link takes the seat.
    async fn join(&mut self, token: &str) -> Result<Joined, ActionError> {
        let seats = self.record.setup.seats_of(token);
        self.presence.join(seats)?;
        let free: Vec<_> = shakmaty::Color::ALL
            .into_iter()
            .filter(|c| seats.holds(*c) && !self.record.seated[*c])
            .collect();
        for color in free {
            // A seat not stored is not taken: the socket is answered
            // `busy` and comes again. (Answered with a state, it showed
            // the seat taken from memory; once the room was loaded again
            // without it, the opponent's moves were refused, "the clocks
            // start when the opponent takes the seat", and the page never
            // joined again: a CI rehearsal's database crash, 29 November.)
            if let Err(e) = self
                .commit(vec![Event::Seat {
                    color: color.into(),
                    player: None,
                }])
                .await
            {
                self.presence.leave(seats);
                return Err(e);
            }
        }
        let state = if self.presence.due().is_some() {
            self.make_state()
        } else {
            self.state.json()
        };
        let conditional = match seats {
            Seats::One(color) if !self.record.conditional[color].is_empty() => {
                Some((color, self.record.conditional_lines(color)))
            }
            _ => None,
        };
        Ok(Joined {
            state,
            updates: self.out.subscribe(),
            seats,
            conditional,
        })
    }

    /// An invitation takes whichever seat is free.
    async fn take_seat(&mut self, player: Option<Player>) -> Result<(Side, String), ActionError> {
        let free = self
            .record
            .seated
            .find(|seated| !*seated)
            .ok_or_else(|| ActionError::new(ErrorCode::SeatTaken, "both seats are taken"))?;
        // An account plays one side of a game, not both.
        let other = self.record.setup.player(free.other()).map(|p| p.id);
        let player = player.filter(|p| Some(p.id) != other);
        self.commit(vec![Event::Seat {
            color: free.into(),
            player,
        }])
        .await?;
        let token = match free {
            shakmaty::Color::White => self.record.setup.white_token.clone(),
            shakmaty::Color::Black => self.record.setup.black_token.clone(),
        };
        Ok((free.into(), token))
    }

    /// How the game has ended, for storage.
    fn ended(&self) -> Option<Ended> {
        if !self.record.is_over() {
            None
        } else if self.record.aborted && self.record.plies.len() < 2 {
            Some(Ended::Aborted)
        } else {
            Some(Ended::Played)
        }
    }

    /// The result, once the game has ended with one.
    fn result(&self) -> Option<rochade_laws::GameResult> {
        if self.record.aborted {
            return None;
        }
        self.record.timed.game().outcome().map(|o| o.result)
    }

    /// Applies `events` to the record and returns their writes; on a
    /// refusal nothing has changed.
    fn apply(&mut self, events: Vec<Event>) -> Result<Vec<WriteOp>, ActionError> {
        let at = self.now_ms();
        let backup = (events.len() > 1).then(|| self.record.clone());
        let mut ops = Vec::with_capacity(events.len());
        for event in events {
            let timed = Timed { at, event };
            if let Err(e) = self.record.apply(timed.clone()) {
                if let Some(backup) = backup {
                    self.record = backup;
                }
                return Err(e);
            }
            ops.push(self.append_op(timed, at));
        }
        // Conditional moves answer at once, in the same commit.
        while let Some(uci) = self.record.conditional_move().map(str::to_owned) {
            let color = self.record.turn();
            let timed = Timed {
                at,
                event: Event::Move { uci },
            };
            if self.record.apply(timed.clone()).is_err() {
                self.record.drop_conditional(color);
                break;
            }
            ops.push(self.append_op(timed, at));
        }
        // The last write of the commit carries the game at a glance.
        if let Some(WriteOp::Append { glance, .. }) = ops.last_mut() {
            *glance = Some(Glance::of(&self.record, at).to_json());
        }
        Ok(ops)
    }

    /// The write of the event just applied.
    fn append_op(&self, event: Timed, at: u64) -> WriteOp {
        WriteOp::Append {
            game: self.record.setup.id.clone(),
            seq: self.record.events.len() - 1,
            event,
            ended: self.ended(),
            result: self.result(),
            wake_at: finish::wake_at(&self.record, at, &self.deps.limits, &self.low_times()),
            glance: None,
        }
    }

    /// Applies, stores (in one commit) and broadcasts `events`.
    async fn commit(&mut self, events: Vec<Event>) -> Result<(), ActionError> {
        if !events.is_empty() && events.iter().all(|e| matches!(e, Event::Chat { .. })) {
            return self.commit_chat(events).await;
        }
        let was_over = self.record.is_over();
        let plies = self.record.plies.len();
        let offer_before = self.record.timed.game().pending_offer().map(|o| o.by);
        let conditional = self.record.conditional.clone();
        let berserk = events.iter().any(|e| matches!(e, Event::Berserk { .. }));
        let ops = self.apply(events)?;
        self.store(ops).await?;
        tracing::debug!(
            game = %self.record.setup.id,
            events = self.record.events.len(),
            plies = self.record.plies.len(),
            "stored"
        );
        // An arena's page shows who went berserk.
        if berserk && let Some(terms) = &self.record.setup.tournament {
            self.deps.tournaments.shown(&terms.id);
        }
        let moved = self.record.plies.len().saturating_sub(plies);
        crate::metrics::METRICS
            .moves
            .fetch_add(moved as u64, std::sync::atomic::Ordering::Relaxed);
        self.after_change();
        for color in shakmaty::Color::ALL {
            if conditional[color] != self.record.conditional[color] {
                let lines = Arc::new(self.record.conditional_lines(color));
                self.send_out(Out::Conditional { color, lines });
            }
        }
        self.dismiss_notices(plies);
        if !was_over && self.record.is_over() {
            self.announce_finish();
        } else if self.record.plies.len() != plies {
            self.announce_turn();
        }
        self.notify_changes(offer_before);
        Ok(())
    }

    /// Tells the players' accounts that the game has ended, and its
    /// tournament's clockwork if it has one.
    fn announce_finish(&self) {
        let outcome = self.record.timed.game().outcome();
        tracing::info!(
            game = %self.record.setup.id,
            result = outcome.map_or("*", |o| o.result.as_str()),
            reason = %outcome.map_or_else(String::new, |o| o.reason.to_string()),
            plies = self.record.plies.len(),
            tournament = self.record.setup.tournament.as_ref().map(|t| t.id.as_str()),
            "game over"
        );
        if let Some(terms) = &self.record.setup.tournament {
            self.deps.tournaments.changed(&terms.id);
        }
        let Ok(state) = serde_json::from_str::<serde_json::Value>(&self.state.json()) else {
            return;
        };
        for color in shakmaty::Color::ALL {
            if let Some(player) = self.record.setup.player(color) {
                let news =
                    crate::api::games::game_event("gameFinish", &self.record.setup, &state, color);
                self.deps.hub.tell(player.id, news);
            }
        }
    }

    /// The player of `seats` claims the win: the opponent, a person, has
    /// had no connection to the game for the `gone_claim` time.
    async fn claim_victory(&mut self, seats: Seats) -> Result<(), ActionError> {
        let color = match seats {
            Seats::One(color) => color,
            Seats::Spectator => {
                return Err(ActionError::new(
                    ErrorCode::Spectator,
                    "spectators watch; they cannot act",
                ));
            }
            Seats::Both => {
                return Err(ActionError::new(
                    ErrorCode::NotAllowed,
                    "both seats are on this device: nobody has left",
                ));
            }
        };
        let opponent = color.other();
        if self.record.setup.robot_color() == Some(opponent) {
            return Err(ActionError::new(
                ErrorCode::NotAllowed,
                "the robot never leaves",
            ));
        }
        if self.record.is_correspondence() {
            return Err(ActionError::new(
                ErrorCode::NotAllowed,
                "a correspondence player need not stay connected: the clock decides (6.7)",
            ));
        }
        if self.record.plies.len() < 2 {
            return Err(ActionError::new(
                ErrorCode::NotAllowed,
                "before both sides have moved, a game is aborted, not won",
            ));
        }
        let wait = self.deps.limits.gone_claim;
        match self.presence.gone_for(opponent) {
            Some(gone) if gone >= wait => {}
            Some(gone) => {
                return Err(ActionError::new(
                    ErrorCode::NotAllowed,
                    format!(
                        "your opponent left {} s ago; the win may be claimed after {} s",
                        gone.as_secs(),
                        wait.as_secs()
                    ),
                ));
            }
            None => {
                return Err(ActionError::new(
                    ErrorCode::NotAllowed,
                    "your opponent is connected",
                ));
            }
        }
        self.commit(vec![Event::Left {
            color: opponent.into(),
        }])
        .await
    }

    /// Stores lines of chat and sends them to everyone in the room; the
    /// game's state is unchanged, so no state goes out.
    async fn commit_chat(&mut self, events: Vec<Event>) -> Result<(), ActionError> {
        let lines = events.clone();
        let ops = self.apply(events)?;
        self.store(ops).await?;
        for event in lines {
            if let Event::Chat { color, text } = event {
                let color = shakmaty::Color::from(color);
                let name = self.record.setup.player(color).map(|p| p.name.clone());
                self.send_out(Out::Chat {
                    color,
                    name,
                    text: text.into(),
                });
            }
        }
        Ok(())
    }

    /// Tells the players' accounts whose move it is now (the page's list
    /// of open games puts "your move" first). Not lichess news: the API's
    /// event stream leaves it out.
    fn announce_turn(&self) {
        let turn = self.record.turn();
        if self.record.is_correspondence()
            && let Some(player) = self.record.setup.player(turn)
        {
            let deadline = finish::flag_falls_at(self.record.timed.clock(), self.now_ms())
                .map(|at| self.epoch.saturating_add(at));
            self.notify(
                player.id,
                notify::Notice::YourMove {
                    opponent: self.opponent_name(turn),
                    deadline,
                },
            );
        }
        for color in shakmaty::Color::ALL {
            if let Some(player) = self.record.setup.player(color) {
                self.deps.hub.tell(
                    player.id,
                    serde_json::json!({
                        "type": crate::hub::TURN,
                        "gameId": self.record.setup.id,
                        "isMyTurn": color == turn,
                    }),
                );
            }
        }
    }

    /// The name the player of `color` knows the opponent by.
    fn opponent_name(&self, color: shakmaty::Color) -> String {
        self.record
            .setup
            .player(color.other())
            .map_or_else(|| "?".to_owned(), |p| p.name.clone())
    }

    /// Tells account `user` `notice` about this game at this ply.
    fn notify(&self, user: i64, notice: notify::Notice) {
        notify::tell(
            &self.deps.hub,
            &self.deps.storage,
            user,
            &self.record.setup.id,
            self.record.plies.len(),
            notice,
            self.deps.clock.now_ms(),
        );
    }

    /// The opponent of `color` hears of their leave `(from, to)` (server
    /// time): when it begins and ends, and that both clocks stop (10.1).
    fn tell_leave(&self, color: shakmaty::Color, (from, to): (u64, u64)) {
        let Some(opponent) = self.record.setup.player(color.other()) else {
            return;
        };
        notify::tell(
            &self.deps.hub,
            &self.deps.storage,
            opponent.id,
            &self.record.setup.id,
            // One notice per leave: the key holds its first moment.
            usize::try_from(from).unwrap_or_default(),
            notify::Notice::Leave {
                player: self.opponent_name(color.other()),
                from,
                to,
            },
            self.deps.clock.now_ms(),
        );
    }

    /// After a change: a correspondence player offered a draw is told, and
    /// one whose time runs low.
    fn notify_changes(&mut self, offer_before: Option<shakmaty::Color>) {
        if !self.record.is_correspondence() || self.record.is_over() {
            return;
        }
        let offer = self.record.timed.game().pending_offer().map(|o| o.by);
        if let Some(by) = offer
            && offer_before != Some(by)
            && let Some(player) = self.record.setup.player(by.other())
        {
            self.notify(
                player.id,
                notify::Notice::DrawOffered {
                    opponent: self.opponent_name(by.other()),
                },
            );
        }
        self.notify_time_low();
    }

    /// Whoever moved in a correspondence game has read what was waiting
    /// about it: their unsent notices go (before any new notice is kept).
    fn dismiss_notices(&self, plies_before: usize) {
        if !self.record.is_correspondence() {
            return;
        }
        let added = self.record.plies.len().saturating_sub(plies_before);
        let movers: Vec<shakmaty::Color> = if added >= 2 {
            shakmaty::Color::ALL.to_vec()
        } else if added == 1 {
            vec![self.record.turn().other()]
        } else {
            Vec::new()
        };
        for color in movers {
            if let Some(player) = self.record.setup.player(color) {
                notify::moved(&self.deps.storage, player.id, &self.record.setup.id);
            }
        }
    }

    /// Tells the player on move their time runs low, once per move.
    fn notify_time_low(&mut self) {
        let now = self.now_ms();
        let ply = self.record.plies.len();
        let Some(threshold) = finish::time_low(&self.record, now, &self.low_times()) else {
            return;
        };
        if self.told_low == Some((ply, threshold)) {
            return;
        }
        self.told_low = Some((ply, threshold));
        let turn = self.record.turn();
        if let (Some(player), Some(falls)) = (
            self.record.setup.player(turn),
            finish::flag_falls_at(self.record.timed.clock(), now),
        ) {
            // Once per move and threshold, even across restarts.
            notify::tell_once(
                &self.deps.hub,
                &self.deps.storage,
                player.id,
                &self.record.setup.id,
                &format!("{ply}:{threshold}"),
                notify::Notice::TimeLow {
                    opponent: self.opponent_name(turn),
                    deadline: self.epoch.saturating_add(falls),
                },
                self.deps.clock.now_ms(),
            );
        }
    }

    /// The opponent of a player on leave hears when it begins and when it
    /// ends (10.1), once each, for edges passed in the last two days.
    fn notify_leave_edges(&mut self) {
        if !self.record.is_correspondence() || self.record.is_over() {
            return;
        }
        const RECENT: u64 = 2 * 86_400_000;
        let now = self.now_ms();
        for (color, from, to) in &self.record.leaves {
            let Some(opponent) = self.record.setup.player(color.other()) else {
                continue;
            };
            let player = self.opponent_name(color.other());
            for (edge, notice) in [
                (
                    *from,
                    notify::Notice::LeaveBegins {
                        player: player.clone(),
                        to: self.epoch.saturating_add(*to),
                    },
                ),
                (
                    *to,
                    notify::Notice::LeaveEnds {
                        player: player.clone(),
                    },
                ),
            ] {
                if edge <= now && now - edge < RECENT && !self.told_edges.contains(&(*color, edge))
                {
                    self.told_edges.push((*color, edge));
                    notify::tell_once(
                        &self.deps.hub,
                        &self.deps.storage,
                        opponent.id,
                        &self.record.setup.id,
                        &self.epoch.saturating_add(edge).to_string(),
                        notice,
                        self.deps.clock.now_ms(),
                    );
                }
            }
        }
    }

    /// Stores `ops`, waiting at most `store_wait`. If the commit fails the
    /// record is rebuilt from storage, so that memory never runs ahead of
    /// the disk; if that cannot be read, if it holds events this room did
    /// not write (another node serves the game: this room is stale), or
    /// the commit did not answer in time (it may still land), the room
    /// closes, and its sockets come back to whoever serves the game now.
    /// Either way the player is answered `busy`: nothing was told, try
    /// again.
    async fn store(&mut self, mut ops: Vec<WriteOp>) -> Result<(), ActionError> {
        let wait = self.deps.limits.store_wait;
        // The events this room had stored before these.
        let had = self.record.events.len()
            - ops
                .iter()
                .filter(|op| matches!(op, WriteOp::Append { game, .. } if *game == self.record.setup.id))
                .count();
        // A node whose lease may have lapsed (stopped, cut off from the
        // database) writes nothing: another node may serve the game now.
        let why = if let Some(cluster) = &self.deps.cluster
            && !cluster.lease().holds(crate::storage::wall_ms())
        {
            self.stale = true;
            "this node's lease lapsed".to_owned()
        } else {
            // Of several nodes, only the game's owner stores (a takeover
            // may come between the lease's check and the commit).
            if let Some(cluster) = &self.deps.cluster {
                ops.insert(
                    0,
                    WriteOp::Owned {
                        game: self.record.setup.id.clone(),
                        node: cluster.node().to_owned(),
                    },
                );
            }
            match tokio::time::timeout(wait, self.deps.writer.write(ops)).await {
                Ok(Ok(())) => return Ok(()),
                Ok(Err(e @ StorageError::NotOwner { .. })) => {
                    self.stale = true;
                    e.to_string()
                }
                Ok(Err(e)) => {
                    self.reload(had).await;
                    e.to_string()
                }
                Err(_) => {
                    self.stale = true;
                    format!("no answer within {} ms", wait.as_millis())
                }
            }
        };
        tracing::warn!(game = %self.record.setup.id, error = %why, "an act was not stored");
        Err(ActionError::new(
            ErrorCode::Busy,
            format!("not stored ({why}): try again"),
        ))
    }

    /// After a commit that failed: the record as stored, if it reads and
    /// holds the `had` events this room wrote and no others; else the
    /// room is stale (another node served the game meanwhile) and closes.
    async fn reload(&mut self, had: usize) {
        let storage = self.deps.storage.clone();
        let id = self.record.setup.id.clone();
        let stored = tokio::task::spawn_blocking(move || storage.load(&id)).await;
        match stored {
            Ok(Ok(Some(stored))) => match Record::replay(stored.setup, stored.events) {
                Ok(record) => {
                    if record.events.len() != had {
                        self.stale = true;
                    }
                    self.record = record;
                }
                Err(_) => self.stale = true,
            },
            _ => self.stale = true,
        }
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

    /// Queues the robot's search if it is on move.
    fn start_robot(&mut self) {
        let Some(robot) = &self.robot else { return };
        let Some(color) = self.record.setup.robot_color() else {
            return;
        };
        let clock = self.record.timed.clock();
        if self.thinking.is_some()
            || self.robot_retry.is_some()
            || self.record.is_over()
            || self.record.turn() != color
            || clock.is_stopped()
        {
            return;
        }
        let now = Duration::from_millis(self.now_ms());
        let think = Think::new(self.record.timed.game(), clock, color, now);
        let stop = Arc::new(AtomicBool::new(false));
        let answer = match self.deps.robots.submit(robot, think, stop.clone()) {
            Ok(answer) => answer,
            Err(_) => {
                self.robot_retry = Some(Instant::now() + ROBOT_RETRY);
                return;
            }
        };
        self.searches += 1;
        let search = self.searches;
        self.thinking = Some((search, stop));
        let inbox = self.inbox.clone();
        tokio::spawn(async move {
            let uci = answer.await.ok().flatten();
            if let Some(inbox) = inbox.upgrade() {
                let _ = inbox.send(Command::RobotMove { search, uci }).await;
            }
        });
    }

    /// Creates the rematch game (colours swapped) and records the
    /// agreement, all in one commit.
    async fn agree_rematch(&mut self, offerer: shakmaty::Color) -> Result<(), ActionError> {
        let epoch = self.deps.clock.now_ms();
        let agreed = rematch::agree(&self.record, offerer, epoch, &self.deps.limits)?;
        let mut ops = agreed.ops;
        ops.extend(self.apply(agreed.events)?);
        self.store(ops).await?;
        if let Some(at) = agreed.wake_at {
            self.deps
                .schedule
                .set(&agreed.setup.id, epoch.saturating_add(at));
        }
        self.send_out(Out::Rematch {
            game: agreed.setup.id,
            white: agreed.setup.white_token,
            black: agreed.setup.black_token,
        });
        self.broadcast();
        Ok(())
    }
}

/// What the state last broadcast showed, which a move message builds on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shown {
    /// Its [`Head`](crate::state::Head), as JSON.
    head: Arc<str>,
    /// Its plies.
    ply: usize,
    /// Its record's take-backs ([`Record::rewrites`]).
    rewrites: u64,
}

impl Shown {
    /// Whether this is `before` and one more ply.
    fn follows(&self, before: &Shown) -> bool {
        self.head == before.head && self.rewrites == before.rewrites && self.ply == before.ply + 1
    }
}
