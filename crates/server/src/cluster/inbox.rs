//! The owning node's side: a request from another node is asked of the
//! room here (or of the seeks, for a seek held here), exactly as a socket
//! or a handler here would ask it, and the answer goes back on the asking
//! node's channel.

use std::sync::Arc;

use tokio::sync::oneshot;

use super::Cluster;
use super::wire::{Answer, Ask, RemoteJoin};
use crate::error::ActionError;
use crate::room::{Command, JoinTold};
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
            if cluster.remote_left(&from, &game, seats) {
                shared.tell(&game, Command::Leave { seats });
            }
            return;
        }
        // The room answers a join itself (`told`), so that the answer
        // goes out before any state the room sends after the one it
        // carries: the asking node starts its socket's news there.
        Ask::Join { token } => {
            let asked = shared
                .ask(&game, |reply| Command::Join {
                    token: token.clone(),
                    reply,
                    told: Some(answer_join(&cluster, &from, &game, id)),
                })
                .await;
            match asked {
                Ok(_) => return,
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
        // The request's `game` names the seek.
        Ask::TakeSeek {
            taker,
            rating,
            address,
        } => match crate::lobby::http::take_here(&shared, taker, rating, &game, address).await {
            Ok(game) => Answer::Started { game },
            Err(error) => Answer::Failed { error },
        },
        Ask::CancelSeek { owner } => Answer::Done {
            done: shared.seeks.cancel(&game, owner),
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

/// What answers the join of request `id` of node `from` to `game`, told
/// by the room: a socket of `from` is counted in the room's seats, and
/// the state goes back with the seats.
fn answer_join(cluster: &Arc<Cluster>, from: &str, game: &str, id: u64) -> JoinTold {
    let (cluster, from, game) = (cluster.clone(), from.to_owned(), game.to_owned());
    JoinTold::new(move |joined| {
        let joined = match joined {
            Ok(joined) => {
                cluster.remote_joined(&from, &game, joined.seats);
                Ok(RemoteJoin {
                    state: joined.state.as_ref().clone(),
                    seats: joined.seats,
                    conditional: joined
                        .conditional
                        .clone()
                        .map(|(color, lines)| (color.is_white(), lines)),
                })
            }
            Err(e) => Err(e.clone()),
        };
        if id != 0 {
            cluster.answer(&from, id, Answer::Joined { joined });
        }
    })
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
