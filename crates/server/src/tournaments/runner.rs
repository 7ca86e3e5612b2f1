//! What the server does for a tournament by itself: starts it at its
//! start time, notes when a round's last game has ended, and pairs the
//! next round after the break (unless the arbiter holds it), until the
//! last round is over; an arena's waiting players are paired whenever
//! it is looked at, until its time is up ([`super::arena::play`]). Everything it decides is stored in the tournament
//! first, so that a restart goes on where it stopped.
//!
//! One [`Runner`] per server: rooms tell it which tournament changed when
//! one of its games ends, and it looks at that tournament alone (and at
//! those whose time has come); every change to a tournament, by the
//! runner or by a request, takes its turn ([`Runner::turn`]) so that
//! none is lost. At start it reads every running tournament once.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::{Mutex, MutexGuard, Notify};

use super::Tournament;
use super::report::{self, Outcome};
use super::{arena, knockout, rounds};
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;

/// Longest sleep without a reason to wake (a safety net: rooms tell it).
const IDLE: Duration = Duration::from_secs(30);

/// How long before a live event's start its entrants are reminded, ms.
pub const REMIND_MS: u64 = 5 * 60_000;

/// The server's tournament clockwork.
#[derive(Default)]
pub struct Runner {
    /// Rooms and requests wake it.
    wake: Notify,
    /// One change to tournaments at a time.
    turn: Mutex<()>,
    /// The pages watching tournaments.
    pub watchers: super::watch::Watchers,
    /// Tournaments to look at on the next round of the clockwork.
    dirty: StdMutex<HashSet<String>>,
    /// When each waiting tournament must be looked at (server time, ms).
    due: StdMutex<HashMap<String, u64>>,
    /// Every running tournament has been read once since the start.
    scanned: AtomicBool,
    /// The entrants reminded on this node of each start to come (the
    /// start, the players), so that a tournament looked at again in its
    /// last minutes tells only those it has not.
    reminded: StdMutex<HashMap<String, (u64, HashSet<i64>)>>,
    /// Where changes also go.
    also: std::sync::OnceLock<Also>,
}

/// Where tournament changes also go: the other nodes, when there are
/// several (whether the clockwork must look again, and the tournament).
type Also = Box<dyn Fn(bool, &str) + Send + Sync>;

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Runner")
    }
}

impl Runner {
    /// Tournament `id` changed (one of its games ended, the arbiter
    /// acted): tell its pages, and look at it again; on every node.
    pub fn changed(&self, id: &str) {
        if let Some(also) = self.also.get() {
            also(true, id);
        }
        self.changed_here(id);
    }

    /// Tournament `id`'s pages should read it again (nothing for the
    /// clockwork to do); on every node.
    pub fn shown(&self, id: &str) {
        if let Some(also) = self.also.get() {
            also(false, id);
        }
        self.watchers.changed(id);
    }

    /// Sends every change to `also` as well (once: the other nodes).
    pub fn also(&self, also: Also) {
        let _ = self.also.set(also);
    }

    /// [`Runner::changed`] (`look`) or [`Runner::shown`] as another node
    /// told it: on this node only.
    pub fn told(&self, look: bool, id: &str) {
        if look {
            self.changed_here(id);
        } else {
            self.watchers.changed(id);
        }
    }

    /// [`Runner::changed`] on this node only.
    fn changed_here(&self, id: &str) {
        self.watchers.changed(id);
        self.dirty
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned());
        self.wake.notify_one();
    }

    /// The entrants of `tournament` not yet reminded here that it begins
    /// at `at` (server time `now`), noted as reminded; starts gone by are
    /// forgotten.
    fn to_remind(&self, tournament: &Tournament, at: u64, now: u64) -> Vec<i64> {
        let mut reminded = self.reminded.lock().unwrap_or_else(|e| e.into_inner());
        reminded.retain(|_, (start, _)| *start > now);
        let (start, told) = reminded
            .entry(tournament.id.clone())
            .or_insert_with(|| (at, HashSet::new()));
        if *start != at {
            (*start, *told) = (at, HashSet::new());
        }
        tournament
            .players
            .iter()
            .map(|p| p.id)
            .filter(|id| told.insert(*id))
            .collect()
    }

    /// The turn to change tournaments: held while one is read, changed
    /// and stored.
    pub async fn turn(&self) -> MutexGuard<'_, ()> {
        self.turn.lock().await
    }
}

/// The outcomes of tournament `id`'s games.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn outcomes_of(
    shared: &Arc<Shared>,
    id: &str,
) -> Result<HashMap<String, Outcome>, ActionError> {
    let key = id.to_owned();
    let games = shared.stored(move |s| s.tournament_games(&key)).await?;
    Ok(report::outcomes(&games))
}

/// Stores `tournament`.
///
/// # Errors
///
/// `internal` when storage fails.
pub async fn save(shared: &Arc<Shared>, tournament: &Tournament) -> Result<(), ActionError> {
    let t = tournament.clone();
    shared.stored(move |s| s.save_tournament(&t)).await?;
    shared.tournaments.shown(&tournament.id);
    Ok(())
}

