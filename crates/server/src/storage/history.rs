//! What the store remembers of a player's games and ratings: the ratings
//! per category, their changes (the history chart), and the list of the
//! games an account played.

use shakmaty::Color;

use super::StorageError;
use crate::ratings::{Perf, Rating};

/// A player's result in a game, for filtering their list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserResult {
    /// They won.
    Win,
    /// They lost.
    Loss,
    /// A draw.
    Draw,
}

impl UserResult {
    /// Reads `win`, `loss` or `draw`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::storage::UserResult;
    /// assert_eq!(UserResult::parse("draw"), Some(UserResult::Draw));
    /// assert_eq!(UserResult::parse("won"), None);
    /// ```
    pub fn parse(text: &str) -> Option<UserResult> {
        match text {
            "win" => Some(UserResult::Win),
            "loss" => Some(UserResult::Loss),
            "draw" => Some(UserResult::Draw),
            _ => None,
        }
    }
}

/// Which of an account's games to list, newest first unless asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesQuery {
    /// The account.
    pub user: i64,
    /// Only games created at or before this (Unix ms).
    pub until: Option<u64>,
    /// Only games created at or after this (Unix ms).
    pub since: Option<u64>,
    /// At most this many.
    pub max: usize,
    /// Only these categories (all when empty).
    pub perfs: Vec<Perf>,
    /// Only rated (`Some(true)`) or casual (`Some(false)`) games.
    pub rated: Option<bool>,
    /// Only the games the account played with this colour.
    pub color: Option<Color>,
    /// Only games with this result for the account (finished ones).
    pub result: Option<UserResult>,
    /// Finished games.
    pub finished: bool,
    /// Games still going on.
    pub ongoing: bool,
    /// Only the games against this account.
    pub vs: Option<i64>,
    /// Oldest first instead of newest first.
    pub oldest_first: bool,
}

impl GamesQuery {
    /// Every finished game of `user`, newest first, at most `max`.
    pub fn finished(user: i64, max: usize) -> GamesQuery {
        GamesQuery {
            user,
            until: None,
            since: None,
            max,
            perfs: Vec::new(),
            rated: None,
            color: None,
            result: None,
            finished: true,
            ongoing: false,
            vs: None,
            oldest_first: false,
        }
    }
}

/// One game of a list: what the list filters and sorts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedGame {
    /// The game id.
    pub id: String,
    /// When it was created (Unix ms).
    pub created: u64,
}

/// A change of a player's rating, made by one game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    /// The account.
    pub user: i64,
    /// The category.
    pub perf: Perf,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// A point of a player's rating history: the rating after a game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    /// The category.
    pub perf: Perf,
    /// When (Unix ms).
    pub at: u64,
    /// The rating after the game.
    pub rating: f64,
}

/// Ratings and game lists.
pub trait History {
    /// The account's ratings, in the categories it has played rated
    /// games in (as stored: see [`Rating::as_of`] for the deviation now).
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn ratings(&self, user: i64) -> Result<Vec<(Perf, Rating)>, StorageError>;

    /// Every rating change of the account, oldest first.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn rating_history(&self, user: i64) -> Result<Vec<RatingPoint>, StorageError>;

    /// The rating changes the game `game` made (none unless rated and
    /// over).
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn game_ratings(&self, game: &str) -> Result<Vec<RatingChange>, StorageError>;

    /// The account's games that `query` asks for, newest first.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn user_games(&self, query: &GamesQuery) -> Result<Vec<PlayedGame>, StorageError>;

    /// How many games the account has finished: all, rated, won, lost,
    /// drawn.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn game_counts(&self, user: i64) -> Result<GameCounts, StorageError>;
}

/// The counts of a player's finished games.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Every finished game.
    pub all: u64,
    /// Rated ones.
    pub rated: u64,
    /// Won.
    pub win: u64,
    /// Lost.
    pub loss: u64,
    /// Drawn.
    pub draw: u64,
}
