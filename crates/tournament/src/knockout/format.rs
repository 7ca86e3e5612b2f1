//! The format of a match: the standard games, then the tie-break stages
//! in the organiser's order.
//!
//! A stage is a block of games of one kind (standard, rapid, blitz,
//! Armageddon) at one time control, played once, up to a number of times,
//! or until one player wins a block. Time controls are labels here: this
//! crate keeps no clock. The last stage must always produce a winner (an
//! Armageddon game, or a block repeated until decided), so that every
//! match ends.
//!
//! ```
//! use rochade_tournament::knockout::{ColourRule, MatchFormat, Repeat, Stage, StageKind};
//!
//! // Two standard games; if tied, two rapid games; then two blitz games,
//! // at most twice; then an Armageddon game.
//! let format = MatchFormat::new(
//!     Stage::new(StageKind::Standard, 2, "90'/40 + 30' + 30\""),
//!     vec![
//!         Stage::new(StageKind::Rapid, 2, "25' + 10\""),
//!         Stage::new(StageKind::Blitz, 2, "5' + 3\"").repeat(Repeat::Times(2)),
//!         Stage::armageddon("White 5', Black 4', + 2\" from move 61"),
//!     ],
//! )
//! .unwrap();
//! assert_eq!(format.stages().len(), 4);
//! assert_eq!(format.stages()[3].colour_rule(), ColourRule::DrawLots);
//! ```

use std::fmt;

use thiserror::Error;

/// The kind of games a stage plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// Standard (classical) games.
    Standard,
    /// Rapid games.
    Rapid,
    /// Blitz games.
    Blitz,
    /// One decisive game in which Black has draw odds (a draw counts as a
    /// win for Black in the match) and White has more time.
    Armageddon,
}

impl fmt::Display for StageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StageKind::Standard => "standard",
            StageKind::Rapid => "rapid",
            StageKind::Blitz => "blitz",
            StageKind::Armageddon => "Armageddon",
        })
    }
}

/// How often a stage's block of games may be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repeat {
    /// At most this many blocks; the next stage follows a tie in the
    /// last. `Times(1)` is a block played once.
    Times(u16),
    /// Until one player wins a block (sudden death when the block is one
    /// game): nothing may follow.
    UntilDecided,
}

/// Who has White in a stage's first game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColourRule {
    /// A drawing of lots (or the organiser's choice) before the stage:
    /// the match waits for it.
    DrawLots,
    /// The colours go on alternating from the match's last game. The
    /// first stage always has a drawing.
    Alternate,
}

/// One stage of a match.
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::{Repeat, Stage, StageKind};
///
/// let sudden_death = Stage::new(StageKind::Blitz, 1, "3' + 2\"").repeat(Repeat::UntilDecided);
/// assert_eq!(sudden_death.games(), 1);
/// assert!(sudden_death.always_decides());
/// assert_eq!(sudden_death.to_string(), "1 blitz game, 3' + 2\", until decided");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Stage {
    kind: StageKind,
    games: u16,
    time_control: String,
    repeat: Repeat,
    colours: ColourRule,
}

impl Stage {
    /// A block of `games` games of `kind`, played once, with a drawing of
    /// lots for the colours (the World Cup's "after a new drawing of
    /// colours").
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// let rapid = Stage::new(StageKind::Rapid, 2, "25' + 10\"");
    /// assert_eq!(rapid.to_string(), "2 rapid games, 25' + 10\"");
    /// ```
    #[must_use]
    pub fn new(kind: StageKind, games: u16, time_control: impl Into<String>) -> Stage {
        Stage {
            kind,
            games,
            time_control: time_control.into(),
            repeat: Repeat::Times(1),
            colours: ColourRule::DrawLots,
        }
    }

    /// One Armageddon game: Black has draw odds, the colours are drawn.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// let game = Stage::armageddon("5' v 4'");
    /// assert_eq!(game.kind(), StageKind::Armageddon);
    /// assert_eq!(game.games(), 1);
    /// ```
    #[must_use]
    pub fn armageddon(time_control: impl Into<String>) -> Stage {
        Stage::new(StageKind::Armageddon, 1, time_control)
    }

    /// This stage, its block played as `repeat` says.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Repeat, Stage, StageKind};
    ///
    /// let blitz = Stage::new(StageKind::Blitz, 2, "5' + 3\"").repeat(Repeat::Times(5));
    /// assert_eq!(blitz.repeats(), Repeat::Times(5));
    /// ```
    #[must_use]
    pub fn repeat(mut self, repeat: Repeat) -> Stage {
        self.repeat = repeat;
        self
    }

    /// This stage, its first colours set as `colours` says.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{ColourRule, Stage, StageKind};
    ///
    /// let rapid = Stage::new(StageKind::Rapid, 2, "15'").colours(ColourRule::Alternate);
    /// assert_eq!(rapid.colour_rule(), ColourRule::Alternate);
    /// ```
    #[must_use]
    pub fn colours(mut self, colours: ColourRule) -> Stage {
        self.colours = colours;
        self
    }

