//! A game on a chess clock: each move presses the clock (6.1), a fallen
//! flag ends the game by 6.9 or 6.11 (ICCF 6.9: both flags, a double
//! forfeit), a wrong claim costs time as the rule set says (9.5; none under
//! ICCF 9.4.3), a correct tablebase claim ends the game (ICCF 5.1.3, 5.2.4),
//! and the time left after each move is kept for `[%clk]`.
//!
//! ```
//! use std::time::Duration;
//! use rochade_laws::{Game, Outcome, Reason, TimedGame};
//! use shakmaty::Color;
//!
//! let s = Duration::from_secs;
//! let mut game = TimedGame::new(Game::default(), "1+0".parse()?, s(0));
//! game.play_uci("e2e4", s(5))?;
//! game.play_uci("e7e5", s(8))?;
//! assert_eq!(game.clock_times(), [s(55), s(57)]);
//! assert_eq!(game.elapsed_times(), [s(5), s(3)]);
//! // White thinks for a minute: the flag falls (6.9) and Black can mate.
//! assert!(game.play_uci("g1f3", s(70)).is_err());
//! assert_eq!(game.game().outcome(), Some(Outcome::win(Color::Black, Reason::Timeout)));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use shakmaty::{Color, Move};

use crate::{
    ClaimError, ClaimKind, ClaimVerdict, Game, MoveError, Outcome,
    clock::{Clock, ClockError, Flag, Press, TimeControl, wrong_claim_penalty},
    rules::RuleSet,
    tablebase::{TablebaseClaim, TablebaseClaimError, TablebaseValue},
};

/// A move on the clock was refused; game and clock are unchanged, unless a
/// fallen flag ended the game first.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimedMoveError {
    /// The move itself was refused (or the game is over, perhaps because a
    /// flag fell before the move was completed).
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The clocks are stopped (6.12).
    #[error(transparent)]
    Clock(#[from] ClockError),
}

/// A [`Game`] and its [`Clock`].
#[derive(Debug, Clone)]
pub struct TimedGame {
    game: Game,
    clock: Clock,
    presses: Vec<Press>,
}

