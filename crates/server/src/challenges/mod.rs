//! Challenges between accounts: one player asks another for a game with a
//! time control, colours and rated or not; the other accepts or declines
//! (with a reason), or the challenger cancels. Open challenges live in
//! memory for an hour at most; an accepted one becomes a game. [`flow`]
//! is what happens, whoever asks (the API with a token, the page with its
//! session).

pub mod flow;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use rochade_laws::clock::{Limit, Syntax, TimeControl};
use serde_json::{Value, json};
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::setup::{Player, random_code};

/// How long a challenge waits for its answer.
const OPEN_FOR: Duration = Duration::from_secs(3600);

/// Open challenges one account may have made at once.
const MOST_OPEN: usize = 20;

/// The colour the challenger asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    /// The challenger plays White.
    White,
    /// The challenger plays Black.
    Black,
    /// Drawn when the challenge is made.
    Random,
}

impl ColorChoice {
    /// Reads `white`, `black` or `random` (absent: random).
    ///
    /// # Errors
    ///
    /// `bad_request` for anything else.
    pub fn parse(text: Option<&str>) -> Result<ColorChoice, ActionError> {
        match text {
            None | Some("random") => Ok(ColorChoice::Random),
            Some("white") => Ok(ColorChoice::White),
            Some("black") => Ok(ColorChoice::Black),
            Some(other) => Err(ActionError::new(
                ErrorCode::BadRequest,
                format!("color: `{other}` is not white, black or random"),
            )),
        }
    }

    /// The name lichess gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

/// The time control of a challenge as lichess gives it: a clock in
/// seconds, days per move, or none.
///
/// # Examples
///
/// ```
/// use rochade_server::challenges::control_of;
/// let control = control_of(Some(300), Some(3), None)?;
/// assert_eq!(control.to_string(), "5+3");
/// assert!(control_of(None, None, Some(3))?.to_string().starts_with("3d"));
/// # Ok::<(), rochade_server::ActionError>(())
/// ```
///
/// # Errors
///
/// `bad_request` for a clock and days together, or values out of range.
pub fn control_of(
    limit: Option<u64>,
    increment: Option<u64>,
    days: Option<u64>,
) -> Result<TimeControl, ActionError> {
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let text = match (limit, increment, days) {
        (Some(limit), increment, None) => {
            if limit > 10_800 || increment.unwrap_or(0) > 180 {
                return Err(bad(format!(
                    "clock: {limit}+{} is over 3 hours or 3 minutes a move",
                    increment.unwrap_or(0)
                )));
            }
            format!("{limit}+{}", increment.unwrap_or(0))
        }
        (None, None, Some(days @ 1..=14)) => return parse_days(days),
        (None, None, Some(days)) => return Err(bad(format!("days: {days} is not 1 to 14"))),
        (None, None, None) => "-".to_owned(),
        _ => {
            return Err(bad(
                "a clock (clock.limit, clock.increment) or days, not both".into(),
            ));
        }
    };
    TimeControl::parse_as(&text, Syntax::Pgn).map_err(|e| bad(format!("clock: {e}")))
}

/// Days per move.
fn parse_days(days: u64) -> Result<TimeControl, ActionError> {
    TimeControl::parse(&format!("{days}d/move"))
        .map_err(|e| ActionError::new(ErrorCode::BadRequest, format!("days: {e}")))
}

/// lichess's description of a time control: `{"type":"clock",…}`,
/// `{"type":"correspondence",…}` or `{"type":"unlimited"}`.
pub fn time_control_json(control: &TimeControl) -> Value {
    match control.limit() {
        Limit::Periods(periods) if periods.len() == 1 && periods[0].moves.is_none() => {
            let base = periods[0].base.as_secs();
            let increment = periods[0].bonus.amount().as_secs();
            json!({"type": "clock", "limit": base, "increment": increment,
                   "show": control.to_string()})
        }
        Limit::PerMove(per_move) => json!({"type": "correspondence",
                                            "daysPerTurn": per_move.as_secs() / 86_400}),
        _ => json!({"type": "unlimited"}),
    }
}

/// lichess's speed name of a time control.
pub fn speed_of(control: &TimeControl) -> &'static str {
    crate::ratings::Perf::speed(control).key()
}

