//! Challenges between accounts: one player asks another for a game with a
//! time control, colours and rated or not; the other accepts or declines
//! (with a reason), or the challenger cancels. Open challenges are kept in
//! the database for an hour at most (so every node, and the server after
//! a restart, finds them); an accepted one becomes a game. [`flow`]
//! is what happens, whoever asks (the API with a token, the page with its
//! session).

pub mod flow;

use std::time::Duration;

use rochade_laws::clock::{Limit, Syntax, TimeControl};
use serde_json::{Value, json};
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::rooms::Shared;
use crate::setup::{Player, random_code};
use crate::storage::wall_ms;

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
    /// When it was made (Unix ms).
    pub made: u64,
}

/// A challenge as kept in the database.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    /// Its id.
    id: String,
    /// Who asks.
    challenger: Player,
    /// Who is asked.
    dest: Player,
    /// Rated or casual.
    rated: bool,
    /// The time control, as `TimeControl` writes it.
    control: String,
    /// `white`, `black` or `random`.
    color: String,
    /// Whether the challenger plays White.
    challenger_white: bool,
    /// Chess960.
    chess960: bool,
    /// When it was made (Unix ms).
    made: u64,
}

impl Challenge {
    /// The challenge as kept.
    fn kept(&self) -> String {
        serde_json::to_string(&Kept {
            id: self.id.clone(),
            challenger: self.challenger.clone(),
            dest: self.dest.clone(),
            rated: self.rated,
            control: self.control.to_string(),
            color: self.color.as_str().to_owned(),
            challenger_white: self.challenger_color == Color::White,
            chess960: self.chess960,
            made: self.made,
        })
        .unwrap_or_default()
    }

    /// A challenge as kept, read back.
    ///
    /// # Errors
    ///
    /// `internal` for a row that does not read.
    fn from_kept(text: &str) -> Result<Challenge, ActionError> {
        let bad =
            |m: String| ActionError::new(ErrorCode::Internal, format!("a kept challenge: {m}"));
        let kept: Kept = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        Ok(Challenge {
            control: TimeControl::parse(&kept.control).map_err(|e| bad(e.to_string()))?,
            color: ColorChoice::parse(Some(&kept.color))?,
            challenger_color: Color::from_white(kept.challenger_white),
            id: kept.id,
            challenger: kept.challenger,
            dest: kept.dest,
            rated: kept.rated,
            chess960: kept.chess960,
            made: kept.made,
        })
    }
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
            made: wall_ms(),
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

/// The oldest a challenge still open may be made, now (Unix ms).
fn open_since() -> u64 {
    wall_ms().saturating_sub(OPEN_FOR.as_millis() as u64)
}

/// Keeps a new challenge.
///
/// # Errors
///
/// `too_many_requests` when the challenger has too many open; `internal`
/// when the database fails.
pub async fn add(shared: &Shared, challenge: &Challenge) -> Result<(), ActionError> {
    let (id, challenger, dest, body, made) = (
        challenge.id.clone(),
        challenge.challenger.id,
        challenge.dest.id,
        challenge.kept(),
        challenge.made,
    );
    let kept = shared
        .stored(move |s| {
            s.open_challenge(&id, challenger, dest, &body, made, MOST_OPEN, open_since())
        })
        .await?;
    if !kept {
        return Err(ActionError::new(
            ErrorCode::TooManyRequests,
            format!("{MOST_OPEN} challenges are open already"),
        ));
    }
    Ok(())
}

/// Takes out challenge `id` if `may` allows it for this challenge.
///
/// # Errors
///
/// `not_found` when there is none that `may` allows (a player may not
/// tell a challenge they are not part of from one that is gone), or when
/// another request took it first.
pub async fn take(
    shared: &Shared,
    id: &str,
    may: impl FnOnce(&Challenge) -> bool,
) -> Result<Challenge, ActionError> {
    let none = || ActionError::new(ErrorCode::NotFound, format!("No such challenge: {id}"));
    let key = id.to_owned();
    let kept = shared
        .stored(move |s| s.challenge(&key, open_since()))
        .await?
        .ok_or_else(none)?;
    let challenge = Challenge::from_kept(&kept)?;
    if !may(&challenge) {
        return Err(none());
    }
    let key = id.to_owned();
    if shared.stored(move |s| s.close_challenge(&key)).await? {
        Ok(challenge)
    } else {
        Err(none())
    }
}

/// The open challenges made by or to account `user`.
///
/// # Errors
///
/// `internal` when the database fails.
pub async fn of(shared: &Shared, user: i64) -> Result<Vec<Challenge>, ActionError> {
    shared
        .stored(move |s| s.challenges_of(user, open_since()))
        .await?
        .iter()
        .map(|kept| Challenge::from_kept(kept))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player for the tests.
    fn player(id: i64, name: &str) -> Player {
        serde_json::from_value(json!({"id": id, "name": name})).expect("a player")
    }

    #[test]
    fn a_kept_challenge_reads_back_as_it_was_made() {
        let controls = [
            control_of(Some(300), Some(3), None),
            control_of(Some(15), Some(0), None),
            control_of(None, None, Some(3)),
            control_of(None, None, None),
        ];
        for control in controls {
            let control = control.expect("a control");
            for color in [ColorChoice::White, ColorChoice::Black, ColorChoice::Random] {
                let made = Challenge::new(
                    player(1, "Reti"),
                    player(2, "Nimzowitsch"),
                    true,
                    control.clone(),
                    color,
                    color == ColorChoice::Black,
                );
                let back = Challenge::from_kept(&made.kept()).expect("reads back");
                assert_eq!(back.control, made.control, "{control}");
                assert_eq!(back.to_json("created"), made.to_json("created"));
                assert_eq!(back.made, made.made);
            }
        }
    }

    #[test]
    fn a_kept_challenge_that_does_not_read_is_an_internal_error() {
        let e = Challenge::from_kept("{\"id\": 7}").expect_err("not a challenge");
        assert_eq!(e.code, ErrorCode::Internal);
    }
}
