//! Fixed-width signed integers for matching weights.
//!
//! The Dutch system's edge weights pack every quality criterion of
//! C.04.3 into one number, most important criterion in the highest bits,
//! as bbpPairings does: hundreds to thousands of bits for a large
//! tournament. [`Wide`] is a two's-complement integer of `L` 64-bit
//! limbs with the few operations the matching and the weights need.
//!
//! ```
//! use rochade_tournament::matching::{Weight, Wide};
//!
//! let a = Wide::<2>::from_u64(1).shifted(100);
//! let b = a - Wide::from_u64(1);
//! assert!(b < a);
//! assert_eq!(a.half().shifted(1), a);
//! assert!(Wide::<2>::ZERO - a < Wide::ZERO);
//! ```

use std::cmp::Ordering;
use std::ops::{Add, BitOr, Sub};

use super::Weight;

/// A signed two's-complement integer of `L` 64-bit limbs (least
/// significant limb first). Arithmetic wraps, as machine integers do;
/// callers size `L` so that it never needs to.
#[derive(Debug, Clone, Copy, Eq)]
pub struct Wide<const L: usize>(pub [u64; L]);

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const ZERO: Wide<L> = Wide([0; L]);

    /// The number of bits this width holds (the sign bit included).
    pub const BITS: usize = 64 * L;

    /// The value `v`.
    #[must_use]
    pub fn from_u64(v: u64) -> Wide<L> {
        let mut limbs = [0; L];
        limbs[0] = v;
        Wide(limbs)
    }

    /// This value shifted left by `bits` (bits past the top are lost).
    #[must_use]
    pub fn shifted(self, bits: usize) -> Wide<L> {
        let mut out = [0u64; L];
        let (whole, part) = (bits / 64, bits % 64);
        for i in (whole..L).rev() {
            let lo = self.0[i - whole];
            out[i] = lo << part;
            if part > 0 && i > whole {
                out[i] |= self.0[i - whole - 1] >> (64 - part);
            }
        }
        Wide(out)
    }

    /// This value plus `v` shifted left by `bits` (bits past the top
    /// are lost): `self + Wide::from_u64(v).shifted(bits)` without
    /// shifting a whole number.
    #[must_use]
    pub fn add_at(self, v: u64, bits: usize) -> Wide<L> {
        let (whole, part) = (bits / 64, bits % 64);
        let mut out = self.0;
        let mut add = [0u64; 2];
        add[0] = v << part;
        if part > 0 {
            add[1] = v >> (64 - part);
        }
        let mut carry = false;
        let mut i = whole;
        while i < L {
            let extra = add.get(i - whole).copied().unwrap_or(0);
            if i > whole + 1 && !carry {
                break;
            }
            let (s1, c1) = out[i].overflowing_add(extra);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            out[i] = s2;
            carry = c1 || c2;
            i += 1;
        }
        Wide(out)
    }

    /// The bitwise or of this value and `v`.
    #[must_use]
    pub fn or_u64(mut self, v: u64) -> Wide<L> {
        self.0[0] |= v;
        self
    }

    /// Whether the value is below zero.
    #[must_use]
    pub fn is_negative(self) -> bool {
        self.0[L - 1] >> 63 == 1
    }
}

impl<const L: usize> PartialEq for Wide<L> {
    // Limb by limb without a branch (the derived one calls memcmp).
    #[inline]
    fn eq(&self, other: &Wide<L>) -> bool {
        self.0
            .iter()
            .zip(other.0)
            .fold(0, |acc, (&a, b)| acc | (a ^ b))
            == 0
    }
}

impl<const L: usize> std::hash::Hash for Wide<L> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const L: usize> Default for Wide<L> {
    fn default() -> Wide<L> {
        Wide::ZERO
    }
}

impl<const L: usize> Add for Wide<L> {
    type Output = Wide<L>;
    // The carry is the high half of a 128-bit sum.
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline]
    fn add(self, rhs: Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        let mut carry = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let s = u128::from(self.0[i]) + u128::from(rhs.0[i]) + carry;
            *o = s as u64;
            carry = s >> 64;
        }
        Wide(out)
    }
}

