//! A game's settings as chosen at creation: opponent, colours, time
//! control, Chess960 start, casual or rated, and the secret seat tokens.
//! Stored with the game and never changed afterwards.

use rand::Rng;
use rand::distr::{Alphanumeric, SampleString};
use rochade_engine::robot::Level;
use rochade_laws::clock::{Limit, Scale, TimeControl};
use rochade_laws::{Game, RuleSet};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::limits::Limits;

/// Who plays against whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A person against the robot.
    Robot,
    /// Two people at one device: one token holds both seats.
    Local,
    /// Two people, each with a secret link.
    Friend,
}

/// A colour in JSON: `"white"` or `"black"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Self {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Self {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A player with an account, as a game remembers them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The account's row id.
    pub id: i64,
    /// The name as chosen.
    pub name: String,
    /// A bot account.
    #[serde(default)]
    pub bot: bool,
    /// Their rating in the game's category when it began (rated or not,
    /// as lichess shows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<ShownRating>,
}

/// A rating as a game shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownRating {
    /// The rating, rounded.
    pub rating: i64,
    /// Still provisional ("1500?").
    pub provisional: bool,
}

impl Player {
    /// The name in lower case (lichess's user id).
    pub fn key(&self) -> String {
        self.name.to_ascii_lowercase()
    }
}

/// The body of `POST /api/games`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `robot`, `local` or `friend`.
    pub opponent: Mode,
    /// The robot's level, 1–8 (robot games only).
    #[serde(default)]
    pub level: Option<u32>,
    /// The creator's colour: `white`, `black` or `random`.
    #[serde(default)]
    pub color: Option<String>,
    /// Any time control `rochade timecontrol` accepts; `-` for no clock.
    #[serde(default = "default_control")]
    pub time_control: String,
    /// Chess960: `null`, `"random"` or a number 0–959.
    #[serde(default)]
    pub chess960: Option<serde_json::Value>,
    /// Take-backs allowed (default true).
    #[serde(default = "default_casual")]
    pub casual: bool,
    /// The rules played: `fide`, `fide2009` or `iccf`; by default ICCF's
    /// for a control counted in days (correspondence), else FIDE's.
    #[serde(default)]
    pub rules: Option<String>,
    /// A start position (FEN or X-FEN), instead of the usual one or a
    /// Chess960 one.
    #[serde(default)]
    pub fen: Option<String>,
}

/// The rule set a game plays: `named` when given, else ICCF's for a
/// correspondence control and the FIDE Laws for any other.
///
/// # Errors
///
/// [`ErrorCode::BadRequest`] naming the unknown rule set.
///
/// # Examples
///
/// ```
/// use rochade_laws::RuleSet;
/// use rochade_server::setup::rules_for;
/// assert_eq!(rules_for(None, &"10/40d".parse()?)?, RuleSet::Iccf);
/// assert_eq!(rules_for(None, &"5+3".parse()?)?, RuleSet::Fide);
/// assert_eq!(rules_for(Some("fide2009"), &"5+3".parse()?)?, RuleSet::Fide2009);
/// assert!(rules_for(Some("house"), &"5+3".parse()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rules_for(named: Option<&str>, control: &TimeControl) -> Result<RuleSet, ActionError> {
    match named {
        Some(name) => name
            .parse()
            .map_err(|e| ActionError::new(ErrorCode::BadRequest, format!("rules: {e}"))),
        None if control.scale() == Scale::Days => Ok(RuleSet::Iccf),
        None => Ok(RuleSet::Fide),
    }
}

