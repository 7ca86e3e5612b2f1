//! A player's arena sheet as lichess scores it: a win 2, a draw 1, a
//! loss 0; after two wins in a row the player is on fire and every game
//! scores double (a win 4, a draw 2) until one is not won; a berserk win
//! of seven moves or more scores one more point; a draw in fewer than ten
//! moves scores nothing, and so does a draw following a draw (losses
//! between them aside) unless it lasted thirty moves.

use serde::Serialize;

/// Half-moves under which a draw scores nothing (ten moves).
pub const QUICK_DRAW_PLIES: usize = 20;

/// Half-moves a berserk game needs for its bonus point (seven moves).
pub const BERSERK_PLIES: usize = 14;

/// Half-moves from which a draw after a draw still scores (thirty moves).
pub const LONG_GAME_PLIES: usize = 60;

/// A game's result from the player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Result {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// A finished game as the sheet reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The result for the player.
    pub result: Result,
    /// Half-moves played.
    pub plies: usize,
    /// The player went berserk.
    pub berserk: bool,
}

/// What a game scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Score {
    /// The result.
    pub result: Result,
    /// Points.
    pub points: u32,
    /// Scored double: the player was on fire.
    pub fire: bool,
    /// The player went berserk and it earned the point.
    pub berserk: bool,
}

/// A player's sheet: each game's score in the order played, the total.
///
/// ```
/// use rochade_server::tournaments::arena::sheet::{Played, Result, Sheet};
/// let game = |result| Played { result, plies: 40, berserk: false };
/// let sheet = Sheet::of(&[game(Result::Win), game(Result::Win), game(Result::Draw)]);
/// // Two wins, then a draw on fire: 2 + 2 + 2.
/// assert_eq!(sheet.total, 6);
/// assert_eq!(sheet.digits(), "222");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Sheet {
    /// Each game's score.
    pub scores: Vec<Score>,
    /// The points.
    pub total: u32,
}

impl Sheet {
    /// The sheet of `games`, in the order played.
    pub fn of(games: &[Played]) -> Sheet {
        let mut sheet = Sheet::default();
        for game in games {
            sheet.add(*game);
        }
        sheet
    }

    /// Whether the last two games were won: the next one scores double.
    pub fn on_fire(&self) -> bool {
        let mut last = self.scores.iter().rev();
        matches!(
            (last.next(), last.next()),
            (Some(a), Some(b)) if a.result == Result::Win && b.result == Result::Win
        )
    }

    /// Whether the last game that was not lost was a draw.
    fn after_draw(&self) -> bool {
        self.scores
            .iter()
            .rev()
            .find(|s| s.result != Result::Loss)
            .is_some_and(|s| s.result == Result::Draw)
    }

    /// Adds `game`.
    fn add(&mut self, game: Played) {
        let fire = self.on_fire();
        let base = match game.result {
            Result::Win => 2,
            Result::Draw if game.plies < QUICK_DRAW_PLIES => 0,
            Result::Draw if !fire && game.plies < LONG_GAME_PLIES && self.after_draw() => 0,
            Result::Draw => 1,
            Result::Loss => 0,
        };
        let doubled = fire && game.result != Result::Loss && base > 0;
        let berserk = game.berserk && game.result == Result::Win && game.plies >= BERSERK_PLIES;
        let points = if doubled { base * 2 } else { base } + u32::from(berserk);
        self.total += points;
        self.scores.push(Score {
            result: game.result,
            points,
            fire: doubled,
            berserk,
        });
    }

    /// The sheet as lichess writes it: each game's points, one digit
    /// each (a berserk win on fire is 5).
    pub fn digits(&self) -> String {
        self.scores.iter().map(|s| s.points.to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: Result, plies: usize, berserk: bool) -> Played {
        Played {
            result,
            plies,
            berserk,
        }
    }

    fn win() -> Played {
        game(Result::Win, 40, false)
    }

    fn draw() -> Played {
        game(Result::Draw, 40, false)
    }

    fn loss() -> Played {
        game(Result::Loss, 40, false)
    }

    #[test]
    fn a_win_is_two_a_draw_one_a_loss_nothing() {
        let sheet = Sheet::of(&[win(), loss(), draw()]);
        assert_eq!(sheet.digits(), "201");
        assert_eq!(sheet.total, 3);
        assert!(!sheet.on_fire());
    }

    #[test]
    fn two_wins_in_a_row_set_the_player_on_fire_until_a_game_is_not_won() {
        let sheet = Sheet::of(&[win(), win(), win(), win(), loss(), win()]);
        assert_eq!(sheet.digits(), "224402");
        assert_eq!(sheet.total, 14);
        assert_eq!(
            sheet.scores.iter().map(|s| s.fire).collect::<Vec<_>>(),
            [false, false, true, true, false, false]
        );
        assert!(!sheet.on_fire());
        assert!(Sheet::of(&[win(), win()]).on_fire());
        // A draw on fire scores two, and puts the fire out.
        let drawn = Sheet::of(&[win(), win(), draw(), win()]);
        assert_eq!(drawn.digits(), "2222");
        assert!(!drawn.on_fire());
    }

    #[test]
    fn a_berserk_win_of_seven_moves_scores_one_more() {
        let berserk = |plies| game(Result::Win, plies, true);
        assert_eq!(Sheet::of(&[berserk(14)]).digits(), "3");
        assert_eq!(Sheet::of(&[berserk(13)]).digits(), "2");
        // On fire: 4 + 1.
        assert_eq!(Sheet::of(&[win(), win(), berserk(30)]).digits(), "225");
        // A berserk draw or loss earns nothing more.
        let sheet = Sheet::of(&[game(Result::Draw, 40, true), game(Result::Loss, 40, true)]);
        assert_eq!(sheet.digits(), "10");
        assert!(!sheet.scores[0].berserk);
    }

    #[test]
    fn a_draw_in_fewer_than_ten_moves_scores_nothing() {
        assert_eq!(Sheet::of(&[game(Result::Draw, 19, false)]).digits(), "0");
        assert_eq!(Sheet::of(&[game(Result::Draw, 20, false)]).digits(), "1");
        // Even on fire, and it ends the streak.
        let sheet = Sheet::of(&[win(), win(), game(Result::Draw, 10, false), win()]);
        assert_eq!(sheet.digits(), "2202");
    }

    #[test]
    fn a_draw_after_a_draw_scores_nothing_unless_it_lasted_thirty_moves() {
        assert_eq!(Sheet::of(&[draw(), draw()]).digits(), "10");
        assert_eq!(Sheet::of(&[draw(), loss(), draw()]).digits(), "100");
        assert_eq!(Sheet::of(&[draw(), win(), draw()]).digits(), "121");
        assert_eq!(
            Sheet::of(&[draw(), game(Result::Draw, 60, false)]).digits(),
            "11"
        );
    }
}