    /// The kind of games.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// assert_eq!(Stage::new(StageKind::Blitz, 2, "3' + 2\"").kind(), StageKind::Blitz);
    /// ```
    #[must_use]
    pub fn kind(&self) -> StageKind {
        self.kind
    }

    /// The games of one block.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// assert_eq!(Stage::new(StageKind::Standard, 4, "90'").games(), 4);
    /// ```
    #[must_use]
    pub fn games(&self) -> u16 {
        self.games
    }

    /// The time control, as the organiser wrote it.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// assert_eq!(Stage::new(StageKind::Rapid, 2, "10' + 10\"").time_control(), "10' + 10\"");
    /// ```
    #[must_use]
    pub fn time_control(&self) -> &str {
        &self.time_control
    }

    /// Who has White in the stage's first game.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{ColourRule, Stage, StageKind};
    ///
    /// assert_eq!(Stage::new(StageKind::Rapid, 2, "").colour_rule(), ColourRule::DrawLots);
    /// ```
    #[must_use]
    pub fn colour_rule(&self) -> ColourRule {
        self.colours
    }

    /// How often the block may be played.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Repeat, Stage, StageKind};
    ///
    /// assert_eq!(Stage::new(StageKind::Rapid, 2, "").repeats(), Repeat::Times(1));
    /// ```
    #[must_use]
    pub fn repeats(&self) -> Repeat {
        self.repeat
    }

    /// Whether Black has draw odds: a drawn game is won by Black.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// assert!(Stage::armageddon("5' v 4'").black_has_draw_odds());
    /// assert!(!Stage::new(StageKind::Blitz, 2, "3' + 2\"").black_has_draw_odds());
    /// ```
    #[must_use]
    pub fn black_has_draw_odds(&self) -> bool {
        self.kind == StageKind::Armageddon
    }

    /// Whether this stage always ends the match: an Armageddon game, or a
    /// block repeated until decided.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{Stage, StageKind};
    ///
    /// assert!(Stage::armageddon("5' v 4'").always_decides());
    /// assert!(!Stage::new(StageKind::Rapid, 2, "25' + 10\"").always_decides());
    /// ```
    #[must_use]
    pub fn always_decides(&self) -> bool {
        self.black_has_draw_odds() || self.repeat == Repeat::UntilDecided
    }

    /// Whether the block may be played again after `played` tied blocks.
    fn may_repeat(&self, played: u16) -> bool {
        match self.repeat {
            Repeat::Times(n) => played < n,
            Repeat::UntilDecided => true,
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.games == 1 { "game" } else { "games" };
        write!(f, "{} {} {plural}", self.games, self.kind)?;
        if !self.time_control.is_empty() {
            write!(f, ", {}", self.time_control)?;
        }
        match self.repeat {
            Repeat::Times(1) => Ok(()),
            Repeat::Times(n) => write!(f, ", up to {n} times"),
            Repeat::UntilDecided => write!(f, ", until decided"),
        }
    }
}

/// Why a match format is not playable.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FormatError {
    /// A stage of no games, or repeated no times (stages counted from 1,
    /// the standard games).
    #[error("stage {0} has no games")]
    NoGames(usize),
    /// An Armageddon stage of more than one game, or repeated.
    #[error("stage {0}: an Armageddon is one game, played once")]
    Armageddon(usize),
    /// A stage after one that always ends the match.
    #[error("stage {0} can never be reached: the stage before always decides")]
    Unreachable(usize),
    /// The last stage can end tied.
    #[error("the last stage can end tied: end with an Armageddon or a block until decided")]
    Undecided,
}

/// A checked match format: the standard games, then the tie-break stages.
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::{FormatError, MatchFormat, Stage, StageKind};
///
/// // Two games and nothing after them can end 1-1.
/// let tied = MatchFormat::new(Stage::new(StageKind::Standard, 2, "90'"), vec![]);
/// assert_eq!(tied, Err(FormatError::Undecided));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MatchFormat {
    stages: Vec<Stage>,
}

