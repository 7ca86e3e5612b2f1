//! Tournaments, their directors' decisions and the players' requests to
//! them (ICCF 14): the storage side.

use super::{PlayingGame, StorageError};
use crate::tournaments::Tournament;

/// A director's decision as logged (ICCF 14.1.3): on a game, on a player
/// of a tournament, or both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Its row id (0 before it is stored).
    pub id: i64,
    /// The tournament, if the game or player belongs to one.
    pub tournament: Option<String>,
    /// The game it concerns.
    pub game: Option<String>,
    /// The player it concerns (a warning, a withdrawal, extra leave).
    pub player: Option<i64>,
    /// The director's account.
    pub by: i64,
    /// The director's name, as read back (empty before it is stored).
    pub by_name: String,
    /// The name of the player it concerns, as read back.
    pub player_name: Option<String>,
    /// What was decided, JSON (`{"act": "stop_clocks"}`, …).
    pub body: String,
    /// The director's reason, shown to both players.
    pub reason: String,
    /// When (Unix ms).
    pub at: u64,
}

/// What a request to a director is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// An appeal against a decision.
    Appeal,
    /// A claim or complaint the server cannot decide (6.6, 14.1.3).
    Claim,
}

impl RequestKind {
    /// Its name in JSON and in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            RequestKind::Appeal => "appeal",
            RequestKind::Claim => "claim",
        }
    }

    /// The kind named `name`.
    pub fn parse(name: &str) -> Option<RequestKind> {
        match name {
            "appeal" => Some(RequestKind::Appeal),
            "claim" => Some(RequestKind::Claim),
            _ => None,
        }
    }
}

/// A player's message to a director: an appeal or a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Its row id (0 before it is stored).
    pub id: i64,
    /// Appeal or claim.
    pub kind: RequestKind,
    /// The game it concerns.
    pub game: Option<String>,
    /// The decision appealed against.
    pub decision: Option<i64>,
    /// The tournament, if any.
    pub tournament: Option<String>,
    /// The player who wrote it.
    pub by: i64,
    /// Their name, as read back (empty before it is stored).
    pub by_name: String,
    /// What they wrote.
    pub message: String,
    /// When (Unix ms).
    pub at: u64,
    /// The director's answer and when it came.
    pub answer: Option<(String, u64)>,
}

/// Where tournaments and the directors' records are kept.
pub trait TournamentStore: Send + Sync + 'static {
    /// Stores a new tournament.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn create_tournament(&self, tournament: &Tournament) -> Result<(), StorageError>;

    /// Replaces a stored tournament's players and state.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn save_tournament(&self, tournament: &Tournament) -> Result<(), StorageError>;

    /// The tournament `id`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn tournament(&self, id: &str) -> Result<Option<Tournament>, StorageError>;

    /// Every tournament, newest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn tournaments(&self, limit: usize) -> Result<Vec<Tournament>, StorageError>;

    /// The tournaments the server moves on by itself: unfinished ones
    /// played round by round, and those waiting for their start time;
    /// oldest first.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn running_tournaments(&self) -> Result<Vec<Tournament>, StorageError>;

    /// The games of tournament `id` (finished or not), with their glances.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGame>, StorageError>;

    /// The unfinished games `director` directs: those of their
    /// tournaments, and, for a site director, the correspondence games of
    /// no tournament.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn directed_games(&self, director: i64, site: bool) -> Result<Vec<PlayingGame>, StorageError>;

    /// Whether account `user` is one of the site's directors.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn is_site_director(&self, user: i64) -> Result<bool, StorageError>;

    /// Makes account `user` a site director, or not.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_site_director(&self, user: i64, on: bool) -> Result<(), StorageError>;

    /// Logs a decision; its id.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn log_decision(&self, decision: &Decision) -> Result<i64, StorageError>;

    /// The decision `id`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn decision(&self, id: i64) -> Result<Option<Decision>, StorageError>;

    /// The decisions concerning account `user`: on them, or on a game
    /// they play; newest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn decisions_for(&self, user: i64, limit: usize) -> Result<Vec<Decision>, StorageError>;

    /// The decisions of tournament `id`, newest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn tournament_decisions(&self, id: &str, limit: usize) -> Result<Vec<Decision>, StorageError>;

    /// Stores a request; its id.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn file_request(&self, request: &Request) -> Result<i64, StorageError>;

    /// The request `id`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn request(&self, id: i64) -> Result<Option<Request>, StorageError>;

    /// Answers request `id`, if it is still open; whether it was.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn answer_request(&self, id: i64, answer: &str, at: u64) -> Result<bool, StorageError>;

    /// The unanswered requests about games `director` directs (see
    /// [`TournamentStore::directed_games`]), oldest first.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn open_requests(&self, director: i64, site: bool) -> Result<Vec<Request>, StorageError>;

    /// The requests account `user` wrote, newest first, at most `limit`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn requests_by(&self, user: i64, limit: usize) -> Result<Vec<Request>, StorageError>;
}

/// A game of a tournament, as its page lists it.
#[derive(Debug, Clone)]
pub struct TournamentGame {
    /// The game as a list entry needs it.
    pub game: PlayingGame,
    /// Its result (`1-0`, `0-1`, `1/2-1/2`, `0-0`) once over.
    pub result: Option<String>,
}