/// A rule set in a stored setup, by its short name (`fide` when absent:
/// games stored before rule sets were chosen all played the FIDE Laws).
mod rule_set_name {
    use rochade_laws::RuleSet;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rules: &RuleSet, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(rules.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RuleSet, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Reads a time control within the server's limits on its text and its
/// number of periods.
///
/// # Errors
///
/// [`ErrorCode::BadRequest`] saying which limit the text is over, or why
/// it does not read as a time control.
///
/// # Examples
///
/// ```
/// use rochade_server::limits::Limits;
/// use rochade_server::setup::checked_control;
/// let limits = Limits::default();
/// assert!(checked_control("40/90+30, 30+30", &limits).is_ok());
/// let many = vec!["1/60"; 6].join(", ");
/// assert!(checked_control(&many, &limits).is_err());
/// ```
pub fn checked_control(text: &str, limits: &Limits) -> Result<TimeControl, ActionError> {
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    let chars = text.chars().count();
    if chars > limits.text {
        return Err(bad(format!(
            "time_control: {chars} characters, over the limit of {}",
            limits.text
        )));
    }
    let control =
        TimeControl::parse(text).map_err(|e| bad(format!("time_control `{text}`: {e}")))?;
    if let Limit::Periods(periods) = control.limit()
        && periods.len() > limits.periods
    {
        return Err(bad(format!(
            "time_control `{text}`: {} periods, over the limit of {}",
            periods.len(),
            limits.periods
        )));
    }
    Ok(control)
}

/// An event's name (a tournament's, a simul's) as the organiser wrote
/// it: trimmed, 1 to `most` characters.
///
/// # Errors
///
/// [`ErrorCode::BadRequest`] naming the field `name` and the count.
///
/// # Examples
///
/// ```
/// use rochade_server::setup::checked_name;
/// assert_eq!(checked_name("  Club Swiss ", 80).unwrap(), "Club Swiss");
/// assert!(checked_name("   ", 80).is_err());
/// assert!(checked_name("abc", 2).is_err());
/// ```
pub fn checked_name(text: &str, most: usize) -> Result<String, ActionError> {
    let name = text.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > most {
        return Err(ActionError::new(
            ErrorCode::BadRequest,
            format!("name: 1 to {most} characters, not {chars}"),
        ));
    }
    Ok(name.to_owned())
}

/// A start position (FEN or X-FEN) a game may begin from under `rules`:
/// one that reads, within [`FEN_CHARS`] characters, and is not over
/// already; trimmed.
///
/// # Errors
///
/// [`ErrorCode::BadRequest`] naming the field `fen`.
///
/// # Examples
///
/// ```
/// use rochade_laws::RuleSet;
/// use rochade_server::setup::checked_fen;
/// assert!(checked_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", RuleSet::Fide).is_ok());
/// // Stalemate: over before it begins.
/// assert!(checked_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", RuleSet::Fide).is_err());
/// ```
pub fn checked_fen(text: &str, rules: RuleSet) -> Result<String, ActionError> {
    let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
    if text.chars().count() > FEN_CHARS {
        return Err(bad(format!("fen: over {FEN_CHARS} characters")));
    }
    let game = Game::from_fen(text, rules).map_err(|e| bad(format!("fen: {e}")))?;
    if game.outcome().is_some() {
        return Err(bad("fen: the game would be over before it begins".into()));
    }
    Ok(text.trim().to_owned())
}

/// The default time control of a new game.
fn default_control() -> String {
    "5+3".to_owned()
}

/// New games are casual unless told otherwise.
fn default_casual() -> bool {
    true
}

/// A game's fixed settings, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    /// The game's public id.
    pub id: String,
    /// Who plays.
    pub mode: Mode,
    /// The robot's level and colour (robot games).
    pub robot: Option<(u32, Side)>,
    /// The time control in normalised form.
    pub time_control: String,
    /// The Chess960 start number, if any.
    pub chess960: Option<u32>,
    /// Take-backs allowed.
    pub casual: bool,
    /// The secret token of White's seat (both seats in local games).
    pub white_token: String,
    /// The secret token of Black's seat (the same as White's in local games).
    pub black_token: String,
    /// The invitation code of a friend game.
    pub invite: Option<String>,
    /// The colour of the creator (`None` in local games).
    pub creator: Option<Side>,
    /// The address the game was created from (for the limits per visitor).
    #[serde(default)]
    pub origin: Option<std::net::IpAddr>,
    /// White's account, in a game between accounts.
    #[serde(default)]
    pub white_player: Option<Player>,
    /// Black's account, in a game between accounts.
    #[serde(default)]
    pub black_player: Option<Player>,
    /// A rated game (between accounts).
    #[serde(default)]
    pub rated: bool,
    /// The rules played.
    #[serde(default, with = "rule_set_name")]
    pub rules: RuleSet,
    /// The start position, when it is neither the usual one nor Chess960's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The tournament it belongs to and what that sets for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<crate::tournaments::Terms>,
    /// The simultaneous exhibition it is a board of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simul: Option<crate::simuls::Terms>,
    /// Time one side's clock has beyond the control at the start (a
    /// simul's host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_time: Option<ExtraTime>,
}

/// Time one colour's clock starts with beyond its first period, as a
/// simul gives its host: a handicap the organiser sets (the Laws leave
/// the time control to the organiser, 6.1), put on the clock as an
/// arbiter adds time (6.10.2) before the first move.
///
/// ```
/// use rochade_server::setup::{ExtraTime, GameSetup, Player, Side};
/// let host = Player { id: 1, name: "Host".into(), bot: false, rating: None };
/// let guest = Player { id: 2, name: "Guest".into(), bot: false, rating: None };
/// let mut setup = GameSetup::between([Some(host), Some(guest)], "5+3", false, None, &Default::default())?;
/// setup.extra_time = Some(ExtraTime { color: Side::White, ms: 60_000 });
/// let record = rochade_server::record::Record::new(setup)?;
/// let white = record.timed.clock().remaining(shakmaty::Color::White, std::time::Duration::ZERO);
/// assert_eq!(white, Some(std::time::Duration::from_secs(6 * 60)));
/// # Ok::<(), rochade_server::ActionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraTime {
    /// Whose clock.
    pub color: Side,
    /// How much, in milliseconds.
    pub ms: u64,
}

