//! Knockout events on the server, by [`rochade_tournament::knockout`]:
//! players seeded by rating into a bracket of the next power of two
//! (byes to the top seeds), each match the organiser's standard games
//! then tie-break stages (rapid, blitz, an Armageddon in which a draw
//! counts for Black), the next game of a match started as soon as the
//! last one ends, the colours of each stage drawn by lot.
//!
//! The bracket is not stored: what happened to it is ([`KnockoutLog`]:
//! each drawing of colours, each result, each withdrawal, in order), and
//! it is played again from that log whenever it is needed, so that it is
//! always the library's own state. Each game the server starts for a
//! match is stored with it before the game is made ([`KnockoutGame`]),
//! as a Swiss round is.

use std::collections::HashMap;
use std::sync::Arc;

use rand::Rng;
use rochade_tournament::PairingNumber;
use rochade_tournament::knockout::{
    Bracket, BracketMatch, Entrant, GameResult, MatchFormat, MatchId, Next, Play, Repeat, Rules,
    Stage, StageKind,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Tournament;
use super::report::{Outcome, board_codes};
use crate::error::{ActionError, ErrorCode};
use crate::limits::Limits;
use crate::rooms::Shared;
use crate::setup::checked_control;

/// Most tie-break stages.
const MAX_STAGES: usize = 6;

/// Most games in a stage.
const MAX_GAMES: u16 = 20;

/// A knockout's matches as the organiser sets them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnockoutSpec {
    /// Standard games in each match (at the tournament's time control).
    pub games: u16,
    /// The tie-break stages, in order.
    #[serde(default)]
    pub tie_breaks: Vec<StageSpec>,
    /// A match for third place between the semi-finals' losers.
    #[serde(default)]
    pub third_place: bool,
}

/// A tie-break stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageSpec {
    /// `rapid`, `blitz` or `armageddon`.
    pub kind: String,
    /// Games in the stage (an Armageddon is one).
    #[serde(default = "one")]
    pub games: u16,
    /// Its time control.
    pub time_control: String,
    /// Played again until a block decides (sudden death).
    #[serde(default)]
    pub until_decided: bool,
}

/// Serde's default for [`StageSpec::games`].
fn one() -> u16 {
    1
}

impl KnockoutSpec {
    /// The library's match format, every time control checked against
    /// the server's limits.
    ///
    /// ```
    /// use rochade_server::limits::Limits;
    /// use rochade_server::tournaments::knockout::{KnockoutSpec, StageSpec};
    ///
    /// let spec = KnockoutSpec {
    ///     games: 2,
    ///     tie_breaks: vec![StageSpec {
    ///         kind: "armageddon".into(),
    ///         games: 1,
    ///         time_control: "5+2".into(),
    ///         until_decided: false,
    ///     }],
    ///     third_place: false,
    /// };
    /// assert_eq!(spec.format("15+10", &Limits::default()).unwrap().stages().len(), 2);
    /// let tied = KnockoutSpec { tie_breaks: vec![], ..spec };
    /// assert!(tied.format("15+10", &Limits::default()).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// `bad_request` naming the stage that is wrong: an unknown kind, a
    /// control the server refuses, no games, an Armageddon of more than
    /// one game, a stage never reached, or a last stage that can end
    /// tied.
    pub fn format(&self, control: &str, limits: &Limits) -> Result<MatchFormat, ActionError> {
        for (i, s) in self.tie_breaks.iter().enumerate() {
            checked_control(&s.time_control, limits).map_err(|e| {
                ActionError::new(
                    ErrorCode::BadRequest,
                    format!("knockout.tie_breaks[{i}].{}", e.message),
                )
            })?;
        }
        self.stored_format(control)
    }

