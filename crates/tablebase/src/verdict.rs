//! The tablebase's verdict on a position for the side to move.

use std::fmt;

use rochade_laws::TablebaseValue;
use shakmaty_syzygy::Wdl;

/// What the tables say about a position, for the side to move, without the
/// 50-move rule (ICCF 9.3 has none with seven or fewer pieces): a "cursed
/// win" (a win in more than 50 moves) is a [`Verdict::Win`] and a "blessed
/// loss" a [`Verdict::Loss`].
///
/// # Examples
///
/// ```
/// use rochade_laws::TablebaseValue;
/// use rochade_tablebase::{NotCovered, Verdict};
///
/// assert_eq!(Verdict::Win.value(), Some(TablebaseValue::Win));
/// assert_eq!(Verdict::NotCovered(NotCovered::Castling).value(), None);
/// assert_eq!(Verdict::Draw.to_string(), "draw");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses with best play.
    Loss,
    /// The tables do not hold the position.
    NotCovered(NotCovered),
}

/// Why the tables do not hold a position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NotCovered {
    /// More pieces (kings and pawns included) than the largest table.
    TooManyPieces {
        /// Pieces on the board.
        pieces: u32,
        /// Pieces of the largest table opened.
        max: u32,
    },
    /// Castling rights: Syzygy tables have no positions with them.
    Castling,
    /// A table the position needs is not in the set (for its own material,
    /// or one reached by a capture or a promotion).
    MissingTable {
        /// The table's material, e.g. `KQvKR`.
        material: String,
    },
}

impl Verdict {
    /// The verdict for a WDL value of the tables (which assume a halfmove
    /// clock of zero): cursed wins and blessed losses count as decisive.
    pub(crate) fn from_wdl(wdl: Wdl) -> Verdict {
        match wdl {
            Wdl::Win | Wdl::CursedWin => Verdict::Win,
            Wdl::Draw => Verdict::Draw,
            Wdl::Loss | Wdl::BlessedLoss => Verdict::Loss,
        }
    }

    /// The value a tablebase claim is judged by (see
    /// [`Game::claim_tablebase`](rochade_laws::Game::claim_tablebase)),
    /// `None` when the tables do not hold the position.
    pub fn value(&self) -> Option<TablebaseValue> {
        match self {
            Verdict::Win => Some(TablebaseValue::Win),
            Verdict::Draw => Some(TablebaseValue::Draw),
            Verdict::Loss => Some(TablebaseValue::Loss),
            Verdict::NotCovered(_) => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Win => f.write_str("win"),
            Verdict::Draw => f.write_str("draw"),
            Verdict::Loss => f.write_str("loss"),
            Verdict::NotCovered(why) => write!(f, "not covered: {why}"),
        }
    }
}

impl fmt::Display for NotCovered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotCovered::TooManyPieces { pieces, max } => {
                write!(f, "{pieces} pieces, the tables hold at most {max}")
            }
            NotCovered::Castling => f.write_str("castling rights"),
            NotCovered::MissingTable { material } => write!(f, "no table {material}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccf_art_9_3_cursed_wins_and_blessed_losses_are_decisive() {
        // No 50-move rule with seven or fewer pieces: a win in more than 50
        // moves is still a win, for the claim of ICCF 5.1.3.
        assert_eq!(Verdict::from_wdl(Wdl::CursedWin), Verdict::Win);
        assert_eq!(Verdict::from_wdl(Wdl::BlessedLoss), Verdict::Loss);
        assert_eq!(Verdict::from_wdl(Wdl::Win), Verdict::Win);
        assert_eq!(Verdict::from_wdl(Wdl::Draw), Verdict::Draw);
        assert_eq!(Verdict::from_wdl(Wdl::Loss), Verdict::Loss);
    }
}
