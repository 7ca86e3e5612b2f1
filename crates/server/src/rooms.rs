//! The registry: the handles every part of the server shares, and the
//! rooms that are loaded now. A room is loaded when a game is created or
//! asked for, and closes itself when nobody has been there for a while;
//! an unfinished game without a room waits in the [`Scheduler`] for its
//! next deadline (a flag, an expiry, the robot's move), so stored games
//! cost nothing while idle, and a restart reads one row per unfinished
//! game instead of replaying them all.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot, watch};

use crate::clock::ServerClock;
use crate::cluster::Cluster;
use crate::error::{ActionError, ErrorCode};
use crate::limits::{Limits, RateLimiter};
use crate::record::Record;
use crate::robot::{EngineChoice, RobotQueue};
use crate::room::{self, Command, RoomDeps, finish};
use crate::schedule::Scheduler;
use crate::setup::{GameSetup, Mode};
use crate::storage::{Claim, Storage, StorageError, WriteOp, Writer, wall_ms};

/// How many times a request follows a room that is just closing.
const ATTEMPTS: usize = 3;

/// Games loaded at once when many come due together (a restart).
const LOADS_AT_ONCE: usize = 16;

/// How often finished games past their retention are deleted.
const PURGE_EVERY: Duration = Duration::from_secs(3600);

/// The most games one purge deletes (one short transaction).
const PURGE_MOST: usize = 1000;

/// A loaded room.
#[derive(Debug)]
struct Live {
    /// Its queue.
    tx: mpsc::Sender<Command>,
    /// The address its game was created from.
    origin: Option<IpAddr>,
    /// Whether the robot plays in it.
    robot: bool,
    /// A relay to the room on the node that owns the game.
    remote: bool,
}

impl Live {
    /// Its queue, as the registry hands it out.
    fn queue(&self) -> Queue {
        Queue {
            tx: self.tx.clone(),
            here: !self.remote,
        }
    }
}

/// A game's queue as the registry hands it out.
struct Queue {
    /// The queue.
    tx: mpsc::Sender<Command>,
    /// It is the queue of the game's room on this node, which closes with
    /// the room; not a relay to another node's, which a room here replaces
    /// without closing it when this node takes the game over.
    here: bool,
}

/// What every room and handler shares.
pub struct Shared {
    /// Reads.
    pub storage: Arc<dyn Storage>,
    /// Writes, group-committed.
    pub writer: Writer,
    /// The robot's searches.
    pub robots: RobotQueue,
    /// What one visitor may ask.
    pub limits: Arc<Limits>,
    /// The server's time.
    pub clock: Arc<ServerClock>,
    /// Deadlines of the games without a room.
    pub schedule: Arc<Scheduler>,
    /// Turns true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Players' accounts.
    pub accounts: crate::accounts::Accounts,
    /// News for accounts.
    pub hub: Arc<crate::hub::Hub>,
    /// The lobby's open seeks.
    pub seeks: crate::lobby::Seeks,
    /// Messages per seat token.
    pub token_messages: RateLimiter<String>,
    /// Messages per address.
    pub address_messages: RateLimiter<IpAddr>,
    /// Games created per address.
    creations: RateLimiter<IpAddr>,
    /// Loaded rooms.
    rooms: Mutex<HashMap<String, Live>>,
    /// Rooms closed by [`Shared::close_rooms`] whose tasks have not ended:
    /// a commit of theirs may still land, so their games are not loaded
    /// again until they have.
    closing: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    /// Syzygy tables for tablebase claims (ICCF 5.1.3, 5.2.4), if the
    /// server has them (`--syzygy`); set once, before serving.
    pub tablebase: std::sync::OnceLock<Arc<rochade_tablebase::Tablebase>>,
    /// When each correspondence player hears their time runs low.
    pub thresholds: Arc<crate::notify::thresholds::Thresholds>,
    /// The tournaments' clockwork.
    pub tournaments: Arc<crate::tournaments::runner::Runner>,
    /// This node's place among several (`--node`, `--redis`); none for a
    /// single server.
    pub cluster: std::sync::OnceLock<Arc<Cluster>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Shared({} rooms)", self.live())
    }
}

