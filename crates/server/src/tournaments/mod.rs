//! Tournaments on the server, and the director each one has (ICCF 14).
//!
//! A correspondence section as ICCF runs it: the director names the
//! players, and at the start every game of the round robin (Berger
//! tables, [`rochade_tournament::berger`]) begins at once. The organiser's
//! settings travel into each game's setup as its [`Terms`]: who directs
//! it, whether it is played as Triple Block (no leave, appendix C; no
//! stopping of clocks, 6.10 a), from which move agreed draws are allowed
//! (9.1.1), and the Chess960 start (appendix B: one position for the
//! whole event, or one per game).
//!
//! - [`http`]: creating, showing, naming players, starting.
//! - [`sections`]: a started round robin's games.

pub mod http;
pub mod sections;

use serde::{Deserialize, Serialize};

use crate::error::{ActionError, ErrorCode};

/// What every game of a tournament carries from it, stored in the game's
/// setup so that the game alone knows its rules.
///
/// ```
/// use rochade_server::tournaments::Terms;
/// let terms = Terms {
///     id: "t1".into(),
///     name: "Section 1".into(),
///     director: 7,
///     triple_block: false,
///     draws_from_move: Some(20),
///     silence_days: None,
/// };
/// assert!(!terms.draw_allowed(38)); // after 19 moves each
/// assert!(terms.draw_allowed(39)); // White has played move 20
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The tournament's id.
    pub id: String,
    /// Its name (the PGN's `Event`).
    #[serde(default)]
    pub name: String,
    /// The director's account.
    pub director: i64,
    /// Triple Block (appendix C): no leave, and clocks the director does
    /// not stop (6.10 a).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub triple_block: bool,
    /// Agreed draws are allowed from this move on (9.1.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draws_from_move: Option<u32>,
    /// After how many days without a move the game needs the director
    /// (none: the server's `silence_days`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub silence_days: Option<u32>,
}

impl Terms {
    /// Whether a draw may be offered or agreed after `plies` half-moves
    /// (9.1.1): once White has made move N.
    pub fn draw_allowed(&self, plies: usize) -> bool {
        self.draws_from_move
            .is_none_or(|n| plies.div_ceil(2) >= n as usize)
    }
}

/// How a tournament's games start (appendix B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "start")]
pub enum Start {
    /// The usual position.
    Standard,
    /// Chess960, a position drawn for each game.
    Chess960EachGame,
    /// Chess960, the one position drawn for the whole event.
    Chess960 {
        /// The position's number, 0–959.
        number: u32,
    },
}

/// A tournament: its settings, director, players and state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// A short random id.
    pub id: String,
    /// The name, as the organiser wrote it.
    pub name: String,
    /// The director's account.
    pub director: i64,
    /// The director's name.
    pub director_name: String,
    /// The time control of every game (`10/40d`, `30d+1d`, `3d/move`).
    pub time_control: String,
    /// `iccf` (the default for day controls), `fide` or `fide2009`.
    pub rules: String,
    /// Rated in the players' correspondence ratings.
    pub rated: bool,
    /// Single or double round robin.
    pub double: bool,
    /// Triple Block (appendix C).
    pub triple_block: bool,
    /// Agreed draws from this move on (9.1.1).
    pub draws_from_move: Option<u32>,
    /// The start position.
    pub start: Start,
    /// After how many days without a move a game needs the director's
    /// attention.
    pub silence_days: u32,
    /// The players, in the order of their pairing numbers once started.
    pub players: Vec<Entrant>,
    /// When the games began (server time, Unix ms), once started.
    pub started: Option<u64>,
    /// Players withdrawn, with the server time of the withdrawal.
    #[serde(default)]
    pub withdrawn: Vec<(i64, u64)>,
    /// When it was created (Unix ms).
    pub created: u64,
}

impl Tournament {
    /// What its games carry.
    pub fn terms(&self) -> Terms {
        Terms {
            id: self.id.clone(),
            name: self.name.clone(),
            director: self.director,
            triple_block: self.triple_block,
            draws_from_move: self.draws_from_move,
            silence_days: Some(self.silence_days),
        }
    }

    /// Whether `user` may change it: its director.
    ///
    /// # Errors
    ///
    /// `forbidden` naming the director's role (14) for anyone else.
    pub fn ensure_director(&self, user: i64) -> Result<(), ActionError> {
        if user == self.director {
            Ok(())
        } else {
            Err(ActionError::new(
                ErrorCode::Forbidden,
                "only the tournament's director may do this (ICCF 14)",
            ))
        }
    }

    /// Whether `user` has been withdrawn.
    pub fn is_withdrawn(&self, user: i64) -> bool {
        self.withdrawn.iter().any(|(u, _)| *u == user)
    }

    /// The entrant with account `user`.
    pub fn entrant(&self, user: i64) -> Option<&Entrant> {
        self.players.iter().find(|p| p.id == user)
    }
}

/// A player of a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The account's id.
    pub id: i64,
    /// The account's name.
    pub name: String,
}

/// Most players a section may have (ICCF sections have 7 to 17; a club
/// may want more; a round robin of this many is already 1,225 games).
pub const MAX_PLAYERS: usize = 50;

/// The longest name.
pub const NAME_CHARS: usize = 80;