/// An open challenge.
#[derive(Debug, Clone)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// Who asks.
    pub challenger: Player,
    /// Who is asked.
    pub dest: Player,
    /// Rated or casual.
    pub rated: bool,
    /// The time control.
    pub control: TimeControl,
    /// The colour asked for.
    pub color: ColorChoice,
    /// The challenger's colour, drawn at once when random.
    pub challenger_color: Color,
    /// A Chess960 game (its start drawn when accepted).
    pub chess960: bool,
    /// When it was made (monotonic).
    pub made: tokio::time::Instant,
}

/// How a player appears in a challenge.
fn player_json(player: &Player) -> Value {
    let rating = crate::api::games::shown(player);
    let mut json = json!({"id": player.key(), "name": player.name, "rating": rating.rating,
                          "provisional": rating.provisional, "online": true});
    if player.bot {
        json["title"] = json!("BOT");
    }
    json
}

impl Challenge {
    /// A new challenge from `challenger` to `dest`.
    pub fn new(
        challenger: Player,
        dest: Player,
        rated: bool,
        control: TimeControl,
        color: ColorChoice,
        chess960: bool,
    ) -> Challenge {
        let challenger_color = match color {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => Color::from_white(rand::random::<bool>()),
        };
        Challenge {
            id: random_code(8),
            challenger,
            dest,
            rated,
            control,
            color,
            challenger_color,
            chess960,
            made: tokio::time::Instant::now(),
        }
    }

    /// The challenge as lichess describes it, with `status`.
    pub fn to_json(&self, status: &str) -> Value {
        let speed = speed_of(&self.control);
        let perf = crate::ratings::Perf::of(&self.control, self.chess960);
        let variant = if self.chess960 {
            json!({"key": "chess960", "name": "Chess960", "short": "960"})
        } else {
            json!({"key": "standard", "name": "Standard", "short": "Std"})
        };
        json!({
            "id": self.id,
            "url": format!("/g/{}", self.id),
            "status": status,
            "challenger": player_json(&self.challenger),
            "destUser": player_json(&self.dest),
            "variant": variant,
            "rated": self.rated,
            "speed": speed,
            "timeControl": time_control_json(&self.control),
            "color": self.color.as_str(),
            "finalColor": if self.challenger_color == Color::White { "white" } else { "black" },
            "perf": {"name": perf.key()},
            "compat": {"bot": true, "board": true},
        })
    }
}

/// The open challenges of the server.
#[derive(Debug, Default)]
pub struct Challenges {
    /// By id.
    open: Mutex<HashMap<String, Challenge>>,
}

impl Challenges {
    /// Locks the map, dropping challenges past their time.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Challenge>> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|_, c| c.made.elapsed() < OPEN_FOR);
        open
    }

    /// Keeps a new challenge.
    ///
    /// # Errors
    ///
    /// `too_many_requests` when the challenger has too many open.
    pub fn add(&self, challenge: Challenge) -> Result<(), ActionError> {
        let mut open = self.lock();
        let mine = open
            .values()
            .filter(|c| c.challenger.id == challenge.challenger.id)
            .count();
        if mine >= MOST_OPEN {
            return Err(ActionError::new(
                ErrorCode::TooManyRequests,
                format!("{MOST_OPEN} challenges are open already"),
            ));
        }
        open.insert(challenge.id.clone(), challenge);
        Ok(())
    }

    /// Takes out challenge `id` if `may` allows it for this challenge.
    ///
    /// # Errors
    ///
    /// `not_found` when there is none that `may` allows (a player may
    /// not tell a challenge they are not part of from one that is gone).
    pub fn take(
        &self,
        id: &str,
        may: impl FnOnce(&Challenge) -> bool,
    ) -> Result<Challenge, ActionError> {
        let mut open = self.lock();
        let allowed = open.get(id).is_some_and(may);
        allowed.then(|| open.remove(id)).flatten().ok_or_else(|| {
            ActionError::new(ErrorCode::NotFound, format!("No such challenge: {id}"))
        })
    }

    /// The open challenges made by or to account `user`.
    pub fn of(&self, user: i64) -> Vec<Challenge> {
        self.lock()
            .values()
            .filter(|c| c.challenger.id == user || c.dest.id == user)
            .cloned()
            .collect()
    }
}
