//! Each node's heartbeat, and the takeover of a dead node's games: every
//! [`BEAT`] the node records that it is alive, reads every node's
//! heartbeat, lets its rooms forget the sockets of nodes that went
//! silent, and takes over the unfinished games of nodes silent for longer
//! than [`LEASE`] — their clocks stopped from the dead node's last
//! heartbeat until now (6.12), their deadlines scheduled here — and at
//! once those of a node that stopped on purpose and handed them over
//! ([`hand_over`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::{BEAT, Cluster, HELD, LEASE};
use crate::room::Command;
use crate::rooms::Shared;
use crate::storage::{WriteOp, wall_ms};

/// The most games one node takes over in one beat.
const ADOPT_MOST: usize = 2000;

/// Beats until the server stops: the heartbeat on one task, the
/// takeovers on another. A takeover waits (for the writing connection,
/// for the write that stops its games' clocks) and, on the same task,
/// held up the heartbeat: on a loaded machine a node that had just taken
/// over a dead node's games lost its own lease for it (the fault test, 29
/// November: 2.5 s without a heartbeat, 322 rooms closed).
pub async fn run(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let takeovers = tokio::spawn(each_beat(shared.clone(), cluster.clone(), Duty::TakeOver));
    each_beat(shared, cluster, Duty::Heartbeat).await;
    let _ = takeovers.await;
}

/// What a beat does.
#[derive(Debug, Clone, Copy)]
enum Duty {
    /// Store this node's heartbeat ([`heartbeat`]).
    Heartbeat,
    /// Read the others' and take over the games of those gone ([`take_over`]).
    TakeOver,
}

/// Does `duty` every [`BEAT`] until the server stops.
async fn each_beat(shared: Arc<Shared>, cluster: Arc<Cluster>, duty: Duty) {
    let mut shutdown = shared.shutdown.clone();
    let mut every = tokio::time::interval(BEAT);
    // After a stall, one beat: not one for each beat missed.
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = shutdown.changed() => return,
        }
        match duty {
            Duty::Heartbeat => heartbeat(&shared, &cluster).await,
            Duty::TakeOver => take_over(&shared, &cluster).await,
        }
    }
}

/// This node went without a heartbeat for longer than it trusts its
/// lease: its rooms may be behind what another node stored meanwhile.
/// They close (their sockets close, and the pages come back); the next
/// request claims each game again from what is stored. Its relays close
/// too: the owners may have found it gone and counted their sockets out
/// of their rooms, and the pages join again.
pub fn lapsed(shared: &Arc<Shared>) {
    let closed = shared.close_rooms();
    let relays = shared.close_relays();
    tracing::warn!(
        rooms = closed,
        relays,
        "this node's lease lapsed (no heartbeat stored for a while): its rooms close and their games are claimed again; its relays close (the owners may have counted their sockets gone)"
    );
}

/// This node stops (its rooms have closed): its games are handed over,
/// so that the others claim and take them at once instead of after the
/// lease, their clocks stopped from now (6.12).
pub async fn hand_over(shared: &Arc<Shared>, cluster: &Cluster) {
    let node = cluster.node().to_owned();
    match shared.writer.write(vec![WriteOp::Stopped { node }]).await {
        Ok(()) => tracing::info!("this node's games are handed over to the others"),
        Err(e) => {
            tracing::warn!(error = %e, "handing this node's games over: they are taken after its lease")
        }
    }
}

/// Stores this node's heartbeat; when it came too late, the rooms close
/// ([`Held::beaten`]).
async fn heartbeat(shared: &Arc<Shared>, cluster: &Arc<Cluster>) {
    let node = cluster.node().to_owned();
    let at = wall_ms();
    if let Err(e) = shared.stored(move |s| s.beat(&node, wall_ms())).await {
        tracing::warn!(error = %e, "recording this node's heartbeat");
        return;
    }
    cluster.lease().beaten(at, wall_ms(), || lapsed(shared));
}

