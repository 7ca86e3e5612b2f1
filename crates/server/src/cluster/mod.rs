//! Several `rochade serve` nodes sharing one database (PostgreSQL; or one
//! SQLite file on one machine), joined by Redis pub/sub: an existing
//! engine, not a protocol of our own.
//!
//! Every game is owned by one node at a time: the column `games.node`,
//! good while that node's heartbeat in the table `nodes` is fresher than
//! [`LEASE`] ([`crate::storage::NodeStore`]). A node asked about a game
//! it does not own starts a relay ([`relay`]) in place of the room: the
//! relay forwards each command to the owner's channel and hands the
//! owner's answer back, and the room's news arrive on the game's channel
//! for the sockets here. The owner answers such requests in [`inbox`].
//! Every node beats its heartbeat and takes over the games of a node
//! whose heartbeat went stale ([`lease`]), with the clocks stopped for the
//! gap (6.12); pages whose socket went down with the node come back
//! through the proxy and find the game on its new owner.

pub mod inbox;
pub mod lease;
pub mod relay;
pub mod seeks;
pub mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{PubSubSink, PubSubStream};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::error::{ActionError, ErrorCode};
use crate::room::Out;
use crate::rooms::Shared;
use crate::storage::wall_ms;
use wire::{Answer, Ask, Broadcast, Envelope, News};

/// How long a node's heartbeat keeps its games: a node silent for longer
/// is taken as dead and its games are taken over.
pub const LEASE: Duration = Duration::from_secs(3);

/// How often a node beats its heartbeat and looks for dead nodes.
pub const BEAT: Duration = Duration::from_millis(500);

/// How long a node trusts its own lease without a heartbeat stored: less
/// than [`LEASE`], so that a node stopped or cut off closes its rooms
/// before the others may take its games over.
pub const HELD: Duration = Duration::from_secs(2);

/// How long a request waits for the owning node's answer.
pub const ANSWER_WAIT: Duration = Duration::from_secs(3);

/// How long a starting node waits for Redis to answer (Redis may be
/// starting beside it, as after a machine's reboot) before it gives up.
pub const REDIS_WAIT: Duration = Duration::from_secs(30);

/// Room news kept for a slow socket of a relayed game.
const BACKLOG: usize = 64;

/// Where a node is and what it is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterConfig {
    /// This node's name, unique among the nodes (ASCII letters, digits,
    /// `-`, `_`, `.`).
    pub node: String,
    /// The Redis server, `redis://host:port`.
    pub redis: String,
}

/// What can go wrong joining the cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The node's name is not usable.
    #[error("node name {0:?}: use 1 to 64 ASCII letters, digits, '-', '_' or '.'")]
    Name(String),
    /// Redis refused or could not be reached.
    #[error("redis at {url}: {source}")]
    Redis {
        /// The URL.
        url: String,
        /// Why.
        source: redis::RedisError,
    },
}

/// A relay's hearing of its game's news.
struct Hearing {
    /// Its number.
    number: u64,
    /// The node the relay forwards to.
    owner: String,
    /// The news, for the relay's sockets.
    news: broadcast::Sender<Out>,
}

/// An answer waited for, and whether it joins a game's news first.
struct Waiting {
    /// Where the answer goes (with the news of its game for a join).
    answer: oneshot::Sender<(Answer, Option<broadcast::Receiver<Out>>)>,
    /// For a join: the game whose news the socket will read.
    joins: Option<String>,
}