/// Sends `command` to the room or relay behind `tx` without waiting,
/// after the commands queued before.
fn send_later(tx: mpsc::Sender<Command>, command: Command) {
    tokio::spawn(async move {
        let _ = tx.send(command).await;
    });
}

impl Shared {
    /// Handles over `storage`; starts the robot's workers (so it must be
    /// called within a tokio runtime).
    pub fn new(
        storage: Arc<dyn Storage>,
        engine: EngineChoice,
        limits: Limits,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Shared> {
        let robots = RobotQueue::start(
            engine,
            limits.robot_workers,
            limits.robot_queue,
            limits.robot_think,
        );
        let per_second = f64::from(limits.messages_per_second);
        let per_address = f64::from(limits.address_messages_per_second);
        let per_minute = f64::from(limits.games_per_minute);
        let writer = Writer::start(storage.clone());
        let thresholds = crate::notify::thresholds::Thresholds::new(
            u64::try_from(limits.low_time.as_millis()).unwrap_or(u64::MAX),
        );
        // Those players set: a failure leaves everyone on the server's.
        match storage.low_times() {
            Ok(set) => {
                for (user, t) in set {
                    thresholds.set(user, Some(t));
                }
            }
            Err(e) => tracing::warn!(error = %e, "reading the players' low-time thresholds"),
        }
        Arc::new(Shared {
            accounts: crate::accounts::Accounts::new(
                storage.clone(),
                writer.clone(),
                limits.robot_workers,
                &limits,
            ),
            hub: Arc::default(),
            seeks: crate::lobby::Seeks::default(),
            writer,
            storage,
            robots,
            clock: Arc::new(ServerClock::new()),
            schedule: Arc::new(Scheduler::default()),
            shutdown,
            token_messages: RateLimiter::new(per_second, per_second),
            address_messages: RateLimiter::new(per_address, per_address),
            creations: RateLimiter::new(per_minute / 60.0, per_minute),
            limits: Arc::new(limits),
            rooms: Mutex::new(HashMap::new()),
            closing: Mutex::new(HashMap::new()),
            tablebase: std::sync::OnceLock::new(),
            thresholds: Arc::new(thresholds),
            tournaments: Arc::default(),
            cluster: std::sync::OnceLock::new(),
        })
    }

    /// Moves the server's time forward by `by`, as if that much had
    /// passed: for tests and simulations of long games (a 1+0 game runs
    /// out of time without waiting a minute).
    pub fn advance_clocks(&self, by: Duration) {
        self.clock.advance(by);
    }

    /// Runs a storage call on the blocking pool (storage is synchronous);
    /// a failure is `internal`.
    ///
    /// # Errors
    ///
    /// `internal` when storage fails or the call panics.
    pub async fn stored<T: Send + 'static>(
        &self,
        call: impl FnOnce(&dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, ActionError> {
        let storage = self.storage.clone();
        tokio::task::spawn_blocking(move || call(storage.as_ref()))
            .await
            .map_err(|e| ActionError::new(ErrorCode::Internal, e.to_string()))?
            .map_err(ActionError::from)
    }

    /// The number of loaded rooms.
    pub fn live(&self) -> usize {
        self.rooms
            .lock()
            .map_or(0, |r| r.values().filter(|live| !live.remote).count())
    }

    /// The handles a room gets.
    fn deps(&self) -> RoomDeps {
        RoomDeps {
            storage: self.storage.clone(),
            writer: self.writer.clone(),
            robots: self.robots.clone(),
            clock: self.clock.clone(),
            schedule: self.schedule.clone(),
            limits: self.limits.clone(),
            hub: self.hub.clone(),
            shutdown: self.shutdown.clone(),
            tablebase: self.tablebase.get().cloned(),
            thresholds: self.thresholds.clone(),
            tournaments: self.tournaments.clone(),
            cluster: self.cluster.get().cloned(),
        }
    }

    /// Starts the room of a stored game (unless its room runs here
    /// already: then that one); the registry forgets it when it closes.
    fn start(self: &Arc<Self>, record: Record, epoch: u64) -> Queue {
        let id = record.setup.id.clone();
        self.register(id.clone(), false, || {
            let (origin, robot) = (record.setup.origin, record.setup.mode == Mode::Robot);
            let (tx, task) = room::spawn(record, epoch, self.deps());
            self.schedule.remove(&id);
            let live = Live {
                tx,
                origin,
                robot,
                remote: false,
            };
            (live, task)
        })
    }

    /// Starts a relay to game `id`'s room on node `owner` (unless the game
    /// has a room or a relay here already: then that one).
    fn relay(self: &Arc<Self>, cluster: &Arc<Cluster>, id: &str, owner: String) -> Queue {
        self.register(id.to_owned(), true, || {
            let (tx, task) = crate::cluster::relay::spawn(
                cluster.clone(),
                id.to_owned(),
                owner,
                self.limits.unload_after,
            );
            let live = Live {
                tx,
                origin: None,
                robot: false,
                remote: true,
            };
            (live, task)
        })
    }

    /// Keeps what `make` starts as game `id`'s room until its task ends;
    /// a room of this node tells the other nodes' sockets then that it
    /// closed. Nothing is started when the game has a room here already,
    /// or, for a relay (`remote`), a relay: the one there is answers. A
    /// room replaces a relay (this node has just taken the game over).
    fn register(
        self: &Arc<Self>,
        id: String,
        remote: bool,
        make: impl FnOnce() -> (Live, tokio::task::JoinHandle<()>),
    ) -> Queue {
        let (queue, task) = {
            let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(live) = rooms.get(&id)
                && (remote || !live.remote)
                && !live.tx.is_closed()
            {
                return live.queue();
            }
            let (live, task) = make();
            let queue = live.queue();
            rooms.insert(id.clone(), live);
            (queue, task)
        };
        let registry = Arc::downgrade(self);
        let closed = queue.tx.clone();
        tokio::spawn(async move {
            let _ = task.await;
            if let Some(registry) = registry.upgrade() {
                registry.forget_closed(&id, &closed);
                if let (false, Some(cluster)) = (remote, registry.cluster.get()) {
                    cluster.closed(&id);
                }
            }
        });
        queue
    }

    /// Checks the limits of address `from` for a new game `setup`.
    fn admit(&self, setup: &GameSetup, from: IpAddr) -> Result<(), ActionError> {
        // A tournament's games begin together, created by its director; a
        // simul's, by its host.
        if setup.tournament.is_none() && setup.simul.is_none() && !self.creations.allow(&from) {
            return Err(ActionError::new(
                ErrorCode::TooManyRequests,
                format!(
                    "more than {} new games a minute from one address: wait a little",
                    self.limits.games_per_minute
                ),
            ));
        }
        if setup.mode == Mode::Robot {
            let playing = self.rooms.lock().map_or(0, |rooms| {
                rooms
                    .values()
                    .filter(|live| live.robot && !live.remote && live.origin == Some(from))
                    .count()
            });
            if playing >= self.limits.robot_games_per_address {
                return Err(ActionError::new(
                    ErrorCode::TooManyGames,
                    format!(
                        "{playing} games against the robot are open from this address: \
                         finish or close one first"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Stores a new game created from address `from` and starts its room.
    ///
    /// # Errors
    ///
    /// `too_many_requests` or `too_many_games` over the limits of the
    /// address; `internal` when the game cannot be stored.
    pub async fn create(
        self: &Arc<Self>,
        mut setup: GameSetup,
        from: IpAddr,
    ) -> Result<(), ActionError> {
        self.admit(&setup, from)?;
        setup.origin = Some(from);
        let record = Record::new(setup.clone())?;
        let epoch = self.clock.now_ms();
        let mut ops = vec![WriteOp::Create {
            setup: Box::new(setup.clone()),
            epoch,
            wake_at: finish::wake_at(
                &record,
                0,
                &self.limits,
                &self
                    .thresholds
                    .of(record.setup.player(record.turn()).map(|p| p.id)),
            ),
            glance: Some(crate::glance::Glance::of(&record, 0).to_json()),
        }];
        if let Some(cluster) = self.cluster.get() {
            ops.push(WriteOp::Own {
                game: setup.id.clone(),
                node: cluster.node().to_owned(),
            });
        }
        self.writer.write(ops).await?;
        self.start(record, epoch);
        // 10.1: leave booked before the game began stops its clocks too.
        crate::correspondence::http::pause_for_booked(self, &setup).await
    }

    /// After a start: every unfinished game's time line resumes where it
    /// stopped, the clocks stopped from the moment the server was last
    /// known to run (6.12), and its next deadline goes to the scheduler;
    /// then the scheduler and the retention sweep start. Reads one row
    /// per game and loads none. Returns how many games are unfinished.
    ///
    /// # Errors
    ///
    /// When storage fails.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ActionError> {
        let (alive, games) = match self.cluster.get() {
            // One node of several: its own games; those of no node and of
            // dead nodes come with its first heartbeats (cluster::lease).
            Some(cluster) => {
                let node = cluster.node().to_owned();
                let mine = node.clone();
                let alive = self.stored(move |s| s.last_heartbeat(&mine)).await?;
                // The lease before the games: once it is fresh no other
                // node takes them over, and this node's claims from now
                // on do not look like those of a dead node.
                self.writer
                    .write(vec![WriteOp::Heartbeat { node: node.clone() }])
                    .await?;
                let games = self.stored(move |s| s.owned(&node)).await?;
                (alive, games)
            }
            None => {
                self.stored(|s| Ok((s.last_alive()?, s.unfinished()?)))
                    .await?
            }
        };
        self.resume(&games, alive).await?;
        if let Some(cluster) = self.cluster.get() {
            tokio::spawn(crate::cluster::lease::run(self.clone(), cluster.clone()));
        }
        tokio::spawn(self.clone().run_scheduler());
        tokio::spawn(self.clone().run_purge());
        Ok(games.len())
    }

    /// Resumes the time lines of unfinished `games` whose server was last
    /// known to run at `alive` (Unix ms): their clocks stopped then (6.12);
    /// their next deadlines go to the scheduler.
    ///
    /// # Errors
    ///
    /// When storage fails.
    pub async fn resume(
        self: &Arc<Self>,
        games: &[crate::storage::Unfinished],
        alive: Option<u64>,
    ) -> Result<(), ActionError> {
        let now = self.clock.now_ms();
        let games: Vec<_> = games
            .iter()
            .map(|game| crate::storage::Unfinished {
                epoch: crate::storage::resumed_epoch(game, alive, now),
                ..game.clone()
            })
            .collect();
        self.resumed(&games);
        let ops = games
            .iter()
            .map(|game| WriteOp::Epoch {
                game: game.id.clone(),
                epoch: game.epoch,
            })
            .collect();
        self.writer.write(ops).await?;
        Ok(())
    }

    /// Schedules the next deadline of each of `games`, whose time lines
    /// have been resumed (their epochs as stored).
    pub fn resumed(&self, games: &[crate::storage::Unfinished]) {
        for game in games {
            let wake = game.wake_at.unwrap_or(game.last_at);
            self.schedule.set(&game.id, game.epoch.saturating_add(wake));
        }
    }

    /// Loads the games whose deadline has come, until the server stops.
    async fn run_scheduler(self: Arc<Self>) {
        let mut shutdown = self.shutdown.clone();
        let mut skew = self.clock.changes();
        loop {
            let next = self.schedule.next().map(|at| self.clock.instant_of(at));
            tokio::select! {
                () = async {
                    match next {
                        Some(at) => tokio::time::sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                } => {}
                () = self.schedule.earlier() => continue,
                _ = skew.changed() => {}
                _ = shutdown.changed() => return,
            }
            let due = self.schedule.due(self.clock.now_ms());
            futures_util::stream::iter(due)
                .for_each_concurrent(LOADS_AT_ONCE, |id| {
                    let registry = self.clone();
                    async move {
                        if let Err(e) = registry.ask(&id, |reply| Command::Wake { reply }).await {
                            tracing::warn!(game = %id, error = %e, "a game due could not be looked at");
                            // Busy (the database, the lease): look again soon.
                            if e.code == ErrorCode::Busy {
                                let soon = registry.clock.now_ms().saturating_add(1000);
                                registry.schedule.set(&id, soon);
                            }
                        }
                    }
                })
                .await;
        }
    }

    /// Whether this node runs the server's one-at-a-time work (the
    /// tournaments' clockwork, e-mail digests, the retention sweep): a
    /// single server always; one node of several when it leads.
    pub fn leads(&self) -> bool {
        self.leads_handle().now()
    }

    /// A handle that tells whether this node leads, for work that runs
    /// apart from the registry.
    pub fn leads_handle(&self) -> crate::cluster::Leads {
        crate::cluster::Leads::of(self.cluster.get())
    }

    /// Deletes finished games past their retention, every hour.
    async fn run_purge(self: Arc<Self>) {
        let mut shutdown = self.shutdown.clone();
        loop {
            if !self.leads() {
                tokio::select! {
                    () = tokio::time::sleep(crate::cluster::BEAT) => continue,
                    _ = shutdown.changed() => return,
                }
            }
            let now = wall_ms();
            let before = |keep: Duration| now.saturating_sub(keep.as_millis() as u64);
            let purge = WriteOp::Purge {
                aborted_before: before(self.limits.retain_aborted),
                finished_before: self.limits.retain_finished.map(before),
                most: PURGE_MOST,
            };
            if let Err(e) = self.writer.write(vec![purge]).await {
                tracing::warn!(error = %e, "deleting old games");
            }
            tokio::select! {
                () = tokio::time::sleep(PURGE_EVERY) => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    /// Closes every room of this node (not its relays): the registry
    /// forgets them at once, so that the next request loads each game
    /// again, and each room ends after the commands queued before its
    /// close. Until a room has ended, its game is not loaded again
    /// ([`Shared::closed`]): a commit it is waiting for may still land,
    /// and a room loaded before it would be behind what it answered.
    /// Returns how many.
    pub fn close_rooms(&self) -> usize {
        let closing = self.take_out(false);
        let closed = closing.len();
        let mut waiting = self.closing.lock().unwrap_or_else(|e| e.into_inner());
        waiting.retain(|_, tx| !tx.is_closed());
        for (id, tx) in closing {
            waiting.insert(id, tx.clone());
            send_later(tx, Command::Close);
        }
        closed
    }

    /// Closes this node's relays of games owned elsewhere: their sockets
    /// close and their pages come back. After a lapse the owners may have
    /// counted those sockets gone already; the pages join again. Returns
    /// how many closed.
    pub fn close_relays(&self) -> usize {
        let closing = self.take_out(true);
        let closed = closing.len();
        for (_, tx) in closing {
            send_later(tx, Command::Close);
        }
        closed
    }

    /// Takes the rooms (`remote` false) or the relays (`remote` true) out
    /// of the registry: the next request for one of their games loads it
    /// again.
    fn take_out(&self, remote: bool) -> Vec<(String, mpsc::Sender<Command>)> {
        self.rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extract_if(|_, live| live.remote == remote)
            .map(|(id, live)| (id, live.tx))
            .collect()
    }

    /// Waits until a room of game `id` closed by [`Shared::close_rooms`]
    /// has ended.
    ///
    /// # Errors
    ///
    /// `busy` ("try again") when it has not ended within twice
    /// `store_wait` (its last commit waits at most `store_wait`): the
    /// game is not loaded behind it.
    async fn closed(&self, id: &str) -> Result<(), ActionError> {
        let closing = {
            let waiting = self.closing.lock().unwrap_or_else(|e| e.into_inner());
            waiting.get(id).cloned()
        };
        if let Some(tx) = closing {
            // At once when the room has ended already.
            let wait = self.limits.store_wait.saturating_mul(2);
            if tokio::time::timeout(wait, tx.closed()).await.is_err() {
                return Err(ActionError::new(
                    ErrorCode::Busy,
                    "this game's room is still closing: try again",
                ));
            }
            let mut waiting = self.closing.lock().unwrap_or_else(|e| e.into_inner());
            if waiting.get(id).is_some_and(|t| t.same_channel(&tx)) {
                waiting.remove(id);
            }
        }
        Ok(())
    }

    /// Refuses while this node's lease is not settled: a node that went
    /// without a heartbeat for too long (stopped, cut off) does not answer
    /// from rooms another node may have moved on from, nor open new ones
    /// until its lease has held again for a whole lease (a takeover decided
    /// on its old heartbeat may still be on its way).
    fn settled(self: &Arc<Self>) -> Result<(), ActionError> {
        if let Some(cluster) = self.cluster.get() {
            let now = wall_ms();
            if cluster.lease().lapse(now) {
                crate::cluster::lease::lapsed(self);
            }
            if !cluster.lease().serves(now) {
                return Err(ActionError::new(
                    ErrorCode::Busy,
                    "this node's lease is not settled (no heartbeat stored for a while, or just started): its games may be another's: try again",
                ));
            }
        }
        Ok(())
    }

    /// The room of game `id`, loading it if needed.
    async fn room(self: &Arc<Self>, id: &str) -> Result<Queue, ActionError> {
        self.settled()?;
        if let Some(queue) = self.loaded(id) {
            return Ok(queue);
        }
        self.closed(id).await?;
        if let Some(cluster) = self.cluster.get() {
            let (key, node) = (id.to_owned(), cluster.node().to_owned());
            let stale = wall_ms().saturating_sub(crate::cluster::LEASE.as_millis() as u64);
            let now = self.clock.now_ms();
            match self
                .stored(move |s| s.claim(&key, &node, stale, now))
                .await?
            {
                Claim::Mine => {}
                Claim::Owner(owner) => {
                    if let Some(queue) = self.loaded(id) {
                        return Ok(queue);
                    }
                    return Ok(self.relay(cluster, id, owner));
                }
                Claim::Missing => {
                    return Err(ActionError::new(
                        ErrorCode::NotFound,
                        format!("no game {id}"),
                    ));
                }
            }
        }
        let key = id.to_owned();
        let stored = self
            .stored(move |s| s.load(&key))
            .await?
            .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("no game {id}")))?;
        if let Some(queue) = self.loaded(id) {
            return Ok(queue);
        }
        let record = Record::replay(stored.setup, stored.events)?;
        Ok(self.start(record, stored.epoch))
    }

    /// The queue of game `id`'s room (or relay), if it is loaded.
    fn loaded(&self, id: &str) -> Option<Queue> {
        self.rooms
            .lock()
            .ok()
            .and_then(|r| r.get(id).map(Live::queue))
    }

    /// Sends a command made by `make` to the room of `id` and waits for the
    /// answer, following a room that closes meanwhile.
    ///
    /// # Errors
    ///
    /// `not_found` for an unknown game.
    pub async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ActionError> {
        self.ask_kept(&mut None, id, make).await
    }

    /// [`ask`](Self::ask) through the room's queue in `kept`, if it is
    /// still open, and keeps there the queue that answered: a socket asks
    /// its room without looking it up among all the rooms each time.
    ///
    /// # Errors
    ///
    /// As [`ask`](Self::ask).
    pub async fn ask_kept<T>(
        self: &Arc<Self>,
        kept: &mut Option<mpsc::Sender<Command>>,
        id: &str,
        make: impl Fn(oneshot::Sender<T>) -> Command,
    ) -> Result<T, ActionError> {
        for _ in 0..ATTEMPTS {
            let Queue { tx, here } = match kept.take() {
                Some(tx) if !tx.is_closed() => {
                    self.settled()?;
                    Queue { tx, here: true }
                }
                _ => self.room(id).await?,
            };
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                self.forget_closed(id, &tx);
                continue;
            }
            if let Ok(answer) = answer.await {
                if here {
                    *kept = Some(tx);
                }
                return Ok(answer);
            }
            self.forget_closed(id, &tx);
        }
        Err(ActionError::new(
            ErrorCode::Internal,
            format!("the room of game {id} keeps closing"),
        ))
    }

    /// Forgets a room whose queue is closed.
    fn forget_closed(&self, id: &str, tx: &mpsc::Sender<Command>) {
        if let Ok(mut rooms) = self.rooms.lock()
            && rooms.get(id).is_some_and(|live| live.tx.same_channel(tx))
        {
            rooms.remove(id);
        }
    }

    /// Tells a loaded room without waiting (used when a socket closes).
    pub fn tell(&self, id: &str, command: Command) {
        if let Some(Queue { tx, .. }) = self.loaded(id) {
            send_later(tx, command);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::NewGame;
    use crate::storage::SqliteStorage;

    /// A socket keeps its room's queue between messages; a queue that
    /// closed (the room unloaded or went stale) is looked up again, and
    /// the room found is kept in its place.
    #[tokio::test]
    async fn a_kept_queue_that_closed_is_looked_up_again() {
        let dir = crate::storage::scratch_dir("rooms-kept");
        let storage: Arc<dyn Storage> =
            Arc::new(SqliteStorage::open(&dir.join("games.sqlite")).expect("opens"));
        let (_stop, shutdown) = watch::channel(false);
        let shared = Shared::new(storage, EngineChoice::Builtin, Limits::default(), shutdown);
        let req: NewGame = serde_json::from_str(r#"{"opponent":"local"}"#).expect("request");
        let setup = GameSetup::from_request(&req, &shared.limits).expect("setup");
        let id = setup.id.clone();
        shared
            .create(setup, IpAddr::from([127, 0, 0, 1]))
            .await
            .expect("created");

        let mut kept = None;
        let state = shared
            .ask_kept(&mut kept, &id, |reply| Command::State { reply })
            .await
            .expect("answers");
        assert!(state.contains(&id), "{state}");
        let room = shared.loaded(&id).expect("loaded").tx;
        assert!(kept.as_ref().is_some_and(|k| k.same_channel(&room)));

        // A queue whose room is gone.
        let (closed, _) = mpsc::channel(1);
        let mut kept = Some(closed);
        let again = shared
            .ask_kept(&mut kept, &id, |reply| Command::State { reply })
            .await
            .expect("answers through the room looked up");
        // The clock runs between the two answers: compare all but it.
        let without_clock = |text: &str| {
            let mut value: serde_json::Value = serde_json::from_str(text).expect("json");
            value.as_object_mut().expect("object").remove("clock");
            value
        };
        assert_eq!(without_clock(&again), without_clock(&state));
        assert!(kept.as_ref().is_some_and(|k| k.same_channel(&room)));
        let _ = std::fs::remove_dir_all(dir);
    }
}
