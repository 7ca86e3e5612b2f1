//! A game owned by another node, as this node's sockets and handlers see
//! it: the same queue of commands as a room, each forwarded to the owner
//! and answered with the owner's answer; the room's news come from the
//! game's channel. The relay ends when the room closes, when this node's
//! lease lapses ([`crate::rooms::Shared::close_relays`]), when the owner's
//! heartbeat goes stale (its sockets here close, and the pages come back
//! to whichever node owns the game then), or when nobody here has used it
//! for a while.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::wire::{Answer, Ask};
use super::{Cluster, LEASE};
use crate::error::{ActionError, ErrorCode};
use crate::room::{Command, Described, Joined, Out};
use crate::setup::Seats;
use crate::storage::wall_ms;

/// How often the relay looks at the owner's heartbeat.
const LOOK_EVERY: Duration = Duration::from_millis(500);

/// Starts the relay of game `game`, owned by node `owner`; returns its
/// queue and its task. It closes after `idle` without sockets or commands.
pub fn spawn(
    cluster: Arc<Cluster>,
    game: String,
    owner: String,
    idle: Duration,
) -> (mpsc::Sender<Command>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(256);
    let task = tokio::spawn(run(cluster, game, owner, idle, rx));
    (tx, task)
}

/// The relay's loop.
async fn run(
    cluster: Arc<Cluster>,
    game: String,
    owner: String,
    idle: Duration,
    mut rx: mpsc::Receiver<Command>,
) {
    let Ok((hearing, mut news)) = cluster.hear(&game, &owner).await else {
        return;
    };
    let sockets: Sockets = Arc::default();
    let began = Instant::now();
    let mut used = began;
    let mut look = tokio::time::interval(LOOK_EVERY);
    let owner_alive = loop {
        tokio::select! {
            command = rx.recv() => match command {
                // This node lapsed: its sockets come back through a new
                // relay, or another node.
                Some(Command::Close) => break true,
                Some(command) => {
                    used = Instant::now();
                    forward(&cluster, &game, &owner, &sockets, command);
                }
                None => break true,
            },
            heard = news.recv() => if matches!(heard, Err(broadcast::error::RecvError::Closed)) {
                // The room closed: its presence went with it.
                break false;
            },
            _ = look.tick() => {
                // The claim that started the relay found the owner alive;
                // the heartbeats this node last read may be older than it.
                if began.elapsed() > LEASE && !cluster.alive(&owner, wall_ms()) {
                    break false;
                }
                if lock(&sockets).is_empty() && used.elapsed() >= idle {
                    break true;
                }
            }
        }
    };
    // The sockets still here leave the owner's room with the relay: they
    // close now, and their own goodbyes will find no relay.
    if owner_alive {
        for seats in lock(&sockets).drain(..) {
            cluster.tell(&owner, &game, Ask::Leave { seats });
        }
    }
    cluster.unhear(&game, hearing).await;
}

/// The seats of the sockets joined through a relay.
type Sockets = Arc<Mutex<Vec<Seats>>>;

/// The sockets' seats, locked.
fn lock(sockets: &Sockets) -> std::sync::MutexGuard<'_, Vec<Seats>> {
    sockets.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sends `command` to the owner; its answer comes back on its own task,