/// The longest start position accepted, in characters.
pub const FEN_CHARS: usize = 100;

/// Length of game ids.
const ID_LEN: usize = 8;
/// Length of secret tokens.
const TOKEN_LEN: usize = 24;

/// A fresh random id of `len` letters and digits.
pub fn random_code(len: usize) -> String {
    Alphanumeric.sample_string(&mut rand::rng(), len)
}

impl GameSetup {
    /// Checks a creation request against `limits` and draws what is random
    /// (colour, Chess960 number, id, tokens).
    ///
    /// # Errors
    ///
    /// [`ErrorCode::BadRequest`] naming the field that cannot be accepted.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::setup::{GameSetup, Mode, NewGame};
    /// let body = r#"{"opponent":"local","time_control":"3+2"}"#;
    /// let req: NewGame = serde_json::from_str(body)?;
    /// let setup = GameSetup::from_request(&req, &Default::default())?;
    /// assert_eq!(setup.mode, Mode::Local);
    /// assert_eq!(setup.white_token, setup.black_token);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_request(req: &NewGame, limits: &Limits) -> Result<GameSetup, ActionError> {
        let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
        let control = checked_control(&req.time_control, limits)?;
        let rules = rules_for(req.rules.as_deref(), &control)?;
        let color = match req.color.as_deref() {
            None | Some("random") => {
                if rand::rng().random_bool(0.5) {
                    Side::White
                } else {
                    Side::Black
                }
            }
            Some("white") => Side::White,
            Some("black") => Side::Black,
            Some(other) => {
                return Err(bad(format!(
                    "color `{other}`: expected white, black or random"
                )));
            }
        };
        let robot = match (req.opponent, req.level) {
            (Mode::Robot, level) => {
                let level = level.unwrap_or(1);
                Level::new(level).map_err(|e| bad(format!("level: {e}")))?;
                Some((
                    level,
                    if color == Side::White {
                        Side::Black
                    } else {
                        Side::White
                    },
                ))
            }
            (_, Some(_)) => return Err(bad("level: only robot games have a level".into())),
            (_, None) => None,
        };
        let chess960 = match &req.chess960 {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) if s == "random" => {
                Some(rand::rng().random_range(0..960))
            }
            Some(serde_json::Value::Number(n)) => match n.as_u64() {
                Some(n @ 0..=959) => Some(n as u32),
                _ => return Err(bad(format!("chess960: {n} is not between 0 and 959"))),
            },
            Some(other) => {
                return Err(bad(format!(
                    "chess960: expected null, \"random\" or 0..959, not {other}"
                )));
            }
        };
        let fen = match (&req.fen, chess960) {
            (None, _) => None,
            (Some(_), Some(_)) => {
                return Err(bad(
                    "fen: a game starts from a position or from Chess960's, not both".into(),
                ));
            }
            (Some(text), None) => Some(checked_fen(text, rules)?),
        };
        let white_token = random_code(TOKEN_LEN);
        let black_token = if req.opponent == Mode::Local {
            white_token.clone()
        } else {
            random_code(TOKEN_LEN)
        };
        Ok(GameSetup {
            id: random_code(ID_LEN),
            mode: req.opponent,
            robot,
            time_control: control.to_string(),
            chess960,
            casual: req.casual,
            white_token,
            black_token,
            invite: (req.opponent == Mode::Friend).then(|| random_code(TOKEN_LEN)),
            creator: (req.opponent != Mode::Local).then_some(color),
            origin: None,
            white_player: None,
            black_player: None,
            rated: false,
            rules,
            fen,
            tournament: None,
            simul: None,
            extra_time: None,
        })
    }

    /// A game between two accounts (a challenge accepted), or an account
    /// and the robot at `level` when one side is `None`: both seats are
    /// taken and White's clock runs from the start.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::BadRequest`] for a control over the limits, a robot
    /// level out of 1–8, or a Chess960 number out of 0–959.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::setup::{GameSetup, Player};
    /// let fischer = Player { id: 1, name: "Fischer".into(), bot: false, rating: None };
    /// let spassky = Player { id: 2, name: "Spassky".into(), bot: false, rating: None };
    /// let setup = GameSetup::between(
    ///     [Some(fischer), Some(spassky)], "5+3", true, None, &Default::default())?;
    /// assert_eq!(setup.player_color(2), Some(shakmaty::Color::Black));
    /// assert!(setup.rated && !setup.casual);
    /// # Ok::<(), rochade_server::ActionError>(())
    /// ```
    pub fn between(
        players: [Option<Player>; 2],
        control: &str,
        rated: bool,
        robot_level: Option<u32>,
        limits: &Limits,
    ) -> Result<GameSetup, ActionError> {
        let bad = |m: String| ActionError::new(ErrorCode::BadRequest, m);
        let control = checked_control(control, limits)?;
        let [white_player, black_player] = players;
        let robot = match (&white_player, &black_player) {
            (Some(_), Some(_)) => None,
            (None, Some(_)) | (Some(_), None) => {
                let level = robot_level.unwrap_or(1);
                Level::new(level).map_err(|e| bad(format!("level: {e}")))?;
                let side = if white_player.is_none() {
                    Side::White
                } else {
                    Side::Black
                };
                Some((level, side))
            }
            (None, None) => return Err(bad("a game between accounts needs an account".into())),
        };
        Ok(GameSetup {
            id: random_code(ID_LEN),
            mode: if robot.is_some() {
                Mode::Robot
            } else {
                Mode::Friend
            },
            robot,
            time_control: control.to_string(),
            chess960: None,
            casual: !rated,
            white_token: random_code(TOKEN_LEN),
            black_token: random_code(TOKEN_LEN),
            invite: None,
            creator: None,
            origin: None,
            white_player,
            black_player,
            rated,
            rules: rules_for(None, &control)?,
            fen: None,
            tournament: None,
            simul: None,
            extra_time: None,
        })
    }

    /// The colour the account `user` plays in this game, if it plays.
    pub fn player_color(&self, user: i64) -> Option<Color> {
        if self.white_player.as_ref().is_some_and(|p| p.id == user) {
            Some(Color::White)
        } else if self.black_player.as_ref().is_some_and(|p| p.id == user) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The account playing `color`, if any.
    pub fn player(&self, color: Color) -> Option<&Player> {
        match color {
            Color::White => self.white_player.as_ref(),
            Color::Black => self.black_player.as_ref(),
        }
    }

    /// The seat token of `color`.
    pub fn token(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white_token,
            Color::Black => &self.black_token,
        }
    }

    /// The setup of a rematch: a new id and tokens, colours swapped.
    pub fn rematch(&self) -> GameSetup {
        let swap = |s: Side| {
            if s == Side::White {
                Side::Black
            } else {
                Side::White
            }
        };
        let white_token = random_code(TOKEN_LEN);
        let black_token = if self.mode == Mode::Local {
            white_token.clone()
        } else {
            random_code(TOKEN_LEN)
        };
        GameSetup {
            id: random_code(ID_LEN),
            robot: self.robot.map(|(level, side)| (level, swap(side))),
            creator: self.creator.map(swap),
            white_token,
            black_token,
            invite: None,
            white_player: self.black_player.clone(),
            black_player: self.white_player.clone(),
            // A rematch is a game of its own, in no tournament or simul,
            // on even clocks.
            tournament: None,
            simul: None,
            extra_time: None,
            ..self.clone()
        }
    }

    /// The game at its start.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Internal`] if a stored Chess960 number is out of range.
    pub fn start_game(&self) -> Result<Game, ActionError> {
        if let Some(fen) = &self.fen {
            return Game::from_fen(fen, self.rules)
                .map_err(|e| ActionError::new(ErrorCode::Internal, format!("start {fen}: {e}")));
        }
        match self.chess960 {
            None => Ok(Game::new(self.rules)),
            Some(n) => Game::chess960(n, self.rules)
                .map_err(|e| ActionError::new(ErrorCode::Internal, format!("chess960 {n}: {e}"))),
        }
    }

    /// The time control.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Internal`] if the stored control no longer parses.
    pub fn control(&self) -> Result<TimeControl, ActionError> {
        TimeControl::parse(&self.time_control).map_err(|e| {
            ActionError::new(
                ErrorCode::Internal,
                format!("time control {}: {e}", self.time_control),
            )
        })
    }

    /// The rating category the game falls in (a stored control always
    /// parses; one that does not counts as correspondence).
    pub fn perf(&self) -> crate::ratings::Perf {
        self.control()
            .map_or(crate::ratings::Perf::Correspondence, |c| {
                crate::ratings::Perf::of(&c, self.chess960.is_some())
            })
    }

    /// Whether the game is played by correspondence: its control counts
    /// whole days (ICCF). Such games never close for being idle and know
    /// no "opponent gone": the clock alone decides (6.7).
    pub fn is_correspondence(&self) -> bool {
        self.control().is_ok_and(|c| c.scale() == Scale::Days)
    }

    /// The seats a token holds in this game: none, one colour, or both
    /// (local games).
    pub fn seats_of(&self, token: &str) -> Seats {
        let white = !token.is_empty() && token == self.white_token;
        let black = !token.is_empty() && token == self.black_token;
        match (white, black) {
            (true, true) => Seats::Both,
            (true, false) => Seats::One(Color::White),
            (false, true) => Seats::One(Color::Black),
            (false, false) => Seats::Spectator,
        }
    }

    /// The robot's colour, if the robot plays.
    pub fn robot_color(&self) -> Option<Color> {
        self.robot.map(|(_, side)| side.into())
    }
}

