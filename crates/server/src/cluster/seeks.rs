//! The lobby's seeks across nodes, over Redis (channel
//! [`wire::SEEKS`]): each node holds the seeks of its own connections and
//! tells the others when one opens or goes; a node that starts, or sees a
//! node come back, asks every node for all it holds. Taking or withdrawing
//! a seek held elsewhere is asked of the node that holds it, which starts
//! the game exactly as it would for a player of its own; the players hear
//! `gameStart` through the account news, wherever they listen.

use std::net::IpAddr;
use std::sync::Arc;

use super::Cluster;
use super::relay::{done, failure};
use super::wire::{self, Answer, Ask, OpenSeek, SeekNews};
use crate::error::ActionError;
use crate::lobby::seeks::Change;
use crate::rooms::Shared;
use crate::setup::Player;

/// Tells the others of this node's seeks from now on: first that it holds
/// those it holds (none, unless it ran before under this name and they
/// remember its seeks from then), then asks for theirs.
pub fn join(cluster: &Arc<Cluster>, shared: &Arc<Shared>) {
    let changes = Arc::downgrade(cluster);
    shared.seeks.also(Box::new(move |change| {
        let Some(cluster) = changes.upgrade() else {
            return;
        };
        let from = cluster.node.clone();
        let news = match change {
            Change::Opened(seek) => SeekNews::Opened {
                from,
                seek: OpenSeek::of(seek),
            },
            Change::Gone(id) => SeekNews::Gone {
                from,
                id: id.to_owned(),
            },
            Change::All(seeks) => SeekNews::All {
                from,
                seeks: seeks.iter().map(|s| OpenSeek::of(s)).collect(),
            },
        };
        cluster.send(wire::SEEKS, &news);
    }));
    shared.seeks.tell_all();
    wanted(cluster);
}

/// Asks every node for all the seeks it holds.
pub fn wanted(cluster: &Cluster) {
    cluster.send(
        wire::SEEKS,
        &SeekNews::Wanted {
            from: cluster.node.clone(),
        },
    );
}

/// What a node said on [`wire::SEEKS`].
pub fn heard(cluster: &Cluster, shared: &Shared, payload: &[u8]) {
    let news = match serde_json::from_slice::<SeekNews>(payload) {
        Ok(news) => news,
        Err(e) => {
            tracing::warn!(error = %e, "an unreadable seek message");
            return;
        }
    };
    match news {
        SeekNews::Wanted { from } if from != cluster.node => shared.seeks.tell_all(),
        SeekNews::Opened { from, seek } if from != cluster.node => {
            if let Some(seek) = seek.into_seek(&from) {
                shared.seeks.heard_opened(&from, seek);
            }
        }
        SeekNews::Gone { from, id } if from != cluster.node => {
            shared.seeks.heard_gone(&from, &id);
        }
        SeekNews::All { from, seeks } if from != cluster.node => {
            let seeks = seeks.into_iter().filter_map(|s| s.into_seek(&from));
            shared.seeks.heard_all(&from, seeks.collect());
        }
        _ => {}
    }
}

/// Asks node `node` to let `taker`, rated `rating` in its category, take
/// its seek `id`; the game started.
///
/// # Errors
///
/// What the holding node refuses (`not_found`, `not_allowed`, what
/// starting the game may refuse); `busy` when it does not answer.
pub async fn take(
    cluster: &Cluster,
    node: &str,
    id: &str,
    taker: Player,
    rating: i64,
    address: IpAddr,
) -> Result<String, ActionError> {
    let ask = Ask::TakeSeek {
        taker,
        rating,
        address,
    };
    match cluster.request(node, id, ask).await {
        Ok((Answer::Started { game }, _)) => Ok(game),
        other => Err(failure(other)),
    }
}

/// Asks node `node` to withdraw seek `id` of account `owner`.
///
/// # Errors
///
/// `not_found` when `owner` has no such seek there; `busy` when the node
/// does not answer.
pub async fn cancel(
    cluster: &Cluster,
    node: &str,
    id: &str,
    owner: i64,
) -> Result<(), ActionError> {
    done(cluster.request(node, id, Ask::CancelSeek { owner }).await)
}
