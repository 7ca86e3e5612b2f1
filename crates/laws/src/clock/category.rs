//! Categories of time controls: blitz, rapid, standard, correspondence.

use std::fmt;
use std::time::Duration;

use super::control::{Limit, Scale, TimeControl};
use crate::rules::RuleSet;

/// The category of a time control as the Laws define it.
///
/// # Examples
///
/// ```
/// use rochade_laws::clock::{Category, TimeControl};
/// use rochade_laws::rules::RuleSet;
///
/// let tc: TimeControl = "3+2".parse()?;
/// assert_eq!(tc.category(RuleSet::Fide), Category::Blitz);
/// assert_eq!(Category::Blitz.as_str(), "blitz");
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Blitz (FIDE Appendix B.1).
    Blitz,
    /// Rapid (FIDE Appendix A.1).
    Rapid,
    /// Standard: slower than rapid.
    Standard,
    /// Correspondence: times counted in days (ICCF).
    Correspondence,
}

impl Category {
    /// The lower-case name: `blitz`, `rapid`, `standard`, `correspondence`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::Category;
    ///
    /// assert_eq!(Category::Correspondence.as_str(), "correspondence");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Standard => "standard",
            Category::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const MINUTE: Duration = Duration::from_secs(60);

impl TimeControl {
    /// The time each player has for the first 60 moves: the base time plus
    /// 60 times the per-move bonus (FIDE A.1, B.1: "allotted time + 60 ×
    /// any increment"), plus the base times of periods that begin within
    /// those 60 moves. Delays count as increments. `None` without a clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::TimeControl;
    ///
    /// let tc: TimeControl = "40/90+30, 30+30".parse()?;
    /// // 90 min + 30 min + 60 × 30 s = 150 min
    /// assert_eq!(tc.time_for_60_moves(), Some(Duration::from_secs(150 * 60)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn time_for_60_moves(&self) -> Option<Duration> {
        self.time_for_moves(60)
    }

    /// The time each player has for the first `moves` moves, counted as
    /// [`TimeControl::time_for_60_moves`] counts 60 (lichess estimates a
    /// game's duration as the time for 40 moves). `None` without a clock
    /// or for no moves.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::TimeControl;
    ///
    /// let tc: TimeControl = "5+3".parse()?;
    /// assert_eq!(tc.time_for_moves(40), Some(Duration::from_secs(300 + 40 * 3)));
    /// let tc: TimeControl = "1/2+0".parse()?; // 2 minutes a move
    /// assert_eq!(tc.time_for_moves(40), Some(Duration::from_secs(80 * 60)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn time_for_moves(&self, moves: u32) -> Option<Duration> {
        if moves == 0 {
            return None;
        }
        match self.limit() {
            Limit::NoClock => None,
            Limit::PerMove(budget) => Some(budget.saturating_mul(moves)),
            // Each player starts with half of the sand.
            Limit::Sandclock(total) => Some(*total / 2),
            // Period by period (the last one repeating): its base, and its
            // bonus for each of its moves played (the state asks this at
            // every move, so not move by move).
            Limit::Periods(periods) => {
                let mut index = 0;
                let mut left = moves;
                let mut total = Duration::ZERO;
                loop {
                    let period = periods.get(index)?;
                    let played = period.moves.map_or(left, |m| m.get().min(left));
                    total = total
                        .saturating_add(period.base)
                        .saturating_add(period.bonus.amount().saturating_mul(played));
                    left -= played;
                    if left == 0 {
                        return Some(total);
                    }
                    index = (index + 1).min(periods.len() - 1);
                }
            }
        }
    }

    /// The category of the control under a rule set.
    ///
    /// Controls in days are correspondence. Otherwise the time for 60 moves
    /// (see [`TimeControl::time_for_60_moves`]) decides. Current FIDE Laws
    /// (also used for clock controls under the ICCF rules): blitz 10 minutes
    /// or less (B.1), rapid more than 10 and less than 60 (A.1), standard 60
    /// or more. FIDE 2009 Laws: blitz less than 15 minutes (B1), rapid 15 to
    /// less than 60 (A1), standard 60 or more. A game without a clock is
    /// standard.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::clock::{Category, TimeControl};
    /// use rochade_laws::rules::RuleSet;
    ///
    /// let tc: TimeControl = "10+5".parse()?; // 10 + 60 × 5 s = 15 minutes
    /// assert_eq!(tc.category(RuleSet::Fide), Category::Rapid);
    /// assert_eq!(tc.category(RuleSet::Fide2009), Category::Rapid);
    /// let tc: TimeControl = "12+0".parse()?;
    /// assert_eq!(tc.category(RuleSet::Fide2009), Category::Blitz);
    /// assert_eq!("10/50d".parse::<TimeControl>()?.category(RuleSet::Iccf), Category::Correspondence);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn category(&self, rules: RuleSet) -> Category {
        if self.scale() == Scale::Days {
            return Category::Correspondence;
        }
        let Some(t) = self.time_for_60_moves() else {
            return Category::Standard;
        };
        let (blitz_max_exclusive, rapid_max_exclusive) = match rules {
            // B.1: "10 minutes or less"; A.1: "less than 60".
            RuleSet::Fide | RuleSet::Iccf => (MINUTE * 10 + Duration::from_nanos(1), MINUTE * 60),
            // 2009 B1: "less than 15 minutes"; A1: "at least 15 and less than 60".
            RuleSet::Fide2009 => (MINUTE * 15, MINUTE * 60),
        };
        if t < blitz_max_exclusive {
            Category::Blitz
        } else if t < rapid_max_exclusive {
            Category::Rapid
        } else {
            Category::Standard
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The time for `moves` moves counted move by move, as the control's
    /// periods give it: the first period's base, each move's bonus, the
    /// next period's base after each period's last move (the last period
    /// repeating).
    fn move_by_move(periods: &[crate::clock::control::Period], moves: u32) -> Option<Duration> {
        let first = periods.first()?;
        let (mut index, mut in_period, mut total) = (0, 0u32, first.base);
        for number in 1..=moves {
            let period = &periods[index];
            total = total.saturating_add(period.bonus.amount());
            in_period += 1;
            if number < moves && period.moves.is_some_and(|m| m.get() == in_period) {
                in_period = 0;
                index = (index + 1).min(periods.len() - 1);
                total = total.saturating_add(periods[index].base);
            }
        }
        Some(total)
    }

    /// The categories of A.1 and B.1 rest on the time for 60 moves; period
    /// by period it is the same as move by move.
    #[test]
    fn art_a_1_time_for_moves_period_by_period_as_move_by_move() {
        for text in [
            "5+3",
            "90+30",
            "3",
            "40/90+30, 30+30",
            "40/120, 20/60, 30",
            "40/120, 20/60",
            "10/50d",
            "5 d3",
            "30d+1d",
        ] {
            let tc: TimeControl = text.parse().expect("a control");
            for moves in 1..=130 {
                assert_eq!(
                    tc.time_for_moves(moves),
                    move_by_move(tc.periods(), moves),
                    "{text}, {moves} moves"
                );
            }
        }
    }
}
