//! `POST /api/tournaments`: a site director creates a tournament with the
//! organiser's settings, each checked: the format (a round robin, single
//! or double, or a Swiss of N rounds with Baku acceleration on request),
//! the time control and rules, rated or not, the start (by the director,
//! or at a time), the break between rounds, who may join by themselves
//! (rating range, account age), the tie-breaks in order, the byes a
//! player may ask for, and for correspondence the ICCF terms (Triple
//! Block, draws from move N, silence days).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use rand::Rng;
use rochade_laws::clock::Scale;
use serde::Deserialize;
use serde_json::Value;

use super::http::{account, tournament_json};
use super::standings::checked_order;
use super::{Entry, NAME_CHARS, Start, System, Tournament};
use crate::accounts::http::signed_in_user;
use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::setup::{checked_control, checked_name, random_code, rules_for};

/// Most rounds of a Swiss.
pub const MAX_ROUNDS: u16 = 50;

/// The longest break between rounds: a day.
pub const MAX_BREAK_SECS: u32 = 86_400;

/// The default time (6.7.1) of a live event's games when the organiser
/// gives none, seconds.
pub const DEFAULT_SECS: u32 = 60;

/// How far ahead a start may be set: a year.
const MAX_AHEAD_MS: u64 = 366 * 86_400_000;

/// The body of `POST /api/tournaments`, and the settings of `POST
/// /api/tournaments/{id}/settings`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewTournament {
    /// Its name.
    name: String,
    /// The time control of every game.
    time_control: String,
    /// `iccf`, `fide` or `fide2009`; ICCF's for a control in days.
    #[serde(default)]
    rules: Option<String>,
    /// Rated (default true).
    #[serde(default = "yes")]
    rated: bool,
    /// `round_robin` (the default), `swiss` or `knockout`.
    #[serde(default)]
    system: Option<String>,
    /// A knockout's matches.
    #[serde(default)]
    knockout: Option<super::knockout::KnockoutSpec>,
    /// A Swiss's rounds.
    #[serde(default)]
    rounds: Option<u16>,
    /// How long an arena runs, in minutes.
    #[serde(default)]
    minutes: Option<u16>,
    /// Baku acceleration for a Swiss (C.04.5.1).
    #[serde(default)]
    baku: bool,
    /// A double round robin.
    #[serde(default)]
    double: bool,
    /// Round by round (the default but for a correspondence round robin,
    /// whose games all begin at once).
    #[serde(default)]
    by_round: Option<bool>,
    /// When it starts by itself (Unix ms).
    #[serde(default)]
    starts_at: Option<u64>,
    /// Seconds between rounds (default 60 for live play, 0 for
    /// correspondence).
    #[serde(default)]
    break_secs: Option<u32>,
    /// Who may join by themselves.
    #[serde(default)]
    entry: Option<Entry>,
    /// The tie-breaks, in order (C.07 short names).
    #[serde(default)]
    tiebreaks: Option<Vec<String>>,
    /// How many half- or full-point byes a player may ask for.
    #[serde(default)]
    max_byes: Option<u8>,
    /// Triple Block (appendix C).
    #[serde(default)]
    triple_block: bool,
    /// Agreed draws from this move on (9.1.1).
    #[serde(default)]
    draws_from_move: Option<u32>,
    /// `null`, `"each_game"` (a Chess960 position per game), `"random"`
    /// (one drawn for the event) or a number 0–959.
    #[serde(default)]
    chess960: Option<Value>,
    /// Days without a move before a game needs the director.
    #[serde(default)]
    silence_days: Option<u32>,
    /// The default time of live games (6.7.1), seconds: 10–3600, or 0
    /// for none (the clock decides); 60 when left out. None in
    /// correspondence.
    #[serde(default)]
    default_secs: Option<u32>,
    /// The director's account name (default: the creator).
    #[serde(default)]
    pub(super) director: Option<String>,
}

/// Serde's default `true`.
fn yes() -> bool {
    true
}

/// A refusal naming what is wrong.
fn bad(message: String) -> ActionError {
    ActionError::new(ErrorCode::BadRequest, message)
}

/// A start time `at` (Unix ms) checked at server time `now`: after now
/// and within a year.
///
/// # Errors
///
/// `bad_request` naming `starts_at` otherwise.
///
/// ```
/// use rochade_server::tournaments::create::checked_start;
/// let now = 1_800_000_000_000;
/// assert!(checked_start(now + 3_600_000, now).is_ok());
/// assert!(checked_start(now, now).is_err());
/// assert!(checked_start(now + 400 * 86_400_000, now).is_err());
/// ```
pub fn checked_start(at: u64, now: u64) -> Result<u64, ActionError> {
    if at <= now || at > now.saturating_add(MAX_AHEAD_MS) {
        return Err(bad(format!(
            "starts_at: a time (Unix ms) after now ({now}) and within a year, not {at}"
        )));
    }
    Ok(at)
}

