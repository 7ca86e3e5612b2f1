//! One knockout match as a state machine: which game is next (its stage,
//! its colours), and once decided, who goes through.
//!
//! The match plays the stages of its [`MatchFormat`] in order. Within a
//! block of a stage the colours alternate; a stage whose colours are
//! drawn waits for the drawing ([`Next::DrawColours`]). A block ends as
//! soon as one player's lead is larger than the points left in it; a
//! tied block is played again if its stage allows, and otherwise the
//! next stage follows. In an Armageddon game a draw is a win for Black.
//!
//! A withdrawal ends the match at once, for the opponent. A forfeited
//! game is a lost game (the arbiter may also withdraw the player who did
//! not appear, as event regulations usually require); a double forfeit
//! scores 0–0, and in an Armageddon game it ends the match with no
//! winner: both players are out, and the next round's opponent goes
//! through without a game.
//!
//! ```
//! use rochade_tournament::knockout::{GameResult, Match, MatchFormat, Next, Outcome};
//! use rochade_tournament::PairingNumber;
//!
//! let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(8).unwrap());
//! let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
//! assert!(matches!(m.next(), Next::DrawColours { stage: 0, .. }));
//! m.set_colours(b).unwrap(); // the lot gives 8 White in game 1
//! m.record(GameResult::Draw).unwrap();
//! let Next::Game(game) = m.next() else { panic!("game 2 is next") };
//! assert_eq!((game.white, game.black, game.number), (a, b, 2));
//! m.record(GameResult::WhiteWins).unwrap();
//! assert_eq!(m.winner(), Some(a));
//! assert!(m.record(GameResult::Draw).is_err()); // the match is over
//! ```

use std::fmt;

use thiserror::Error;

use super::{GameResult, MatchFormat, MatchGame, Next, NextGame, Outcome, Stage, WonBy};
use crate::{Colour, PairingNumber, Points};

/// Why a match does not take an entry.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchError {
    /// The match is decided: it takes no more results.
    #[error("the match is already decided")]
    Finished,
    /// The colours of the stage are not drawn yet.
    #[error("the colours of this stage are not drawn yet")]
    ColoursNotDrawn,
    /// The colours of the stage are already drawn.
    #[error("the colours of this stage are already drawn")]
    ColoursAlreadyDrawn,
    /// A player who is not in this match.
    #[error("player {0} is not in this match")]
    NotAPlayer(PairingNumber),
    /// A match of a player against himself.
    #[error("player {0} cannot play himself")]
    SamePlayer(PairingNumber),
}

/// A knockout match between two players.
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::{GameResult, Match, MatchFormat, Outcome, WonBy};
/// use rochade_tournament::PairingNumber;
///
/// let (a, b) = (PairingNumber::new(3).unwrap(), PairingNumber::new(6).unwrap());
/// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
/// m.withdraw(b).unwrap();
/// assert_eq!(m.outcome(), Some(Outcome::Won { winner: a, loser: b, by: WonBy::Withdrawal }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    format: MatchFormat,
    upper: PairingNumber,
    lower: PairingNumber,
    games: Vec<MatchGame>,
    /// The current stage (0-based).
    stage: usize,
    /// The current block of the stage (1-based).
    block: u16,
    /// Who has White in the first game of the current stage.
    white_first: Option<PairingNumber>,
    /// Where the current stage's games begin in `games`.
    stage_start: usize,
    /// Where the current block's games begin in `games`.
    block_start: usize,
    outcome: Option<Outcome>,
}

impl Match {
    /// A match between `upper` and `lower` (the upper line of the bracket
    /// first) by `format`, before its first game.
    ///
    /// # Errors
    ///
    /// [`MatchError::SamePlayer`] if the two are one player.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let a = PairingNumber::new(1).unwrap();
    /// assert!(Match::new(MatchFormat::world_cup_2023(), a, a).is_err());
    /// ```
    pub fn new(
        format: MatchFormat,
        upper: PairingNumber,
        lower: PairingNumber,
    ) -> Result<Match, MatchError> {
        if upper == lower {
            return Err(MatchError::SamePlayer(upper));
        }
        Ok(Match {
            format,
            upper,
            lower,
            games: Vec::new(),
            stage: 0,
            block: 1,
            white_first: None,
            stage_start: 0,
            block_start: 0,
            outcome: None,
        })
    }