/// What a socket may do in its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seats {
    /// Watch only.
    Spectator,
    /// Act for one colour.
    One(Color),
    /// Act for both colours (a local game).
    Both,
}

impl Seats {
    /// `white`, `black`, `both` or `spectator`, as in the state's `you`.
    pub fn as_str(self) -> &'static str {
        match self {
            Seats::Spectator => "spectator",
            Seats::One(Color::White) => "white",
            Seats::One(Color::Black) => "black",
            Seats::Both => "both",
        }
    }

    /// The seats named by [`Seats::as_str`].
    ///
    /// ```
    /// use rochade_server::setup::Seats;
    /// for seats in ["white", "black", "both", "spectator"] {
    ///     assert_eq!(Seats::parse(seats).map(Seats::as_str), Some(seats));
    /// }
    /// assert_eq!(Seats::parse("arbiter"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Seats> {
        Some(match name {
            "spectator" => Seats::Spectator,
            "white" => Seats::One(Color::White),
            "black" => Seats::One(Color::Black),
            "both" => Seats::Both,
            _ => return None,
        })
    }

    /// Whether these seats may act for `color`.
    pub fn holds(self, color: Color) -> bool {
        match self {
            Seats::Spectator => false,
            Seats::One(c) => c == color,
            Seats::Both => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(body: &str) -> Result<GameSetup, ActionError> {
        let req: NewGame = serde_json::from_str(body).expect("a request");
        GameSetup::from_request(&req, &Limits::default())
    }

    #[test]
    fn a_game_may_start_from_a_position() {
        let s = setup(r#"{"opponent":"local","time_control":"3d/move","fen":"8/8/8/4k3/8/8/8/KQ6 w - - 0 1"}"#)
            .expect("a start position");
        assert_eq!(s.rules, RuleSet::Iccf);
        let game = s.start_game().expect("starts");
        assert_eq!(game.fen(), "8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    }

    #[test]
    fn a_bad_start_position_is_refused_with_the_field_named() {
        for (body, says) in [
            (
                r#"{"opponent":"local","fen":"8/8/8/8/8/8/8/8 w - - 0 1"}"#,
                "fen:",
            ),
            (r#"{"opponent":"local","fen":"not a position"}"#, "fen:"),
            (
                r#"{"opponent":"local","fen":"8/8/8/4k3/8/8/8/KQ6 w - - 0 1","chess960":3}"#,
                "not both",
            ),
            // Stalemate: over before it begins.
            (
                r#"{"opponent":"local","fen":"k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"}"#,
                "over before",
            ),
        ] {
            let e = setup(body).expect_err(body);
            assert_eq!(e.code, ErrorCode::BadRequest, "{body}");
            assert!(e.message.contains(says), "{body}: {}", e.message);
        }
    }
}
