//! The server's shared handles and the live rooms by game id: a room is
//! started when a game is created, when the server resumes an unfinished
//! game, or when someone opens a finished one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use crate::error::{ActionError, ErrorCode};
use crate::limits::Limits;
use crate::record::Record;
use crate::robot::EngineChoice;
use crate::room::{self, Command};
use crate::setup::GameSetup;
use crate::storage::{Storage, StorageError, WriteOp, Writer, wall_ms};

/// What every room and handler shares.
pub struct Shared {
    /// Reads.
    pub storage: Arc<dyn Storage>,
    /// Writes, group-committed.
    pub writer: Writer,
    /// The robot's engine.
    pub engine: EngineChoice,
    /// What one visitor may ask.
    pub limits: Arc<Limits>,
    /// Turns true when the server stops.
    pub shutdown: watch::Receiver<bool>,
    /// Live rooms.
    rooms: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    /// How far every game's time line has been moved forward by hand.
    skew: watch::Sender<Duration>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Shared({} rooms)", self.live())
    }
}

/// How many times a request follows a room that is just closing.
const ATTEMPTS: usize = 3;

impl Shared {
    /// Handles over `storage`.
    pub fn new(
        storage: Arc<dyn Storage>,
        engine: EngineChoice,
        limits: Limits,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Shared> {
        Arc::new(Shared {
            limits: Arc::new(limits),
            writer: Writer::start(storage.clone()),
            storage,
            engine,
            shutdown,
            rooms: Mutex::new(HashMap::new()),
            skew: watch::Sender::new(Duration::ZERO),
        })
    }

    /// Moves the time line of every live game forward by `by`, as if that
    /// much time had passed: for tests and simulations of long games (a
    /// 1+0 game runs out of time without waiting a minute).
    pub fn advance_clocks(&self, by: Duration) {
        self.skew.send_modify(|skew| *skew += by);
    }

    /// The hand-made advance so far, and its changes.
    pub fn skew(&self) -> watch::Receiver<Duration> {
        self.skew.subscribe()
    }

    /// The number of live rooms.
    pub fn live(&self) -> usize {
        self.rooms.lock().map_or(0, |r| r.len())
    }

    /// Starts the room of a game already stored.
    pub fn adopt(self: &Arc<Self>, record: Record, offset: Duration) -> mpsc::Sender<Command> {
        let id = record.setup.id.clone();
        let tx = room::spawn(record, offset, self.clone());
        if let Ok(mut rooms) = self.rooms.lock() {
            rooms.insert(id, tx.clone());
        }
        tx
    }

    /// A room is closing.
    pub fn forget(&self, id: &str) {
        if let Ok(mut rooms) = self.rooms.lock() {
            rooms.remove(id);
        }
    }

    /// Stores a new game and starts its room.
    ///
    /// # Errors
    ///
    /// When the setup is impossible or cannot be stored.
    pub async fn create(self: &Arc<Self>, setup: GameSetup) -> Result<(), ActionError> {
        let record = Record::new(setup.clone())?;
        self.writer
            .write(vec![WriteOp::Create {
                setup: Box::new(setup),
                epoch: wall_ms(),
            }])
            .await?;
        self.adopt(record, Duration::ZERO);
        Ok(())
    }

    /// Resumes every unfinished game; the clocks were stopped from the
    /// moment the server was last known to run (6.12). Returns how many.
    ///
    /// # Errors
    ///
    /// When storage fails or a stored game no longer replays.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ActionError> {
        let storage = self.storage.clone();
        let loaded = tokio::task::spawn_blocking(move || -> Result<_, StorageError> {
            let alive = storage.last_alive()?;
            let mut games = Vec::new();
            for id in storage.unfinished()? {
                if let Some(game) = storage.load(&id)? {
                    games.push(game);
                }
            }
            Ok((alive, games))
        })
        .await
        .map_err(|e| ActionError::new(ErrorCode::Internal, e.to_string()))??;
        let (alive, games) = loaded;
        let now = wall_ms();
        let mut ops = Vec::new();
        let mut records = Vec::new();
        for game in games {
            let record = Record::replay(game.setup, game.events)?;
            let at = room::resume_point(&record, game.epoch, alive);
            ops.push(WriteOp::Epoch {
                game: record.setup.id.clone(),
                epoch: now.saturating_sub(at.as_millis() as u64),
            });
            records.push((record, at));
        }
        self.writer.write(ops).await?;
        let count = records.len();
        for (record, at) in records {
            self.adopt(record, at);
        }
        Ok(count)
    }

    /// The room of game `id`, loading it if needed.
    async fn room(self: &Arc<Self>, id: &str) -> Result<mpsc::Sender<Command>, ActionError> {
        if let Some(tx) = self.rooms.lock().ok().and_then(|r| r.get(id).cloned()) {
            return Ok(tx);
        }
        let storage = self.storage.clone();
        let key = id.to_owned();
        let stored = tokio::task::spawn_blocking(move || storage.load(&key))
            .await
            .map_err(|e| ActionError::new(ErrorCode::Internal, e.to_string()))??
            .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("no game {id}")))?;
        if let Some(tx) = self.rooms.lock().ok().and_then(|r| r.get(id).cloned()) {
            return Ok(tx);
        }
        let record = Record::replay(stored.setup, stored.events)?;
        let at = Duration::from_millis(record.last_at());
        Ok(self.adopt(record, at))
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
        for _ in 0..ATTEMPTS {
            let tx = self.room(id).await?;
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                self.forget_closed(id, &tx);
                continue;
            }
            if let Ok(answer) = answer.await {
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
            && rooms.get(id).is_some_and(|t| t.same_channel(tx))
        {
            rooms.remove(id);
        }
    }

    /// Tells a room without waiting (used when a socket closes).
    pub fn tell(&self, id: &str, command: Command) {
        if let Some(tx) = self.rooms.lock().ok().and_then(|r| r.get(id).cloned()) {
            tokio::spawn(async move {
                let _ = tx.send(command).await;
            });
        }
    }
}