/// This node's membership: its name, its Redis connections, the answers
/// it waits for and the games it relays.
pub struct Cluster {
    /// This node.
    node: String,
    /// Messages to publish, in order.
    outbox: mpsc::UnboundedSender<(String, String)>,
    /// Subscriptions.
    subscriptions: tokio::sync::Mutex<PubSubSink>,
    /// Requests waiting for their answer, by number.
    waiting: Mutex<HashMap<u64, Waiting>>,
    /// The next request's number.
    next: AtomicU64,
    /// The news of the games relayed here, by game.
    relayed: Mutex<HashMap<String, Hearing>>,
    /// Every node's last heartbeat as last read.
    heartbeats: Mutex<Heartbeats>,
    /// Sockets of other nodes in this node's rooms: (node, game) → seats.
    remote: Mutex<HashMap<(String, String), Vec<crate::setup::Seats>>>,
    /// Whether Redis still answers.
    connected: AtomicBool,
    /// This node's own lease: when its heartbeat was last stored.
    lease: lease::Held,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cluster({})", self.node)
    }
}

/// Whether `name` can name a node (and a Redis channel).
///
/// ```
/// use rochade_server::cluster::valid_name;
/// assert!(valid_name("node-1"));
/// assert!(!valid_name(""));
/// assert!(!valid_name("a b"));
/// ```
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Whether Redis could not be reached (yet), as opposed to refusing
/// what was asked of it (a wrong password, a wrong database).
fn unreachable(e: &redis::RedisError) -> bool {
    e.is_io_error() || e.is_connection_refusal() || e.is_timeout()
}

/// The connection that publishes, and the subscription to `node`'s
/// channel, the news, the tournaments and the seeks.
async fn connect(
    client: &redis::Client,
    node: &str,
) -> Result<(redis::aio::MultiplexedConnection, PubSubSink, PubSubStream), redis::RedisError> {
    let publisher = client.get_multiplexed_async_connection().await?;
    let (mut sink, stream) = client.get_async_pubsub().await?.split();
    sink.subscribe(&[
        wire::node_channel(node),
        wire::NEWS.to_owned(),
        wire::TOURNAMENTS.to_owned(),
        wire::SEEKS.to_owned(),
    ])
    .await?;
    Ok((publisher, sink, stream))
}

