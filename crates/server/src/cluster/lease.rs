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

/// Beats until the server stops.
pub async fn run(shared: Arc<Shared>, cluster: Arc<Cluster>) {
    let mut shutdown = shared.shutdown.clone();
    let mut every = tokio::time::interval(BEAT);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = shutdown.changed() => return,
        }
        beat(&shared, &cluster).await;
    }
}

/// This node went without a heartbeat for longer than it trusts its
/// lease: its rooms may be behind what another node stored meanwhile.
/// They close (their sockets close, and the pages come back); the next
/// request claims each game again from what is stored.
pub fn lapsed(shared: &Arc<Shared>) {
    let closed = shared.close_rooms();
    tracing::warn!(
        rooms = closed,
        "this node's lease lapsed (no heartbeat stored for a while): its rooms close and their games are claimed again"
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

/// One beat.
async fn beat(shared: &Arc<Shared>, cluster: &Arc<Cluster>) {
    let node = cluster.node().to_owned();
    let at = wall_ms();
    if let Err(e) = shared
        .writer
        .write(vec![WriteOp::Heartbeat { node: node.clone() }])
        .await
    {
        tracing::warn!(error = %e, "recording this node's heartbeat");
        return;
    }
    if cluster.lease().beaten(at, wall_ms()) {
        lapsed(shared);
    }
    let Ok(beats) = shared.stored(|s| s.heartbeats()).await else {
        return;
    };
    for gone in cluster.beats(beats, wall_ms()) {
        tracing::warn!(node = %gone, "a node went silent: its sockets leave this node's rooms");
        for (game, seats) in cluster.forget_node(&gone) {
            shared.tell(&game, Command::Leave { seats });
        }
    }
    let stale = wall_ms().saturating_sub(LEASE.as_millis() as u64);
    let adopted = shared
        .stored(move |s| s.adopt(&node, stale, ADOPT_MOST))
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
                if let Err(e) = shared.resume(&from.games, Some(from.alive_at)).await {
                    tracing::error!(error = %e, "resuming the games taken over");
                }
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
}

impl Held {
    /// A heartbeat whose write was asked for at `at` was stored, as seen
    /// at `done` (Unix ms); returns whether the lease lapsed before it:
    /// the others may have seen no heartbeat for longer than [`HELD`]
    /// (from the last one asked for to this one stored). The rooms close
    /// then, even if a request in the gap ([`Held::lapse`]) closed them
    /// once already: rooms opened since may be behind too.
    ///
    /// ```
    /// use rochade_server::cluster::lease::Held;
    /// let held = Held::default();
    /// assert!(!held.beaten(10_000, 10_010)); // the first
    /// assert!(!held.beaten(10_500, 10_510));
    /// assert!(held.beaten(15_000, 15_010)); // 4.5 s without: lapsed
    /// // Asked for in time, but stored 2.5 s after the one before it.
    /// assert!(held.beaten(16_000, 17_500));
    /// ```
    pub fn beaten(&self, at: u64, done: u64) -> bool {
        let before = self.beaten.swap(at, Ordering::Relaxed);
        self.closed.store(false, Ordering::Relaxed);
        before != 0 && done.saturating_sub(before) > HELD.as_millis() as u64
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
    /// held.beaten(10_000, 10_100);
    /// assert!(held.holds(11_900));
    /// assert!(!held.holds(12_100));
    /// assert!(!held.lapse(11_900) && held.lapse(12_100)); // unchanged by asking
    /// ```
    pub fn holds(&self, now: u64) -> bool {
        let beaten = self.beaten.load(Ordering::Relaxed);
        beaten == 0 || now.saturating_sub(beaten) <= HELD.as_millis() as u64
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
    /// held.beaten(10_000, 10_100);
    /// assert!(!held.lapse(11_000));
    /// assert!(held.lapse(13_000)); // 3 s without a heartbeat
    /// assert!(!held.lapse(13_500)); // once
    /// assert!(held.beaten(13_600, 13_700)); // and again at its end
    /// ```
    pub fn lapse(&self, now: u64) -> bool {
        let beaten = self.beaten.load(Ordering::Relaxed);
        beaten != 0
            && now.saturating_sub(beaten) > HELD.as_millis() as u64
            && !self.closed.swap(true, Ordering::Relaxed)
    }
}
