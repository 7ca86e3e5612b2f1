//! The result codes of a TRF16 round block (column 99 for round 1).

use crate::Points;

/// What a player got in one round, as TRF16 codes it (letters are
/// case-insensitive on input and written in upper case).
///
/// # Examples
///
/// ```
/// use rochade_tournament::trf::ResultCode;
///
/// assert_eq!(ResultCode::from_char('='), Some(ResultCode::Draw));
/// assert_eq!(ResultCode::from_char('h'), Some(ResultCode::HalfPointBye));
/// assert!(ResultCode::Win.is_played());
/// assert!(!ResultCode::ForfeitWin.is_played());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultCode {
    /// `1`: win over the board.
    Win,
    /// `=`: draw over the board.
    Draw,
    /// `0`: loss over the board.
    Loss,
    /// `W`: win, the game lasted less than one move (not rated).
    WinUnrated,
    /// `D`: draw, the game lasted less than one move (not rated).
    DrawUnrated,
    /// `L`: loss, the game lasted less than one move (not rated).
    LossUnrated,
    /// `+`: forfeit win.
    ForfeitWin,
    /// `-`: forfeit loss.
    ForfeitLoss,
    /// `H`: half-point bye.
    HalfPointBye,
    /// `F`: full-point bye.
    FullPointBye,
    /// `U`: pairing-allocated bye (at most one per round).
    PairingAllocatedBye,
    /// `Z` or blank: zero-point bye (a known absence).
    ZeroPointBye,
}

impl ResultCode {
    /// The code for a result character, or `None` (blank is
    /// [`ResultCode::ZeroPointBye`] only when there is no opponent; the
    /// reader decides that).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::ResultCode;
    ///
    /// assert_eq!(ResultCode::from_char('u'), Some(ResultCode::PairingAllocatedBye));
    /// assert_eq!(ResultCode::from_char('x'), None);
    /// ```
    #[must_use]
    pub fn from_char(c: char) -> Option<ResultCode> {
        Some(match c.to_ascii_uppercase() {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            'W' => ResultCode::WinUnrated,
            'D' => ResultCode::DrawUnrated,
            'L' => ResultCode::LossUnrated,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'H' => ResultCode::HalfPointBye,
            'F' => ResultCode::FullPointBye,
            'U' => ResultCode::PairingAllocatedBye,
            'Z' => ResultCode::ZeroPointBye,
            _ => return None,
        })
    }

    /// The character the writer puts in the result column.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::ResultCode;
    ///
    /// assert_eq!(ResultCode::ForfeitLoss.to_char(), '-');
    /// ```
    #[must_use]
    pub fn to_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::WinUnrated => 'W',
            ResultCode::DrawUnrated => 'D',
            ResultCode::LossUnrated => 'L',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::HalfPointBye => 'H',
            ResultCode::FullPointBye => 'F',
            ResultCode::PairingAllocatedBye => 'U',
            ResultCode::ZeroPointBye => 'Z',
        }
    }

    /// Whether a game was played over the board (`1 = 0 W D L`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::ResultCode;
    ///
    /// assert!(ResultCode::DrawUnrated.is_played());
    /// assert!(!ResultCode::HalfPointBye.is_played());
    /// ```
    #[must_use]
    pub fn is_played(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::WinUnrated
                | ResultCode::DrawUnrated
                | ResultCode::LossUnrated
        )
    }

    /// Whether this is a bye, which never has an opponent (`H F U Z`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::ResultCode;
    ///
    /// assert!(ResultCode::FullPointBye.is_bye());
    /// assert!(!ResultCode::ForfeitWin.is_bye());
    /// ```
    #[must_use]
    pub fn is_bye(self) -> bool {
        matches!(
            self,
            ResultCode::HalfPointBye
                | ResultCode::FullPointBye
                | ResultCode::PairingAllocatedBye
                | ResultCode::ZeroPointBye
        )
    }

    /// The result the opponent must have in the same game, for codes that
    /// need an opponent (`None` for byes).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::trf::ResultCode;
    ///
    /// assert_eq!(ResultCode::Win.mirror(), Some(ResultCode::Loss));
    /// assert_eq!(ResultCode::ForfeitLoss.mirror(), Some(ResultCode::ForfeitWin));
    /// ```
    #[must_use]
    pub fn mirror(self) -> Option<ResultCode> {
        Some(match self {
            ResultCode::Win => ResultCode::Loss,
            ResultCode::Draw => ResultCode::Draw,
            ResultCode::Loss => ResultCode::Win,
            ResultCode::WinUnrated => ResultCode::LossUnrated,
            ResultCode::DrawUnrated => ResultCode::DrawUnrated,
            ResultCode::LossUnrated => ResultCode::WinUnrated,
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
            _ => return None,
        })
    }

    /// The points this result is worth under the FIDE default scoring
    /// (TRF16 162: win 1, draw ½, loss 0; a pairing-allocated bye as a win).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::{Points, trf::ResultCode};
    ///
    /// assert_eq!(ResultCode::HalfPointBye.points(), Points::HALF);
    /// assert_eq!(ResultCode::PairingAllocatedBye.points(), Points::ONE);
    /// ```
    #[must_use]
    pub fn points(self) -> Points {
        match self {
            ResultCode::Win
            | ResultCode::WinUnrated
            | ResultCode::ForfeitWin
            | ResultCode::FullPointBye
            | ResultCode::PairingAllocatedBye => Points::ONE,
            ResultCode::Draw | ResultCode::DrawUnrated | ResultCode::HalfPointBye => Points::HALF,
            ResultCode::Loss
            | ResultCode::LossUnrated
            | ResultCode::ForfeitLoss
            | ResultCode::ZeroPointBye => Points::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_its_own_character() {
        for c in "1=0WDL+-HFUZ".chars() {
            let code = ResultCode::from_char(c).expect("a TRF16 code");
            assert_eq!(code.to_char(), c);
        }
    }

    #[test]
    fn mirrors_are_involutions() {
        for c in "1=0WDL+-".chars() {
            let code = ResultCode::from_char(c).expect("a TRF16 code");
            assert_eq!(code.mirror().and_then(ResultCode::mirror), Some(code));
        }
    }
}
