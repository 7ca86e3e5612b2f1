//! A started section: every game of the round robin, by the FIDE Berger
//! tables (C.05), begins at once, as ICCF sections do; a double round
//! robin plays each pairing twice with colours reversed.

use std::net::IpAddr;
use std::sync::Arc;

use rand::Rng;
use rochade_tournament::berger::{self, Cycles};

use super::{Entrant, Start, Tournament};
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::setup::{GameSetup, Player};

/// The pairings of every round of a round robin of `players`: (white,
/// black) as indices into the list, round 1 first.
///
/// ```
/// use rochade_server::tournaments::sections::pairings;
/// let games = pairings(4, false).unwrap();
/// assert_eq!(games.len(), 6); // everyone meets everyone once
/// assert_eq!(pairings(3, true).unwrap().len(), 6); // twice, colours reversed
/// ```
///
/// # Errors
///
/// `bad_request` for fewer than two players.
pub fn pairings(players: usize, double: bool) -> Result<Vec<(usize, usize)>, ActionError> {
    let cycles = if double {
        Cycles::Double
    } else {
        Cycles::Single
    };
    let bad = |e: berger::BergerError| ActionError::new(ErrorCode::BadRequest, e.to_string());
    let mut games = Vec::new();
    for round in 1..=berger::rounds_in(players, cycles) {
        for game in berger::round(players, round, cycles).map_err(bad)?.games {
            games.push((
                usize::from(game.white.get()) - 1,
                usize::from(game.black.get()) - 1,
            ));
        }
    }
    Ok(games)
}

/// The setup of a game of `tournament` between `white` and `black`.
///
/// # Errors
///
/// `bad_request` when the tournament's control no longer passes the
/// server's limits.
fn game_setup(
    shared: &Shared,
    tournament: &Tournament,
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
        &tournament.time_control,
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
    Ok(setup)
}

/// Starts every game of `tournament`, created by its director from
/// address `from`; the games' ids, in round order.
///
/// # Errors
///
/// `bad_request` for fewer than two players; what creating a game
/// refuses (storage). Games created before a failure stay and the
/// tournament is marked started with them.
pub async fn start(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    from: IpAddr,
) -> Result<Vec<String>, ActionError> {
    let mut ids = Vec::new();
    for (white, black) in pairings(tournament.players.len(), tournament.double)? {
        let setup = game_setup(
            shared,
            tournament,
            &tournament.players[white],
            &tournament.players[black],
        )?;
        ids.push(crate::challenges::flow::start(shared, setup, from).await?);
    }
    Ok(ids)
}