    /// The two players, the upper line of the bracket first.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// assert_eq!(Match::new(MatchFormat::world_cup_2023(), a, b).unwrap().players(), (a, b));
    /// ```
    #[must_use]
    pub fn players(&self) -> (PairingNumber, PairingNumber) {
        (self.upper, self.lower)
    }

    /// The format the match is played by.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// assert_eq!(m.format(), &MatchFormat::world_cup_2023());
    /// ```
    #[must_use]
    pub fn format(&self) -> &MatchFormat {
        &self.format
    }

    /// The games so far, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{GameResult, Match, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// m.set_colours(a).unwrap();
    /// m.record(GameResult::Draw).unwrap();
    /// assert_eq!(m.games()[0].white, a);
    /// ```
    #[must_use]
    pub fn games(&self) -> &[MatchGame] {
        &self.games
    }

    /// The end of the match, once decided.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// assert_eq!(Match::new(MatchFormat::world_cup_2023(), a, b).unwrap().outcome(), None);
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The player who goes through, once decided.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// m.withdraw(a).unwrap();
    /// assert_eq!(m.winner(), Some(b));
    /// ```
    #[must_use]
    pub fn winner(&self) -> Option<PairingNumber> {
        match self.outcome {
            Some(Outcome::Won { winner, .. }) => Some(winner),
            _ => None,
        }
    }

