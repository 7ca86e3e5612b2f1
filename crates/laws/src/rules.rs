//! The rule sets Rochade can play by: the current FIDE Laws, the FIDE Laws of
//! 2009, and the ICCF rules for correspondence chess.
//!
//! ```
//! use rochade_laws::RuleSet;
//!
//! let rules: RuleSet = "fide2009".parse()?;
//! assert!(!rules.automatic_draws());
//! assert!(RuleSet::default().automatic_draws());
//! # Ok::<_, rochade_laws::rules::ParseRuleSetError>(())
//! ```

use std::{fmt, str::FromStr};

/// Which edition of the rules a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// The FIDE Laws of Chess in force now (2018 numbering; fivefold
    /// repetition and the 75-move rule end the game automatically, 9.6).
    #[default]
    Fide,
    /// The FIDE Laws of Chess in force from 1 July 2009: no automatic draws,
    /// only claims.
    Fide2009,
    /// The ICCF rules for correspondence chess: no automatic draws, no
    /// 50-move claim with seven or fewer pieces on the board (tablebases
    /// decide those), agreements only after both players have moved.
    Iccf,
}

/// The text did not name a rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule set '{0}': expected fide, fide2009 or iccf")]
pub struct ParseRuleSetError(pub String);

impl RuleSet {
    /// Every rule set, in a stable order.
    pub const ALL: [RuleSet; 3] = [RuleSet::Fide, RuleSet::Fide2009, RuleSet::Iccf];

    /// The short name used on the command line and in stored games.
    ///
    /// ```
    /// assert_eq!(rochade_laws::RuleSet::Iccf.as_str(), "iccf");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            RuleSet::Fide => "fide",
            RuleSet::Fide2009 => "fide2009",
            RuleSet::Iccf => "iccf",
        }
    }

    /// Whether fivefold repetition (9.6.1) and the 75-move rule (9.6.2) end
    /// the game without a claim.
    pub fn automatic_draws(self) -> bool {
        matches!(self, RuleSet::Fide)
    }

    /// Whether a 50-move claim (9.3) may be made with `pieces` pieces
    /// (kings and pawns included) on the board. ICCF 9.3: not with seven or
    /// fewer, where the tablebase decides instead.
    pub fn fifty_move_claim_allowed(self, pieces: u32) -> bool {
        !(self == RuleSet::Iccf && pieces <= 7)
    }

    /// Whether a draw offer stays valid after the opponent makes a move
    /// without answering it. FIDE 9.1.2.2: the offer ends when the opponent
    /// touches a piece to move it; ICCF 9.1.2.1: it stays valid until it is
    /// accepted or declined, or the opponent's time runs out.
    pub fn offer_survives_reply(self) -> bool {
        self == RuleSet::Iccf
    }

    /// Whether an agreed draw needs both players to have made a move first
    /// (ICCF 5.2.3).
    pub fn agreement_needs_both_moved(self) -> bool {
        self == RuleSet::Iccf
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fide" => Ok(RuleSet::Fide),
            "fide2009" | "fide-2009" => Ok(RuleSet::Fide2009),
            "iccf" => Ok(RuleSet::Iccf),
            _ => Err(ParseRuleSetError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for rules in RuleSet::ALL {
            assert_eq!(rules.as_str().parse::<RuleSet>(), Ok(rules));
        }
        assert!("fidé".parse::<RuleSet>().is_err());
    }

    #[test]
    fn iccf_art_9_3_2_fifty_move_rule_excludes_seven_pieces() {
        // ICCF 9.3.2: not when seven or fewer pieces remain.
        assert!(!RuleSet::Iccf.fifty_move_claim_allowed(7));
        assert!(RuleSet::Iccf.fifty_move_claim_allowed(8));
        assert!(RuleSet::Fide.fifty_move_claim_allowed(3));
    }
}
