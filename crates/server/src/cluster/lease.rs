//! Each node's heartbeat, and the takeover of a dead node's games: every
//! [`BEAT`] the node records that it is alive, reads every node's
//! heartbeat, lets its rooms forget the sockets of nodes that went
//! silent, and takes over the unfinished games of nodes silent for longer
//! than [`LEASE`] — their clocks stopped from the dead node's last
//! heartbeat until now (6.12), their deadlines scheduled here.

use std::sync::Arc;

use super::{BEAT, Cluster, LEASE};
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
    if cluster.beaten(at) {
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
                tracing::warn!(
                    node = %from.from,
                    games = from.games.len(),
                    "taking over the games of a node that stopped"
                );
                if let Err(e) = shared.resume(&from.games, Some(from.alive_at)).await {
                    tracing::error!(error = %e, "resuming the games taken over");
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "looking for games to take over"),
    }
}