    /// The library's match format from settings checked when they were
    /// made.
    ///
    /// # Errors
    ///
    /// As [`KnockoutSpec::format`], but for the time controls.
    fn stored_format(&self, control: &str) -> Result<MatchFormat, ActionError> {
        let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(bad(format!(
                "knockout.games: 1 to {MAX_GAMES}, not {}",
                self.games
            )));
        }
        if self.tie_breaks.len() > MAX_STAGES {
            return Err(bad(format!(
                "knockout.tie_breaks: at most {MAX_STAGES} stages"
            )));
        }
        let mut stages = Vec::with_capacity(self.tie_breaks.len());
        for (i, s) in self.tie_breaks.iter().enumerate() {
            let field = format!("knockout.tie_breaks[{i}]");
            let kind = match s.kind.as_str() {
                "rapid" => StageKind::Rapid,
                "blitz" => StageKind::Blitz,
                "armageddon" => StageKind::Armageddon,
                other => {
                    return Err(bad(format!(
                        "{field}.kind: `{other}` is not rapid, blitz or armageddon"
                    )));
                }
            };
            if !(1..=MAX_GAMES).contains(&s.games) {
                return Err(bad(format!(
                    "{field}.games: 1 to {MAX_GAMES}, not {}",
                    s.games
                )));
            }
            let mut stage = Stage::new(kind, s.games, s.time_control.clone());
            if s.until_decided {
                stage = stage.repeat(Repeat::UntilDecided);
            }
            stages.push(stage);
        }
        let standard = Stage::new(StageKind::Standard, self.games, control);
        MatchFormat::new(standard, stages).map_err(|e| bad(format!("knockout: {e}")))
    }

    /// The library's rules for the bracket.
    ///
    /// # Errors
    ///
    /// As [`KnockoutSpec::format`].
    fn rules(&self, control: &str) -> Result<Rules, ActionError> {
        let format = self.stored_format(control)?;
        let rules = Rules::new(format.clone());
        Ok(if self.third_place {
            rules.third_place(format)
        } else {
            rules
        })
    }
}

/// What happened to a bracket, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "act")]
pub enum KnockoutAct {
    /// The lot gave White in a stage's first game to `white`.
    Colours {
        /// The match (`1.2`, `third place`).
        id: String,
        /// White's seed.
        white: u16,
    },
    /// A game of the match ended.
    Result {
        /// The match.
        id: String,
        /// `1-0`, `1/2-1/2`, `0-1`, `+-`, `-+`, `--`.
        result: String,
    },
    /// A player left the event.
    Withdraw {
        /// Their seed.
        player: u16,
    },
}

/// A game the server started for a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutGame {
    /// The match.
    pub id: String,
    /// The game within the match (1-based).
    pub number: usize,
    /// Its stage (0-based; 0 the standard games).
    pub stage: usize,
    /// The game.
    pub game: String,
    /// White's account.
    pub white: i64,
    /// Black's account.
    pub black: i64,
    /// Its result has been entered in the log.
    #[serde(default)]
    pub recorded: bool,
}

/// A knockout's log and games.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutLog {
    /// The acts, in order.
    #[serde(default)]
    pub acts: Vec<KnockoutAct>,
    /// The games started.
    #[serde(default)]
    pub games: Vec<KnockoutGame>,
}

/// The match named `key`.
fn match_id(key: &str) -> Option<MatchId> {
    if key == "third place" {
        return Some(MatchId::ThirdPlace);
    }
    let (round, number) = key.split_once('.')?;
    Some(MatchId::Round {
        round: round.parse().ok()?,
        number: number.parse().ok()?,
    })
}

/// A seed's pairing number.
fn seed(n: u16) -> Result<PairingNumber, ActionError> {
    PairingNumber::new(n)
        .ok_or_else(|| ActionError::new(ErrorCode::Internal, format!("seed {n} out of range")))
}

/// A refusal from the bracket.
fn refused(e: impl std::fmt::Display) -> ActionError {
    ActionError::new(ErrorCode::NotAllowed, e.to_string())
}