/// Reads the others' heartbeats: the sockets of nodes gone silent leave
/// this node's rooms and their seeks the lobby, the nodes come back are
/// asked for their seeks, and the games of nodes silent for longer than
/// [`LEASE`] are taken over, while this node's own lease serves.
async fn take_over(shared: &Arc<Shared>, cluster: &Arc<Cluster>) {
    let node = cluster.node().to_owned();
    // A node that has just come back from a lapse (or started) does not
    // take others' games yet: what kept its heartbeat from being stored
    // (the machine, the database) may have kept theirs too.
    let adopting = cluster.lease().serves(wall_ms());
    let Ok(beats) = shared.stored(|s| s.heartbeats()).await else {
        return;
    };
    let changed = cluster.beats(beats, wall_ms());
    for gone in changed.gone {
        tracing::warn!(
            node = %gone,
            "a node went silent: its sockets leave this node's rooms, its seeks the lobby"
        );
        for (game, seats) in cluster.forget_node(&gone) {
            shared.tell(&game, Command::Leave { seats });
        }
        shared.seeks.forget_node(&gone);
    }
    if !changed.back.is_empty() {
        // Its seeks were forgotten when it went silent, or never heard.
        super::seeks::wanted(cluster);
    }
    if !adopting {
        return;
    }
    let stale = wall_ms().saturating_sub(LEASE.as_millis() as u64);
    let now = shared.clock.now_ms();
    let adopted = shared
        .stored(move |s| s.adopt(&node, stale, ADOPT_MOST, now))
        .await;
    match adopted {
        Ok(adopted) => {
            for from in adopted {
                if from.handed_over {
                    tracing::info!(
                        node = %from.from,
                        games = from.games.len(),
                        "taking over the games a stopping node handed over"
                    );
                } else {
                    tracing::warn!(
                        node = %from.from,
                        games = from.games.len(),
                        "taking over the games of a node that stopped"
                    );
                }
                // Their clocks stopped in the takeover's own transaction.
                shared.resumed(&from.games);
            }
        }
        Err(e) => tracing::warn!(error = %e, "looking for games to take over"),
    }
}

/// A node's trust in its own lease: when its heartbeat was last stored,
/// and whether its rooms were closed for a lapse not yet ended.
///
/// A heartbeat is stored with a time no earlier than when its write was
/// asked for, so the node counts its lease from that time (the others
/// count from the time stored, later or the same): it gives up its
/// games before any other node may take them.
#[derive(Debug, Default)]
pub struct Held {
    /// When the write of the last heartbeat stored was asked for (Unix
    /// ms; 0: never).
    beaten: AtomicU64,
    /// Whether the rooms were closed for the lapse now running.
    closed: AtomicBool,
    /// Since when the lease has held without a lapse (Unix ms; 0: no
    /// heartbeat stored yet).
    since: AtomicU64,
}

impl Held {
    /// A heartbeat whose write was asked for at `at` was stored, as seen
    /// at `done` (Unix ms); returns whether the lease lapsed before it:
    /// the others may have seen no heartbeat for longer than [`HELD`]
    /// (from the last one asked for to this one stored). Then `close`
    /// runs (the rooms close) before the lease holds again, even if a
    /// request in the gap ([`Held::lapse`]) closed them once already:
    /// rooms opened since may be behind too.
    ///
    /// ```
    /// use rochade_server::cluster::lease::Held;
    /// let held = Held::default();
    /// let mut closed = 0;
    /// assert!(!held.beaten(10_000, 10_010, || closed += 1)); // the first
    /// assert!(!held.beaten(10_500, 10_510, || closed += 1));
    /// assert!(held.beaten(15_000, 15_010, || closed += 1)); // 4.5 s without
    /// // Asked for in time, but stored 2.5 s after the one before it.
    /// assert!(held.beaten(16_000, 17_500, || closed += 1));
    /// assert_eq!(closed, 2);
    /// ```
    pub fn beaten(&self, at: u64, done: u64, close: impl FnOnce()) -> bool {
        let before = self.beaten.load(Ordering::Relaxed);
        let lapsed = before != 0 && done.saturating_sub(before) > HELD.as_millis() as u64;
        if lapsed {
            close();
        }
        if before == 0 || lapsed {
            self.since.store(done, Ordering::Relaxed);
        }
        self.closed.store(false, Ordering::Relaxed);
        self.beaten.store(at, Ordering::Relaxed);
        lapsed
    }