    /// What the match waits for: colours to be drawn, a game, or nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchFormat, Next, StageKind};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// assert_eq!(m.next(), Next::DrawColours { stage: 0, kind: StageKind::Standard });
    /// ```
    #[must_use]
    pub fn next(&self) -> Next<'_> {
        if let Some(outcome) = self.outcome {
            return Next::Finished(outcome);
        }
        let Some(rules) = self.format.stages().get(self.stage) else {
            return Next::Finished(Outcome::NoWinner);
        };
        let Some(first) = self.white_first else {
            return Next::DrawColours {
                stage: self.stage,
                kind: rules.kind(),
            };
        };
        let in_stage = self.games.len() - self.stage_start;
        let white = if in_stage.is_multiple_of(2) {
            first
        } else {
            self.opponent(first)
        };
        let in_block = self.games.len() - self.block_start;
        Next::Game(NextGame {
            stage: self.stage,
            rules,
            block: self.block,
            game: u16::try_from(in_block + 1).unwrap_or(u16::MAX),
            number: self.games.len() + 1,
            white,
            black: self.opponent(white),
        })
    }

    /// Sets who has White in the first game of the stage that waits for
    /// its drawing of lots.
    ///
    /// # Errors
    ///
    /// [`MatchError::Finished`], [`MatchError::NotAPlayer`], or
    /// [`MatchError::ColoursAlreadyDrawn`] when no drawing is due.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchError, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// m.set_colours(b).unwrap();
    /// assert_eq!(m.set_colours(a), Err(MatchError::ColoursAlreadyDrawn));
    /// ```
    pub fn set_colours(&mut self, white: PairingNumber) -> Result<(), MatchError> {
        if self.outcome.is_some() {
            return Err(MatchError::Finished);
        }
        self.check_player(white)?;
        if self.white_first.is_some() {
            return Err(MatchError::ColoursAlreadyDrawn);
        }
        self.white_first = Some(white);
        Ok(())
    }

    /// Records the result of the next game, and decides the match when
    /// it can.
    ///
    /// # Errors
    ///
    /// [`MatchError::Finished`] once decided, [`MatchError::ColoursNotDrawn`]
    /// while the stage waits for its drawing of lots.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{GameResult, Match, MatchError, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// assert_eq!(m.record(GameResult::Draw), Err(MatchError::ColoursNotDrawn));
    /// ```
    pub fn record(&mut self, result: GameResult) -> Result<(), MatchError> {
        let game = match self.next() {
            Next::Finished(_) => return Err(MatchError::Finished),
            Next::DrawColours { .. } => return Err(MatchError::ColoursNotDrawn),
            Next::Game(game) => game,
        };
        let (draw_odds, block_games) = (game.rules.black_has_draw_odds(), game.rules.games());
        let played = MatchGame {
            stage: game.stage,
            block: game.block,
            white: game.white,
            black: game.black,
            result,
        };
        self.games.push(played);
        if draw_odds {
            self.decide_armageddon(played.white, played.black, result);
        } else {
            self.decide_block(block_games);
        }
        Ok(())
    }

    /// Withdraws `player`: the opponent wins the match.
    ///
    /// # Errors
    ///
    /// [`MatchError::Finished`] once decided, [`MatchError::NotAPlayer`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Match, MatchError, MatchFormat};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// m.withdraw(a).unwrap();
    /// assert_eq!(m.withdraw(b), Err(MatchError::Finished));
    /// ```
    pub fn withdraw(&mut self, player: PairingNumber) -> Result<(), MatchError> {
        if self.outcome.is_some() {
            return Err(MatchError::Finished);
        }
        self.check_player(player)?;
        self.outcome = Some(Outcome::Won {
            winner: self.opponent(player),
            loser: player,
            by: WonBy::Withdrawal,
        });
        Ok(())
    }

    /// The score of stage `stage` (0-based, all its blocks), the upper
    /// player first; `None` before the stage's first game.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{GameResult, Match, MatchFormat};
    /// use rochade_tournament::{PairingNumber, Points};
    ///
    /// let (a, b) = (PairingNumber::new(1).unwrap(), PairingNumber::new(2).unwrap());
    /// let mut m = Match::new(MatchFormat::world_cup_2023(), a, b).unwrap();
    /// m.set_colours(a).unwrap();
    /// m.record(GameResult::WhiteWins).unwrap();
    /// assert_eq!(m.score(0), Some((Points::ONE, Points::ZERO)));
    /// assert_eq!(m.score(1), None);
    /// ```
    #[must_use]
    pub fn score(&self, stage: usize) -> Option<(Points, Points)> {
        let games: Vec<MatchGame> = self
            .games
            .iter()
            .filter(|g| g.stage == stage)
            .copied()
            .collect();
        (!games.is_empty()).then(|| self.points(&games))
    }

    /// The points of the upper and the lower player in `games`.
    fn points(&self, games: &[MatchGame]) -> (Points, Points) {
        let of = |player: PairingNumber| {
            games.iter().fold(Points::ZERO, |sum, g| {
                let colour = if g.white == player {
                    Colour::White
                } else {
                    Colour::Black
                };
                sum + g.result.points(colour)
            })
        };
        (of(self.upper), of(self.lower))
    }

    /// The other player of the match.
    fn opponent(&self, player: PairingNumber) -> PairingNumber {
        if player == self.upper {
            self.lower
        } else {
            self.upper
        }
    }

    /// `Ok` if `player` plays in this match.
    fn check_player(&self, player: PairingNumber) -> Result<(), MatchError> {
        if player == self.upper || player == self.lower {
            Ok(())
        } else {
            Err(MatchError::NotAPlayer(player))
        }
    }

    /// Ends the match on its Armageddon game.
    fn decide_armageddon(&mut self, white: PairingNumber, black: PairingNumber, r: GameResult) {
        self.outcome = Some(match r.winner(true) {
            Some(Colour::White) => self.won(white, WonBy::Score { stage: self.stage }),
            Some(Colour::Black) if r == GameResult::Draw => self.won(black, WonBy::DrawOdds),
            Some(Colour::Black) => self.won(black, WonBy::Score { stage: self.stage }),
            None => Outcome::NoWinner,
        });
    }

    /// Decides the match on the current block if a lead cannot be caught
    /// up; else, after a tied block, moves to the block or stage that
    /// follows.
    fn decide_block(&mut self, block_games: u16) {
        let (upper, lower) = self.points(&self.games[self.block_start..]);
        let played = self.games.len() - self.block_start;
        let left = u32::from(block_games).saturating_sub(u32::try_from(played).unwrap_or(u32::MAX));
        let lead = upper.tenths().abs_diff(lower.tenths());
        if lead > left * Points::ONE.tenths() {
            let leader = if upper > lower {
                self.upper
            } else {
                self.lower
            };
            self.outcome = Some(self.won(leader, WonBy::Score { stage: self.stage }));
            return;
        }
        if left > 0 {
            return;
        }
        self.block_start = self.games.len();
        if self.format.may_repeat(self.stage, self.block) {
            self.block += 1;
            return;
        }
        self.stage += 1;
        self.block = 1;
        self.stage_start = self.games.len();
        self.white_first = match self.format.stages().get(self.stage).map(Stage::colour_rule) {
            Some(super::ColourRule::Alternate) => self.games.last().map(|g| g.black),
            Some(super::ColourRule::DrawLots) => None,
            // The format's last stage always decides: not reached.
            None => {
                self.outcome = Some(Outcome::NoWinner);
                None
            }
        };
    }

    /// The outcome of `winner` winning the match.
    fn won(&self, winner: PairingNumber, by: WonBy) -> Outcome {
        Outcome::Won {
            winner,
            loser: self.opponent(winner),
            by,
        }
    }
}

