//! How a game ends: the result (1-0, ½-½, 0-1, or a double forfeit) and the
//! article of the Laws that ended it, each with a stable id for storage.
//!
//! ```
//! use rochade_laws::{Outcome, Reason, Scoring};
//! use shakmaty::Color;
//!
//! let mate = Outcome::win(Color::White, Reason::Checkmate);
//! assert_eq!(mate.result.to_string(), "1-0");
//! assert_eq!(Reason::Checkmate.article(), "5.1.1");
//! assert_eq!(Scoring::CLASSICAL.points(mate.result, Color::White), 2); // in half points
//! ```

use std::fmt;

use shakmaty::Color;

/// The result written on the scoresheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// ½-½.
    Draw,
    /// 0-0: both players lose (ICCF double forfeit).
    BothLose,
}

impl GameResult {
    /// The winner, if exactly one player won.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::BothLose => None,
        }
    }

    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`). PGN has no token
    /// for a double forfeit; it is written `0-0` here and in Rochade's records.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::BothLose => "0-0",
        }
    }

    /// The result written `text` as [`GameResult::as_str`] writes it.
    ///
    /// ```
    /// use rochade_laws::GameResult;
    /// assert_eq!(GameResult::parse("1/2-1/2"), Some(GameResult::Draw));
    /// assert_eq!(GameResult::parse("0-0"), Some(GameResult::BothLose));
    /// assert_eq!(GameResult::parse("2-0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<GameResult> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::BothLose,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }

    /// A win for `winner`.
    pub fn win_for(winner: Color) -> GameResult {
        winner.fold_wb(GameResult::WhiteWins, GameResult::BlackWins)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the game ended: one reason per article of the Laws.
///
/// The numeric [`Reason::id`] is stable and meant for a database column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// 5.1.1: the winner checkmated the opponent's king.
    Checkmate,
    /// 5.1.2: the loser resigned.
    Resignation,
    /// 6.9: the loser's flag fell and the winner could still checkmate.
    Timeout,
    /// Won by forfeit: the loser did not appear (6.7), or the arbiter
    /// declared the game lost (7.5.5, 11.3, 12.9).
    Forfeit,
    /// ICCF 5.1.3: the player on move claimed a win that a 7-piece
    /// tablebase gives (without the 50-move rule, ICCF 9.3).
    TablebaseWin,
    /// 5.2.1: the player to move has no legal move and is not in check.
    Stalemate,
    /// 5.2.2: neither player can checkmate by any series of legal moves.
    DeadPosition,
    /// 5.2.3 and 9.1: both players agreed to a draw.
    Agreement,
    /// 9.2: a correct claim of threefold repetition.
    ThreefoldRepetition,
    /// 9.3: a correct claim under the 50-move rule.
    FiftyMoves,
    /// 9.6.1: the same position appeared five times.
    FivefoldRepetition,
    /// 9.6.2: 75 moves by each player without a pawn move or capture.
    SeventyFiveMoves,
    /// 6.9: a flag fell but the opponent cannot checkmate by any series of
    /// legal moves.
    TimeoutVsInsufficientMaterial,
    /// 6.11: both flags fell in the last period and it cannot be told which
    /// fell first.
    BothFlagsFallen,
    /// ICCF 5.2.4: the player on move claimed a draw that a 7-piece
    /// tablebase gives.
    TablebaseDraw,
    /// ICCF 6.9: both players forfeit the game, as when both flags have
    /// fallen and nothing shows which fell first.
    DoubleForfeit,
    /// ICCF 5.1.4 and 11.1: the tournament director adjudicated a win.
    AdjudicatedWin,
    /// ICCF 5.2.6 and 11.1: the tournament director adjudicated a draw.
    AdjudicatedDraw,
}