/// so that a slow answer holds up no other command.
fn forward(cluster: &Arc<Cluster>, game: &str, owner: &str, sockets: &Sockets, command: Command) {
    if let Command::Leave { seats } = command {
        let mut joined = lock(sockets);
        if let Some(i) = joined.iter().position(|s| *s == seats) {
            joined.swap_remove(i);
            cluster.tell(owner, game, Ask::Leave { seats });
        }
        return;
    }
    let (cluster, game, owner, sockets) = (
        cluster.clone(),
        game.to_owned(),
        owner.to_owned(),
        sockets.clone(),
    );
    tokio::spawn(async move {
        let ask = |ask| cluster.request(&owner, &game, ask);
        match command {
            // A join asked through this relay by a third node is told
            // its answer here: in order with what this node hears of the
            // room, not with the owner's sending.
            Command::Join { token, reply, told } => {
                let joined = match ask(Ask::Join { token }).await {
                    Ok((Answer::Joined { joined }, Some(updates))) => joined.map(|j| {
                        lock(&sockets).push(j.seats);
                        Joined {
                            state: Arc::new(j.state),
                            updates,
                            seats: j.seats,
                            conditional: j
                                .conditional
                                .map(|(w, l)| (shakmaty::Color::from_white(w), l)),
                        }
                    }),
                    Ok((Answer::Joined { joined: Err(e) }, _)) => Err(e),
                    other => Err(failure(other)),
                };
                if let Some(told) = told {
                    told.tell(&joined);
                }
                let _ = reply.send(joined);
            }
            Command::Act {
                seats,
                message,
                reply,
            } => {
                let _ = reply.send(done(ask(Ask::Act { seats, message }).await));
            }
            Command::Play {
                seats,
                uci,
                offer_draw,
                reply,
            } => {
                let asked = ask(Ask::Play {
                    seats,
                    uci,
                    offer_draw,
                })
                .await;
                let _ = reply.send(done(asked));
            }
            Command::Pause {
                user,
                from,
                to,
                reply,
            } => {
                let _ = reply.send(done(ask(Ask::Pause { user, from, to }).await));
            }
            Command::Direct {
                decision,
                by,
                reason,
                reply,
            } => {
                let asked = ask(Ask::Direct {
                    decision,
                    by,
                    reason,
                })
                .await;
                let _ = reply.send(done(asked));
            }
            Command::TakeSeat { player, reply } => {
                let seat = match ask(Ask::TakeSeat { player }).await {
                    Ok((Answer::Seat { seat }, _)) => seat,
                    other => Err(failure(other)),
                };
                let _ = reply.send(seat);
            }
            // Those without an error in their answer: no answer makes the
            // asker look for the game's room again.
            Command::State { reply } => {
                if let Ok((Answer::Text { text }, _)) = ask(Ask::State).await {
                    let _ = reply.send(Arc::new(text));
                }
            }
            Command::Pgn { numeric, reply } => {
                if let Ok((Answer::Text { text }, _)) = ask(Ask::Pgn { numeric }).await {
                    let _ = reply.send(text);
                }
            }
            Command::Describe { reply } => {
                if let Ok((
                    Answer::Described {
                        setup,
                        state,
                        epoch,
                    },
                    _,
                )) = ask(Ask::Describe).await
                {
                    let _ = reply.send(Described {
                        setup: *setup,
                        state: Arc::new(state),
                        epoch,
                    });
                }
            }
            Command::Wake { reply } => {
                if let Ok((Answer::Woke, _)) = ask(Ask::Wake).await {
                    let _ = reply.send(());
                }
            }
            // The robot's answers go to its own room, on the owner.
            Command::RobotMove { .. } | Command::Leave { .. } | Command::Close => {}
        }
    });
}

/// The result of an act, from the owner's answer (of a game's owner, or
/// of a seek's node).
pub(super) fn done(
    asked: Result<(Answer, Option<broadcast::Receiver<Out>>), ActionError>,
) -> Result<(), ActionError> {
    match asked {
        Ok((Answer::Done { done }, _)) => done,
        other => Err(failure(other)),
    }
}

/// The error an unexpected answer (or none) stands for.
pub(super) fn failure(
    asked: Result<(Answer, Option<broadcast::Receiver<Out>>), ActionError>,
) -> ActionError {
    match asked {
        Err(e) | Ok((Answer::Failed { error: e }, _)) => e,
        Ok((other, _)) => ActionError::new(
            ErrorCode::Internal,
            format!("the other node answered {other:?}"),
        ),
    }
}
