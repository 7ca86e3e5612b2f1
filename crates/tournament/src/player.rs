//! Who plays: pairing numbers and colours.
//!
//! A [`PairingNumber`] is a player's starting-rank number: 1 to 65,535.
//! TRF16 writes it in four columns (5–8 of a `001` record), so a file
//! holds 1 to 9,999 ([`PairingNumber::TRF16_MAX`]); a tournament held in
//! memory may be larger, and writing it as TRF16 is refused
//! ([`crate::trf::TrfWriteError`]). FIDE's pairing rules and the Berger
//! tables (C.05 Annex 1) speak of players by this number only.
//!
//! ```
//! use rochade_tournament::{Colour, PairingNumber};
//!
//! let p = PairingNumber::new(12).unwrap();
//! assert_eq!(p.get(), 12);
//! assert_eq!(Colour::White.other(), Colour::Black);
//! ```

use std::fmt;
use std::num::NonZeroU16;

/// A player's pairing number (starting rank): 1 to 65,535; TRF16 files
/// hold 1 to 9,999.
///
/// # Examples
///
/// ```
/// use rochade_tournament::PairingNumber;
///
/// assert!(PairingNumber::new(0).is_none());
/// assert_eq!(PairingNumber::new(10_000).map(|p| p.fits_trf16()), Some(false));
/// assert_eq!(PairingNumber::new(7).unwrap().to_string(), "7");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PairingNumber(NonZeroU16);

impl PairingNumber {
    /// The largest pairing number (a tournament of 65,535 players).
    pub const MAX: u16 = u16::MAX;

    /// The largest number the four columns of TRF16 can hold.
    pub const TRF16_MAX: u16 = 9999;

    /// The pairing number `n`, or `None` for zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::PairingNumber;
    ///
    /// assert_eq!(PairingNumber::new(10_000).map(|p| p.get()), Some(10_000));
    /// assert!(PairingNumber::new(0).is_none());
    /// ```
    #[must_use]
    pub fn new(n: u16) -> Option<PairingNumber> {
        NonZeroU16::new(n).map(PairingNumber)
    }

    /// Whether TRF16's four columns can hold this number (1 to 9,999).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::PairingNumber;
    ///
    /// assert!(PairingNumber::new(9999).unwrap().fits_trf16());
    /// assert!(!PairingNumber::new(10_000).unwrap().fits_trf16());
    /// ```
    #[must_use]
    pub fn fits_trf16(self) -> bool {
        self.get() <= Self::TRF16_MAX
    }

    /// The number itself.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::PairingNumber;
    ///
    /// assert_eq!(PairingNumber::new(3).unwrap().get(), 3);
    /// ```
    #[must_use]
    pub fn get(self) -> u16 {
        self.0.get()
    }

    /// The zero-based index of this number (`1` is index 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::PairingNumber;
    ///
    /// assert_eq!(PairingNumber::new(1).unwrap().index(), 0);
    /// ```
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0.get()) - 1
    }
}

impl fmt::Display for PairingNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The colour of a player's pieces in a game.
///
/// # Examples
///
/// ```
/// use rochade_tournament::Colour;
///
/// assert_eq!(Colour::Black.other(), Colour::White);
/// assert_eq!(Colour::White.trf_char(), 'w');
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White: `w` in TRF16.
    White,
    /// Black: `b` in TRF16.
    Black,
}

impl Colour {
    /// The opposite colour.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::Colour;
    ///
    /// assert_eq!(Colour::White.other().other(), Colour::White);
    /// ```
    #[must_use]
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The letter TRF16 writes for this colour (`w` or `b`).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_tournament::Colour;
    ///
    /// assert_eq!(Colour::Black.trf_char(), 'b');
    /// ```
    #[must_use]
    pub fn trf_char(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_numbers_are_one_to_65535_and_trf16_holds_9999() {
        assert!(PairingNumber::new(0).is_none());
        assert!(PairingNumber::new(1).is_some_and(PairingNumber::fits_trf16));
        assert!(PairingNumber::new(9999).is_some_and(PairingNumber::fits_trf16));
        let wide = PairingNumber::new(10_000).expect("10,000 is a pairing number");
        assert!(!wide.fits_trf16());
        assert_eq!(
            PairingNumber::new(u16::MAX).map(PairingNumber::get),
            Some(PairingNumber::MAX)
        );
    }
}
