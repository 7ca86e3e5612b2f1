//! The hidden layer before activation, kept for both perspectives and
//! updated move by move, and the output computed from it.

use shakmaty::{Board, Color};

use super::features::{Delta, INPUTS, Placement, active_features, feature};
use super::network::{HIDDEN, Network, QA, QB, SCALE};

/// The hidden neurons of both perspectives (`[black, white]`) before
/// activation, in units of 1/[`QA`].
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accumulator").finish_non_exhaustive()
    }
}

/// The index of `color` in a `[black, white]` array.
#[inline(always)]
fn side(color: Color) -> usize {
    usize::from(color.is_white())
}

impl Accumulator {
    /// The accumulator of `board`, computed from scratch.
    #[must_use]
    pub fn new(net: &Network, board: &Board) -> Self {
        let mut values = [[0; HIDDEN]; 2];
        for color in Color::ALL {
            let v = &mut values[side(color)];
            v.copy_from_slice(&net.feature_bias);
            for f in active_features(board, color) {
                debug_assert!(f < INPUTS);
                add(v, net.feature_row(f));
            }
        }
        Self { values }
    }

    /// `parent` with the changes of one move applied, in one pass over
    /// the neurons per perspective.
    #[inline]
    pub fn update(&mut self, net: &Network, parent: &Self, delta: &Delta) {
        for color in Color::ALL {
            let s = side(color);
            let row = |p: Placement| net.feature_row(feature(color, p.piece, p.square));
            let mut removed = delta.removed().map(row);
            let mut added = delta.added().map(row);
            let (v, from) = (&mut self.values[s], &parent.values[s]);
            match (removed.next(), removed.next(), added.next(), added.next()) {
                (Some(r1), None, Some(a1), None) => sub_add(v, from, r1, a1),
                (Some(r1), Some(r2), Some(a1), None) => sub_sub_add(v, from, r1, r2, a1),
                (r1, r2, a1, a2) => {
                    // Castling, or a null move: rare enough for four passes.
                    v.copy_from_slice(from);
                    for r in [r1, r2].into_iter().flatten() {
                        sub(v, r);
                    }
                    for a in [a1, a2].into_iter().flatten() {
                        add(v, a);
                    }
                }
            }
        }
    }

    /// The network's evaluation in centipawns for `turn`, with output
    /// `bucket`.
    #[must_use]
    #[inline]
    pub fn output(&self, net: &Network, turn: Color, bucket: usize) -> i32 {
        let weights = &net.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let (ours, theirs) = weights.split_at(HIDDEN);
        let sum = activated_dot(&self.values[side(turn)], ours)
            + activated_dot(&self.values[side(!turn)], theirs);
        (sum / QA + net.output_bias[bucket]) * SCALE / (QA * QB)
    }
}

/// `Σ clamp(v, 0, QA)² × w` over the neurons `values` and weights
/// `weights`, in units of 1/(QA² QB).
#[inline(always)]
fn activated_dot(values: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| {
            let v = v.clamp(0, QA as i16);
            // |v × w| ≤ 255 × 127 fits in an i16 (the trainer keeps output
            // weights within ±127/QB), which lets the compiler use a
            // 16-bit multiply and a multiply-add into 32 bits.
            i32::from(v.wrapping_mul(w)) * i32::from(v)
        })
        .sum()
}

/// `v += row`, neuron by neuron.
#[inline(always)]
fn add(v: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &b) in v.iter_mut().zip(row) {
        *a = a.wrapping_add(b);
    }
}

/// `v = from - r1 + a1`, neuron by neuron (a quiet move).
#[inline(always)]
fn sub_add(v: &mut [i16; HIDDEN], from: &[i16; HIDDEN], r1: &[i16; HIDDEN], a1: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        v[i] = from[i].wrapping_sub(r1[i]).wrapping_add(a1[i]);
    }
}

/// `v = from - r1 - r2 + a1`, neuron by neuron (a capture).
#[inline(always)]
fn sub_sub_add(
    v: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    r1: &[i16; HIDDEN],
    r2: &[i16; HIDDEN],
    a1: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        v[i] = from[i]
            .wrapping_sub(r1[i])
            .wrapping_sub(r2[i])
            .wrapping_add(a1[i]);
    }
}

/// `v -= row`, neuron by neuron.
#[inline(always)]
fn sub(v: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &b) in v.iter_mut().zip(row) {
        *a = a.wrapping_sub(b);
    }
}