impl fmt::Display for Match {
    /// The match on one line: `1 - 8: standard 1.0-1.0, rapid 1.5-0.5; 1 advances`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::listing::write_match(f, self, &|p| p.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knockout::testing::{n, standard_then_armageddon, won};
    use crate::knockout::{ColourRule, Repeat, StageKind};

    /// 2 standard games, 2 rapid, 2 blitz up to twice, then Armageddon.
    fn with_armageddon() -> MatchFormat {
        MatchFormat::new(
            Stage::new(StageKind::Standard, 2, "90'"),
            vec![
                Stage::new(StageKind::Rapid, 2, "25' + 10\""),
                Stage::new(StageKind::Blitz, 2, "5' + 3\"").repeat(Repeat::Times(2)),
                Stage::armageddon("White 5', Black 4'"),
            ],
        )
        .unwrap()
    }

    /// The game the match waits for; panics otherwise.
    fn next_game(m: &Match) -> NextGame<'_> {
        match m.next() {
            Next::Game(g) => g,
            other => panic!("expected a game, got {other:?}"),
        }
    }

    /// Plays `results` in order, drawing `white` for every stage that waits.
    fn play(m: &mut Match, white: PairingNumber, results: &[GameResult]) {
        for &r in results {
            if matches!(m.next(), Next::DrawColours { .. }) {
                m.set_colours(white).unwrap();
            }
            m.record(r).unwrap();
        }
    }

    /// The drawing of colours before the first rapid stage.
    const RAPID_COLOURS: Next<'static> = Next::DrawColours {
        stage: 1,
        kind: StageKind::Rapid,
    };

    use GameResult::{BlackWins, DoubleForfeit, Draw, WhiteForfeits, WhiteWins};

    #[test]
    fn world_cup_a_win_in_the_standard_games_decides() {
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(64)).unwrap();
        play(&mut m, n(64), &[BlackWins, Draw]);
        assert_eq!(m.outcome(), won(1, 64, WonBy::Score { stage: 0 }));
        assert_eq!(m.record(Draw), Err(MatchError::Finished));
        assert_eq!(m.set_colours(n(1)), Err(MatchError::Finished));
        assert_eq!(m.withdraw(n(64)), Err(MatchError::Finished));
        assert_eq!(m.games().len(), 2);
    }

    #[test]
    fn a_match_ends_once_the_lead_cannot_be_caught_up() {
        // A final of four games: 3-0 after three, the fourth is not played.
        let mut m = Match::new(standard_then_armageddon(4), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[WhiteWins, BlackWins, WhiteWins]);
        assert_eq!(m.winner(), Some(n(1)));
        assert_eq!(m.games().len(), 3);
        // 1-0 after one of two games is not yet decided.
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[WhiteWins]);
        assert_eq!(m.outcome(), None);
    }

    #[test]
    fn colours_alternate_from_the_drawn_first_colour() {
        let mut m = Match::new(with_armageddon(), n(5), n(12)).unwrap();
        assert_eq!(
            m.next(),
            Next::DrawColours {
                stage: 0,
                kind: StageKind::Standard
            }
        );
        assert_eq!(m.set_colours(n(7)), Err(MatchError::NotAPlayer(n(7))));
        m.set_colours(n(12)).unwrap();
        let g = next_game(&m);
        assert_eq!(
            (g.white, g.black, g.number, g.game, g.block),
            (n(12), n(5), 1, 1, 1)
        );
        m.record(Draw).unwrap();
        let g = next_game(&m);
        assert_eq!((g.white, g.black, g.number, g.game), (n(5), n(12), 2, 2));
    }

    #[test]
    fn world_cup_a_tie_goes_to_rapid_games_after_a_new_drawing_of_colours() {
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(3), n(6)).unwrap();
        play(&mut m, n(3), &[Draw, Draw]);
        assert_eq!(m.next(), RAPID_COLOURS);
        assert_eq!(m.record(Draw), Err(MatchError::ColoursNotDrawn));
        m.set_colours(n(6)).unwrap();
        let g = next_game(&m);
        assert_eq!(
            (g.rules.time_control(), g.white, g.number),
            ("25' + 10\"", n(6), 3)
        );
        m.record(WhiteWins).unwrap();
        m.record(Draw).unwrap();
        assert_eq!(m.outcome(), won(6, 3, WonBy::Score { stage: 1 }));
        assert_eq!(m.score(0), Some((Points::ONE, Points::ONE)));
        assert_eq!(m.score(1), Some((Points::HALF, Points::from_tenths(15))));
        assert_eq!(
            m.to_string(),
            "3 - 6: standard 1.0-1.0, rapid 0.5-1.5; 6 advances"
        );
    }

    #[test]
    fn armageddon_a_draw_means_black_advances() {
        let mut m = Match::new(with_armageddon(), n(1), n(2)).unwrap();
        // Standard, rapid, and both blitz blocks tied.
        play(&mut m, n(1), &[Draw; 8]);
        assert_eq!(
            m.next(),
            Next::DrawColours {
                stage: 3,
                kind: StageKind::Armageddon
            }
        );
        m.set_colours(n(1)).unwrap();
        let g = next_game(&m);
        assert!(g.rules.black_has_draw_odds());
        assert_eq!((g.white, g.black, g.number), (n(1), n(2), 9));
        m.record(Draw).unwrap();
        assert_eq!(m.outcome(), won(2, 1, WonBy::DrawOdds));
        assert_eq!(
            m.to_string(),
            "1 - 2: standard 1.0-1.0, rapid 1.0-1.0, blitz 2.0-2.0, Armageddon 0.5-0.5; \
             2 advances (Armageddon drawn: draw odds)"
        );
    }

    #[test]
    fn blitz_blocks_repeat_before_the_armageddon() {
        let mut m = Match::new(with_armageddon(), n(1), n(2)).unwrap();
        play(&mut m, n(2), &[Draw; 6]);
        // The second blitz block: colours go on alternating, no drawing.
        let g = next_game(&m);
        assert_eq!((g.stage, g.block, g.game, g.white), (2, 2, 1, n(2)));
        m.record(WhiteWins).unwrap();
        m.record(Draw).unwrap();
        assert_eq!(m.outcome(), won(2, 1, WonBy::Score { stage: 2 }));
    }

    #[test]
    fn armageddon_white_wins_and_a_double_forfeit_has_no_winner() {
        let mut m = Match::new(with_armageddon(), n(1), n(2)).unwrap();
        play(&mut m, n(2), &[Draw; 8]);
        play(&mut m, n(2), &[WhiteWins]);
        assert_eq!(m.winner(), Some(n(2)));

        let mut m = Match::new(with_armageddon(), n(1), n(2)).unwrap();
        play(&mut m, n(2), &[Draw; 8]);
        play(&mut m, n(2), &[DoubleForfeit]);
        assert_eq!(m.outcome(), Some(Outcome::NoWinner));
        assert_eq!(m.winner(), None);
        assert_eq!(m.next(), Next::Finished(Outcome::NoWinner));
    }

    #[test]
    fn world_cup_2023_sudden_death_reverses_colours_until_a_game_is_won() {
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[Draw; 8]);
        assert_eq!(
            m.next(),
            Next::DrawColours {
                stage: 4,
                kind: StageKind::Blitz
            }
        );
        m.set_colours(n(2)).unwrap();
        for (i, white) in [n(2), n(1), n(2), n(1)].into_iter().enumerate() {
            let g = next_game(&m);
            assert_eq!((g.white, g.block), (white, u16::try_from(i + 1).unwrap()));
            m.record(Draw).unwrap();
        }
        m.record(BlackWins).unwrap();
        assert_eq!(m.winner(), Some(n(1)));
        assert_eq!(m.games().len(), 13);
    }

    #[test]
    fn a_forfeited_game_is_lost() {
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[WhiteForfeits, Draw]);
        assert_eq!(m.winner(), Some(n(2)));
    }

    #[test]
    fn a_double_forfeit_scores_nothing_for_either() {
        // 1-0, then both absent: 1-0 and the match is won.
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[WhiteWins, DoubleForfeit]);
        assert_eq!(m.score(0), Some((Points::ONE, Points::ZERO)));
        assert_eq!(m.winner(), Some(n(1)));
        // Both absent twice: 0-0, a tie, the rapid games follow.
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[DoubleForfeit, DoubleForfeit]);
        assert_eq!(m.next(), RAPID_COLOURS);
    }

    #[test]
    fn a_withdrawal_ends_the_match_for_the_opponent() {
        let mut m = Match::new(MatchFormat::world_cup_2023(), n(1), n(2)).unwrap();
        play(&mut m, n(1), &[WhiteWins]);
        assert_eq!(m.withdraw(n(9)), Err(MatchError::NotAPlayer(n(9))));
        m.withdraw(n(1)).unwrap();
        assert_eq!(m.winner(), Some(n(2)));
        assert_eq!(
            m.to_string(),
            "1 - 2: standard 1.0-0.0; 2 advances (1 withdrew)"
        );
    }

    #[test]
    fn alternate_colours_continue_into_the_next_stage() {
        let format = MatchFormat::new(
            Stage::new(StageKind::Standard, 2, "90'"),
            vec![Stage::armageddon("5' v 4'").colours(ColourRule::Alternate)],
        )
        .unwrap();
        let mut m = Match::new(format, n(1), n(2)).unwrap();
        play(&mut m, n(1), &[Draw, Draw]);
        // Game 2 had 2 White: the Armageddon game gives 1 White.
        assert_eq!(next_game(&m).white, n(1));
        assert_eq!(m.set_colours(n(2)), Err(MatchError::ColoursAlreadyDrawn));
    }

    #[test]
    fn a_player_cannot_meet_himself() {
        let m = Match::new(MatchFormat::world_cup_2023(), n(4), n(4));
        assert_eq!(m, Err(MatchError::SamePlayer(n(4))));
    }
}