impl Reason {
    /// Every reason, in id order.
    pub const ALL: [Reason; 18] = [
        Reason::Checkmate,
        Reason::Resignation,
        Reason::Timeout,
        Reason::Forfeit,
        Reason::TablebaseWin,
        Reason::AdjudicatedWin,
        Reason::Stalemate,
        Reason::DeadPosition,
        Reason::Agreement,
        Reason::ThreefoldRepetition,
        Reason::FiftyMoves,
        Reason::FivefoldRepetition,
        Reason::SeventyFiveMoves,
        Reason::TimeoutVsInsufficientMaterial,
        Reason::BothFlagsFallen,
        Reason::TablebaseDraw,
        Reason::AdjudicatedDraw,
        Reason::DoubleForfeit,
    ];

    /// A stable number for storage. Wins are 1–9, draws 10–29, other
    /// results 30 and up. Never renumber.
    pub fn id(self) -> u16 {
        match self {
            Reason::Checkmate => 1,
            Reason::Resignation => 2,
            Reason::Timeout => 3,
            Reason::Forfeit => 4,
            Reason::TablebaseWin => 5,
            Reason::Stalemate => 10,
            Reason::DeadPosition => 11,
            Reason::Agreement => 12,
            Reason::ThreefoldRepetition => 13,
            Reason::FiftyMoves => 14,
            Reason::FivefoldRepetition => 15,
            Reason::SeventyFiveMoves => 16,
            Reason::TimeoutVsInsufficientMaterial => 17,
            Reason::BothFlagsFallen => 18,
            Reason::TablebaseDraw => 19,
            Reason::AdjudicatedWin => 6,
            Reason::AdjudicatedDraw => 20,
            Reason::DoubleForfeit => 30,
        }
    }

    /// The reason with this stable id.
    ///
    /// ```
    /// use rochade_laws::Reason;
    /// assert_eq!(Reason::from_id(15), Some(Reason::FivefoldRepetition));
    /// assert_eq!(Reason::from_id(99), None);
    /// ```
    pub fn from_id(id: u16) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.id() == id)
    }

    /// The article of the current FIDE Laws that this reason applies; the
    /// reasons only the ICCF rules know name their ICCF article
    /// (`ICCF 5.1.3`).
    pub fn article(self) -> &'static str {
        match self {
            Reason::Checkmate => "5.1.1",
            Reason::Resignation => "5.1.2",
            Reason::Timeout | Reason::TimeoutVsInsufficientMaterial => "6.9",
            Reason::Forfeit => "6.7",
            Reason::Stalemate => "5.2.1",
            Reason::DeadPosition => "5.2.2",
            Reason::Agreement => "9.1",
            Reason::ThreefoldRepetition => "9.2",
            Reason::FiftyMoves => "9.3",
            Reason::FivefoldRepetition => "9.6.1",
            Reason::SeventyFiveMoves => "9.6.2",
            Reason::BothFlagsFallen => "6.11",
            Reason::TablebaseWin => "ICCF 5.1.3",
            Reason::TablebaseDraw => "ICCF 5.2.4",
            Reason::DoubleForfeit => "ICCF 6.9",
            Reason::AdjudicatedWin => "ICCF 5.1.4",
            Reason::AdjudicatedDraw => "ICCF 5.2.6",
        }
    }

    /// A stable snake_case name, as used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::Forfeit => "forfeit",
            Reason::Stalemate => "stalemate",
            Reason::DeadPosition => "dead_position",
            Reason::Agreement => "agreement",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::FiftyMoves => "fifty_moves",
            Reason::FivefoldRepetition => "fivefold_repetition",
            Reason::SeventyFiveMoves => "seventy_five_moves",
            Reason::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            Reason::BothFlagsFallen => "both_flags_fallen",
            Reason::TablebaseWin => "tablebase_win",
            Reason::TablebaseDraw => "tablebase_draw",
            Reason::DoubleForfeit => "double_forfeit",
            Reason::AdjudicatedWin => "adjudicated_win",
            Reason::AdjudicatedDraw => "adjudicated_draw",
        }
    }

    /// The text of the PGN `Termination` tag for this reason.
    pub fn pgn_termination(self) -> &'static str {
        match self {
            Reason::Timeout | Reason::TimeoutVsInsufficientMaterial | Reason::BothFlagsFallen => {
                "time forfeit"
            }
            Reason::Forfeit | Reason::DoubleForfeit => "rules infraction",
            Reason::TablebaseWin
            | Reason::TablebaseDraw
            | Reason::AdjudicatedWin
            | Reason::AdjudicatedDraw => "adjudication",
            _ => "normal",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended: the result and its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// What goes on the scoresheet.
    pub result: GameResult,
    /// The article that ended the game.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `winner`.
    pub fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::win_for(winner),
            reason,
        }
    }

    /// A draw.
    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result, self.reason)
    }
}

