//! The organiser's match formats: one for every match, and optionally
//! another for the final and one for a match for third place.

use super::MatchFormat;

/// The organiser's match formats.
///
/// # Examples
///
/// ```
/// use rochade_tournament::knockout::{MatchFormat, Rules, Stage, StageKind};
///
/// let final_of_four = MatchFormat::new(
///     Stage::new(StageKind::Standard, 4, "90'/40 + 30' + 30\""),
///     MatchFormat::world_cup_2023().stages()[1..].to_vec(),
/// )
/// .unwrap();
/// let rules = Rules::new(MatchFormat::world_cup_2023())
///     .final_match(final_of_four)
///     .third_place(MatchFormat::world_cup_2023());
/// assert!(rules.third_place.is_some());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// The format of every match not named below.
    pub matches: MatchFormat,
    /// The format of the final, if it differs.
    pub final_format: Option<MatchFormat>,
    /// The format of the match for third place, if there is one.
    pub third_place: Option<MatchFormat>,
}

impl Rules {
    /// Every match by `format`, no match for third place.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{MatchFormat, Rules};
    ///
    /// let rules = Rules::new(MatchFormat::world_cup_2023());
    /// assert_eq!(rules.final_format, None);
    /// ```
    #[must_use]
    pub fn new(format: MatchFormat) -> Rules {
        Rules {
            matches: format,
            final_format: None,
            third_place: None,
        }
    }

    /// These rules with the final played by `format`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{MatchFormat, Rules};
    ///
    /// let wc = MatchFormat::world_cup_2023();
    /// assert_eq!(Rules::new(wc.clone()).final_match(wc.clone()).final_format, Some(wc));
    /// ```
    #[must_use]
    pub fn final_match(mut self, format: MatchFormat) -> Rules {
        self.final_format = Some(format);
        self
    }

    /// These rules with a match for third place played by `format`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::knockout::{MatchFormat, Rules};
    ///
    /// let wc = MatchFormat::world_cup_2023();
    /// assert_eq!(Rules::new(wc.clone()).third_place(wc.clone()).third_place, Some(wc));
    /// ```
    #[must_use]
    pub fn third_place(mut self, format: MatchFormat) -> Rules {
        self.third_place = Some(format);
        self
    }
}