/// The bracket as `tournament`'s log leaves it.
///
/// # Errors
///
/// `bad_request` for a tournament that is not a knockout; `not_allowed`
/// when the log does not replay (a stored state the library refuses).
pub fn bracket(tournament: &Tournament) -> Result<Bracket, ActionError> {
    let spec = tournament.knockout.as_ref().ok_or_else(|| {
        ActionError::new(ErrorCode::BadRequest, "the tournament is not a knockout")
    })?;
    let rules = spec.rules(&tournament.time_control)?;
    let mut bracket = Bracket::new(tournament.players.len(), rules).map_err(refused)?;
    for act in &tournament.ko.acts {
        match act {
            KnockoutAct::Colours { id, white } => {
                let id = match_id(id).ok_or_else(|| refused(format!("no match {id}")))?;
                bracket.set_colours(id, seed(*white)?).map_err(refused)?;
            }
            KnockoutAct::Result { id, result } => {
                let id = match_id(id).ok_or_else(|| refused(format!("no match {id}")))?;
                let result: GameResult = result.parse().map_err(refused)?;
                bracket.record(id, result).map_err(refused)?;
            }
            KnockoutAct::Withdraw { player } => {
                bracket.withdraw(seed(*player)?).map_err(refused)?
            }
        }
    }
    Ok(bracket)
}

/// The account of seed `n`.
fn account(tournament: &Tournament, n: PairingNumber) -> Option<i64> {
    tournament.players.get(n.index()).map(|p| p.id)
}

/// The result of a finished game as the knockout reads it.
fn result_of(game: &KnockoutGame, games: &HashMap<String, Outcome>) -> Option<String> {
    let board = super::Board {
        white: game.white,
        black: game.black,
        game: Some(game.game.clone()),
        result: None,
    };
    use rochade_tournament::trf::ResultCode::{ForfeitLoss, ForfeitWin, Loss, Win};
    let codes = board_codes(&board, &[], games)?;
    Some(
        match codes {
            (ForfeitWin, _) => "+-",
            (_, ForfeitWin) => "-+",
            (ForfeitLoss, ForfeitLoss) => "--",
            (Win | rochade_tournament::trf::ResultCode::WinUnrated, _) => "1-0",
            (Loss | rochade_tournament::trf::ResultCode::LossUnrated, _) => "0-1",
            _ => "1/2-1/2",
        }
        .to_owned(),
    )
}

/// Moves `tournament`'s bracket on as far as it goes: enters the results
/// of the games that ended, draws the colours a stage waits for, and
/// names the games to start (stored with the tournament by the caller,
/// then made by [`start_missing`]). Whether anything changed.
///
/// # Errors
///
/// What [`bracket`] refuses.
pub fn advance(
    tournament: &mut Tournament,
    games: &HashMap<String, Outcome>,
    now: u64,
) -> Result<bool, ActionError> {
    let mut changed = false;
    let mut played = bracket(tournament)?;
    for i in 0..tournament.ko.games.len() {
        let game = &tournament.ko.games[i];
        if game.recorded {
            continue;
        }
        if let Some(result) = result_of(game, games) {
            let id = game.id.clone();
            // A match decided meanwhile (a withdrawal) takes no result.
            let entered = match (match_id(&id), result.parse::<GameResult>()) {
                (Some(m), Ok(r)) => played.record(m, r).is_ok(),
                _ => false,
            };
            if entered {
                tournament.ko.acts.push(KnockoutAct::Result { id, result });
            }
            tournament.ko.games[i].recorded = true;
            changed = true;
        }
    }
    loop {
        let bracket = bracket(tournament)?;
        let mut next_act = None;
        let mut to_start = Vec::new();
        for (id, next) in bracket.pending() {
            let key = id.to_string();
            match next {
                Next::DrawColours { .. } if next_act.is_none() => {
                    let Some(m) = bracket.get(id) else { continue };
                    let Some((upper, lower)) = m.players() else {
                        continue;
                    };
                    let white = if rand::rng().random_bool(0.5) {
                        upper
                    } else {
                        lower
                    };
                    next_act = Some(KnockoutAct::Colours {
                        id: key,
                        white: white.get(),
                    });
                }
                Next::Game(game) if !tournament.paused => {
                    let started = tournament
                        .ko
                        .games
                        .iter()
                        .any(|g| g.id == key && g.number == game.number);
                    if !started
                        && let (Some(white), Some(black)) = (
                            account(tournament, game.white),
                            account(tournament, game.black),
                        )
                    {
                        to_start.push(KnockoutGame {
                            id: key,
                            number: game.number,
                            stage: game.stage,
                            game: crate::setup::random_code(8),
                            white,
                            black,
                            recorded: false,
                        });
                    }
                }
                _ => {}
            }
        }
        if !to_start.is_empty() {
            tournament.ko.games.extend(to_start);
            changed = true;
        }
        match next_act {
            Some(act) => {
                tournament.ko.acts.push(act);
                changed = true;
            }
            None => {
                if bracket.is_finished() && tournament.finished.is_none() {
                    tournament.finished = Some(now);
                    changed = true;
                }
                return Ok(changed);
            }
        }
    }
}