impl Cluster {
    /// Connects to Redis as node `config.node`, becomes `shared`'s place
    /// among the nodes and listens there; the requests for games it owns
    /// are answered from `shared`'s rooms.
    ///
    /// # Errors
    ///
    /// When the name is unusable, Redis refuses, or it cannot be reached
    /// for [`REDIS_WAIT`].
    pub async fn join(
        config: &ClusterConfig,
        shared: &Arc<Shared>,
    ) -> Result<Arc<Cluster>, ClusterError> {
        if !valid_name(&config.node) {
            return Err(ClusterError::Name(config.node.clone()));
        }
        let redis = |source| ClusterError::Redis {
            url: config.redis.clone(),
            source,
        };
        let client = redis::Client::open(config.redis.as_str()).map_err(redis)?;
        let waiting = std::time::Instant::now();
        let mut tries = 0_u32;
        let (publisher, sink, stream) = loop {
            match connect(&client, &config.node).await {
                Ok(connected) => break connected,
                Err(e) if unreachable(&e) && waiting.elapsed() < REDIS_WAIT => {
                    // Said at once, then every 5 s.
                    if tries.is_multiple_of(10) {
                        tracing::warn!(
                            url = %config.redis,
                            error = %e,
                            "redis does not answer yet: this node waits for it (at most {} s)",
                            REDIS_WAIT.as_secs()
                        );
                    }
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => return Err(redis(e)),
            }
        };
        let (outbox, queue) = mpsc::unbounded_channel();
        let cluster = Arc::new(Cluster {
            node: config.node.clone(),
            outbox,
            subscriptions: tokio::sync::Mutex::new(sink),
            waiting: Mutex::default(),
            // Replies come to the node's name: a node started again
            // under it must not take those meant for its last run's
            // requests, numbered from 1 as well, for its own.
            next: AtomicU64::new(rand::random::<u64>() >> 1),
            relayed: Mutex::default(),
            heartbeats: Mutex::default(),
            remote: Mutex::default(),
            connected: AtomicBool::new(true),
            lease: lease::Held::default(),
        });
        // Known to the rooms before the others' requests come in: a room
        // opened for one without it would store without the owner's check.
        let _ = shared.cluster.set(cluster.clone());
        tokio::spawn(publish(publisher, queue, Arc::downgrade(&cluster)));
        tokio::spawn(listen(
            stream,
            Arc::downgrade(&cluster),
            Arc::downgrade(shared),
        ));
        let news = Arc::downgrade(&cluster);
        shared.hub.also(Box::new(move |user, value| {
            if let Some(cluster) = news.upgrade() {
                cluster.send(
                    wire::NEWS,
                    &News {
                        from: cluster.node.clone(),
                        user,
                        news: value.clone(),
                    },
                );
            }
        }));
        let changes = Arc::downgrade(&cluster);
        shared.tournaments.also(Box::new(move |look, id| {
            if let Some(cluster) = changes.upgrade() {
                cluster.send(
                    wire::TOURNAMENTS,
                    &wire::Changed {
                        from: cluster.node.clone(),
                        id: id.to_owned(),
                        look,
                    },
                );
            }
        }));
        seeks::join(&cluster, shared);
        Ok(cluster)
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Whether Redis still answers this node.
    pub fn connected(&self) -> bool {
        self.connected.load(Ordering::Relaxed)
    }

    /// This node's own lease.
    pub fn lease(&self) -> &lease::Held {
        &self.lease
    }

    /// Publishes `message` as JSON on `channel` (in order with every other).
    fn send(&self, channel: &str, message: &impl serde::Serialize) {
        match serde_json::to_string(message) {
            Ok(text) => {
                let _ = self.outbox.send((channel.to_owned(), text));
            }
            Err(e) => tracing::error!(error = %e, "a cluster message that does not serialize"),
        }
    }

    /// Tells the sockets of game `game` on other nodes what its room sent.
    pub fn broadcast(&self, game: &str, out: &Out) {
        self.send(&wire::game_channel(game), &Broadcast::of(out));
    }

    /// Tells the sockets of game `game` on other nodes that its room closed.
    pub fn closed(&self, game: &str) {
        self.send(
            &wire::game_channel(game),
            &Broadcast::Closed {
                node: self.node.clone(),
            },
        );
    }

    /// Asks node `owner` about `game`; waits at most [`ANSWER_WAIT`].
    ///
    /// # Errors
    ///
    /// `busy` when the owner does not answer in time.
    pub async fn request(
        &self,
        owner: &str,
        game: &str,
        ask: Ask,
    ) -> Result<(Answer, Option<broadcast::Receiver<Out>>), ActionError> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (answer, wait) = oneshot::channel();
        let joins = matches!(ask, Ask::Join { .. }).then(|| game.to_owned());
        self.lock_waiting().insert(id, Waiting { answer, joins });
        self.send(
            &wire::node_channel(owner),
            &Envelope::Request {
                id,
                from: self.node.clone(),
                game: game.to_owned(),
                ask,
            },
        );
        match tokio::time::timeout(ANSWER_WAIT, wait).await {
            Ok(Ok(answer)) => Ok(answer),
            _ => {
                self.lock_waiting().remove(&id);
                Err(ActionError::new(
                    ErrorCode::Busy,
                    format!("the node of game {game} did not answer: try again"),
                ))
            }
        }
    }

    /// Tells node `owner` about `game` without waiting for an answer.
    pub fn tell(&self, owner: &str, game: &str, ask: Ask) {
        self.send(
            &wire::node_channel(owner),
            &Envelope::Request {
                id: 0,
                from: self.node.clone(),
                game: game.to_owned(),
                ask,
            },
        );
    }

    /// Answers request `id` of node `to`.
    fn answer(&self, to: &str, id: u64, answer: Answer) {
        self.send(&wire::node_channel(to), &Envelope::Reply { id, answer });
    }

    /// The waiting requests.
    fn lock_waiting(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Waiting>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The relayed games' news.
    fn lock_relayed(&self) -> std::sync::MutexGuard<'_, HashMap<String, Hearing>> {
        self.relayed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The news of relayed game `game`, for one more socket.
    fn news_of(&self, game: &str) -> Option<broadcast::Receiver<Out>> {
        self.lock_relayed().get(game).map(|h| h.news.subscribe())
    }

    /// Starts hearing the news of game `game` (a relay does, for its
    /// sockets); returns the hearing's number and a receiver of the news,
    /// closed when the room closes.
    ///
    /// # Errors
    ///
    /// `busy` when Redis refuses the subscription.
    pub async fn hear(
        &self,
        game: &str,
        owner: &str,
    ) -> Result<(u64, broadcast::Receiver<Out>), ActionError> {
        // Subscriptions change one at a time, so that a relay ending does
        // not unsubscribe the one that follows it.
        let mut subscriptions = self.subscriptions.lock().await;
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let (news, receiver) = broadcast::channel(BACKLOG);
        let hearing = Hearing {
            number,
            owner: owner.to_owned(),
            news,
        };
        self.lock_relayed().insert(game.to_owned(), hearing);
        subscriptions
            .subscribe(wire::game_channel(game))
            .await
            .map_err(|e| ActionError::new(ErrorCode::Busy, format!("redis: {e}: try again")))?;
        Ok((number, receiver))
    }

    /// Stops hearing game `game` for hearing `number`: its sockets here
    /// close. A later hearing of the same game keeps its subscription.
    pub async fn unhear(&self, game: &str, number: u64) {
        let mut subscriptions = self.subscriptions.lock().await;
        let heard = {
            let mut relayed = self.lock_relayed();
            if relayed.get(game).is_some_and(|h| h.number == number) {
                relayed.remove(game);
            }
            relayed.contains_key(game)
        };
        if !heard {
            let _ = subscriptions.unsubscribe(wire::game_channel(game)).await;
        }
    }

    /// Records the heartbeats read; returns what changed since the last
    /// reading.
    pub fn beats(&self, beats: Vec<(String, u64)>, now: u64) -> Beats {
        self.heartbeats
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .read(beats, now, &self.node)
    }

    /// Whether node `node`'s last heartbeat read is fresh at `now`.
    pub fn alive(&self, node: &str, now: u64) -> bool {
        let stale = now.saturating_sub(LEASE.as_millis() as u64);
        self.heartbeats
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .at
            .get(node)
            .is_some_and(|at| *at >= stale)
    }

    /// A socket of node `node` joined game `game` here with `seats`.
    fn remote_joined(&self, node: &str, game: &str, seats: crate::setup::Seats) {
        self.remote
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((node.to_owned(), game.to_owned()))
            .or_default()
            .push(seats);
    }

    /// A socket of node `node` left game `game` here; whether it was
    /// counted (not when the node was found gone meanwhile, and its
    /// sockets left the room then).
    fn remote_left(&self, node: &str, game: &str, seats: crate::setup::Seats) -> bool {
        let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        let key = (node.to_owned(), game.to_owned());
        let Some(list) = remote.get_mut(&key) else {
            return false;
        };
        let counted = list
            .iter()
            .position(|s| *s == seats)
            .map(|i| list.swap_remove(i));
        if list.is_empty() {
            remote.remove(&key);
        }
        counted.is_some()
    }

    /// Forgets every socket node `node` had in this node's rooms (it
    /// died): returns them, game by game, for the rooms to be told.
    pub fn forget_node(&self, node: &str) -> Vec<(String, crate::setup::Seats)> {
        let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        let keys: Vec<_> = remote.keys().filter(|(n, _)| n == node).cloned().collect();
        keys.into_iter()
            .filter_map(|key| remote.remove(&key).map(|seats| (key.1, seats)))
            .flat_map(|(game, seats)| seats.into_iter().map(move |s| (game.clone(), s)))
            .collect()
    }
}

/// Every node's last heartbeat (Unix ms), as last read, and when.
#[derive(Debug, Default)]
struct Heartbeats {
    /// When they were read (Unix ms; 0: never).
    read_at: u64,
    /// By node.
    at: HashMap<String, u64>,
}

impl Heartbeats {
    /// Records `beats`, read at `now` by node `me`; what changed since
    /// the last reading. A node is alive at a reading when its heartbeat
    /// is no older than [`LEASE`] then: each reading is judged at its own
    /// time, so that a node whose heartbeat stopped is found gone once
    /// (its heartbeat, the same in both readings, was fresh at the last
    /// and is stale now).
    fn read(&mut self, beats: Vec<(String, u64)>, now: u64, me: &str) -> Beats {
        let lease = LEASE.as_millis() as u64;
        let (stale, stale_before) = (
            now.saturating_sub(lease),
            self.read_at.saturating_sub(lease),
        );
        let was_alive = |node: &String| {
            self.read_at > 0 && self.at.get(node).is_some_and(|at| *at >= stale_before)
        };
        let mut changed = Beats::default();
        for (node, at) in &beats {
            if *at < stale && was_alive(node) {
                changed.gone.push(node.clone());
            } else if *at >= stale && !was_alive(node) && node != me {
                changed.back.push(node.clone());
            }
        }
        self.at = beats.into_iter().collect();
        self.read_at = now;
        changed
    }
}

/// What a reading of the heartbeats found changed since the last.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Beats {
    /// The nodes alive at the last reading and silent now.
    pub gone: Vec<String>,
    /// The other nodes alive now and not at the last reading (started,
    /// or back from a lapse).
    pub back: Vec<String>,
}

/// Whether this node leads: runs the work that one node at a time must
/// do (the tournaments' clockwork, e-mail digests, the retention sweep).
/// A single server always leads; of several nodes, the alive one whose
/// name sorts first, as the heartbeats last read say.
#[derive(Debug, Clone)]
pub struct Leads(Option<Weak<Cluster>>);

impl Leads {
    /// For a single server (`None`) or for the node `cluster`.
    pub fn of(cluster: Option<&Arc<Cluster>>) -> Leads {
        Leads(cluster.map(Arc::downgrade))
    }

