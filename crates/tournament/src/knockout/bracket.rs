//! The bracket: rounds of matches, which match feeds which, the winners
//! going through, the final and an optional match for third place.
//!
//! Match `n` of round `r + 1` is fed by matches `2n - 1` (its upper line)
//! and `2n` (its lower line) of round `r`; round 1 follows
//! [`seeding::bracket_order`](super::seeding::bracket_order). A match
//! against an empty line is a bye: the player goes through without a
//! game, and so does a player whose opponent withdrew before the match.
//! The losers of the semi-finals meet in the match for third place when
//! the organiser has one.
//!
//! ```
//! use rochade_tournament::knockout::{Bracket, GameResult, MatchFormat, MatchId, Rules};
//! use rochade_tournament::PairingNumber;
//!
//! let n = |i| PairingNumber::new(i).unwrap();
//! let mut bracket = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
//! // Seed 1 has the bye; 2 and 3 play.
//! let semi = MatchId::Round { round: 1, number: 2 };
//! bracket.set_colours(semi, n(3)).unwrap();
//! bracket.record(semi, GameResult::BlackWins).unwrap();
//! bracket.record(semi, GameResult::Draw).unwrap();
//! let last = MatchId::Round { round: 2, number: 1 };
//! assert_eq!(bracket.get(last).unwrap().players(), Some((n(1), n(2))));
//! bracket.withdraw(n(2)).unwrap();
//! assert_eq!(bracket.champion(), Some(n(1)));
//! ```

use thiserror::Error;

use super::seeding::{self, SeedingError};
use super::{
    BracketMatch, Entrant, GameResult, Line, Match, MatchError, MatchFormat, MatchId, Next, Play,
    Rules,
};
use crate::PairingNumber;

/// Why the bracket does not take an entry.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BracketError {
    /// The bracket cannot be made.
    #[error(transparent)]
    Seeding(#[from] SeedingError),
    /// No such match in this bracket.
    #[error("there is no match {0}")]
    NoSuchMatch(MatchId),
    /// The match has no game to play: a line is undecided, or it is a bye.
    #[error("match {0} is not being played")]
    NotPlaying(MatchId),
    /// The match refused the entry.
    #[error("match {id}: {source}")]
    Match {
        /// The match.
        id: MatchId,
        /// Why.
        source: MatchError,
    },
    /// A player who is not in the bracket, or has no match left to play.
    #[error("player {0} has no match left to play")]
    NotInPlay(PairingNumber),
}

/// A knockout bracket for players numbered by seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    players: usize,
    rules: Rules,
    rounds: Vec<Vec<BracketMatch>>,
    third: Option<BracketMatch>,
    withdrawn: Vec<PairingNumber>,
}

