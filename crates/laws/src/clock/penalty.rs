//! What a wrong draw claim costs on the clock, under each rule set.

use std::time::Duration;

use super::{Category, penalty_time};
use crate::rules::RuleSet;

const MINUTE: Duration = Duration::from_secs(60);

/// The clock changes for a wrong draw claim (9.2, 9.3).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::RuleSet;
/// use rochade_laws::clock::{Category, ClaimPenalty, wrong_claim_penalty};
///
/// let min = |m: u64| Duration::from_secs(60 * m);
/// // FIDE 2009, 9.5b: three minutes to the opponent, and the claimant loses
/// // half of their ten minutes, at most three.
/// assert_eq!(
///     wrong_claim_penalty(RuleSet::Fide2009, Category::Standard, Some(min(10))),
///     ClaimPenalty { opponent_gains: min(3), claimant_left: Some(min(7)) },
/// );
/// // ICCF 9.4.3: the game goes on, nobody's time changes.
/// assert_eq!(
///     wrong_claim_penalty(RuleSet::Iccf, Category::Correspondence, Some(min(10))),
///     ClaimPenalty::NONE,
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClaimPenalty {
    /// Time added to the claimant's opponent.
    pub opponent_gains: Duration,
    /// The claimant's time left after the penalty; `None` when it does not
    /// change.
    pub claimant_left: Option<Duration>,
}

impl ClaimPenalty {
    /// No change to either clock.
    pub const NONE: ClaimPenalty = ClaimPenalty {
        opponent_gains: Duration::ZERO,
        claimant_left: None,
    };
}

/// The penalty for a wrong draw claim by a player with `claimant_left` on
/// their clock (`None` without a clock):
///
/// - FIDE (current, 9.5.3): two minutes to the opponent, one in blitz
///   ([`penalty_time`]); the claimant's time is not touched.
/// - FIDE 2009 (2008 text, 9.5b): three minutes to the opponent; a claimant
///   with more than two minutes loses half of it, at most three minutes; one
///   with between one and two minutes is left with one; one with less than a
///   minute keeps it.
/// - ICCF (9.4.3): none; the game goes on with the intended move.
pub fn wrong_claim_penalty(
    rules: RuleSet,
    category: Category,
    claimant_left: Option<Duration>,
) -> ClaimPenalty {
    match rules {
        RuleSet::Fide => ClaimPenalty {
            opponent_gains: penalty_time(category),
            claimant_left: None,
        },
        RuleSet::Fide2009 => ClaimPenalty {
            opponent_gains: 3 * MINUTE,
            claimant_left: claimant_left.and_then(fide_2009_claimant_left),
        },
        RuleSet::Iccf => ClaimPenalty::NONE,
    }
}

/// FIDE 2009 9.5b: the claimant's time after a wrong claim, if it changes.
fn fide_2009_claimant_left(left: Duration) -> Option<Duration> {
    if left > 2 * MINUTE {
        Some(left - (left / 2).min(3 * MINUTE))
    } else if left > MINUTE {
        Some(MINUTE)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn art_9_5_fide_2009_claimant_loses_half_at_most_three_minutes() {
        let left =
            |t| wrong_claim_penalty(RuleSet::Fide2009, Category::Blitz, Some(t)).claimant_left;
        // More than two minutes: half, at most three.
        assert_eq!(left(s(3600)), Some(s(3600 - 180)));
        assert_eq!(left(s(360)), Some(s(180)));
        assert_eq!(left(s(300)), Some(s(150)));
        assert_eq!(left(s(121)), Some(Duration::from_millis(60_500)));
        // Exactly two minutes: one either way.
        assert_eq!(left(s(120)), Some(s(60)));
        // Between one and two minutes: one minute left.
        assert_eq!(left(s(90)), Some(s(60)));
        // A minute or less: unchanged.
        assert_eq!(left(s(60)), None);
        assert_eq!(left(s(5)), None);
        // Without a clock the opponent still gains.
        assert_eq!(
            wrong_claim_penalty(RuleSet::Fide2009, Category::Standard, None),
            ClaimPenalty {
                opponent_gains: s(180),
                claimant_left: None
            }
        );
    }

    #[test]
    fn art_9_5_3_fide_two_minutes_one_in_blitz() {
        let gains = |c| wrong_claim_penalty(RuleSet::Fide, c, Some(s(600))).opponent_gains;
        assert_eq!(gains(Category::Standard), s(120));
        assert_eq!(gains(Category::Rapid), s(120));
        assert_eq!(gains(Category::Blitz), s(60));
        assert_eq!(
            wrong_claim_penalty(RuleSet::Fide, Category::Blitz, Some(s(600))).claimant_left,
            None
        );
    }

    #[test]
    fn iccf_art_9_4_3_no_time_penalty() {
        for category in [
            Category::Blitz,
            Category::Standard,
            Category::Correspondence,
        ] {
            assert_eq!(
                wrong_claim_penalty(RuleSet::Iccf, category, Some(s(600))),
                ClaimPenalty::NONE
            );
        }
    }
}
