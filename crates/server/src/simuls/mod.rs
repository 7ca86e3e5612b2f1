//! Simultaneous exhibitions, as lichess runs them (lila's `modules/simul`):
//! a host creates one (a time control with extra time for the host, the
//! host's colour, Chess960 or a start position), accounts apply, the host
//! accepts some of them and starts it; then every accepted player has a
//! board of their own, each an ordinary game between two accounts in its
//! own room, and the host moves from board to board.
//!
//! A [`Simul`] is a value with one method per step ([`Simul::apply`],
//! [`Simul::accept`], [`Simul::start`], …): each checks who asks and when,
//! and changes nothing when it refuses. [`http`] loads, applies the step
//! and stores it only if nobody changed the simul meanwhile (its
//! [`Simul::revision`]), then makes the games.
//!
//! ```
//! use rochade_server::simuls::{Entrant, HostColor, Simul, Start};
//! let host = Entrant { id: 1, name: "Judit".into() };
//! let mut simul = Simul::new("s1".into(), "Open simul".into(), host, "10+5".into(), 600_000, 0, HostColor::White, Start::Standard, 0);
//! simul.apply(&Entrant { id: 2, name: "Ann".into() }, 1)?;
//! simul.accept(1, "ann")?;
//! simul.start(1, 2)?;
//! assert_eq!(simul.boards.len(), 1);
//! assert_eq!(simul.host_extra_ms(), 600_000);
//! # Ok::<(), rochade_server::ActionError>(())
//! ```

pub mod http;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::{ActionError, ErrorCode};
use crate::setup::Side;

/// Most boards one simul has (lichess's hosts rarely play more).
pub const MAX_BOARDS: usize = 40;

/// Most applicants waiting at once.
pub const MAX_APPLICANTS: usize = 200;

/// The longest name.
pub const NAME_CHARS: usize = 80;

/// Most extra time for the host, ms (lichess: an hour).
pub const MAX_EXTRA_MS: u64 = 3_600_000;

/// Most extra time for the host per player, ms (lichess: a minute).
pub const MAX_EXTRA_PER_PLAYER_MS: u64 = 60_000;

/// What every board of a simul carries from it, in its game's setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The simul's id.
    pub id: String,
    /// Its name (the PGN's `Event`).
    pub name: String,
    /// The host's account.
    pub host: i64,
}

/// An account taking part: the host, an applicant, a player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The account's id.
    pub id: i64,
    /// The account's name.
    pub name: String,
}

/// Where a simul is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking applicants.
    Created,
    /// Its games are being played.
    Started,
    /// Every board has ended.
    Finished,
    /// The host called it off before the start.
    Cancelled,
}

impl Status {
    /// Its name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Started => "started",
            Status::Finished => "finished",
            Status::Cancelled => "cancelled",
        }
    }
}

/// The colour the host plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostColor {
    /// White on every board.
    White,
    /// Black on every board.
    Black,
    /// Drawn for each board.
    Random,
}

impl HostColor {
    /// The choice named `name` (`white`, `black`, `random`).
    ///
    /// # Errors
    ///
    /// `bad_request` naming the field `host_color`.
    pub fn parse(name: &str) -> Result<HostColor, ActionError> {
        match name {
            "white" => Ok(HostColor::White),
            "black" => Ok(HostColor::Black),
            "random" => Ok(HostColor::Random),
            other => Err(ActionError::new(
                ErrorCode::BadRequest,
                format!("host_color: `{other}` is not white, black or random"),
            )),
        }
    }
}

/// How the games start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "start")]
pub enum Start {
    /// The usual position.
    Standard,
    /// Chess960, a position drawn for each board.
    Chess960EachBoard,
    /// Chess960, one position for every board.
    Chess960 {
        /// Its number, 0–959.
        number: u32,
    },
    /// A position of the host's choice (FEN), checked at creation.
    Position {
        /// The position.
        fen: String,
    },
}

/// An account that asked to play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applicant {
    /// Who.
    pub player: Entrant,
    /// The host has accepted them.
    pub accepted: bool,
    /// When they applied (Unix ms).
    pub at: u64,
}

/// One board of a started simul: its player, the host's colour and the
/// game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// The host's opponent.
    pub player: Entrant,
    /// The host's colour here.
    pub host_color: Side,
    /// The game's id.
    pub game: String,
    /// Its Chess960 position, if any.
    pub chess960: Option<u32>,
}