    /// Whether this node leads now.
    ///
    /// ```
    /// use rochade_server::cluster::Leads;
    /// assert!(Leads::of(None).now());
    /// ```
    pub fn now(&self) -> bool {
        match &self.0 {
            None => true,
            Some(cluster) => cluster.upgrade().is_some_and(|c| c.leads(wall_ms())),
        }
    }
}

impl Cluster {
    /// Whether this node is the alive node whose name sorts first.
    fn leads(&self, now: u64) -> bool {
        let stale = now.saturating_sub(LEASE.as_millis() as u64);
        let beats = self.heartbeats.lock().unwrap_or_else(|e| e.into_inner());
        beats.at.get(&self.node).is_some_and(|at| *at >= stale)
            && beats
                .at
                .iter()
                .filter(|(_, at)| **at >= stale)
                .all(|(name, _)| *name >= self.node)
    }
}

/// Publishes what is queued, in order, many at a time.
async fn publish(
    mut connection: redis::aio::MultiplexedConnection,
    mut queue: mpsc::UnboundedReceiver<(String, String)>,
    cluster: Weak<Cluster>,
) {
    let mut batch = Vec::new();
    while queue.recv_many(&mut batch, 256).await > 0 {
        let mut pipe = redis::pipe();
        for (channel, text) in batch.drain(..) {
            pipe.cmd("PUBLISH").arg(channel).arg(text).ignore();
        }
        if let Err(e) = pipe.query_async::<()>(&mut connection).await {
            tracing::error!(error = %e, "publishing to redis");
            if let Some(cluster) = cluster.upgrade() {
                cluster.connected.store(false, Ordering::Relaxed);
            }
        }
    }
}

/// Hears this node's channel, the news channel and the relayed games'.
async fn listen(mut stream: PubSubStream, cluster: Weak<Cluster>, shared: Weak<Shared>) {
    while let Some(message) = stream.next().await {
        let (Some(cluster), Some(shared)) = (cluster.upgrade(), shared.upgrade()) else {
            return;
        };
        let channel = message.get_channel_name();
        let payload = message.get_payload_bytes();
        if let Some(game) = channel.strip_prefix("rochade:game:") {
            let Ok(broadcast) = serde_json::from_slice::<Broadcast>(payload) else {
                continue;
            };
            let mut relayed = cluster.lock_relayed();
            match broadcast {
                // A room that closed elsewhere than the relay's owner (a
                // node that lost the game) does not end the relay.
                Broadcast::Closed { node } => {
                    if relayed.get(game).is_some_and(|h| h.owner == node) {
                        relayed.remove(game);
                    }
                }
                broadcast => {
                    if let (Some(out), Some(hearing)) = (broadcast.into_out(), relayed.get(game)) {
                        let _ = hearing.news.send(out);
                    }
                }
            }
        } else if channel == wire::TOURNAMENTS {
            if let Ok(changed) = serde_json::from_slice::<wire::Changed>(payload)
                && changed.from != cluster.node
            {
                shared.tournaments.told(changed.look, &changed.id);
            }
        } else if channel == wire::SEEKS {
            seeks::heard(&cluster, &shared, payload);
        } else if channel == wire::NEWS {
            if let Ok(news) = serde_json::from_slice::<News>(payload)
                && news.from != cluster.node
            {
                shared.hub.tell_here(news.user, news.news);
            }
        } else {
            match serde_json::from_slice::<Envelope>(payload) {
                Ok(Envelope::Reply { id, answer }) => {
                    let waiting = cluster.lock_waiting().remove(&id);
                    if let Some(Waiting { answer: to, joins }) = waiting {
                        // The socket's news start here, in order after the
                        // state the answer carries.
                        let news = joins.and_then(|game| cluster.news_of(&game));
                        let _ = to.send((answer, news));
                    }
                }
                Ok(Envelope::Request {
                    id,
                    from,
                    game,
                    ask,
                }) => {
                    tokio::spawn(inbox::serve(shared, cluster, id, from, game, ask));
                }
                Err(e) => tracing::warn!(error = %e, "an unreadable cluster message"),
            }
        }
    }
    if let Some(cluster) = cluster.upgrade() {
        tracing::error!(node = %cluster.node, "redis closed this node's subscription");
        cluster.connected.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(node, heartbeat)` pairs.
    fn beats(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
        pairs.iter().map(|(n, at)| ((*n).to_owned(), *at)).collect()
    }

    #[test]
    fn a_node_whose_heartbeat_stops_is_gone_once_its_lease_runs_out() {
        let mut read = Heartbeats::default();
        // First reading at 10 s: the other node is new, so back.
        let first = read.read(beats(&[("a", 10_000), ("b", 9_800)]), 10_000, "a");
        assert_eq!(first.back, ["b"]);
        // b beats no more: within its lease nothing changes ...
        let within = read.read(beats(&[("a", 12_500), ("b", 9_800)]), 12_500, "a");
        assert_eq!(within, Beats::default());
        // ... and once the lease has run out it is gone, at one reading.
        let out = read.read(beats(&[("a", 13_000), ("b", 9_800)]), 13_000, "a");
        assert_eq!(out.gone, ["b"]);
        let after = read.read(beats(&[("a", 13_500), ("b", 9_800)]), 13_500, "a");
        assert_eq!(after, Beats::default());
        // It beats again: back.
        let again = read.read(beats(&[("a", 14_000), ("b", 14_000)]), 14_000, "a");
        assert_eq!(again.back, ["b"]);
    }
}
