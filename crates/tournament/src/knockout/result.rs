//! The result of one game of a match, forfeits included.
//!
//! A player who does not appear loses the game by forfeit; the opponent
//! scores it as a win. When neither appears (a double forfeit) both lose
//! it: it scores 0–0 and counts as played. In an Armageddon game a double
//! forfeit is neither a win nor a draw, so Black's draw odds do not
//! apply and the match ends with no winner (see [`super::Outcome`]).
//!
//! ```
//! use rochade_tournament::knockout::GameResult;
//! use rochade_tournament::{Colour, Points};
//!
//! let r: GameResult = "1/2-1/2".parse().unwrap();
//! assert_eq!(r.points(Colour::Black), Points::HALF);
//! assert_eq!(GameResult::DoubleForfeit.to_string(), "--");
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Colour, Points};

/// How one game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won over the board: `1-0`.
    WhiteWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// Black won over the board: `0-1`.
    BlackWins,
    /// White did not appear; Black wins by forfeit: `-+`.
    WhiteForfeits,
    /// Black did not appear; White wins by forfeit: `+-`.
    BlackForfeits,
    /// Neither appeared; both lose: `--`.
    DoubleForfeit,
}

impl GameResult {
    /// Every result, in the order of the variants.
    pub const ALL: [GameResult; 6] = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
        GameResult::WhiteForfeits,
        GameResult::BlackForfeits,
        GameResult::DoubleForfeit,
    ];

    /// What the player of `colour` scores: 1, ½ or 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::GameResult;
    /// use rochade_tournament::{Colour, Points};
    ///
    /// assert_eq!(GameResult::BlackForfeits.points(Colour::White), Points::ONE);
    /// assert_eq!(GameResult::DoubleForfeit.points(Colour::White), Points::ZERO);
    /// ```
    #[must_use]
    pub fn points(self, colour: Colour) -> Points {
        match (self, colour) {
            (GameResult::Draw, _) => Points::HALF,
            (GameResult::WhiteWins | GameResult::BlackForfeits, Colour::White)
            | (GameResult::BlackWins | GameResult::WhiteForfeits, Colour::Black) => Points::ONE,
            _ => Points::ZERO,
        }
    }

    /// The colour that won the game, if any; with `draw_odds` (an
    /// Armageddon game) a draw is Black's.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::GameResult;
    /// use rochade_tournament::Colour;
    ///
    /// assert_eq!(GameResult::Draw.winner(false), None);
    /// assert_eq!(GameResult::Draw.winner(true), Some(Colour::Black));
    /// assert_eq!(GameResult::DoubleForfeit.winner(true), None);
    /// ```
    #[must_use]
    pub fn winner(self, draw_odds: bool) -> Option<Colour> {
        match self {
            GameResult::WhiteWins | GameResult::BlackForfeits => Some(Colour::White),
            GameResult::BlackWins | GameResult::WhiteForfeits => Some(Colour::Black),
            GameResult::Draw if draw_odds => Some(Colour::Black),
            GameResult::Draw | GameResult::DoubleForfeit => None,
        }
    }

    /// Whether the game was played over the board.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::GameResult;
    ///
    /// assert!(GameResult::Draw.is_played());
    /// assert!(!GameResult::WhiteForfeits.is_played());
    /// ```
    #[must_use]
    pub fn is_played(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWins | GameResult::Draw | GameResult::BlackWins
        )
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
            GameResult::WhiteForfeits => "-+",
            GameResult::BlackForfeits => "+-",
            GameResult::DoubleForfeit => "--",
        })
    }
}

/// A result that is none of `1-0`, `1/2-1/2` (or `½-½`), `0-1`, `+-`,
/// `-+`, `--`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("not a game result: {0:?} (1-0, 1/2-1/2, 0-1, +-, -+ or --)")]
pub struct ParseGameResultError(pub String);

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        match s.trim() {
            "1-0" => Ok(GameResult::WhiteWins),
            "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
            "0-1" => Ok(GameResult::BlackWins),
            "-+" => Ok(GameResult::WhiteForfeits),
            "+-" => Ok(GameResult::BlackForfeits),
            "--" => Ok(GameResult::DoubleForfeit),
            _ => Err(ParseGameResultError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_round_trip_through_text() {
        for r in GameResult::ALL {
            assert_eq!(r.to_string().parse(), Ok(r));
        }
        assert_eq!("½-½".parse(), Ok(GameResult::Draw));
        assert!("1-1".parse::<GameResult>().is_err());
    }

    #[test]
    fn a_forfeit_scores_as_a_win_for_the_player_present() {
        assert_eq!(GameResult::WhiteForfeits.points(Colour::Black), Points::ONE);
        assert_eq!(
            GameResult::WhiteForfeits.points(Colour::White),
            Points::ZERO
        );
        assert_eq!(GameResult::WhiteForfeits.winner(false), Some(Colour::Black));
    }

    #[test]
    fn a_double_forfeit_is_lost_by_both() {
        let r = GameResult::DoubleForfeit;
        assert_eq!(
            (r.points(Colour::White), r.points(Colour::Black)),
            (Points::ZERO, Points::ZERO)
        );
        assert_eq!(r.winner(true), None);
    }

    #[test]
    fn points_of_a_game_sum_to_one_unless_both_forfeit() {
        for r in GameResult::ALL {
            let sum = r.points(Colour::White) + r.points(Colour::Black);
            let expected = if r == GameResult::DoubleForfeit {
                Points::ZERO
            } else {
                Points::ONE
            };
            assert_eq!(sum, expected, "{r}");
        }
    }
}