impl MatchFormat {
    /// The format of `standard` games followed by `tie_breaks` in order.
    ///
    /// # Errors
    ///
    /// [`FormatError`] for a stage without games, an Armageddon stage of
    /// more than one game, a stage after one that always decides, or a
    /// last stage that can end tied.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{MatchFormat, Stage, StageKind};
    ///
    /// let quick = MatchFormat::new(
    ///     Stage::new(StageKind::Rapid, 2, "15' + 10\""),
    ///     vec![Stage::armageddon("5' v 4'")],
    /// );
    /// assert!(quick.is_ok());
    /// ```
    pub fn new(standard: Stage, tie_breaks: Vec<Stage>) -> Result<MatchFormat, FormatError> {
        let mut stages = Vec::with_capacity(tie_breaks.len() + 1);
        stages.push(standard);
        stages.extend(tie_breaks);
        for (i, stage) in stages.iter().enumerate() {
            let number = i + 1;
            if stage.games == 0 || stage.repeat == Repeat::Times(0) {
                return Err(FormatError::NoGames(number));
            }
            if stage.kind == StageKind::Armageddon
                && (stage.games != 1 || stage.repeat != Repeat::Times(1))
            {
                return Err(FormatError::Armageddon(number));
            }
            if i > 0 && stages[i - 1].always_decides() {
                return Err(FormatError::Unreachable(number));
            }
        }
        match stages.last() {
            Some(last) if last.always_decides() => Ok(MatchFormat { stages }),
            _ => Err(FormatError::Undecided),
        }
    }

    /// The FIDE World Cup 2023 format: two standard games; if tied, two
    /// rapid games at 25' + 10", then two at 10' + 10", then two blitz
    /// games at 5' + 3", each after a new drawing of colours; then blitz
    /// games at 3' + 2", colours drawn for the first and then reversed,
    /// until one is won.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::MatchFormat;
    ///
    /// let format = MatchFormat::world_cup_2023();
    /// assert_eq!(format.stages()[0].to_string(), "2 standard games, 90'/40 + 30' + 30\" from move 1");
    /// assert_eq!(format.stages().len(), 5);
    /// ```
    #[must_use]
    pub fn world_cup_2023() -> MatchFormat {
        MatchFormat {
            stages: vec![
                Stage::new(StageKind::Standard, 2, "90'/40 + 30' + 30\" from move 1"),
                Stage::new(StageKind::Rapid, 2, "25' + 10\""),
                Stage::new(StageKind::Rapid, 2, "10' + 10\""),
                Stage::new(StageKind::Blitz, 2, "5' + 3\""),
                Stage::new(StageKind::Blitz, 1, "3' + 2\"").repeat(Repeat::UntilDecided),
            ],
        }
    }

    /// The stages, the standard games first.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{MatchFormat, StageKind};
    ///
    /// assert_eq!(MatchFormat::world_cup_2023().stages()[1].kind(), StageKind::Rapid);
    /// ```
    #[must_use]
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// Whether the block of stage `stage` (0-based) may be played again
    /// after `played` tied blocks.
    pub(super) fn may_repeat(&self, stage: usize, played: u16) -> bool {
        self.stages.get(stage).is_some_and(|s| s.may_repeat(played))
    }
}

impl fmt::Display for MatchFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, stage) in self.stages.iter().enumerate() {
            if i > 0 {
                f.write_str("; if tied, ")?;
            }
            write!(f, "{stage}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Stage {
        Stage::new(StageKind::Standard, 2, "90'")
    }

    #[test]
    fn a_format_must_end_in_a_decider() {
        let rapid = Stage::new(StageKind::Rapid, 2, "25'");
        assert_eq!(
            MatchFormat::new(standard(), vec![rapid]),
            Err(FormatError::Undecided)
        );
        let capped = Stage::new(StageKind::Blitz, 2, "5'").repeat(Repeat::Times(3));
        assert_eq!(
            MatchFormat::new(standard(), vec![capped]),
            Err(FormatError::Undecided)
        );
    }

    #[test]
    fn nothing_may_follow_a_decider() {
        let after = vec![Stage::armageddon("5' v 4'"), Stage::armageddon("5' v 4'")];
        assert_eq!(
            MatchFormat::new(standard(), after),
            Err(FormatError::Unreachable(3))
        );
    }

    #[test]
    fn armageddon_is_one_game_played_once() {
        let two = Stage::new(StageKind::Armageddon, 2, "");
        assert_eq!(
            MatchFormat::new(standard(), vec![two]),
            Err(FormatError::Armageddon(2))
        );
        let again = Stage::armageddon("").repeat(Repeat::UntilDecided);
        assert_eq!(
            MatchFormat::new(standard(), vec![again]),
            Err(FormatError::Armageddon(2))
        );
    }

    #[test]
    fn stages_have_games() {
        let none = Stage::new(StageKind::Standard, 0, "");
        assert_eq!(MatchFormat::new(none, vec![]), Err(FormatError::NoGames(1)));
        let never = Stage::new(StageKind::Rapid, 2, "").repeat(Repeat::Times(0));
        let end = Stage::armageddon("");
        assert_eq!(
            MatchFormat::new(standard(), vec![never, end]),
            Err(FormatError::NoGames(2))
        );
    }

    #[test]
    fn world_cup_2023_is_a_valid_format() {
        let wc = MatchFormat::world_cup_2023();
        let (first, rest) = wc.stages().split_first().unwrap();
        assert_eq!(MatchFormat::new(first.clone(), rest.to_vec()), Ok(wc));
    }
}