impl<const L: usize> Sub for Wide<L> {
    type Output = Wide<L>;
    // The carry is the high half of a 128-bit sum.
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline]
    fn sub(self, rhs: Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        let mut borrow = 0u128;
        for (i, o) in out.iter_mut().enumerate() {
            let s = u128::from(self.0[i])
                .wrapping_sub(u128::from(rhs.0[i]))
                .wrapping_sub(borrow);
            *o = s as u64;
            borrow = s >> 127;
        }
        Wide(out)
    }
}

impl<const L: usize> BitOr for Wide<L> {
    type Output = Wide<L>;
    fn bitor(self, rhs: Wide<L>) -> Wide<L> {
        let mut out = self.0;
        for (o, r) in out.iter_mut().zip(rhs.0) {
            *o |= r;
        }
        Wide(out)
    }
}

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Wide<L>) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Wide<L>) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const L: usize> Weight for Wide<L> {
    fn zero() -> Wide<L> {
        Wide::ZERO
    }

    fn trailing_zeros(self) -> u32 {
        let mut zeros = 0;
        for limb in self.0 {
            if limb != 0 {
                return zeros + limb.trailing_zeros();
            }
            zeros += 64;
        }
        zeros
    }

    fn bit(k: u32) -> Option<Wide<L>> {
        let k = k as usize;
        (k + 2 < Self::BITS).then(|| Wide::from_u64(1).shifted(k))
    }

    // Always inlined: out of line (the compiler's choice once the
    // stage loop grew), a call an edge scan cost 12 % of a round.
    #[inline(always)]
    fn add_sub(self, plus: Wide<L>, minus: Wide<L>) -> Wide<L> {
        let mut out = [0u64; L];
        // Two carry chains (add, then subtract), as adc and sbb run them.
        let (mut carry, mut borrow) = (false, false);
        for (i, o) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(plus.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            let (d1, b1) = s2.overflowing_sub(minus.0[i]);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            *o = d2;
            carry = c1 | c2;
            borrow = b1 | b2;
        }
        Wide(out)
    }

    fn half(self) -> Wide<L> {
        // Arithmetic shift right by one (floor division by two).
        let mut out = [0u64; L];
        let sign = if self.is_negative() { 1u64 << 63 } else { 0 };
        for (i, o) in out.iter_mut().enumerate() {
            let high = if i + 1 < L { self.0[i + 1] << 63 } else { sign };
            *o = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: i64) -> Wide<2> {
        if v >= 0 {
            Wide::from_u64(v.unsigned_abs())
        } else {
            Wide::ZERO - Wide::from_u64(v.unsigned_abs())
        }
    }

    #[test]
    fn arithmetic_agrees_with_i64() {
        let values = [-70_000_000_000i64, -5, -1, 0, 1, 2, 7, 1 << 40];
        for &a in &values {
            for &b in &values {
                assert_eq!(w(a) + w(b), w(a + b), "{a} + {b}");
                assert_eq!(w(a) - w(b), w(a - b), "{a} - {b}");
                assert_eq!(w(a).add_sub(w(b), w(a)), w(b), "{a} + {b} - {a}");
                assert_eq!(w(a).add_sub(w(a), w(b)), w(a + a - b), "{a} + {a} - {b}");
                assert_eq!(w(a).cmp(&w(b)), a.cmp(&b), "{a} <=> {b}");
            }
            assert_eq!(w(a).half(), w(a.div_euclid(2)), "{a} / 2");
        }
    }

    #[test]
    fn add_at_is_add_of_a_shift() {
        let base = Wide::<3>([u64::MAX, u64::MAX - 1, 5]);
        for v in [0u64, 1, 3, u64::MAX, 1 << 63] {
            for bits in [0, 1, 5, 63, 64, 65, 127, 128, 150, 191, 192, 300] {
                let want = base + Wide::from_u64(v).shifted(bits);
                assert_eq!(base.add_at(v, bits), want, "{v} at {bits}");
                assert_eq!(
                    Wide::<3>::ZERO.add_at(v, bits),
                    Wide::from_u64(v).shifted(bits)
                );
            }
        }
    }

    #[test]
    fn shifts_cross_limbs() {
        let one = Wide::<3>::from_u64(1);
        assert_eq!(one.shifted(64).0, [0, 1, 0]);
        assert_eq!(one.shifted(130).0, [0, 0, 4]);
        assert_eq!(Wide::<3>::from_u64(3).shifted(63).0, [1 << 63, 1, 0]);
        assert_eq!(one.shifted(128).half().0, [0, 1 << 63, 0]);
    }
}