/// The time control of stage `stage` of `tournament`'s matches.
fn stage_control(tournament: &Tournament, stage: usize) -> String {
    match stage.checked_sub(1) {
        None => tournament.time_control.clone(),
        Some(i) => tournament
            .knockout
            .as_ref()
            .and_then(|k| k.tie_breaks.get(i))
            .map_or_else(
                || tournament.time_control.clone(),
                |s| s.time_control.clone(),
            ),
    }
}

/// Makes the knockout's games that do not exist yet; their ids.
///
/// # Errors
///
/// What making a game refuses.
pub async fn start_missing(
    shared: &Arc<Shared>,
    tournament: &Tournament,
    games: &HashMap<String, Outcome>,
) -> Result<Vec<String>, ActionError> {
    let named = tournament.ko.games.iter().map(|g| {
        // The match, then the game within it: `1.2.3`.
        let id = if g.id == "third place" { "3rd" } else { &g.id };
        super::rounds::Named {
            id: g.game.clone(),
            white: g.white,
            black: g.black,
            control: stage_control(tournament, g.stage),
            round: Some(format!("{id}.{}", g.number)),
        }
    });
    super::rounds::make_missing(shared, tournament, games, named.collect()).await
}

/// One side of a match as JSON.
fn side(tournament: &Tournament, entrant: Entrant) -> Value {
    match entrant {
        Entrant::Player(n) => {
            let p = tournament.players.get(n.index());
            json!({"seed": n.get(), "name": p.map(|p| p.name.clone()), "id": p.map(|p| p.id)})
        }
        Entrant::Nobody => json!({"nobody": true}),
        Entrant::Undecided => Value::Null,
    }
}

/// One match as JSON: its players, games (with results), and how it
/// stands.
fn match_json(
    tournament: &Tournament,
    bracket: &Bracket,
    m: &BracketMatch,
    games: &HashMap<String, Outcome>,
) -> Value {
    let key = m.id().to_string();
    let (upper, lower) = bracket
        .entrants(m.id())
        .unwrap_or((Entrant::Undecided, Entrant::Undecided));
    let played: Vec<Value> = tournament
        .ko
        .games
        .iter()
        .filter(|g| g.id == key)
        .map(|g| {
            let name = |id: i64| tournament.entrant(id).map(|p| p.name.clone());
            json!({
                "number": g.number,
                "stage": g.stage,
                "game": g.game,
                // Named, and made in the rooms.
                "started": games.contains_key(&g.game),
                "white": name(g.white),
                "black": name(g.black),
                "result": result_of(g, games),
            })
        })
        .collect();
    let state = match m.play() {
        Play::Waiting => "waiting",
        Play::Bye { .. } => "bye",
        Play::Match(_) if m.winner() != Entrant::Undecided => "decided",
        Play::Match(_) => "playing",
    };
    json!({
        "id": key,
        "upper": side(tournament, upper),
        "lower": side(tournament, lower),
        "state": state,
        "winner": side(tournament, m.winner()),
        "games": played,
    })
}