/// The start a request asks for.
fn start_of(chess960: Option<&Value>) -> Result<Start, ActionError> {
    match chess960 {
        None | Some(Value::Null) => Ok(Start::Standard),
        Some(Value::String(s)) if s == "each_game" => Ok(Start::Chess960EachGame),
        Some(Value::String(s)) if s == "random" => Ok(Start::Chess960 {
            number: rand::rng().random_range(0..960),
        }),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n < 960) => Ok(Start::Chess960 {
            number: n.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or(0),
        }),
        Some(other) => Err(bad(format!(
            "chess960: `{other}` is not null, \"each_game\", \"random\" or 0–959"
        ))),
    }
}

/// The pairing system asked for.
fn system_of(asked: &NewTournament) -> Result<System, ActionError> {
    match asked.system.as_deref().unwrap_or("round_robin") {
        "round_robin" => {
            if asked.rounds.is_some() || asked.baku {
                return Err(bad(
                    "rounds: a round robin has as many rounds as its players make (C.05)".into(),
                ));
            }
            Ok(System::RoundRobin)
        }
        "swiss" => {
            if asked.double {
                return Err(bad("double: only a round robin is played twice".into()));
            }
            let rounds = asked
                .rounds
                .ok_or_else(|| bad("rounds: a Swiss needs its number of rounds".into()))?;
            if !(1..=MAX_ROUNDS).contains(&rounds) {
                return Err(bad(format!("rounds: 1 to {MAX_ROUNDS}, not {rounds}")));
            }
            Ok(System::Swiss {
                rounds,
                baku: asked.baku,
            })
        }
        "knockout" => {
            if asked.rounds.is_some() || asked.baku || asked.double {
                return Err(bad(
                    "rounds: a knockout has as many rounds as its bracket needs".into(),
                ));
            }
            if asked.knockout.is_none() {
                return Err(bad(
                    "knockout: a knockout needs its matches: {\"games\", \"tie_breaks\"}".into(),
                ));
            }
            Ok(System::Knockout)
        }
        "arena" => super::arena::settings::system(asked.minutes, asked.rounds, asked.double),
        other => Err(bad(format!(
            "system: `{other}` is not \"round_robin\", \"swiss\", \"knockout\" or \"arena\""
        ))),
    }
}

/// The entry conditions, checked.
fn entry_of(entry: Option<Entry>) -> Result<Entry, ActionError> {
    let entry = entry.unwrap_or_default();
    if let (Some(low), Some(high)) = (entry.min_rating, entry.max_rating)
        && low > high
    {
        return Err(bad(format!(
            "entry: the least rating {low} is above the highest {high}"
        )));
    }
    if entry.min_account_days.is_some_and(|d| d > 3650) {
        return Err(bad("entry.min_account_days: at most 3650".into()));
    }
    Ok(entry)
}

/// The settings of an event, every one checked: what the organiser
/// gives at its creation, and may give again before its start
/// ([`super::settings`]). Each field is the [`Tournament`]'s of its name.
#[derive(Debug, Clone)]
pub(super) struct Settings {
    name: String,
    time_control: String,
    rules: String,
    rated: bool,
    double: bool,
    triple_block: bool,
    draws_from_move: Option<u32>,
    start: Start,
    silence_days: u32,
    system: System,
    by_round: bool,
    starts_at: Option<u64>,
    break_secs: u32,
    entry: Entry,
    tiebreaks: Vec<String>,
    max_byes: u8,
    knockout: Option<super::knockout::KnockoutSpec>,
    default_secs: Option<u32>,
}

impl Settings {
    /// Sets them on `tournament`.
    pub(super) fn apply(self, tournament: &mut Tournament) {
        tournament.name = self.name;
        tournament.time_control = self.time_control;
        tournament.rules = self.rules;
        tournament.rated = self.rated;
        tournament.double = self.double;
        tournament.triple_block = self.triple_block;
        tournament.draws_from_move = self.draws_from_move;
        tournament.start = self.start;
        tournament.silence_days = self.silence_days;
        tournament.system = self.system;
        tournament.by_round = self.by_round;
        tournament.starts_at = self.starts_at;
        tournament.break_secs = self.break_secs;
        tournament.entry = self.entry;
        tournament.tiebreaks = self.tiebreaks;
        tournament.max_byes = self.max_byes;
        tournament.knockout = self.knockout;
        tournament.default_secs = self.default_secs;
    }
}

