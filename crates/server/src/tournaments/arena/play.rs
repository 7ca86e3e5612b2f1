//! An arena on the server: at the start every player is paired by
//! rating; then, whenever the clockwork looks (a game ended, a player
//! came or left), those waiting are paired, until pairing closes before
//! the end (a player who lost a game without a first move, 6.7.1, is
//! paused until they join again); at the end the games still going are set apart and the
//! arena is finished. Each pairing is stored with the tournament before
//! its games are made ([`start_missing`]).

use std::collections::HashMap;
use std::sync::Arc;

use rand::Rng;

use super::pairing::{self, Colours, Waiting};
use super::ranking::{going, lines};
use super::{ArenaGame, closes_at, ends_at, games_by_player};
use crate::error::ActionError;
use crate::rooms::Shared;
use crate::tournaments::Tournament;
use crate::tournaments::report::Outcome;
use crate::tournaments::rounds::{Named, make_missing};
use crate::tournaments::runner::save;

/// How many of the arena's decisions are read for a player coming back
/// (every one an arena of a thousand players would have).
const DECISIONS: usize = 10_000;

/// The players waiting for a game now, in ranking order, with their
/// last opponents and colours.
fn waiting(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Vec<Waiting> {
    let by_player = games_by_player(tournament);
    let mine = |id: i64| by_player.get(&id).map_or(&[][..], Vec::as_slice);
    lines(tournament, games)
        .iter()
        .map(|l| &tournament.players[l.index])
        .filter(|p| !tournament.is_withdrawn(p.id) && !mine(p.id).iter().any(|g| going(g, games)))
        .map(|p| {
            let mine = mine(p.id);
            let whites: Vec<bool> = mine.iter().map(|g| g.white == p.id).collect();
            Waiting {
                id: p.id,
                last_opponent: mine
                    .last()
                    .map(|g| if g.white == p.id { g.black } else { g.white }),
                colours: Colours::of(&whites),
            }
        })
        .collect()
}

/// The players who lost a game of the arena without a first move (not
/// come by the default time, 6.7.1) and were not paused for it yet, with
/// the game.
fn absentees(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Vec<(i64, String)> {
    tournament
        .arena
        .games
        .iter()
        .filter(|g| !tournament.arena.absent.contains(&g.game))
        .filter_map(|g| {
            let outcome = games.get(&g.game)?;
            let absent = match (outcome.result.as_deref()?, outcome.plies) {
                ("0-1", 0) => g.white,
                ("1-0", 1) => g.black,
                _ => return None,
            };
            Some((absent, g.game.clone()))
        })
        .collect()
}

/// Pauses each player who lost a game without a first move, as lichess
/// does: not paired again until they join again ([`comes_back`]), so that
/// nobody away keeps giving their opponents wins. Whether any was.
fn pause_absentees(
    tournament: &mut Tournament,
    games: &HashMap<String, Outcome>,
    now: u64,
) -> bool {
    let gone = absentees(tournament, games);
    for (player, game) in &gone {
        tournament.arena.absent.push(game.clone());
        if !tournament.is_withdrawn(*player) {
            tournament.withdrawn.push((*player, now));
        }
    }
    !gone.is_empty()
}

/// Pairs the players waiting in `tournament` at `now` (adding their
/// games to its log); how many games.
pub fn pair_waiting(
    tournament: &mut Tournament,
    games: &HashMap<String, Outcome>,
    now: u64,
) -> usize {
    let waiting = waiting(tournament, games);
    let active = tournament
        .players
        .iter()
        .filter(|p| !tournament.is_withdrawn(p.id))
        .count();
    let pairs = pairing::pair(&waiting, active == 2, || rand::rng().random_bool(0.5));
    for (white, black) in &pairs {
        tournament.arena.games.push(ArenaGame {
            game: crate::setup::random_code(8),
            white: *white,
            black: *black,
            paired: now,
        });
    }
    pairs.len()
}

/// Makes the arena's games that do not exist yet (none of those set
/// apart at the end); their ids.
///
/// # Errors
///
/// What making a game refuses.
pub async fn start_missing(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    games: &HashMap<String, Outcome>,
) -> Result<Vec<String>, ActionError> {
    let named = tournament
        .arena
        .games
        .iter()
        .filter(|g| !tournament.arena.late.contains(&g.game))
        .map(|g| Named {
            id: g.game.clone(),
            white: g.white,
            black: g.black,
            control: tournament.time_control.clone(),
            round: None,
        });
    make_missing(shared, tournament, games, named.collect()).await
}

/// Moves the arena on at server time `now`: its games named before a
/// stop made, the end when the time is up, or the waiting players
/// paired (unless the arbiter holds pairing, or it has closed). When to
/// look again: at the end.
///
/// # Errors
///
/// What storing or making a game refuses.
pub async fn advance(
    shared: &Arc<Shared>,
    mut tournament: Tournament,
    games: &HashMap<String, Outcome>,
    now: u64,
) -> Result<Option<u64>, ActionError> {
    let (Some(end), Some(close)) = (ends_at(&tournament), closes_at(&tournament)) else {
        return Ok(None);
    };
    if now >= end {
        tournament.arena.late = tournament
            .arena
            .games
            .iter()
            .filter(|g| going(g, games))
            .map(|g| g.game.clone())
            .collect();
        tournament.finished = Some(end);
        save(shared, &tournament).await?;
        tracing::info!(tournament = %tournament.id, games = tournament.arena.games.len(), "arena over");
        return Ok(None);
    }
    // Games named just before a stop, made now: no longer missing below.
    let mut known = games.clone();
    for made in start_missing(shared, &tournament, games).await? {
        known.insert(made, Outcome::default());
    }
    let paused = pause_absentees(&mut tournament, &known, now);
    let paired =
        !tournament.paused && now < close && pair_waiting(&mut tournament, &known, now) > 0;
    if paused || paired {
        save(shared, &tournament).await?;
    }
    if paired {
        start_missing(shared, &tournament, &known).await?;
    }
    Ok(Some(end))
}

/// A player of the arena who left it (a pause) joins it again: paired
/// again from now. Whether `user` came back so.
///
/// # Errors
///
/// `not_allowed` once the arena's time is up, or for a player the
/// director withdrew (only the director brings them back);
/// `internal` when storage fails.
pub async fn comes_back(
    shared: &Arc<Shared>,
    tournament: &mut Tournament,
    user: i64,
) -> Result<bool, ActionError> {
    if !matches!(tournament.system, crate::tournaments::System::Arena { .. })
        || !tournament.is_withdrawn(user)
    {
        return Ok(false);
    }
    let refuse = |m: &str| Err(ActionError::new(crate::error::ErrorCode::NotAllowed, m));
    let over = ends_at(tournament).is_some_and(|end| shared.clock.now_ms() >= end);
    if over || tournament.finished.is_some() {
        return refuse("the arena's time is up: there is nothing to come back to");
    }
    let key = tournament.id.clone();
    let decisions = shared
        .stored(move |s| s.tournament_decisions(&key, DECISIONS))
        .await?;
    let withdrawn = decisions.iter().any(|d| {
        d.player == Some(user)
            && serde_json::from_str::<serde_json::Value>(&d.body)
                .is_ok_and(|b| b["act"] == "withdrawal")
    });
    if withdrawn {
        return refuse("the director withdrew you from this arena");
    }
    tournament.withdrawn.retain(|(u, _)| *u != user);
    Ok(true)
}