impl TimedGame {
    /// A game whose clock starts at `start` with White's clock running (6.6).
    pub fn new(game: Game, control: TimeControl, start: Duration) -> TimedGame {
        TimedGame {
            game,
            clock: Clock::new(control, start),
            presses: Vec::new(),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The game, for what does not touch the clock: draw offers and their
    /// answers (9.1), resignation (5.1.2), take-backs. Moves and claims go
    /// through [`TimedGame::play`] and [`TimedGame::claim_draw`], which
    /// press the clock; stop it after ending the game here.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The clock, for the arbiter (stop, start, adjust: 6.10, 6.12).
    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// Every press, one per move, in order.
    pub fn presses(&self) -> &[Press] {
        &self.presses
    }

    /// The mover's time left after each move, for PGN `[%clk]` (empty
    /// without a clock).
    pub fn clock_times(&self) -> Vec<Duration> {
        self.presses.iter().filter_map(|p| p.time_left).collect()
    }

    /// The time each move took, for PGN `[%emt]`.
    pub fn elapsed_times(&self) -> Vec<Duration> {
        self.presses.iter().map(|p| p.elapsed).collect()
    }

    /// Looks at the clock at `now` (6.8) and ends the game if a flag has
    /// fallen: 6.9 (a loss, or a draw when the opponent cannot mate) or
    /// 6.11 (both flags in the last period: a draw). Under the ICCF rules
    /// both flags fallen is a double forfeit in any period (ICCF 6.9).
    /// Returns the outcome.
    pub fn observe_flag(&mut self, now: Duration) -> Option<Outcome> {
        if self.game.outcome().is_none() {
            let iccf = self.game.rules() == RuleSet::Iccf;
            match self.clock.flag(now) {
                Flag::Up => {}
                Flag::Fallen(player) => {
                    let _ = self.game.flag_fallen(player);
                }
                Flag::BothFallen { in_last_period } if in_last_period || iccf => {
                    let _ = self.game.both_flags_fallen();
                }
                Flag::BothFallen { .. } => {}
            }
            if self.game.outcome().is_some() {
                self.clock.stop(now);
            }
        }
        self.game.outcome()
    }

    /// Plays `m` completed at `now`: first the flag is looked at, then the
    /// move is made and the clock pressed.
    ///
    /// # Errors
    ///
    /// [`TimedMoveError::Move`] for an illegal move or an ended game,
    /// [`TimedMoveError::Clock`] while the clocks are stopped.
    pub fn play(&mut self, m: Move, now: Duration) -> Result<Option<Outcome>, TimedMoveError> {
        if let Some(outcome) = self.observe_flag(now) {
            return Err(MoveError::GameOver(outcome).into());
        }
        if self.clock.is_stopped() {
            return Err(ClockError::Stopped.into());
        }
        let outcome = self.game.play(m)?;
        self.press(now);
        Ok(outcome)
    }

    /// Plays a move in UCI notation, as [`TimedGame::play`].
    ///
    /// # Errors
    ///
    /// As [`TimedGame::play`].
    pub fn play_uci(
        &mut self,
        text: &str,
        now: Duration,
    ) -> Result<Option<Outcome>, TimedMoveError> {
        let m = crate::notation::read_uci(self.game.position(), text, self.game.castling_mode())
            .map_err(MoveError::from)?;
        self.play(m, now)
    }

    /// Presses the clock after a move, and stops it if the move ended the game.
    fn press(&mut self, now: Duration) {
        if let Ok(press) = self.clock.press(now) {
            self.presses.push(press);
        }
        if self.game.outcome().is_some() {
            self.clock.stop(now);
        }
    }

    /// A draw claim at `now` (9.2, 9.3). A wrong claim costs what the rule
    /// set says ([`wrong_claim_penalty`]: FIDE two minutes to the opponent,
    /// one in blitz; FIDE 2009 three minutes to the opponent and up to three
    /// off the claimant; ICCF nothing), and its intended move is played and
    /// pressed.
    ///
    /// # Errors
    ///
    /// As [`Game::claim_draw`]; also when a flag had already fallen.
    pub fn claim_draw(
        &mut self,
        claimant: Color,
        kind: ClaimKind,
        intended: Option<Move>,
        now: Duration,
    ) -> Result<ClaimVerdict, ClaimError> {
        if let Some(outcome) = self.observe_flag(now) {
            return Err(ClaimError::GameOver(outcome));
        }
        let verdict = self.game.claim_draw(claimant, kind, intended)?;
        match &verdict {
            ClaimVerdict::Drawn(_) => self.clock.stop(now),
            ClaimVerdict::Refused { played, penalty_to } => {
                let rules = self.game.rules();
                let category = self.clock.control().category(rules);
                let penalty =
                    wrong_claim_penalty(rules, category, self.clock.remaining(claimant, now));
                if let Some(left) = penalty.claimant_left {
                    self.clock.set_time(claimant, left, now);
                }
                if !penalty.opponent_gains.is_zero() {
                    self.clock
                        .add_time(*penalty_to, penalty.opponent_gains, now);
                }
                if played.is_some() {
                    self.press(now);
                }
            }
        }
        Ok(verdict)
    }

    /// A tablebase claim at `now` (ICCF 5.1.3, 5.2.4), with the tables'
    /// `value` for the side to move (`None` when they do not hold the
    /// position): a correct claim ends the game and stops the clock, a wrong
    /// one changes nothing (ICCF 9.4.3). See [`Game::claim_tablebase`].
    ///
    /// # Errors
    ///
    /// As [`Game::claim_tablebase`]; [`TablebaseClaimError::GameOver`] also
    /// when a flag had already fallen.
    pub fn claim_tablebase(
        &mut self,
        claimant: Color,
        claim: TablebaseClaim,
        value: Option<TablebaseValue>,
        now: Duration,
    ) -> Result<Option<Outcome>, TablebaseClaimError> {
        if let Some(outcome) = self.observe_flag(now) {
            return Err(TablebaseClaimError::GameOver(outcome));
        }
        let outcome = self.game.claim_tablebase(claimant, claim, value)?;
        if outcome.is_some() {
            self.clock.stop(now);
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reason, RuleSet};

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    /// The legal move `uci` in the game's position.
    fn intended(timed: &TimedGame, uci: &str) -> Move {
        crate::notation::read_uci(timed.game().position(), uci, timed.game().castling_mode())
            .expect("legal")
    }

    #[test]
    fn art_6_9_lone_king_gets_a_draw_when_the_opponent_flags() {
        // White has a lone king; Black's flag falls: White cannot mate.
        let game = Game::from_fen("8/8/4k3/8/8/3K4/8/q7 b - - 0 1", RuleSet::Fide).expect("legal");
        let mut timed = TimedGame::new(game, "1+0".parse().expect("control"), s(0));
        // Black is on move from the start but White's clock runs first (6.6);
        // press once so that Black's clock runs.
        timed.clock_mut().press(s(0)).expect("running");
        assert_eq!(
            timed.observe_flag(s(61)),
            Some(Outcome::draw(Reason::TimeoutVsInsufficientMaterial))
        );
    }

    #[test]
    fn art_6_9_flag_loses_against_king_and_two_knights() {
        // A helpmate with two knights exists, so White loses on time.
        let game = Game::from_fen("8/8/4k3/8/8/3K4/8/nn6 w - - 0 1", RuleSet::Fide).expect("legal");
        let mut timed = TimedGame::new(game, "1+0".parse().expect("control"), s(0));
        let e = timed.play_uci("d3e3", s(60)).expect_err("flag fell first");
        assert!(matches!(e, TimedMoveError::Move(MoveError::GameOver(_))));
        assert_eq!(
            timed.game().outcome(),
            Some(Outcome::win(Color::Black, Reason::Timeout))
        );
        assert!(timed.game().moves().is_empty());
    }

    #[test]
    fn art_9_5_wrong_claim_gives_the_opponent_two_minutes() {
        let mut timed = TimedGame::new(Game::default(), "90+30".parse().expect("control"), s(0));
        let intended = intended(&timed, "g1f3");
        let verdict = timed.claim_draw(
            Color::White,
            ClaimKind::ThreefoldRepetition,
            Some(intended),
            s(10),
        );
        assert!(matches!(verdict, Ok(ClaimVerdict::Refused { .. })));
        // Black: 90 minutes plus 2 of penalty; White pressed with the move.
        assert_eq!(
            timed.clock().remaining(Color::Black, s(10)),
            Some(s(92 * 60))
        );
        assert_eq!(timed.clock_times(), [s(90 * 60 - 10 + 30)]);
    }

    #[test]
    fn art_9_5_fide_2009_wrong_claim_three_minutes_and_half_the_claimants_time() {
        // 2008 text, 9.5b: the opponent gets three minutes; the claimant, with
        // more than two minutes, loses half of them, at most three.
        let game = Game::new(RuleSet::Fide2009);
        let mut timed = TimedGame::new(game, "90+30".parse().expect("control"), s(0));
        let intended = intended(&timed, "g1f3");
        let verdict = timed.claim_draw(Color::White, ClaimKind::FiftyMoves, Some(intended), s(10));
        assert!(matches!(verdict, Ok(ClaimVerdict::Refused { .. })));
        assert_eq!(
            timed.clock().remaining(Color::Black, s(10)),
            Some(s(93 * 60))
        );
        // White: 90 minutes less 10 s, less 3 minutes, plus the increment.
        assert_eq!(timed.clock_times(), [s(90 * 60 - 10 - 180 + 30)]);
    }

    #[test]
    fn art_9_5_fide_2009_claimant_with_under_two_minutes_keeps_one() {
        let game = Game::new(RuleSet::Fide2009);
        let mut timed = TimedGame::new(game, "3+0".parse().expect("control"), s(0));
        // White has 90 s left when claiming: one minute remains.
        let verdict = timed.claim_draw(Color::White, ClaimKind::FiftyMoves, None, s(90));
        assert!(matches!(
            verdict,
            Ok(ClaimVerdict::Refused { played: None, .. })
        ));
        assert_eq!(timed.clock().remaining(Color::White, s(90)), Some(s(60)));
        assert_eq!(timed.clock().remaining(Color::Black, s(90)), Some(s(360)));
    }

    #[test]
    fn iccf_art_9_4_3_wrong_claim_costs_no_time_and_the_move_is_played() {
        let game = Game::new(RuleSet::Iccf);
        let mut timed = TimedGame::new(game, "10/50d".parse().expect("control"), s(0));
        let intended = intended(&timed, "e2e4");
        let day = 86_400;
        let verdict = timed.claim_draw(
            Color::White,
            ClaimKind::ThreefoldRepetition,
            Some(intended),
            s(day),
        );
        assert!(matches!(verdict, Ok(ClaimVerdict::Refused { .. })));
        assert_eq!(timed.game().moves(), [intended]);
        assert_eq!(timed.clock_times(), [s(49 * day)]);
        assert_eq!(
            timed.clock().remaining(Color::Black, s(day)),
            Some(s(50 * day))
        );
    }

    #[test]
    fn iccf_art_6_9_both_flags_fallen_is_a_double_forfeit() {
        for (rules, expected) in [
            (RuleSet::Fide, Outcome::draw(Reason::BothFlagsFallen)),
            (
                RuleSet::Iccf,
                Outcome {
                    result: crate::GameResult::BothLose,
                    reason: Reason::DoubleForfeit,
                },
            ),
        ] {
            let mut timed = TimedGame::new(Game::new(rules), "1+0".parse().expect("control"), s(0));
            // White's flag fell at 60 s unseen; then Black's at 130 s.
            timed.clock_mut().press(s(70)).expect("running");
            assert_eq!(timed.observe_flag(s(200)), Some(expected), "{rules}");
            assert!(timed.clock().is_stopped(), "{rules}");
        }
    }

    #[test]
    fn iccf_art_5_1_3_tablebase_win_stops_the_clock() {
        let game = Game::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", RuleSet::Iccf).expect("legal");
        let mut timed = TimedGame::new(game, "10/50d".parse().expect("control"), s(0));
        let claim = |t: &mut TimedGame, value, now| {
            t.claim_tablebase(Color::White, TablebaseClaim::Win, value, now)
        };
        // Tables that do not hold the position decide nothing.
        assert_eq!(claim(&mut timed, None, s(5)), Ok(None));
        assert_eq!(
            claim(&mut timed, Some(TablebaseValue::Win), s(10)),
            Ok(Some(Outcome::win(Color::White, Reason::TablebaseWin)))
        );
        assert!(timed.clock().is_stopped());
    }

    #[test]
    fn blitz_penalty_is_one_minute() {
        let mut timed = TimedGame::new(Game::default(), "3+2".parse().expect("control"), s(0));
        let verdict = timed.claim_draw(Color::White, ClaimKind::FiftyMoves, None, s(1));
        assert!(matches!(
            verdict,
            Ok(ClaimVerdict::Refused { played: None, .. })
        ));
        assert_eq!(timed.clock().remaining(Color::Black, s(1)), Some(s(4 * 60)));
    }

    #[test]
    fn art_6_12_no_move_while_the_clocks_are_stopped() {
        let mut timed = TimedGame::new(Game::default(), "5+0".parse().expect("control"), s(0));
        timed.clock_mut().stop(s(3));
        assert_eq!(
            timed.play_uci("e2e4", s(4)),
            Err(TimedMoveError::Clock(ClockError::Stopped))
        );
        timed.clock_mut().start(s(100));
        timed.play_uci("e2e4", s(101)).expect("running again");
        assert_eq!(timed.clock_times(), [s(300 - 4)]);
    }
}
