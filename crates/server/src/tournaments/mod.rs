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
//! Live events are paired round by round: a Swiss by the FIDE (Dutch)
//! system or a round robin, each round's games started in the rooms, the
//! next round paired a short break after the last game of the round
//! ends ([`runner`]), unless the arbiter holds it.
//!
//! - [`create`]: the organiser's settings.
//! - [`http`]: showing, naming players, starting, the director's acts on
//!   players.
//! - [`export`]: the TRF, the PGN of every game, the standings.
//! - [`entry`]: players joining and leaving by themselves.
//! - [`arbiter`]: the arbiter's controls (pause, pair, results, byes,
//!   late entries), each logged.
//! - [`rounds`]: pairing a round and starting its games.
//! - [`knockout`]: a knockout's bracket, each match's next game.
//! - [`arena`]: an arena as lichess runs it: continuous pairing for a
//!   fixed time, points with streaks, berserk.
//! - [`report`]: the tournament as a TRF16 file.
//! - [`standings`]: points, tie-breaks (C.07) and the crosstable.
//! - [`runner`]: what the server does by itself: the start at its time,
//!   each round after the last.
//! - [`watch`]: the tournament's page, told of every change.

pub mod arbiter;
pub mod arena;
mod before_start;
pub mod call_off;
pub mod create;
pub mod entry;
pub mod export;
pub mod http;
pub mod knockout;
pub mod report;
pub mod reschedule;
pub mod rounds;
pub mod runner;
pub mod settings;
pub mod standings;
pub mod watch;

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
///     round: None,
///     arena: false,
///     default_ms: None,
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
    /// The round as the PGN's `Round` writes it (`3`; a knockout's match
    /// and game, `1.2.3`); none for a section played all at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// A game of an arena: its players may go berserk
    /// ([`arena::berserk`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub arena: bool,
    /// The default time (6.7.1), ms: a live game's player who has not
    /// made their first move by then (White from the start, Black from
    /// White's first move) loses it by default ([`crate::room::finish`]);
    /// none: the clock alone decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_ms: Option<u64>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "start")]
pub enum Start {
    /// The usual position.
    #[default]
    Standard,
    /// Chess960, a position drawn for each game.
    Chess960EachGame,
    /// Chess960, the one position drawn for the whole event.
    Chess960 {
        /// The position's number, 0–959.
        number: u32,
    },
}

/// A tournament: its settings, director, players and state (by default
/// an empty one, not begun, whose settings [`create`] then sets).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// How the players are paired.
    #[serde(default)]
    pub system: System,
    /// Round by round (each round paired when the last is over), or
    /// every game at once (a correspondence section, ICCF).
    #[serde(default)]
    pub by_round: bool,
    /// When it starts on its own (Unix ms); none: when the director
    /// starts it.
    #[serde(default)]
    pub starts_at: Option<u64>,
    /// Seconds between the end of a round and the pairing of the next.
    #[serde(default)]
    pub break_secs: u32,
    /// Who may join by themselves.
    #[serde(default)]
    pub entry: Entry,
    /// The tie-breaks, in the organiser's order (C.07 short names).
    #[serde(default)]
    pub tiebreaks: Vec<String>,
    /// How many half- or full-point byes a player may ask for.
    #[serde(default)]
    pub max_byes: u8,
    /// The rounds paired so far.
    #[serde(default)]
    pub rounds: Vec<Round>,
    /// Byes set for rounds not yet paired.
    #[serde(default)]
    pub byes: Vec<SetBye>,
    /// The arbiter holds the next pairing.
    #[serde(default)]
    pub paused: bool,
    /// Results the arbiter changed, by game.
    #[serde(default)]
    pub changed: Vec<ChangedResult>,
    /// When the last round ended (Unix ms), or the event was called off.
    #[serde(default)]
    pub finished: Option<u64>,
    /// A knockout's matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout: Option<knockout::KnockoutSpec>,
    /// What happened to a knockout's bracket.
    #[serde(default)]
    pub ko: knockout::KnockoutLog,
    /// An arena's games.
    #[serde(default, skip_serializing_if = "arena::ArenaLog::is_empty")]
    pub arena: arena::ArenaLog,
    /// Why the server holds the event (a round it could not pair), for
    /// the director; none once it goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// Why it ended before its start, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called_off: Option<call_off::CalledOff>,
    /// The default time of its live games (6.7.1), seconds; none: the
    /// clock alone decides (correspondence, and events stored before it
    /// was set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_secs: Option<u32>,
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
            round: None,
            arena: matches!(self.system, System::Arena { .. }),
            default_ms: self.default_secs.map(|s| u64::from(s) * 1000),
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

    /// How many players it may have.
    pub fn capacity(&self) -> usize {
        match self.system {
            System::RoundRobin => MAX_PLAYERS,
            System::Swiss { .. } => MAX_SWISS_PLAYERS,
            System::Knockout => MAX_KNOCKOUT_PLAYERS,
            System::Arena { .. } => arena::MAX_ARENA_PLAYERS,
        }
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
    /// Their rating in the event's category when they entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u16>,
    /// The first round they are paired in (a late entry's is after 1).
    #[serde(default = "first_round")]
    pub from_round: u16,
}

