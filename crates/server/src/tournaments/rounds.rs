//! Pairing a round and starting its games: the Swiss by the FIDE (Dutch)
//! system on the tournament's TRF ([`super::report`]), a round robin by
//! the Berger tables (C.05), one round at a time or every round at once
//! (a correspondence section, ICCF).
//!
//! A round is stored with its games' ids before the games are made, so
//! that a server stopped in between makes the missing ones when it comes
//! back ([`start_missing`]): no round is paired twice, no game lost.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use rand::Rng;
use rochade_tournament::berger::{self, Cycles};
use rochade_tournament::dutch::{self, acceleration::Method};
use rochade_tournament::{PairingNumber, RoundPairing};

use super::report::{self, Outcome, Purpose};
use super::{Board, ByeKind, Entrant, Round, RoundBye, Start, System, Tournament};
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::setup::{GameSetup, Player, random_code};

/// The address the server's own games are made from.
pub(super) const SERVER: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// How long a game id is (as every game's).
const GAME_ID: usize = 8;

/// The Berger cycles of `tournament`.
fn cycles(tournament: &Tournament) -> Cycles {
    if tournament.double {
        Cycles::Double
    } else {
        Cycles::Single
    }
}

/// Orders the players by their rating (highest first, unrated last;
/// equal ratings by name) for their pairing numbers (C.04.2 A: the
/// initial ranking), once, before round 1.
pub fn rank_players(tournament: &mut Tournament) {
    tournament.players.sort_by(|a, b| {
        b.rating
            .cmp(&a.rating)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
}

/// Why the next round cannot be paired, if it cannot.
///
/// # Errors
///
/// `not_allowed` before the start, after the last round, while a
/// round's games go on, or with fewer than two players to pair.
pub fn ensure_pairable(
    tournament: &Tournament,
    games: &HashMap<String, Outcome>,
) -> Result<(), ActionError> {
    let refuse = |m: String| Err(ActionError::new(ErrorCode::NotAllowed, m));
    if tournament.started.is_none() {
        return refuse("the tournament has not started".into());
    }
    if tournament.finished.is_some() {
        return refuse("the tournament is finished: there is no next round to pair".into());
    }
    let total = report::total_rounds(tournament);
    if tournament.rounds.len() >= usize::from(total) {
        return refuse(format!("all {total} rounds are paired"));
    }
    if let Some((n, round)) = tournament.rounds.iter().enumerate().next_back() {
        let going = round
            .boards
            .iter()
            .filter(|b| report::board_codes(b, &tournament.changed, games).is_none())
            .count();
        if going > 0 {
            return refuse(format!(
                "round {} has {going} game{} still going",
                n + 1,
                if going == 1 { "" } else { "s" }
            ));
        }
    }
    Ok(())
}

/// The pairing of the next round by the tournament's system.
///
/// # Errors
///
/// `not_allowed` when the pairing has nobody to pair or the system
/// refuses (every round paired, too many players).
fn pairing(
    tournament: &Tournament,
    games: &HashMap<String, Outcome>,
) -> Result<RoundPairing, ActionError> {
    let refuse = |m: String| ActionError::new(ErrorCode::NotAllowed, m);
    let next = tournament.rounds.len() + 1;
    match tournament.system {
        System::Swiss { baku, .. } => {
            let trf = report::trf_of(tournament, games, Purpose::Pairing);
            let method = if baku { Method::Baku } else { Method::None };
            let pairing = dutch::pair_with(&trf, method).map_err(|e| refuse(e.to_string()))?;
            // One pairing-allocated bye at most (C.04.1 b): more players
            // left out means no pairing meets the absolute criteria.
            if pairing.byes.len() > 1 {
                return Err(refuse(format!(
                    "no pairing meets the absolute criteria (C.04.3 C1-C3): {} players \
                     would be left without a game",
                    pairing.byes.len()
                )));
            }
            Ok(pairing)
        }
        System::RoundRobin => berger::round(tournament.players.len(), next, cycles(tournament))
            .map_err(|e| refuse(e.to_string())),
        System::Knockout => Err(refuse(
            "a knockout's bracket pairs each match by itself".into(),
        )),
        System::Arena { .. } => Err(refuse(
            "an arena pairs its waiting players by itself, continuously".into(),
        )),
    }
}

/// The account of pairing number `n`.
fn account(tournament: &Tournament, n: PairingNumber) -> Option<i64> {
    tournament.players.get(n.index()).map(|p| p.id)
}

/// The round `pairing` makes: boards with their games' ids (none for a
/// board with a withdrawn player, which is forfeited), and the byes.
fn round_of(tournament: &Tournament, pairing: &RoundPairing, now: u64) -> Round {
    let next = u16::try_from(tournament.rounds.len() + 1).unwrap_or(u16::MAX);
    let mut boards = Vec::with_capacity(pairing.games.len());
    for game in &pairing.games {
        let (Some(white), Some(black)) = (
            account(tournament, game.white),
            account(tournament, game.black),
        ) else {
            continue;
        };
        let gone = [white, black].map(|p| tournament.is_withdrawn(p));
        let result = match gone {
            [false, false] => None,
            [false, true] => Some("+-"),
            [true, false] => Some("-+"),
            [true, true] => Some("--"),
        };
        boards.push(Board {
            white,
            black,
            game: result.is_none().then(|| random_code(GAME_ID)),
            result: result.map(str::to_owned),
        });
    }
    let allocated = match tournament.system {
        // C.04.1 b: the pairing-allocated bye scores as a win.
        System::Swiss { .. } => ByeKind::Pairing,
        // A round robin's free round scores nothing.
        System::RoundRobin | System::Knockout | System::Arena { .. } => ByeKind::Zero,
    };
    let mut byes: Vec<RoundBye> = pairing
        .byes
        .iter()
        .filter_map(|n| account(tournament, *n))
        .map(|player| RoundBye {
            player,
            kind: allocated,
        })
        .collect();
    byes.extend(
        tournament
            .byes
            .iter()
            .filter(|b| b.round == next && !tournament.is_withdrawn(b.player))
            .map(|b| RoundBye {
                player: b.player,
                kind: b.kind,
            }),
    );
    Round {
        started: now,
        boards,
        byes,
        finished: None,
    }
}

/// Pairs the next round of `tournament` (the caller has checked with
/// [`ensure_pairable`]) and adds it; its games are made by
/// [`start_missing`] once the tournament is stored.
///
/// # Errors
///
/// `not_allowed` when the system cannot pair the round.
pub async fn pair_next(
    tournament: &mut Tournament,
    games: &HashMap<String, Outcome>,
    now: u64,
) -> Result<u16, ActionError> {
    let t = tournament.clone();
    let g = games.clone();
    // A large Swiss round takes a while: off the async workers.
    let pairing = tokio::task::spawn_blocking(move || pairing(&t, &g))
        .await
        .map_err(|e| ActionError::new(ErrorCode::Internal, e.to_string()))??;
    let round = round_of(tournament, &pairing, now);
    tournament.rounds.push(round);
    Ok(u16::try_from(tournament.rounds.len()).unwrap_or(u16::MAX))
}

/// Every round of a round robin at once (a correspondence section):
/// the boards of all rounds, games' ids chosen.
///
/// # Errors
///
/// `bad_request` for fewer than two players.
pub fn all_rounds(tournament: &mut Tournament, now: u64) -> Result<(), ActionError> {
    let bad = |e: berger::BergerError| ActionError::new(ErrorCode::BadRequest, e.to_string());
    let n = tournament.players.len();
    for round in 1..=berger::rounds_in(n, cycles(tournament)) {
        let pairing = berger::round(n, round, cycles(tournament)).map_err(bad)?;
        let round = round_of(tournament, &pairing, now);
        tournament.rounds.push(round);
    }
    Ok(())
}

/// The setup of a game of `tournament` between `white` and `black`.
///
/// # Errors
///
/// `bad_request` when the tournament's control no longer passes the
/// server's limits.
pub(crate) fn game_setup(
    shared: &Shared,
    tournament: &Tournament,
    control: &str,
    white: &Entrant,
    black: &Entrant,
) -> Result<GameSetup, ActionError> {
    let player = |e: &Entrant| Player {
        id: e.id,
        name: e.name.clone(),
        bot: false,
        rating: None,
    };
    let mut setup = GameSetup::between(
        [Some(player(white)), Some(player(black))],
        control,
        tournament.rated,
        None,
        &shared.limits,
    )?;
    setup.rules = tournament
        .rules
        .parse()
        .map_err(|e| ActionError::new(ErrorCode::BadRequest, format!("rules: {e}")))?;
    setup.chess960 = match tournament.start {
        Start::Standard => None,
        Start::Chess960EachGame => Some(rand::rng().random_range(0..960)),
        Start::Chess960 { number } => Some(number),
    };
    setup.tournament = Some(tournament.terms());
    // A move made in a tournament stays made (4.7), rated or not: no
    // take-backs.
    setup.casual = false;
    Ok(setup)
}

/// A game a tournament names, to be made in the rooms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    /// The game's id.
    pub id: String,
    /// White's account.
    pub white: i64,
    /// Black's account.
    pub black: i64,
    /// Its time control.
    pub control: String,
    /// The PGN's `Round`, if it has one.
    pub round: Option<String>,
}

/// Makes the games of `named` that do not exist yet in `games` (those
/// of players no longer entered aside); their ids.
///
/// # Errors
///
/// What making a game refuses (storage; a control the server's limits no
/// longer allow).
pub(crate) async fn make_missing(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    games: &HashMap<String, Outcome>,
    named: Vec<Named>,
) -> Result<Vec<String>, ActionError> {
    let mut made = Vec::new();
    for game in named {
        if games.contains_key(&game.id) {
            continue;
        }
        let (Some(white), Some(black)) = (
            tournament.entrant(game.white),
            tournament.entrant(game.black),
        ) else {
            continue;
        };
        let mut setup = game_setup(shared, tournament, &game.control, white, black)?;
        setup.id = game.id;
        if let Some(terms) = &mut setup.tournament {
            terms.round = game.round;
        }
        made.push(crate::challenges::flow::start(shared, setup, SERVER).await?);
    }
    Ok(made)
}

/// Makes the games of `tournament`'s rounds that do not exist yet (all
/// of them right after a pairing; the rest after a stop in between);
/// their ids.
///
/// # Errors
///
/// What making a game refuses.
pub async fn start_missing(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    games: &HashMap<String, Outcome>,
) -> Result<Vec<String>, ActionError> {
    let named = tournament.rounds.iter().enumerate().flat_map(|(r, round)| {
        round.boards.iter().filter_map(move |board| {
            Some(Named {
                id: board.game.clone()?,
                white: board.white,
                black: board.black,
                control: tournament.time_control.clone(),
                round: tournament.by_round.then(|| (r + 1).to_string()),
            })
        })
    });
    make_missing(shared, tournament, games, named.collect()).await
}