/// The bracket as the page shows it: the stages of a match, then each
/// round's matches in order, and the match for third place.
pub fn bracket_json(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Value {
    let Ok(bracket) = bracket(tournament) else {
        return Value::Null;
    };
    let stages: Vec<String> = bracket
        .rules()
        .matches
        .stages()
        .iter()
        .map(ToString::to_string)
        .collect();
    let rounds: Vec<Value> = (1..=bracket.rounds())
        .map(|r| {
            let matches: Vec<Value> = bracket
                .round(r)
                .unwrap_or_default()
                .iter()
                .map(|m| match_json(tournament, &bracket, m, games))
                .collect();
            json!({"round": r, "matches": matches})
        })
        .collect();
    json!({
        "stages": stages,
        "rounds": rounds,
        "thirdPlace": bracket.third_place().map(|m| match_json(tournament, &bracket, m, games)),
        "champion": bracket.champion().map(|n| side(tournament, Entrant::Player(n))),
    })
}

/// Withdraws `player` from `tournament`'s bracket (the opponent of the
/// match in play goes through).
///
/// # Errors
///
/// `not_allowed` for a player with no match left; nothing changes then.
pub fn withdraw(tournament: &mut Tournament, player: i64) -> Result<(), ActionError> {
    let at = tournament
        .players
        .iter()
        .position(|p| p.id == player)
        .ok_or_else(|| refused("not a player of this tournament"))?;
    let n = u16::try_from(at + 1).map_err(refused)?;
    tournament.ko.acts.push(KnockoutAct::Withdraw { player: n });
    if let Err(e) = bracket(tournament) {
        tournament.ko.acts.pop();
        return Err(e);
    }
    Ok(())
}

/// The standings of a knockout: by the round each player reached (the
/// champion first; with a match for third place, its winner third),
/// then by seed; `points` are matches won.
pub fn standings_rows(tournament: &Tournament) -> Vec<Value> {
    let Ok(bracket) = bracket(tournament) else {
        return Vec::new();
    };
    let n = tournament.players.len();
    // (stage reached, matches won) by seed index.
    let mut reached = vec![(0usize, 0u32); n];
    for r in 1..=bracket.rounds() {
        for m in bracket.round(r).unwrap_or_default() {
            if let Some((a, b)) = bracket.entrants(m.id()) {
                for e in [a, b] {
                    if let Entrant::Player(p) = e {
                        reached[p.index()].0 = reached[p.index()].0.max(2 * r);
                    }
                }
            }
            if let (Entrant::Player(w), Play::Match(_)) = (m.winner(), m.play()) {
                reached[w.index()].1 += 1;
            }
        }
    }
    if let Some(w) = bracket.champion() {
        reached[w.index()].0 += 2;
    }
    if let Some(third) = bracket.third_place()
        && let Entrant::Player(w) = third.winner()
    {
        reached[w.index()].0 += 1;
        reached[w.index()].1 += 1;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|a, b| reached[*b].0.cmp(&reached[*a].0).then(a.cmp(b)));
    let mut rows = Vec::with_capacity(n);
    for (place, &i) in order.iter().enumerate() {
        let rank = match rows.last() {
            Some(last) if reached[order[place - 1]].0 == reached[i].0 => last_rank(last),
            _ => place + 1,
        };
        let p = &tournament.players[i];
        rows.push(json!({
            "rank": rank,
            "number": i + 1,
            "id": p.id,
            "name": p.name,
            "rating": p.rating,
            "points": reached[i].1,
            "tiebreaks": [],
            "withdrawn": tournament.is_withdrawn(p.id),
            "finished": tournament.ko.games.iter()
                .filter(|g| g.recorded && (g.white == p.id || g.black == p.id)).count(),
            "rounds": [],
        }));
    }
    rows
}

/// The rank of a standings row.
fn last_rank(row: &Value) -> usize {
    row["rank"]
        .as_u64()
        .and_then(|r| usize::try_from(r).ok())
        .unwrap_or(1)
}