/// The settings `asked` for at server time `now`, each checked.
///
/// # Errors
///
/// `bad_request` naming the field that is wrong.
pub(super) fn checked(
    asked: NewTournament,
    shared: &Shared,
    now: u64,
) -> Result<Settings, ActionError> {
    let name = checked_name(&asked.name, NAME_CHARS)?;
    let control = checked_control(&asked.time_control, &shared.limits)?;
    let correspondence = control.scale() == Scale::Days;
    let rules = rules_for(asked.rules.as_deref(), &control)?;
    if asked.triple_block && !correspondence {
        return Err(bad(
            "triple_block: Triple Block is a correspondence time system (appendix C)".into(),
        ));
    }
    if asked.draws_from_move == Some(0) {
        return Err(bad("draws_from_move: move numbers begin at 1".into()));
    }
    let default_secs = default_time(asked.default_secs, correspondence)?;
    let system = system_of(&asked)?;
    let by_round = match (asked.by_round, system) {
        (_, System::Arena { .. }) => false,
        (Some(false), System::Swiss { .. }) => {
            return Err(bad(
                "by_round: a Swiss is paired round by round, on the results so far".into(),
            ));
        }
        (Some(false), System::RoundRobin) if !correspondence => {
            return Err(bad(
                "by_round: a live event plays one round at a time (only correspondence games \
                 all begin at once)"
                    .into(),
            ));
        }
        (Some(false), System::Knockout) => {
            return Err(bad(
                "by_round: a knockout's matches begin as the bracket reaches them".into(),
            ));
        }
        (Some(b), _) => b,
        (None, System::Swiss { .. } | System::Knockout) => true,
        (None, System::RoundRobin) => !correspondence,
    };
    if let Some(at) = asked.starts_at {
        checked_start(at, now)?;
    }
    let break_secs = asked
        .break_secs
        .unwrap_or(if correspondence { 0 } else { 60 });
    if break_secs > MAX_BREAK_SECS {
        return Err(bad(format!(
            "break_secs: at most {MAX_BREAK_SECS}, not {break_secs}"
        )));
    }
    let tiebreaks = checked_order(&asked.tiebreaks.unwrap_or_default())?;
    let max_byes = asked.max_byes.unwrap_or(0);
    if matches!(system, System::Arena { .. }) {
        super::arena::settings::check(&control, &tiebreaks, max_byes, asked.by_round)?;
    } else if asked.minutes.is_some() {
        return Err(bad("minutes: only an arena runs for a time".into()));
    }
    if let System::Swiss { rounds, .. } = system
        && u16::from(max_byes) > rounds
    {
        return Err(bad(format!(
            "max_byes: at most the {rounds} rounds, not {max_byes}"
        )));
    }
    if asked.knockout.is_some() && system != System::Knockout {
        return Err(bad("knockout: only a knockout has matches".into()));
    }
    if let Some(spec) = &asked.knockout {
        spec.format(&control.to_string(), &shared.limits)?;
    }
    Ok(Settings {
        name,
        time_control: control.to_string(),
        rules: rules.as_str().to_owned(),
        rated: asked.rated,
        double: asked.double,
        triple_block: asked.triple_block,
        draws_from_move: asked.draws_from_move,
        start: start_of(asked.chess960.as_ref())?,
        silence_days: asked.silence_days.unwrap_or(shared.limits.silence_days),
        system,
        by_round,
        starts_at: asked.starts_at,
        break_secs,
        entry: entry_of(asked.entry)?,
        tiebreaks,
        max_byes,
        knockout: asked.knockout,
        default_secs,
    })
}

/// The default time (6.7.1) `asked` for, checked: none in
/// correspondence (the clock decides, 6.7 of ICCF), 0 for none, 10 s to
/// an hour, [`DEFAULT_SECS`] when not given.
fn default_time(asked: Option<u32>, correspondence: bool) -> Result<Option<u32>, ActionError> {
    match asked {
        Some(n) if correspondence && n > 0 => Err(bad(
            "default_secs: a correspondence game has no default time: its clock decides".into(),
        )),
        _ if correspondence => Ok(None),
        Some(0) => Ok(None),
        Some(n) if !(10..=3600).contains(&n) => Err(bad(format!(
            "default_secs: 10 to 3600 seconds, or 0 for none, not {n}"
        ))),
        Some(n) => Ok(Some(n)),
        None => Ok(Some(DEFAULT_SECS)),
    }
}

/// `POST /api/tournaments`.
///
/// # Errors
///
/// `unauthorized` without a session; `forbidden` for anyone but a site
/// director; `bad_request` naming the field that is wrong; `not_found`
/// for a director with no account.
pub async fn create(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ActionError> {
    let user = signed_in_user(&shared, &headers).await?;
    let me = user.id;
    if !shared.stored(move |s| s.is_site_director(me)).await? {
        return Err(ActionError::new(
            ErrorCode::Forbidden,
            "only the site's directors create tournaments (rochade user director NAME)",
        ));
    }
    let mut asked: NewTournament = crate::json::body(&body, "tournament")?;
    let now = shared.clock.now_ms();
    let director = asked.director.take();
    let settings = checked(asked, &shared, now)?;
    let director = match &director {
        Some(name) => account(&shared, name, "director").await?,
        None => user,
    };
    let mut tournament = Tournament {
        id: random_code(8),
        director: director.id,
        director_name: director.name.clone(),
        created: now,
        ..Tournament::default()
    };
    settings.apply(&mut tournament);
    let t = tournament.clone();
    shared.stored(move |s| s.create_tournament(&t)).await?;
    shared.tournaments.changed(&tournament.id);
    Ok(axum::Json(tournament_json(&tournament)).into_response())
}
