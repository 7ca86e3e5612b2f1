//! One player's Glicko-2 rating in one category, and the update after a
//! game. The formulas are the `skillratings` crate's; the constants are
//! lichess's (lila's `glicko` settings), so a Rochade rating reads as a
//! lichess one does.

use rochade_laws::GameResult;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};

/// Above this deviation a rating is provisional (shown with a "?").
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The lowest deviation: ratings never stop moving.
const MIN_DEVIATION: f64 = 45.0;
/// The system constant τ (lichess: 0.75).
const TAU: f64 = 0.75;
/// Rating periods per day: the deviation grows by one period's worth of
/// volatility every 1 / 0.21436 ≈ 4.7 days without a rated game (lichess).
const PERIODS_PER_DAY: f64 = 0.21436;
/// Milliseconds in a day.
const DAY_MS: f64 = 86_400_000.0;

/// A player's rating in one category.
///
/// # Examples
///
/// ```
/// use rochade_server::ratings::{Rating, rate};
/// use rochade_laws::GameResult;
/// let (white, black) = rate(&Rating::initial(), &Rating::initial(), GameResult::WhiteWins, 0);
/// assert!(white.rating > 1500.0 && black.rating < 1500.0);
/// assert_eq!((white.games, black.games), (1, 1));
/// assert!(white.provisional());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (uncertainty) as of `at`.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played in the category.
    pub games: u32,
    /// When it last changed (Unix ms; 0 for a new player).
    pub at: u64,
}

impl Rating {
    /// A new player's rating: 1500 ± 350, volatility 0.06 (Glickman's
    /// defaults).
    pub fn initial() -> Rating {
        let start = Glicko2Rating::new();
        Rating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
            at: 0,
        }
    }

    /// The rating as of `now` (Unix ms): its deviation grown by one rating
    /// period of volatility for every period since it last changed (the
    /// crate's `decay_deviation`, capped at the initial deviation).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::ratings::Rating;
    /// let r = Rating { rating: 1800.0, deviation: 60.0, volatility: 0.06, games: 40, at: 0 };
    /// let year = 365 * 86_400_000;
    /// assert!(r.as_of(year).deviation > 100.0);
    /// assert_eq!(r.as_of(86_400_000).deviation, 60.0); // less than a period
    /// ```
    pub fn as_of(&self, now: u64) -> Rating {
        if self.games == 0 {
            return *self;
        }
        let days = now.saturating_sub(self.at) as f64 / DAY_MS;
        let periods = (days * PERIODS_PER_DAY).floor() as u32;
        let mut glicko = self.glicko();
        // Each period adds volatility² (in the Glicko-2 scale); from the
        // floor, about 1,100 periods (14 years) reach the cap.
        for _ in 0..periods.min(2_000) {
            glicko = decay_deviation(&glicko);
        }
        Rating {
            deviation: glicko.deviation,
            ..*self
        }
    }

    /// Whether the rating is still provisional (lichess: deviation above
    /// 110).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating rounded as shown.
    pub fn shown(&self) -> i64 {
        self.rating.round() as i64
    }

    /// In the crate's terms.
    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// Back from the crate's terms after a game at `at`.
    fn after(&self, glicko: Glicko2Rating, at: u64) -> Rating {
        Rating {
            rating: glicko.rating,
            deviation: glicko.deviation.max(MIN_DEVIATION),
            volatility: glicko.volatility,
            games: self.games.saturating_add(1),
            at,
        }
    }
}

/// Both players' ratings after a rated game between them that ended with
/// `result` at `at` (Unix ms). A double forfeit (0-0) is not a game
/// played, and changes nothing.
pub fn rate(white: &Rating, black: &Rating, result: GameResult, at: u64) -> (Rating, Rating) {
    let outcome = match result {
        GameResult::WhiteWins => Outcomes::WIN,
        GameResult::BlackWins => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
        GameResult::BothLose => return (*white, *black),
    };
    let (w, b) = (white.as_of(at), black.as_of(at));
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (new_white, new_black) = glicko2(&w.glicko(), &b.glicko(), &outcome, &config);
    (w.after(new_white, at), b.after(new_black, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
            games: 30,
            at: 0,
        }
    }

    #[test]
    fn a_win_over_a_stronger_player_gains_more() {
        let me = player(1500.0, 80.0);
        let (weak_win, _) = rate(&me, &player(1300.0, 80.0), GameResult::WhiteWins, 0);
        let (strong_win, _) = rate(&me, &player(1700.0, 80.0), GameResult::WhiteWins, 0);
        assert!(strong_win.rating - 1500.0 > weak_win.rating - 1500.0);
        assert!(weak_win.rating > 1500.0);
    }

    #[test]
    fn a_draw_between_equals_keeps_the_ratings_and_shrinks_the_deviation() {
        let (w, b) = rate(
            &player(1600.0, 200.0),
            &player(1600.0, 200.0),
            GameResult::Draw,
            0,
        );
        assert!((w.rating - 1600.0).abs() < 0.001 && (b.rating - 1600.0).abs() < 0.001);
        assert!(w.deviation < 200.0);
    }

    #[test]
    fn the_sum_moves_the_opposite_ways() {
        let (w, b) = rate(
            &Rating::initial(),
            &Rating::initial(),
            GameResult::BlackWins,
            5,
        );
        assert!(w.rating < 1500.0 && b.rating > 1500.0);
        assert!(((1500.0 - w.rating) - (b.rating - 1500.0)).abs() < 0.001);
        assert_eq!(w.at, 5);
    }

    #[test]
    fn the_deviation_never_falls_below_the_floor() {
        let mut a = player(1500.0, 46.0);
        let mut b = player(1500.0, 46.0);
        for i in 0..200 {
            (a, b) = rate(&a, &b, GameResult::Draw, i);
        }
        assert!(a.deviation >= MIN_DEVIATION && b.deviation >= MIN_DEVIATION);
    }

    #[test]
    fn idle_periods_grow_the_deviation_up_to_the_initial_one() {
        let r = player(2000.0, 50.0);
        let month = r.as_of(30 * 86_400_000);
        assert!(month.deviation > 50.0, "{month:?}");
        let decade = r.as_of(3650 * 86_400_000);
        assert!(decade.deviation > month.deviation && decade.deviation < 350.0);
        let forever = r.as_of(30 * 3650 * 86_400_000);
        assert!((forever.deviation - 350.0).abs() < 0.001);
        assert_eq!(forever.rating, 2000.0);
    }

    #[test]
    fn a_double_forfeit_changes_nothing() {
        let (w, b) = rate(
            &player(1500.0, 80.0),
            &player(1400.0, 80.0),
            GameResult::BothLose,
            9,
        );
        assert_eq!((w, b), (player(1500.0, 80.0), player(1400.0, 80.0)));
    }
}