/// Each player's rating in the tournament's category, for the initial
/// ranking (C.04.2) and the TRF.
async fn rate_players(
    shared: &Arc<Shared>,
    tournament: &mut Tournament,
) -> Result<(), ActionError> {
    for i in 0..tournament.players.len() {
        let id = tournament.players[i].id;
        tournament.players[i].rating = Some(super::entry::rating_in(shared, tournament, id).await?);
    }
    Ok(())
}

/// Starts `tournament` at server time `now`: the players ranked by
/// rating (a Swiss's pairing numbers, a knockout's seeds), then round 1
/// paired, a knockout's first games named, or, for a section played all
/// at once, every round; the tournament is stored, then its games are
/// made.
///
/// # Errors
///
/// `bad_request` for fewer than two players; what pairing or making a
/// game refuses.
pub async fn begin(
    shared: &Arc<Shared>,
    tournament: &mut Tournament,
    now: u64,
) -> Result<Vec<String>, ActionError> {
    if tournament.players.len() < 2 {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!(
                "players: a tournament needs two players at least, not {}",
                tournament.players.len()
            ),
        ));
    }
    rate_players(shared, tournament).await?;
    if matches!(
        tournament.system,
        super::System::Swiss { .. } | super::System::Knockout | super::System::Arena { .. }
    ) {
        rounds::rank_players(tournament);
    }
    tournament.started = Some(now);
    let none = HashMap::new();
    if let super::System::Arena { .. } = tournament.system {
        arena::play::pair_waiting(tournament, &none, now);
        save(shared, tournament).await?;
        let made = arena::play::start_missing(shared, tournament, &none).await;
        shared.tournaments.changed(&tournament.id);
        return made;
    }
    if tournament.system == super::System::Knockout {
        knockout::advance(tournament, &none, now)?;
        save(shared, tournament).await?;
        let made = knockout::start_missing(shared, tournament, &none).await;
        shared.tournaments.changed(&tournament.id);
        return made;
    }
    if tournament.by_round {
        rounds::pair_next(tournament, &none, now).await?;
    } else {
        rounds::all_rounds(tournament, now)?;
    }
    save(shared, tournament).await?;
    let made = rounds::start_missing(shared, tournament, &none).await;
    shared.tournaments.changed(&tournament.id);
    made
}

/// Pairs the next round of `tournament` now and starts its games.
///
/// # Errors
///
/// `not_allowed` when the round cannot be paired yet (see
/// [`rounds::ensure_pairable`]); what pairing or making a game refuses.
pub async fn pair_now(
    shared: &Arc<Shared>,
    tournament: &mut Tournament,
    games: &HashMap<String, Outcome>,
) -> Result<u16, ActionError> {
    rounds::ensure_pairable(tournament, games)?;
    let now = shared.clock.now_ms();
    if let Some(last) = tournament.rounds.last_mut() {
        last.finished.get_or_insert(now);
    }
    let round = rounds::pair_next(tournament, games, now).await?;
    tournament.problem = None;
    save(shared, tournament).await?;
    rounds::start_missing(shared, tournament, games).await?;
    tracing::info!(
        tournament = %tournament.id,
        round,
        boards = tournament.rounds.last().map_or(0, |r| r.boards.len()),
        "round paired"
    );
    Ok(round)
}

/// Whether `tournament` is played at a live control (not in days).
fn live(tournament: &Tournament) -> bool {
    use rochade_laws::clock::{Scale, TimeControl};
    tournament
        .time_control
        .parse::<TimeControl>()
        .is_ok_and(|c| c.scale() != Scale::Days)
}

/// Tells each entrant of live `tournament` that it begins at `at`, once
/// for that start: each only the first time this node looks
/// ([`Runner::to_remind`]), and once across restarts and nodes
/// ([`crate::notify::tell_once`]); on their open pages and in their next
/// digest.
fn remind_entrants(shared: &Arc<Shared>, tournament: &Tournament, at: u64) {
    let now = shared.clock.now_ms();
    for player in shared.tournaments.to_remind(tournament, at, now) {
        crate::notify::tell_once(
            &shared.hub,
            &shared.storage,
            player,
            "",
            &format!("{}:{at}", tournament.id),
            crate::notify::Notice::TournamentSoon {
                tournament: tournament.id.clone(),
                name: tournament.name.clone(),
                starts_at: at,
            },
            now,
        );
    }
}

