//! The owning node's side: a request from another node is asked of the
//! room here, exactly as a socket or a handler here would ask it, and the
//! answer goes back on the asking node's channel.

use std::sync::Arc;

use tokio::sync::oneshot;

use super::Cluster;
use super::wire::{Answer, Ask, RemoteJoin};
use crate::error::ActionError;
use crate::room::Command;
use crate::rooms::Shared;

/// Answers request `id` of node `from` about `game` (`id` 0: no answer).
pub async fn serve(
    shared: Arc<Shared>,
    cluster: Arc<Cluster>,
    id: u64,
    from: String,
    game: String,
    ask: Ask,
) {
    let answer = match ask {
        Ask::Leave { seats } => {
            cluster.remote_left(&from, &game, seats);
            shared.tell(&game, Command::Leave { seats });
            return;
        }
        Ask::Join { token } => {
            let asked = shared
                .ask(&game, |reply| Command::Join {
                    token: token.clone(),
                    reply,
                })
                .await;
            match asked {
                Ok(Ok(joined)) => {
                    cluster.remote_joined(&from, &game, joined.seats);
                    Answer::Joined {
                        joined: Ok(RemoteJoin {
                            state: joined.state.as_ref().clone(),
                            seats: joined.seats,
                            conditional: joined
                                .conditional
                                .map(|(color, lines)| (color.is_white(), lines)),
                        }),
                    }
                }
                Ok(Err(e)) => Answer::Joined { joined: Err(e) },
                Err(e) => Answer::Failed { error: e },
            }
        }
        Ask::Act { seats, message } => done(
            shared
                .ask(&game, |reply| Command::Act {
                    seats,
                    message: message.clone(),
                    reply,
                })
                .await,
        ),
        Ask::Play {
            seats,
            uci,
            offer_draw,
        } => done(
            shared
                .ask(&game, |reply| Command::Play {
                    seats,
                    uci: uci.clone(),
                    offer_draw,
                    reply,
                })
                .await,
        ),
        Ask::Pause { user, from, to } => done(
            shared
                .ask(&game, |reply| Command::Pause {
                    user,
                    from,
                    to,
                    reply,
                })
                .await,
        ),
        Ask::Direct {
            decision,
            by,
            reason,
        } => done(
            shared
                .ask(&game, |reply| Command::Direct {
                    decision: decision.clone(),
                    by: by.clone(),
                    reason: reason.clone(),
                    reply,
                })
                .await,
        ),
        Ask::State => text(shared.ask(&game, |reply| Command::State { reply }).await),
        Ask::Pgn { numeric } => text(
            shared
                .ask(&game, |reply| Command::Pgn { numeric, reply })
                .await
                .map(Arc::new),
        ),
        Ask::TakeSeat { player } => match shared
            .ask(&game, |reply| Command::TakeSeat {
                player: player.clone(),
                reply,
            })
            .await
        {
            Ok(seat) => Answer::Seat { seat },
            Err(e) => Answer::Failed { error: e },
        },
        Ask::Describe => match shared.ask(&game, |reply| Command::Describe { reply }).await {
            Ok(d) => Answer::Described {
                setup: Box::new(d.setup),
                state: d.state.as_ref().clone(),
                epoch: d.epoch,
            },
            Err(e) => Answer::Failed { error: e },
        },
        Ask::Wake => match shared
            .ask(&game, |reply: oneshot::Sender<()>| Command::Wake { reply })
            .await
        {
            Ok(()) => Answer::Woke,
            Err(e) => Answer::Failed { error: e },
        },
    };
    if id != 0 {
        cluster.answer(&from, id, answer);
    }
}

/// The answer to an act.
fn done(asked: Result<Result<(), ActionError>, ActionError>) -> Answer {
    match asked {
        Ok(done) => Answer::Done { done },
        Err(e) => Answer::Failed { error: e },
    }
}

/// The answer carrying a state or a PGN.
fn text(asked: Result<Arc<String>, ActionError>) -> Answer {
    match asked {
        Ok(text) => Answer::Text {
            text: text.as_ref().clone(),
        },
        Err(e) => Answer::Failed { error: e },
    }
}
