//! One friend game, two sockets (one a colour), played to `max_plies` or
//! its end and then resigned, through sockets that may break.
//!
//! A move is sent at its ply and counts as acknowledged once a state holds
//! it there. When its answer goes missing (the socket breaks, no answer
//! in time, an error such as a stale ply) the socket is opened again
//! through the same address and the state it brings says whether the move
//! was stored ([`crate::check::judge`]): if so it is acknowledged, if not
//! it is sent again at the same ply. `busy` is answered by a pause and the
//! same move again. All this within [`Plan::reconnect_for`] of the first
//! failure; after that the move is given up (`unacknowledged`) and the
//! game left as it is, to be read back after the run.

use std::time::Duration;

use rand::Rng;
use serde_json::json;
use tokio::time::Instant;

use crate::check::{Verdict, judge};
use crate::client::{ClientError, post_json};
use crate::resilience::Backoff;
use crate::seat::{ANSWER_WAIT, Heard, Seat};
use crate::state::{Tracked, random_move};
use crate::tally::{GameLog, Tally};

/// What every game of a run shares.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// `127.0.0.1:8080`: the server, or the proxy in front of the nodes.
    pub(crate) host: String,
    /// Moves per second per game.
    pub(crate) rate: f64,
    /// A game is resigned after this many plies.
    pub(crate) max_plies: usize,
    /// How long a move keeps trying after its first failure.
    pub(crate) reconnect_for: Duration,
    /// The sockets ask for move messages.
    pub(crate) move_messages: bool,
    /// Round trips are timed from here.
    pub(crate) measure_from: Instant,
    /// No move is sent after this.
    pub(crate) end: Instant,
}

/// Makes a friend game, plays it to `plies` plies at most, and logs what
/// it was acknowledged in `tally` (also when it broke off).
///
/// # Errors
///
/// When the game cannot be made, or a move or socket is given up.
pub(crate) async fn play_game(plan: &Plan, tally: &Tally, plies: usize) -> Result<(), ClientError> {
    let (id, white, black) = create(&plan.host).await?;
    let mut log = GameLog::new(&id);
    let mut seats = [
        Seat::new(&plan.host, &id, &white, plan.move_messages),
        Seat::new(&plan.host, &id, &black, plan.move_messages),
    ];
    let result = play(plan, tally, &mut log, &mut seats, plies).await;
    for seat in &mut seats {
        seat.drop_socket().await;
    }
    tally.games.lock().await.push(log);
    result
}

/// Makes a friend game; its id and the tokens of White's and Black's seat.
async fn create(host: &str) -> Result<(String, String, String), ClientError> {
    let terms = json!({"opponent": "friend", "color": "white", "time_control": "-"});
    let (_, game) = tokio::time::timeout(ANSWER_WAIT, post_json(host, "/api/games", &terms))
        .await
        .map_err(|_| ClientError::Timeout(ANSWER_WAIT))??;
    let id = game["game"]
        .as_str()
        .ok_or_else(|| ClientError::BadAnswer(game.to_string()))?;
    let white = game["token"].as_str().unwrap_or_default();
    let black = game["links"]["black"]
        .as_str()
        .and_then(|l| l.split_once('#'))
        .map(|(_, t)| t)
        .unwrap_or_default();
    Ok((id.to_owned(), white.to_owned(), black.to_owned()))
}

/// Plays the game on its two seats (White's first).
async fn play(
    plan: &Plan,
    tally: &Tally,
    log: &mut GameLog,
    seats: &mut [Seat; 2],
    plies: usize,
) -> Result<(), ClientError> {
    connect(plan, &mut seats[0], tally).await?;
    connect(plan, &mut seats[1], tally).await?;
    let interval = Duration::from_secs_f64(1.0 / plan.rate.max(0.001));
    // Spread the games' moves over the interval.
    let mut next = Instant::now() + interval.mul_f64(rand::rng().random::<f64>());
    while Instant::now() < plan.end && log.acked.len() < plies && to_move(seats, log).can_move() {
        tokio::time::sleep_until(next).await;
        next += interval;
        let ply = log.acked.len();
        let Some(uci) = random_move(to_move(seats, log).fen()) else {
            break;
        };
        let mover = ply % 2;
        let sent_at = Instant::now();
        log.in_flight = Some(uci.clone());
        let via = deliver(plan, &mut seats[mover], log, &uci, tally).await?;
        if sent_at >= plan.measure_from && sent_at < plan.end {
            let us = sent_at.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
            let ms = (sent_at - plan.measure_from).as_millis() as u32;
            tally.rtts.lock().await.push((ms, us));
        }
        log.acknowledge(uci, via == Via::Reopened, seats[mover].said());
        follow(plan, &mut seats[1 - mover], ply as u64 + 1, tally).await?;
    }
    if !to_move(seats, log).over() {
        resign(plan, &mut seats[0], tally).await?;
    }
    Ok(())
}

/// What the seat to move has seen: the game's last state (it followed the
/// last move).
fn to_move<'a>(seats: &'a [Seat; 2], log: &GameLog) -> &'a Tracked {
    seats[log.acked.len() % 2].seen()
}

/// Opens `seat`'s socket, trying again within the plan's window.
async fn connect(plan: &Plan, seat: &mut Seat, tally: &Tally) -> Result<(), ClientError> {
    match seat.open().await {
        Ok(()) => Ok(()),
        Err(why) => reopen(seat, &mut Backoff::new(plan.reconnect_for), why, tally).await,
    }
}