    /// Whether the lease has held for a whole [`LEASE`] by `now`, since
    /// the node's first heartbeat or its last lapse: long enough for every
    /// live node to have stored a heartbeat since, so that one found stale
    /// is not merely stalled by what stalled this one (the machine, the
    /// database). Only then does the node take others' games over.
    ///
    /// ```
    /// use rochade_server::cluster::lease::Held;
    /// let held = Held::default();
    /// assert!(!held.settled(10_000)); // no heartbeat yet
    /// held.beaten(10_000, 10_100, || {});
    /// assert!(!held.settled(12_000));
    /// held.beaten(11_000, 11_100, || {});
    /// assert!(held.settled(13_200));
    /// held.beaten(16_000, 16_100, || {}); // a lapse
    /// assert!(!held.settled(17_000));
    /// assert!(held.settled(19_200));
    /// ```
    pub fn settled(&self, now: u64) -> bool {
        let since = self.since.load(Ordering::Relaxed);
        since != 0 && now.saturating_sub(since) >= LEASE.as_millis() as u64
    }

    /// Whether the lease holds at `now`: a heartbeat was stored within
    /// [`HELD`] (or none yet: the node is starting, nothing is held), so
    /// no other node may have taken this node's games. Asks only; a
    /// lapse is said by [`Held::lapse`].
    ///
    /// ```
    /// use rochade_server::cluster::lease::Held;
    /// let held = Held::default();
    /// assert!(held.holds(99_000));
    /// held.beaten(10_000, 10_100, || {});
    /// assert!(held.holds(11_900));
    /// assert!(!held.holds(12_100));
    /// assert!(!held.lapse(11_900) && held.lapse(12_100)); // unchanged by asking
    /// ```
    pub fn holds(&self, now: u64) -> bool {
        let beaten = self.beaten.load(Ordering::Relaxed);
        beaten == 0 || now.saturating_sub(beaten) <= HELD.as_millis() as u64
    }

    /// Whether the node serves its games at `now`: its lease holds and
    /// has held for a whole [`LEASE`] ([`Held::holds`], [`Held::settled`]).
    /// After a lapse another node may be taking its games over on the
    /// strength of the old heartbeat; once the new one has been stored
    /// for a lease, such a takeover is done (a claim finds the new owner)
    /// or never comes.
    ///
    /// ```
    /// use rochade_server::cluster::lease::Held;
    /// let held = Held::default();
    /// assert!(!held.serves(10_000)); // not before its first heartbeat
    /// held.beaten(10_000, 10_100, || {});
    /// held.beaten(11_500, 11_600, || {});
    /// assert!(!held.serves(12_000));
    /// held.beaten(13_000, 13_100, || {});
    /// assert!(held.serves(13_200));
    /// assert!(!held.serves(15_100)); // no heartbeat for 2.1 s
    /// ```
    pub fn serves(&self, now: u64) -> bool {
        self.holds(now) && self.settled(now)
    }

    /// Whether the lease may have lapsed at `now` (no heartbeat stored for
    /// longer than [`HELD`]: the process was stopped, or the database did
    /// not take its writes, and another node may have taken its games
    /// over), said once a lapse: the caller closes its rooms.
    ///
    /// ```
    /// use rochade_server::cluster::lease::Held;
    /// let held = Held::default();
    /// assert!(!held.lapse(99_000)); // no heartbeat yet: nothing held
    /// held.beaten(10_000, 10_100, || {});
    /// assert!(!held.lapse(11_000));
    /// assert!(held.lapse(13_000)); // 3 s without a heartbeat
    /// assert!(!held.lapse(13_500)); // once
    /// assert!(held.beaten(13_600, 13_700, || {})); // and again at its end
    /// ```
    pub fn lapse(&self, now: u64) -> bool {
        let beaten = self.beaten.load(Ordering::Relaxed);
        beaten != 0
            && now.saturating_sub(beaten) > HELD.as_millis() as u64
            && !self.closed.swap(true, Ordering::Relaxed)
    }
}