impl Bracket {
    /// The bracket of `players` seeds (1 the highest), byes to the top
    /// seeds, every round-1 match made and the byes gone through.
    ///
    /// # Errors
    ///
    /// [`BracketError::Seeding`] for fewer than 2 or more than 9999
    /// players.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// let b = Bracket::new(206, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// assert_eq!((b.size(), b.rounds()), (256, 8));
    /// assert!(Bracket::new(1, Rules::new(MatchFormat::world_cup_2023())).is_err());
    /// ```
    pub fn new(players: usize, rules: Rules) -> Result<Bracket, BracketError> {
        let size = seeding::bracket_size(players)?;
        let order = seeding::bracket_order(size)?;
        let line = |seed: u16| {
            PairingNumber::new(seed)
                .filter(|_| usize::from(seed) <= players)
                .map_or(Line::Empty, Line::Seed)
        };
        let first = order
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| BracketMatch {
                id: MatchId::Round {
                    round: 1,
                    number: i + 1,
                },
                upper: line(pair[0]),
                lower: line(pair[1]),
                play: Play::Waiting,
            })
            .collect();
        let mut rounds: Vec<Vec<BracketMatch>> = vec![first];
        for round in 2..=size.ilog2() as usize {
            let matches = (1..=size >> round)
                .map(|number| BracketMatch {
                    id: MatchId::Round { round, number },
                    upper: Line::WinnerOf(MatchId::Round {
                        round: round - 1,
                        number: 2 * number - 1,
                    }),
                    lower: Line::WinnerOf(MatchId::Round {
                        round: round - 1,
                        number: 2 * number,
                    }),
                    play: Play::Waiting,
                })
                .collect();
            rounds.push(matches);
        }
        let last = rounds.len();
        let third = (rules.third_place.is_some() && last >= 2).then(|| BracketMatch {
            id: MatchId::ThirdPlace,
            upper: Line::LoserOf(MatchId::Round {
                round: last - 1,
                number: 1,
            }),
            lower: Line::LoserOf(MatchId::Round {
                round: last - 1,
                number: 2,
            }),
            play: Play::Waiting,
        });
        let mut bracket = Bracket {
            players,
            rules,
            rounds,
            third,
            withdrawn: Vec::new(),
        };
        bracket.settle();
        Ok(bracket)
    }

    /// The number of players.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// assert_eq!(Bracket::new(6, Rules::new(MatchFormat::world_cup_2023())).unwrap().players(), 6);
    /// ```
    #[must_use]
    pub fn players(&self) -> usize {
        self.players
    }

    /// The organiser's match formats.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// let b = Bracket::new(4, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// assert_eq!(b.rules().matches, MatchFormat::world_cup_2023());
    /// ```
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of lines: a power of two.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// assert_eq!(Bracket::new(6, Rules::new(MatchFormat::world_cup_2023())).unwrap().size(), 8);
    /// ```
    #[must_use]
    pub fn size(&self) -> usize {
        1 << self.rounds.len()
    }

    /// The number of rounds; the last is the final.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// assert_eq!(Bracket::new(128, Rules::new(MatchFormat::world_cup_2023())).unwrap().rounds(), 7);
    /// ```
    #[must_use]
    pub fn rounds(&self) -> usize {
        self.rounds.len()
    }

    /// The matches of round `round` (1-based), top to bottom.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// let b = Bracket::new(8, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// assert_eq!(b.round(1).map(<[_]>::len), Some(4));
    /// assert_eq!(b.round(3).map(<[_]>::len), Some(1));
    /// assert!(b.round(4).is_none());
    /// ```
    #[must_use]
    pub fn round(&self, round: usize) -> Option<&[BracketMatch]> {
        round
            .checked_sub(1)
            .and_then(|r| self.rounds.get(r))
            .map(Vec::as_slice)
    }

    /// The match for third place, if the organiser has one.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// let wc = MatchFormat::world_cup_2023();
    /// assert!(Bracket::new(8, Rules::new(wc.clone())).unwrap().third_place().is_none());
    /// assert!(Bracket::new(8, Rules::new(wc.clone()).third_place(wc)).unwrap().third_place().is_some());
    /// ```
    #[must_use]
    pub fn third_place(&self) -> Option<&BracketMatch> {
        self.third.as_ref()
    }

    /// The match `id`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(4, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let m = b.get(MatchId::Round { round: 1, number: 2 }).unwrap();
    /// assert_eq!(m.players().map(|(a, b)| (a.get(), b.get())), Some((2, 3)));
    /// assert!(b.get(MatchId::Round { round: 1, number: 3 }).is_none());
    /// ```
    #[must_use]
    pub fn get(&self, id: MatchId) -> Option<&BracketMatch> {
        match id {
            MatchId::Round { round, number } => self
                .round(round)
                .and_then(|r| number.checked_sub(1).and_then(|n| r.get(n))),
            MatchId::ThirdPlace => self.third.as_ref(),
        }
    }

    /// The match the winner of `id` plays next; `None` after the final
    /// and the match for third place.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, MatchId, Rules};
    ///
    /// let b = Bracket::new(8, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let feeds = b.feeds(MatchId::Round { round: 1, number: 4 });
    /// assert_eq!(feeds, Some(MatchId::Round { round: 2, number: 2 }));
    /// ```
    #[must_use]
    pub fn feeds(&self, id: MatchId) -> Option<MatchId> {
        match id {
            MatchId::Round { round, number } if round < self.rounds() => Some(MatchId::Round {
                round: round + 1,
                number: number.div_ceil(2),
            }),
            _ => None,
        }
    }

    /// The winner of the final, once it is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let mut b = Bracket::new(2, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// assert_eq!(b.champion(), None);
    /// b.withdraw(PairingNumber::new(1).unwrap()).unwrap();
    /// assert_eq!(b.champion(), PairingNumber::new(2));
    /// ```
    #[must_use]
    pub fn champion(&self) -> Option<PairingNumber> {
        match self
            .rounds
            .last()
            .and_then(|r| r.first())
            .map(BracketMatch::winner)
        {
            Some(Entrant::Player(p)) => Some(p),
            _ => None,
        }
    }

    /// Whether every match is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let mut b = Bracket::new(2, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// assert!(!b.is_finished());
    /// b.withdraw(PairingNumber::new(2).unwrap()).unwrap();
    /// assert!(b.is_finished());
    /// ```
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.all().all(|m| m.winner() != Entrant::Undecided)
    }

    /// The matches in play and what each waits for, in bracket order.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    ///
    /// // Five players: seeds 1, 2 and 3 have byes; 4 plays 5, and in
    /// // round 2 seed 3 already meets seed 2.
    /// let b = Bracket::new(5, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let ids: Vec<String> = b.pending().iter().map(|(id, _)| id.to_string()).collect();
    /// assert_eq!(ids, ["1.2", "2.2"]);
    /// ```
    #[must_use]
    pub fn pending(&self) -> Vec<(MatchId, Next<'_>)> {
        self.all()
            .filter_map(|m| m.live().map(|live| (m.id, live.next())))
            .collect()
    }

    /// Sets who has White in the first game of the stage of match `id`
    /// that waits for its drawing of lots.
    ///
    /// # Errors
    ///
    /// [`BracketError::NoSuchMatch`], [`BracketError::NotPlaying`], or
    /// the match's own error.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, MatchId, Next, Rules};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let mut b = Bracket::new(2, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let id = MatchId::Round { round: 1, number: 1 };
    /// b.set_colours(id, PairingNumber::new(2).unwrap()).unwrap();
    /// let Next::Game(game) = b.pending()[0].1 else { panic!("a game is next") };
    /// assert_eq!(game.white.get(), 2);
    /// ```
    pub fn set_colours(&mut self, id: MatchId, white: PairingNumber) -> Result<(), BracketError> {
        self.playing(id)?
            .set_colours(white)
            .map_err(|source| BracketError::Match { id, source })
    }

    /// Records the result of the next game of match `id`, and moves the
    /// winner on once the match is decided.
    ///
    /// # Errors
    ///
    /// [`BracketError::NoSuchMatch`], [`BracketError::NotPlaying`], or
    /// the match's own error (a decided match takes no result).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, BracketError, GameResult, MatchFormat, MatchId, Rules};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let mut b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// // Match 1.1 is seed 1's bye: there is nothing to record.
    /// let bye = MatchId::Round { round: 1, number: 1 };
    /// assert_eq!(b.record(bye, GameResult::Draw), Err(BracketError::NotPlaying(bye)));
    /// ```
    pub fn record(&mut self, id: MatchId, result: GameResult) -> Result<(), BracketError> {
        self.playing(id)?
            .record(result)
            .map_err(|source| BracketError::Match { id, source })?;
        self.settle();
        Ok(())
    }

    /// Withdraws `player` from the event: the opponent of the match in
    /// play wins it, and any later opponent goes through without a game.
    ///
    /// # Errors
    ///
    /// [`BracketError::NotInPlay`] for a player who is not in the
    /// bracket, has already withdrawn, or has no match left.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    /// use rochade_tournament::knockout::BracketError;
    /// use rochade_tournament::PairingNumber;
    ///
    /// let mut b = Bracket::new(4, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let four = PairingNumber::new(4).unwrap();
    /// b.withdraw(four).unwrap();
    /// assert_eq!(b.withdraw(four), Err(BracketError::NotInPlay(four)));
    /// ```
    pub fn withdraw(&mut self, player: PairingNumber) -> Result<(), BracketError> {
        if self.withdrawn.contains(&player) || !self.still_to_play(player) {
            return Err(BracketError::NotInPlay(player));
        }
        self.withdrawn.push(player);
        let live = self.all_mut().find_map(|m| match &mut m.play {
            Play::Match(game)
                if game.outcome().is_none() && {
                    let (a, b) = game.players();
                    a == player || b == player
                } =>
            {
                Some(game)
            }
            _ => None,
        });
        if let Some(game) = live {
            game.withdraw(player)
                .map_err(|_| BracketError::NotInPlay(player))?;
        }
        self.settle();
        Ok(())
    }

    /// Whether `player` withdrew.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, MatchFormat, Rules};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let mut b = Bracket::new(4, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// b.withdraw(PairingNumber::new(3).unwrap()).unwrap();
    /// assert!(b.has_withdrawn(PairingNumber::new(3).unwrap()));
    /// ```
    #[must_use]
    pub fn has_withdrawn(&self, player: PairingNumber) -> bool {
        self.withdrawn.contains(&player)
    }

    /// The players on the lines of match `id`, as far as known.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Bracket, Entrant, MatchFormat, MatchId, Rules};
    /// use rochade_tournament::PairingNumber;
    ///
    /// let b = Bracket::new(3, Rules::new(MatchFormat::world_cup_2023())).unwrap();
    /// let final_ = b.entrants(MatchId::Round { round: 2, number: 1 });
    /// let one = Entrant::Player(PairingNumber::new(1).unwrap());
    /// assert_eq!(final_, Some((one, Entrant::Undecided)));
    /// ```
    #[must_use]
    pub fn entrants(&self, id: MatchId) -> Option<(Entrant, Entrant)> {
        self.get(id)
            .map(|m| (self.entrant(m.upper), self.entrant(m.lower)))
    }

    /// Who stands on `line`.
    fn entrant(&self, line: Line) -> Entrant {
        match line {
            Line::Seed(p) => Entrant::Player(p),
            Line::Empty => Entrant::Nobody,
            Line::WinnerOf(id) => self.get(id).map_or(Entrant::Nobody, BracketMatch::winner),
            Line::LoserOf(id) => self.get(id).map_or(Entrant::Nobody, BracketMatch::loser),
        }
    }

    /// Every match, round by round, then the match for third place.
    fn all(&self) -> impl Iterator<Item = &BracketMatch> {
        self.rounds.iter().flatten().chain(self.third.as_ref())
    }

    /// Every match, mutably, in the order of [`Bracket::all`].
    fn all_mut(&mut self) -> impl Iterator<Item = &mut BracketMatch> {
        self.rounds.iter_mut().flatten().chain(self.third.as_mut())
    }

    /// The match `id`, in play.
    fn playing(&mut self, id: MatchId) -> Result<&mut Match, BracketError> {
        let m = match id {
            MatchId::Round { round, number } => round
                .checked_sub(1)
                .and_then(|r| self.rounds.get_mut(r))
                .and_then(|r| number.checked_sub(1).and_then(|n| r.get_mut(n))),
            MatchId::ThirdPlace => self.third.as_mut(),
        };
        match m.map(|m| &mut m.play) {
            None => Err(BracketError::NoSuchMatch(id)),
            Some(Play::Match(game)) => Ok(game),
            Some(_) => Err(BracketError::NotPlaying(id)),
        }
    }

    /// Whether `player` is in a match in play or waits for one.
    fn still_to_play(&self, player: PairingNumber) -> bool {
        let Some(start) = self.rounds.first().and_then(|r| {
            r.iter()
                .find(|m| m.upper == Line::Seed(player) || m.lower == Line::Seed(player))
        }) else {
            return false;
        };
        let mut current = start;
        loop {
            match current.winner() {
                Entrant::Undecided => return true,
                Entrant::Player(p) if p == player => match self.feeds(current.id) {
                    Some(next) => match self.get(next) {
                        Some(m) => current = m,
                        None => return false,
                    },
                    None => return false,
                },
                _ => {
                    let semi = matches!(current.id, MatchId::Round { round, .. } if round + 1 == self.rounds());
                    return semi
                        && current.loser() == Entrant::Player(player)
                        && self
                            .third
                            .as_ref()
                            .is_some_and(|t| t.winner() == Entrant::Undecided);
                }
            }
        }
    }

    /// Makes every match whose lines are decided, and sends byes and
    /// withdrawn players' opponents through, round by round.
    fn settle(&mut self) {
        let last = self.rounds.len();
        for r in 0..last {
            for i in 0..self.rounds[r].len() {
                let format = if r + 1 == last {
                    self.rules
                        .final_format
                        .as_ref()
                        .unwrap_or(&self.rules.matches)
                } else {
                    &self.rules.matches
                };
                if let Some(play) = self.made(&self.rounds[r][i], format) {
                    self.rounds[r][i].play = play;
                }
            }
        }
        let third = match (&self.third, &self.rules.third_place) {
            (Some(third), Some(format)) => self.made(third, format),
            _ => None,
        };
        if let (Some(play), Some(t)) = (third, self.third.as_mut()) {
            t.play = play;
        }
    }

    /// The play of waiting match `m` once both its lines are decided: a
    /// bye, a match (won at once by withdrawal if one player withdrew
    /// before it), or nobody through.
    fn made(&self, m: &BracketMatch, format: &MatchFormat) -> Option<Play> {
        if m.play != Play::Waiting {
            return None;
        }
        let gone = |p: PairingNumber| self.withdrawn.contains(&p);
        Some(match (self.entrant(m.upper), self.entrant(m.lower)) {
            (Entrant::Undecided, _) | (_, Entrant::Undecided) => return None,
            (Entrant::Player(a), Entrant::Player(b)) if gone(a) && gone(b) => {
                Play::Bye { advances: None }
            }
            (Entrant::Player(a), Entrant::Player(b)) => {
                let mut game = Match::new(format.clone(), a, b).ok()?;
                if let Some(p) = [a, b].into_iter().find(|&p| gone(p)) {
                    game.withdraw(p).ok()?;
                }
                Play::Match(game)
            }
            (Entrant::Player(a), Entrant::Nobody) | (Entrant::Nobody, Entrant::Player(a)) => {
                Play::Bye {
                    advances: (!gone(a)).then_some(a),
                }
            }
            (Entrant::Nobody, Entrant::Nobody) => Play::Bye { advances: None },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knockout::testing::{n, standard_then_armageddon};

    fn id(round: usize, number: usize) -> MatchId {
        MatchId::Round { round, number }
    }

    fn wc(players: usize) -> Bracket {
        Bracket::new(players, Rules::new(MatchFormat::world_cup_2023())).unwrap()
    }

    /// Plays match `at` to a 2-0 (or 1.5-0.5 when `white` wins then draws)
    /// win for `winner`.
    fn win(b: &mut Bracket, at: MatchId, winner: PairingNumber) {
        b.set_colours(at, winner).unwrap();
        b.record(at, GameResult::WhiteWins).unwrap();
        b.record(at, GameResult::Draw).unwrap();
        assert_eq!(b.get(at).unwrap().winner(), Entrant::Player(winner));
    }

    #[test]
    fn world_cup_top_seeds_go_through_without_a_game() {
        let b = wc(5);
        let byes: Vec<_> = b
            .round(1)
            .unwrap()
            .iter()
            .map(|m| m.play().clone())
            .collect();
        assert_eq!(
            byes[0],
            Play::Bye {
                advances: Some(n(1))
            }
        );
        assert!(matches!(byes[1], Play::Match(_)));
        assert_eq!(
            byes[2],
            Play::Bye {
                advances: Some(n(3))
            }
        );
        assert_eq!(
            byes[3],
            Play::Bye {
                advances: Some(n(2))
            }
        );
        // Round 2: 1 waits for 4-5; 3 - 2 is made at once.
        assert_eq!(b.get(id(2, 1)).unwrap().play(), &Play::Waiting);
        assert_eq!(b.get(id(2, 2)).unwrap().players(), Some((n(3), n(2))));
        assert_eq!(b.pending().len(), 2);
    }

    #[test]
    fn winners_move_to_the_match_they_feed() {
        let mut b = wc(8);
        win(&mut b, id(1, 2), n(5));
        assert_eq!(
            b.entrants(id(2, 1)),
            Some((Entrant::Undecided, Entrant::Player(n(5))))
        );
        win(&mut b, id(1, 1), n(1));
        assert_eq!(b.get(id(2, 1)).unwrap().players(), Some((n(1), n(5))));
        assert_eq!(b.feeds(id(3, 1)), None);
        assert_eq!(b.feeds(MatchId::ThirdPlace), None);
    }

    #[test]
    fn the_final_and_the_match_for_third_place() {
        let four = standard_then_armageddon(4);
        let rules = Rules::new(MatchFormat::world_cup_2023())
            .final_match(four.clone())
            .third_place(MatchFormat::world_cup_2023());
        let mut b = Bracket::new(4, rules).unwrap();
        assert_eq!(b.third_place().unwrap().play(), &Play::Waiting);
        win(&mut b, id(1, 1), n(4));
        win(&mut b, id(1, 2), n(2));
        match b.get(id(2, 1)).unwrap().play() {
            Play::Match(m) => assert_eq!((m.players(), m.format()), ((n(4), n(2)), &four)),
            other => panic!("the final is made: {other:?}"),
        }
        assert_eq!(b.third_place().unwrap().players(), Some((n(1), n(3))));
        win(&mut b, MatchId::ThirdPlace, n(3));
        assert!(!b.is_finished());
        b.withdraw(n(4)).unwrap();
        assert_eq!(b.champion(), Some(n(2)));
        assert!(b.is_finished());
    }

    #[test]
    fn a_player_who_withdrew_before_the_match_loses_it() {
        let mut b = wc(8);
        b.withdraw(n(1)).unwrap();
        assert_eq!(b.get(id(1, 1)).unwrap().winner(), Entrant::Player(n(8)));
        // Seed 5 withdraws while waiting for round 2.
        win(&mut b, id(1, 2), n(5));
        b.withdraw(n(5)).unwrap();
        assert_eq!(b.get(id(2, 1)).unwrap().winner(), Entrant::Player(n(8)));
        assert!(b.has_withdrawn(n(5)));
        // Eliminated, withdrawn, or unknown players have no match left.
        assert_eq!(b.withdraw(n(4)), Err(BracketError::NotInPlay(n(4))));
        assert_eq!(b.withdraw(n(5)), Err(BracketError::NotInPlay(n(5))));
        assert_eq!(b.withdraw(n(9)), Err(BracketError::NotInPlay(n(9))));
    }

    #[test]
    fn a_withdrawn_player_with_a_bye_leaves_the_next_opponent_a_bye() {
        let mut b = wc(3);
        b.withdraw(n(1)).unwrap();
        win(&mut b, id(1, 2), n(3));
        assert_eq!(b.get(id(2, 1)).unwrap().winner(), Entrant::Player(n(3)));
        assert_eq!(b.champion(), Some(n(3)));
    }

    #[test]
    fn a_match_without_a_winner_gives_the_next_opponent_a_bye() {
        let mut b = Bracket::new(4, Rules::new(standard_then_armageddon(1))).unwrap();
        let at = id(1, 2);
        b.set_colours(at, n(2)).unwrap();
        b.record(at, GameResult::DoubleForfeit).unwrap();
        b.set_colours(at, n(2)).unwrap();
        b.record(at, GameResult::DoubleForfeit).unwrap();
        assert_eq!(b.get(at).unwrap().winner(), Entrant::Nobody);
        win_armageddon(&mut b, id(1, 1), n(4));
        assert_eq!(
            b.get(id(2, 1)).unwrap().play(),
            &Play::Bye {
                advances: Some(n(4))
            }
        );
        assert_eq!(b.champion(), Some(n(4)));
    }

    /// Wins a one-game match with White.
    fn win_armageddon(b: &mut Bracket, at: MatchId, winner: PairingNumber) {
        b.set_colours(at, winner).unwrap();
        b.record(at, GameResult::WhiteWins).unwrap();
    }

    #[test]
    fn entries_for_matches_not_in_play_are_errors() {
        let mut b = wc(3);
        let errors = [
            (id(1, 1), BracketError::NotPlaying(id(1, 1))),
            (id(2, 1), BracketError::NotPlaying(id(2, 1))),
            (id(3, 1), BracketError::NoSuchMatch(id(3, 1))),
            (id(0, 0), BracketError::NoSuchMatch(id(0, 0))),
        ];
        for (at, error) in errors {
            assert_eq!(b.record(at, GameResult::Draw), Err(error));
        }
        let third = b.set_colours(MatchId::ThirdPlace, n(1));
        assert_eq!(third, Err(BracketError::NoSuchMatch(MatchId::ThirdPlace)));
        win(&mut b, id(1, 2), n(2));
        assert_eq!(
            b.record(id(1, 2), GameResult::Draw),
            Err(BracketError::Match {
                id: id(1, 2),
                source: MatchError::Finished
            })
        );
    }
}