/// Opens `seat`'s socket again, counting it.
async fn reopen(
    seat: &mut Seat,
    backoff: &mut Backoff,
    why: ClientError,
    tally: &Tally,
) -> Result<(), ClientError> {
    seat.reopen(backoff, why).await?;
    Tally::count(&tally.reconnects);
    Ok(())
}

/// Sends the move `uci` of `log`'s next ply from `seat` until a state
/// (the seat's [`Seat::seen`]) holds it; how that state came.
async fn deliver(
    plan: &Plan,
    seat: &mut Seat,
    log: &GameLog,
    uci: &str,
    tally: &Tally,
) -> Result<Via, ClientError> {
    let ply = log.acked.len() as u64;
    let message = json!({"t": "move", "ply": ply, "uci": uci});
    let mut backoff = Backoff::new(plan.reconnect_for);
    loop {
        let via = match act(seat, &message, |s| s.ply() > ply, &mut backoff, tally).await {
            Ok(via) => via,
            Err(why) => {
                Tally::count(&tally.unacknowledged);
                return Err(why);
            }
        };
        match judge(&log.acked, uci, seat.seen().moves()) {
            Verdict::Stored => {
                if via == Via::Reopened {
                    Tally::count(&tally.recovered);
                }
                return Ok(via);
            }
            Verdict::NotStored => {
                if !backoff.pause().await {
                    Tally::count(&tally.unacknowledged);
                    return Err(ClientError::Timeout(plan.reconnect_for));
                }
                Tally::count(&tally.resent);
            }
            Verdict::Broken(check) => {
                tally.add_check(check);
                return Err(ClientError::BadAnswer(format!(
                    "game {}: the moves differ from those acknowledged ({} acknowledged, \
                     {uci} in flight; the state read holds {})",
                    log.id,
                    log.acked.len(),
                    seat.seen().moves().len()
                )));
            }
        }
    }
}

/// Reads `seat` until its state is at `ply` or later, opening it again
/// when it breaks.
async fn follow(plan: &Plan, seat: &mut Seat, ply: u64, tally: &Tally) -> Result<(), ClientError> {
    let mut backoff = Backoff::new(plan.reconnect_for);
    loop {
        let why = match answer(seat, tally, |s| s.ply() >= ply).await {
            Answer::State => return Ok(()),
            Answer::Busy(why) | Answer::Failed(why) => why,
        };
        reopen(seat, &mut backoff, why, tally).await?;
        if seat.seen().ply() >= ply {
            return Ok(());
        }
    }
}

/// Resigns from `seat` until a state says the game is over.
async fn resign(plan: &Plan, seat: &mut Seat, tally: &Tally) -> Result<(), ClientError> {
    let message = json!({"t": "resign"});
    let mut backoff = Backoff::new(plan.reconnect_for);
    let over = |s: &Tracked| s.over();
    loop {
        act(seat, &message, over, &mut backoff, tally).await?;
        if over(seat.seen()) {
            return Ok(());
        }
    }
}

/// Where the state an act returns came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    /// The act's answer.
    Answer,
    /// The socket opened again after the answer went missing.
    Reopened,
}

/// What came back after an act.
enum Answer {
    /// The state waited for ([`Seat::seen`]).
    State,
    /// `busy`: nothing was done, try again.
    Busy(ClientError),
    /// Another error, a broken socket, or no answer in time.
    Failed(ClientError),
}

/// Sends `message` from `seat` until a state that is `done` answers it
/// or, when its answer goes missing, the socket is opened again (its
/// first state may or may not be `done`); which of the two it was (the
/// state is the seat's [`Seat::seen`]). `busy` is answered by a pause and
/// the same message again.
///
/// # Errors
///
/// The last failure, once `backoff` allows no further try.
async fn act(
    seat: &mut Seat,
    message: &serde_json::Value,
    done: impl Fn(&Tracked) -> bool,
    backoff: &mut Backoff,
    tally: &Tally,
) -> Result<Via, ClientError> {
    loop {
        let answer = match seat.send(message).await {
            Ok(()) => answer(seat, tally, &done).await,
            Err(why) => Answer::Failed(why),
        };
        match answer {
            Answer::State => return Ok(Via::Answer),
            Answer::Busy(why) => {
                if !backoff.pause().await {
                    return Err(why);
                }
            }
            Answer::Failed(why) => {
                reopen(seat, backoff, why, tally).await?;
                return Ok(Via::Reopened);
            }
        }
    }
}

/// Reads `seat` for at most [`ANSWER_WAIT`] until a state that is `done`
/// or an error message (counted).
async fn answer(seat: &mut Seat, tally: &Tally, done: impl Fn(&Tracked) -> bool) -> Answer {
    let deadline = Instant::now() + ANSWER_WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match seat.recv(left).await {
            Ok(Heard::State) if done(seat.seen()) => return Answer::State,
            Ok(Heard::Error { code, message }) => {
                Tally::count(&tally.errors);
                let busy = code == "busy";
                let why = ClientError::Refused { code, message };
                if busy {
                    Tally::count(&tally.busy);
                    return Answer::Busy(why);
                }
                return Answer::Failed(why);
            }
            Ok(Heard::State | Heard::Other) => {}
            Err(why) => return Answer::Failed(why),
        }
    }
}