/// Points for a win, a draw and a loss, in half points so that both the
/// classical 1 / ½ / 0 and the 3 / 1 / 0 system are exact (Article 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scoring {
    /// Half points for a win.
    pub win: u16,
    /// Half points for a draw.
    pub draw: u16,
    /// Half points for a loss.
    pub loss: u16,
}

impl Scoring {
    /// 1 for a win, ½ for a draw, 0 for a loss (FIDE 10.1).
    pub const CLASSICAL: Scoring = Scoring {
        win: 2,
        draw: 1,
        loss: 0,
    };
    /// 3 for a win, 1 for a draw, 0 for a loss.
    pub const THREE_ONE_ZERO: Scoring = Scoring {
        win: 6,
        draw: 2,
        loss: 0,
    };

    /// Half points that `player` scores for `result`.
    ///
    /// ```
    /// use rochade_laws::{GameResult, Scoring};
    /// use shakmaty::Color;
    /// assert_eq!(Scoring::THREE_ONE_ZERO.points(GameResult::Draw, Color::Black), 2);
    /// assert_eq!(Scoring::CLASSICAL.points(GameResult::BothLose, Color::White), 0);
    /// ```
    pub fn points(self, result: GameResult, player: Color) -> u16 {
        match result.winner() {
            Some(winner) if winner == player => self.win,
            Some(_) => self.loss,
            None if result == GameResult::Draw => self.draw,
            None => self.loss,
        }
    }

    /// Half points written as a player reads them: `1`, `½`, `0`, `3`.
    ///
    /// ```
    /// assert_eq!(rochade_laws::Scoring::format_points(1), "½");
    /// assert_eq!(rochade_laws::Scoring::format_points(5), "2½");
    /// ```
    pub fn format_points(half_points: u16) -> String {
        match (half_points / 2, half_points % 2) {
            (0, 1) => "½".to_owned(),
            (whole, 1) => format!("{whole}½"),
            (whole, _) => whole.to_string(),
        }
    }
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::CLASSICAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_unique() {
        let ids: Vec<u16> = Reason::ALL.iter().map(|r| r.id()).collect();
        assert_eq!(
            ids,
            [
                1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 30
            ]
        );
        for reason in Reason::ALL {
            assert_eq!(Reason::from_id(reason.id()), Some(reason));
        }
    }

    #[test]
    fn scoring_article_10() {
        // FIDE 10.1: a win scores one point, a draw half a point.
        let s = Scoring::CLASSICAL;
        assert_eq!(s.points(GameResult::WhiteWins, Color::White), 2);
        assert_eq!(s.points(GameResult::WhiteWins, Color::Black), 0);
        assert_eq!(s.points(GameResult::Draw, Color::Black), 1);
        let t = Scoring::THREE_ONE_ZERO;
        assert_eq!(t.points(GameResult::BlackWins, Color::Black), 6);
        assert_eq!(t.points(GameResult::Draw, Color::White), 2);
        // ICCF double forfeit: nobody scores.
        assert_eq!(t.points(GameResult::BothLose, Color::White), 0);
        assert_eq!(t.points(GameResult::BothLose, Color::Black), 0);
    }
}
