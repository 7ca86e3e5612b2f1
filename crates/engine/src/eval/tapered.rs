//! A middlegame/endgame pair of values, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Sub};

/// A middlegame and an endgame value in centipawns.
///
/// # Examples
///
/// ```
/// use rochade_engine::eval::Tapered;
/// let s = Tapered::new(10, 30) + Tapered::new(5, -5) * 2;
/// assert_eq!(s, Tapered::new(20, 20));
/// assert_eq!(Tapered::new(100, 0).taper(12), 50);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tapered {
    /// The value with all pieces on the board.
    pub mg: i32,
    /// The value with only kings and pawns left.
    pub eg: i32,
}

/// The phase of the starting position (and of any fuller board).
pub const PHASE_TOTAL: i32 = 24;

impl Tapered {
    /// A pair from its middlegame and endgame values.
    #[must_use]
    pub const fn new(mg: i32, eg: i32) -> Self {
        Self { mg, eg }
    }

    /// The blend at `phase` (0 = endgame, [`PHASE_TOTAL`] = middlegame).
    #[must_use]
    pub const fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
    }

    /// The blend at `phase` with the endgame value scaled by `scale` out
    /// of 64 (see the evaluation's endgame scaling).
    ///
    /// ```
    /// use rochade_engine::eval::Tapered;
    /// assert_eq!(Tapered::new(100, 100).taper_scaled(0, 32), 50);
    /// assert_eq!(Tapered::new(100, 100).taper_scaled(24, 0), 100);
    /// ```
    #[must_use]
    pub const fn taper_scaled(self, phase: i32, scale: i32) -> i32 {
        (self.mg * phase + self.eg * scale / 64 * (PHASE_TOTAL - phase)) / PHASE_TOTAL
    }
}

impl Add for Tapered {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self::new(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl Sub for Tapered {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self::new(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl AddAssign for Tapered {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl Mul<i32> for Tapered {
    type Output = Self;
    fn mul(self, rhs: i32) -> Self {
        Self::new(self.mg * rhs, self.eg * rhs)
    }
}