/// A simultaneous exhibition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Simul {
    /// A short random id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The host.
    pub host: Entrant,
    /// Every board's time control (`10+5`).
    pub time_control: String,
    /// The host's extra time, ms (lichess's `clock.hostExtraTime`).
    pub extra_ms: u64,
    /// The host's extra time per board, ms (`hostExtraTimePerPlayer`).
    pub extra_per_player_ms: u64,
    /// The host's colour.
    pub host_color: HostColor,
    /// The start position.
    pub start: Start,
    /// Who applied, in order.
    pub applicants: Vec<Applicant>,
    /// The boards, once started, in the order the players were accepted.
    pub boards: Vec<Board>,
    /// Where it is.
    pub status: Status,
    /// When it was created, started and finished (Unix ms).
    pub created: u64,
    /// When it started.
    pub started: Option<u64>,
    /// When its last board ended (seen).
    pub finished: Option<u64>,
    /// How many times it has been stored: a change is stored only over
    /// the revision it was made from.
    pub revision: u64,
}

/// A refusal with `code`.
fn refuse(code: ErrorCode, message: impl Into<String>) -> ActionError {
    ActionError::new(code, message)
}

impl Simul {
    /// A new simul taking applicants.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: String,
        name: String,
        host: Entrant,
        time_control: String,
        extra_ms: u64,
        extra_per_player_ms: u64,
        host_color: HostColor,
        start: Start,
        now: u64,
    ) -> Simul {
        Simul {
            id,
            name,
            host,
            time_control,
            extra_ms,
            extra_per_player_ms,
            host_color,
            start,
            applicants: Vec::new(),
            boards: Vec::new(),
            status: Status::Created,
            created: now,
            started: None,
            finished: None,
            revision: 0,
        }
    }

    /// What its games carry.
    pub fn terms(&self) -> Terms {
        Terms {
            id: self.id.clone(),
            name: self.name.clone(),
            host: self.host.id,
        }
    }

    /// The host's extra time on every board, ms: the extra time plus the
    /// extra per player times the boards (accepted players before the
    /// start).
    pub fn host_extra_ms(&self) -> u64 {
        let boards = if self.boards.is_empty() {
            self.accepted()
        } else {
            self.boards.len()
        };
        self.extra_ms
            .saturating_add(self.extra_per_player_ms.saturating_mul(boards as u64))
    }

    /// How many applicants are accepted.
    pub fn accepted(&self) -> usize {
        self.applicants.iter().filter(|a| a.accepted).count()
    }

    /// Whether `user` hosts it.
    ///
    /// # Errors
    ///
    /// `forbidden` for anyone else.
    pub fn ensure_host(&self, user: i64) -> Result<(), ActionError> {
        if user == self.host.id {
            Ok(())
        } else {
            Err(refuse(
                ErrorCode::Forbidden,
                "only the simul's host may do this",
            ))
        }
    }

    /// Refuses every step but those of a simul taking applicants.
    fn ensure_open(&self) -> Result<(), ActionError> {
        match self.status {
            Status::Created => Ok(()),
            Status::Started | Status::Finished => Err(refuse(
                ErrorCode::NotAllowed,
                "the simul has started already",
            )),
            Status::Cancelled => Err(refuse(ErrorCode::NotAllowed, "the simul was cancelled")),
        }
    }

    /// The applicant named `name` (any case).
    fn applicant(&mut self, name: &str) -> Result<&mut Applicant, ActionError> {
        self.applicants
            .iter_mut()
            .find(|a| a.player.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                refuse(
                    ErrorCode::NotFound,
                    format!("name: `{name}` has not applied to this simul"),
                )
            })
    }

    /// `player` applies to play.
    ///
    /// # Errors
    ///
    /// `not_allowed` once started or cancelled, for the host, for one who
    /// applied already, or when [`MAX_APPLICANTS`] wait.
    pub fn apply(&mut self, player: &Entrant, now: u64) -> Result<(), ActionError> {
        self.ensure_open()?;
        if player.id == self.host.id {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "the host plays every board: hosts do not apply",
            ));
        }
        if self.applicants.iter().any(|a| a.player.id == player.id) {
            return Err(refuse(ErrorCode::NotAllowed, "you have applied already"));
        }
        if self.applicants.len() >= MAX_APPLICANTS {
            return Err(refuse(
                ErrorCode::NotAllowed,
                format!("{MAX_APPLICANTS} players wait already"),
            ));
        }
        self.applicants.push(Applicant {
            player: player.clone(),
            accepted: false,
            at: now,
        });
        Ok(())
    }

    /// Account `user` withdraws their application.
    ///
    /// # Errors
    ///
    /// `not_allowed` once started or cancelled; `not_found` for one who
    /// has not applied.
    pub fn withdraw(&mut self, user: i64) -> Result<(), ActionError> {
        self.ensure_open()?;
        let before = self.applicants.len();
        self.applicants.retain(|a| a.player.id != user);
        if self.applicants.len() == before {
            return Err(refuse(
                ErrorCode::NotFound,
                "you have not applied to this simul",
            ));
        }
        Ok(())
    }

    /// The host (`by`) accepts the applicant named `name`.
    ///
    /// # Errors
    ///
    /// `forbidden` for anyone but the host; `not_allowed` once started or
    /// cancelled, or past [`MAX_BOARDS`]; `not_found` for a name that has
    /// not applied.
    pub fn accept(&mut self, by: i64, name: &str) -> Result<(), ActionError> {
        self.ensure_host(by)?;
        self.ensure_open()?;
        let full = self.accepted() >= MAX_BOARDS;
        let applicant = self.applicant(name)?;
        if applicant.accepted {
            return Ok(());
        }
        if full {
            return Err(refuse(
                ErrorCode::NotAllowed,
                format!("a simul has at most {MAX_BOARDS} boards"),
            ));
        }
        applicant.accepted = true;
        Ok(())
    }

    /// The host (`by`) turns the applicant named `name` down (accepted
    /// or not): they leave the list.
    ///
    /// # Errors
    ///
    /// `forbidden` for anyone but the host; `not_allowed` once started or
    /// cancelled; `not_found` for a name that has not applied.
    pub fn reject(&mut self, by: i64, name: &str) -> Result<(), ActionError> {
        self.ensure_host(by)?;
        self.ensure_open()?;
        let id = self.applicant(name)?.player.id;
        self.applicants.retain(|a| a.player.id != id);
        Ok(())
    }

    /// The host (`by`) starts it: a board for each accepted player, in
    /// the order they applied, the host's colour and a Chess960 position
    /// drawn where asked; those not accepted stay behind.
    ///
    /// # Errors
    ///
    /// `forbidden` for anyone but the host; `not_allowed` once started or
    /// cancelled, or with nobody accepted.
    pub fn start(&mut self, by: i64, now: u64) -> Result<(), ActionError> {
        self.ensure_host(by)?;
        self.ensure_open()?;
        if self.accepted() == 0 {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "accept at least one applicant before the start",
            ));
        }
        let mut rng = rand::rng();
        self.boards = self
            .applicants
            .iter()
            .filter(|a| a.accepted)
            .map(|a| Board {
                player: a.player.clone(),
                host_color: match self.host_color {
                    HostColor::White => Side::White,
                    HostColor::Black => Side::Black,
                    HostColor::Random if rng.random_bool(0.5) => Side::White,
                    HostColor::Random => Side::Black,
                },
                game: crate::setup::random_code(8),
                chess960: match self.start {
                    Start::Chess960EachBoard => Some(rng.random_range(0..960)),
                    Start::Chess960 { number } => Some(number),
                    Start::Standard | Start::Position { .. } => None,
                },
            })
            .collect();
        self.status = Status::Started;
        self.started = Some(now);
        Ok(())
    }

    /// The host (`by`) calls it off before the start.
    ///
    /// # Errors
    ///
    /// `forbidden` for anyone but the host; `not_allowed` once started or
    /// cancelled.
    pub fn cancel(&mut self, by: i64) -> Result<(), ActionError> {
        self.ensure_host(by)?;
        self.ensure_open()?;
        self.status = Status::Cancelled;
        Ok(())
    }

    /// Marks a started simul finished at `now` (its last board has
    /// ended); whether it changed.
    pub fn finish(&mut self, now: u64) -> bool {
        if self.status != Status::Started {
            return false;
        }
        self.status = Status::Finished;
        self.finished = Some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(id: i64, name: &str) -> Entrant {
        Entrant {
            id,
            name: name.into(),
        }
    }

    fn simul(host_color: HostColor, start: Start) -> Simul {
        Simul::new(
            "s".into(),
            "Simul".into(),
            entrant(1, "Host"),
            "5+3".into(),
            60_000,
            10_000,
            host_color,
            start,
            0,
        )
    }

    #[test]
    fn applicants_accepted_get_boards_in_order_and_the_others_stay_behind() {
        let mut s = simul(HostColor::Black, Start::Chess960 { number: 518 });
        for (id, name) in [(2, "Ann"), (3, "Ben"), (4, "Cy")] {
            s.apply(&entrant(id, name), 5).expect("applies");
        }
        s.accept(1, "CY").expect("any case");
        s.accept(1, "ann").expect("accepts");
        s.start(1, 9).expect("starts");
        let players: Vec<&str> = s.boards.iter().map(|b| b.player.name.as_str()).collect();
        assert_eq!(players, ["Ann", "Cy"]);
        assert!(s.boards.iter().all(|b| b.host_color == Side::Black));
        assert!(s.boards.iter().all(|b| b.chess960 == Some(518)));
        assert_ne!(s.boards[0].game, s.boards[1].game);
        // 60 s plus 10 s for each of two boards.
        assert_eq!(s.host_extra_ms(), 80_000);
        assert_eq!((s.status, s.started), (Status::Started, Some(9)));
    }

    #[test]
    fn every_refusal_changes_nothing() {
        let mut s = simul(HostColor::Random, Start::Standard);
        s.apply(&entrant(2, "Ann"), 0).expect("applies");
        type Step = fn(&mut Simul) -> Result<(), ActionError>;
        let refusals: [(Step, ErrorCode); 9] = [
            (|s| s.apply(&entrant(1, "Host"), 0), ErrorCode::NotAllowed),
            (|s| s.apply(&entrant(2, "Ann"), 0), ErrorCode::NotAllowed),
            (|s| s.withdraw(3), ErrorCode::NotFound),
            (|s| s.accept(2, "Ann"), ErrorCode::Forbidden),
            (|s| s.accept(1, "Nobody"), ErrorCode::NotFound),
            (|s| s.reject(1, "Nobody"), ErrorCode::NotFound),
            (|s| s.start(1, 0), ErrorCode::NotAllowed),
            (|s| s.start(2, 0), ErrorCode::Forbidden),
            (|s| s.cancel(2), ErrorCode::Forbidden),
        ];
        for (i, (step, code)) in refusals.into_iter().enumerate() {
            let mut copy = s.clone();
            assert_eq!(
                step(&mut copy).expect_err("refused").code,
                code,
                "refusal {i}"
            );
            assert_eq!(copy, s, "refusal {i} changed nothing");
        }
    }

    #[test]
    fn a_started_simul_refuses_a_second_start_and_new_applicants() {
        let mut s = simul(HostColor::White, Start::Standard);
        s.apply(&entrant(2, "Ann"), 0).expect("applies");
        s.accept(1, "Ann").expect("accepts");
        s.start(1, 1).expect("starts");
        let started = s.clone();
        assert_eq!(
            s.start(1, 2).expect_err("twice").code,
            ErrorCode::NotAllowed
        );
        assert_eq!(
            s.apply(&entrant(3, "Ben"), 2).expect_err("late").code,
            ErrorCode::NotAllowed
        );
        assert_eq!(s.cancel(1).expect_err("late").code, ErrorCode::NotAllowed);
        assert_eq!(s, started);
        assert!(s.finish(5));
        assert!(!s.finish(6), "once");
    }

    #[test]
    fn no_more_boards_than_the_most() {
        let mut s = simul(HostColor::White, Start::Standard);
        for i in 0..=MAX_BOARDS {
            let name = format!("p{i}");
            s.apply(&entrant(10 + i as i64, &name), 0).expect("applies");
            if i < MAX_BOARDS {
                s.accept(1, &name).expect("room for it");
            }
        }
        let full = s.clone();
        let last = format!("p{MAX_BOARDS}");
        let e = s.accept(1, &last).expect_err("too many boards");
        assert_eq!(e.code, ErrorCode::NotAllowed);
        assert!(e.message.contains("at most"), "{}", e.message);
        assert_eq!(s, full);
        // Accepting one accepted already is no change, and allowed.
        s.accept(1, "p0").expect("idempotent");
        assert_eq!(s, full);
    }

    #[test]
    fn a_random_host_colour_is_drawn_for_each_board() {
        let mut s = simul(HostColor::Random, Start::Chess960EachBoard);
        for i in 0..MAX_BOARDS {
            let name = format!("p{i}");
            s.apply(&entrant(10 + i as i64, &name), 0).expect("applies");
            s.accept(1, &name).expect("accepts");
        }
        s.start(1, 0).expect("starts");
        // 40 fair draws: both colours (the chance of one colour only is 2^-39).
        assert!(s.boards.iter().any(|b| b.host_color == Side::White));
        assert!(s.boards.iter().any(|b| b.host_color == Side::Black));
        assert!(s.boards.iter().all(|b| b.chess960.is_some_and(|n| n < 960)));
    }
}