/// Serde's default for [`Entrant::from_round`].
fn first_round() -> u16 {
    1
}

/// How the players are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum System {
    /// Everyone meets everyone, by the Berger tables (C.05).
    #[default]
    RoundRobin,
    /// A knockout: seeded brackets, matches with tie-break stages (the
    /// matches in [`Tournament::knockout`]).
    Knockout,
    /// The FIDE (Dutch) Swiss system (C.04.3).
    Swiss {
        /// How many rounds.
        rounds: u16,
        /// Baku acceleration (C.04.5.1).
        #[serde(default)]
        baku: bool,
    },
    /// An arena as lichess runs it: continuous pairing for a fixed time
    /// ([`arena`]).
    Arena {
        /// How long it runs from the start.
        minutes: u16,
    },
}

/// Who may join a tournament by themselves, and when.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Players may join (otherwise only the director names them).
    #[serde(default)]
    pub open: bool,
    /// The least rating in the event's category.
    #[serde(default)]
    pub min_rating: Option<u16>,
    /// The highest rating in the event's category.
    #[serde(default)]
    pub max_rating: Option<u16>,
    /// How many days old an account must be.
    #[serde(default)]
    pub min_account_days: Option<u32>,
}

/// A round as it was paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// When it was paired and its games began (Unix ms).
    pub started: u64,
    /// Its games, board 1 first.
    pub boards: Vec<Board>,
    /// Those without a game.
    #[serde(default)]
    pub byes: Vec<RoundBye>,
    /// When its last game ended (Unix ms).
    #[serde(default)]
    pub finished: Option<u64>,
}

/// A pairing of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// White's account.
    pub white: i64,
    /// Black's account.
    pub black: i64,
    /// The game; none when it was not played (one side withdrawn).
    pub game: Option<String>,
    /// The result of a board not played (`+-`, `-+`, `--`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// A player without a game in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundBye {
    /// The player.
    pub player: i64,
    /// What it scores.
    pub kind: ByeKind,
}

/// A bye, as TRF16 codes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeKind {
    /// The pairing-allocated bye (C.04.1 b): a win, `U`.
    Pairing,
    /// A requested half-point bye, `H`.
    Half,
    /// A full-point bye, `F`.
    Full,
    /// Not paired, no points (absent or withdrawn), `Z`.
    Zero,
}

impl ByeKind {
    /// The kind named `name` (`half`, `full`, `zero`), as a request or the
    /// arbiter sets it; the pairing-allocated bye is the pairing's alone.
    pub fn settable(name: &str) -> Option<ByeKind> {
        match name {
            "half" => Some(ByeKind::Half),
            "full" => Some(ByeKind::Full),
            "zero" => Some(ByeKind::Zero),
            _ => None,
        }
    }
}

/// A bye the arbiter set for a round not yet paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetBye {
    /// The player.
    pub player: i64,
    /// The round.
    pub round: u16,
    /// Half, full or zero.
    pub kind: ByeKind,
}

/// A result the arbiter changed (the game keeps its own record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedResult {
    /// The game.
    pub game: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or a forfeit: `+-`, `-+`, `--`.
    pub result: String,
}

/// Most players a round robin may have (ICCF sections have 7 to 17; a
/// club may want more; a round robin of this many is already 1,225
/// games).
pub const MAX_PLAYERS: usize = 50;

/// Most players a knockout may have (a bracket of 256 lines, eight
/// rounds).
pub const MAX_KNOCKOUT_PLAYERS: usize = 256;

/// Most players a Swiss may have (a round of this many is paired in
/// about a second, `docs/pairing.md`).
pub const MAX_SWISS_PLAYERS: usize = 1000;

/// The longest name.
pub const NAME_CHARS: usize = 80;