/// Moves `tournament` on as far as it goes now; when to look again.
async fn advance(
    shared: &Arc<Shared>,
    mut tournament: Tournament,
) -> Result<Option<u64>, ActionError> {
    let now = shared.clock.now_ms();
    if tournament.started.is_none() {
        match tournament.starts_at {
            Some(at) if at > now => {
                let remind = at.saturating_sub(REMIND_MS);
                if !live(&tournament) {
                    return Ok(Some(at));
                }
                if now < remind {
                    return Ok(Some(remind));
                }
                remind_entrants(shared, &tournament, at);
                return Ok(Some(at));
            }
            None => return Ok(None),
            Some(_) if tournament.players.len() < 2 => {
                // Nobody to play: called off.
                super::call_off::call_off(
                    &mut tournament,
                    now,
                    super::call_off::CalledOff::TooFewPlayers,
                );
                save(shared, &tournament).await?;
                return Ok(None);
            }
            Some(_) => {
                begin(shared, &mut tournament, now).await?;
                return Ok(None);
            }
        }
    }
    if let super::System::Arena { .. } = tournament.system {
        let games = outcomes_of(shared, &tournament.id).await?;
        return arena::play::advance(shared, tournament, &games, now).await;
    }
    if !tournament.by_round {
        return Ok(None);
    }
    let games = outcomes_of(shared, &tournament.id).await?;
    if tournament.system == super::System::Knockout {
        // Games named just before a stop, then the bracket moved on.
        knockout::start_missing(shared, &tournament, &games).await?;
        if knockout::advance(&mut tournament, &games, now)? {
            save(shared, &tournament).await?;
            knockout::start_missing(shared, &tournament, &games).await?;
        }
        return Ok(None);
    }
    // Games of a round stored just before a stop.
    rounds::start_missing(shared, &tournament, &games).await?;
    let Some(last) = tournament.rounds.last() else {
        return Ok(None);
    };
    let finished = match last.finished {
        Some(at) => at,
        None => {
            let going = last
                .boards
                .iter()
                .any(|b| report::board_codes(b, &tournament.changed, &games).is_none());
            if going {
                return Ok(None);
            }
            if let Some(last) = tournament.rounds.last_mut() {
                last.finished = Some(now);
            }
            save(shared, &tournament).await?;
            now
        }
    };
    if tournament.rounds.len() >= usize::from(report::total_rounds(&tournament)) {
        tournament.finished = Some(now);
        save(shared, &tournament).await?;
        return Ok(None);
    }
    if tournament.paused {
        return Ok(None);
    }
    let due = finished.saturating_add(u64::from(tournament.break_secs) * 1000);
    if due > now {
        return Ok(Some(due));
    }
    if let Err(e) = pair_now(shared, &mut tournament, &games).await {
        // The arbiter decides what happens to a round that cannot be
        // paired: held until then, with the reason on the page.
        let mut held = tournament.clone();
        held.paused = true;
        held.problem = Some(format!(
            "round {} could not be paired: {}",
            held.rounds.len() + 1,
            e.message
        ));
        save(shared, &held).await?;
        return Err(e);
    }
    Ok(None)
}

/// The tournaments to look at now: at the first call every running one;
/// then those that changed and those whose time has come.
async fn to_look_at(shared: &Arc<Shared>, now: u64) -> Vec<Tournament> {
    let runner = &shared.tournaments;
    if !runner.scanned.swap(true, Ordering::Relaxed) {
        match shared.stored(|s| s.running_tournaments()).await {
            Ok(running) => return running,
            Err(e) => {
                runner.scanned.store(false, Ordering::Relaxed);
                tracing::warn!(error = %e, "reading the running tournaments");
                return Vec::new();
            }
        }
    }
    let mut ids = std::mem::take(&mut *runner.dirty.lock().unwrap_or_else(|e| e.into_inner()));
    ids.extend(
        runner
            .due
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(id, _)| id.clone()),
    );
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        let key = id.clone();
        match shared.stored(move |s| s.tournament(&key)).await {
            Ok(Some(t)) => found.push(t),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(tournament = %id, error = %e, "reading a tournament");
                runner
                    .dirty
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id);
            }
        }
    }
    found
}

/// Moves on the tournaments that need it now; the earliest server time
/// at which one must be looked at again.
async fn tick(shared: &Arc<Shared>) -> Option<u64> {
    let runner = &shared.tournaments;
    let _turn = runner.turn().await;
    let now = shared.clock.now_ms();
    for tournament in to_look_at(shared, now).await {
        let id = tournament.id.clone();
        let result = if tournament.finished.is_some() {
            Ok(None)
        } else {
            advance(shared, tournament).await
        };
        let mut due = runner.due.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(Some(at)) => {
                due.insert(id, at);
            }
            Ok(None) => {
                due.remove(&id);
            }
            Err(e) => {
                due.remove(&id);
                tracing::warn!(tournament = %id, error = %e.message, "a tournament could not go on");
            }
        }
    }
    runner
        .due
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .min()
        .copied()
}

/// Runs the tournaments until the server stops.
pub async fn run(shared: Arc<Shared>) {
    let mut shutdown = shared.shutdown.clone();
    let mut time = shared.clock.changes();
    loop {
        // With several nodes, one runs the tournaments' clockwork.
        let next = if shared.leads() {
            tick(&shared).await
        } else {
            None
        };
        let now = shared.clock.now_ms();
        let sleep = next.map_or(IDLE, |at| {
            Duration::from_millis(at.saturating_sub(now)).min(IDLE)
        });
        tokio::select! {
            () = shared.tournaments.wake.notified() => {}
            () = tokio::time::sleep(sleep) => {}
            _ = time.changed() => {}
            _ = shutdown.changed() => return,
        }
        if *shutdown.borrow() {
            return;
        }
    }
}
