//! The float network that the engine's quantised network represents,
//! its forward pass, and its quantisation:
//!
//! - `acc_p = b1 + Σ W1[f]` over the active features `f` of perspective
//!   `p`, for the side to move and the other side;
//! - `h = [screlu(acc_us), screlu(acc_them)]`, `screlu(x) = clamp(x, 0, 1)²`;
//! - `out = W2[bucket] · h + b2[bucket]`, and the evaluation is
//!   `out × SCALE` centipawns for the side to move.
//!
//! The quantised network holds `W1, b1 × QA`, `W2 × QB` and
//! `b2 × QA × QB`, rounded.

use rand::Rng;
use rochade_engine::nnue::{HIDDEN, INPUTS, Network, OUTPUT_BUCKETS, QA, QB};

use super::data::Sample;

/// Bound on `W1`, `b1` and `W2`, enforced after every step: `W2 × QB`
/// stays within ±127 (the engine multiplies it by an activation of up to
/// 255 in 16 bits) and an accumulator of 32 pieces and the bias stays
/// well within an `i16`.
pub const CLIP: f32 = 1.98;

/// The feature weights start uniform in ±this: an accumulator of about 30
/// features then spreads over roughly ±0.3, mostly inside the active
/// part of the activation.
const INIT_W1: f32 = 0.5 / 5.656_854; // 0.5 / sqrt(32)

/// Neurons handled at a time by the loops over a position's features
/// ([`Model::accumulate`] and its gradient): 32 floats are eight SSE
/// registers.
pub const BLOCK: usize = 32;

/// `ln 10`: `sigmoid(out × ln 10) = 1 / (1 + 10^-out)`, the expected score
/// of `out × SCALE` centipawns on the Texel tuner's scale.
pub const LN_10: f32 = std::f32::consts::LN_10;

/// The float network (or, with the same shape, a gradient or an
/// optimiser's moment).
#[derive(Clone, PartialEq)]
pub struct Model {
    /// Feature weights `W1`: one row of `HIDDEN` per input feature.
    pub w1: Vec<[f32; HIDDEN]>,
    /// Hidden biases `b1`.
    pub b1: [f32; HIDDEN],
    /// Output weights `W2`: per bucket, the side to move's half, then the
    /// other side's.
    pub w2: Vec<[[f32; HIDDEN]; 2]>,
    /// Output biases `b2`, one per bucket.
    pub b2: [f32; OUTPUT_BUCKETS],
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("b2", &self.b2)
            .finish_non_exhaustive()
    }
}

/// Squared clipped ReLU.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The expected score of output `out`, `1 / (1 + 10^-out)`.
#[inline(always)]
pub fn sigmoid(out: f32) -> f32 {
    1.0 / (1.0 + (-out * LN_10).exp())
}

impl Model {
    /// A network of zeros.
    #[must_use]
    pub fn zeros() -> Self {
        Self {
            w1: vec![[0.0; HIDDEN]; INPUTS],
            b1: [0.0; HIDDEN],
            w2: vec![[[0.0; HIDDEN]; 2]; OUTPUT_BUCKETS],
            b2: [0.0; OUTPUT_BUCKETS],
        }
    }

    /// The starting network: `W1` uniform in ±0.5/√32, `W2` uniform in
    /// ±1/√(2 × HIDDEN), biases zero.
    #[must_use]
    pub fn random(rng: &mut impl Rng) -> Self {
        let mut model = Self::zeros();
        for w in model.w1.as_flattened_mut() {
            *w = rng.random_range(-INIT_W1..=INIT_W1);
        }
        let bound = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        for w in model.w2.as_flattened_mut().as_flattened_mut() {
            *w = rng.random_range(-bound..=bound);
        }
        model
    }

    /// The four tensors `[W1, b1, W2, b2]`, flat.
    #[must_use]
    pub fn tensors(&self) -> [&[f32]; 4] {
        [
            self.w1.as_flattened(),
            &self.b1,
            self.w2.as_flattened().as_flattened(),
            &self.b2,
        ]
    }

    /// The four tensors `[W1, b1, W2, b2]`, flat and mutable.
    pub fn tensors_mut(&mut self) -> [&mut [f32]; 4] {
        [
            self.w1.as_flattened_mut(),
            &mut self.b1,
            self.w2.as_flattened_mut().as_flattened_mut(),
            &mut self.b2,
        ]
    }

    /// Clips `W1`, `b1` and `W2` to ±[`CLIP`].
    pub fn clip(&mut self) {
        let [w1, b1, w2, _] = self.tensors_mut();
        for w in w1.iter_mut().chain(b1).chain(w2) {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// The hidden layer before activation of `features`: `b1 + Σ W1[f]`,
    /// computed [`BLOCK`] neurons at a time so that the partial sums stay
    /// in registers while the rows go by.
    #[inline]
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32; HIDDEN]) {
        let (blocks, _) = acc.as_chunks_mut::<BLOCK>();
        let (bias, _) = self.b1.as_chunks::<BLOCK>();
        for (k, (out, bias)) in blocks.iter_mut().zip(bias).enumerate() {
            let mut sum = *bias;
            for &f in features {
                let (row, _) = self.w1[usize::from(f)].as_chunks::<BLOCK>();
                for (s, w) in sum.iter_mut().zip(&row[k]) {
                    *s += w;
                }
            }
            *out = sum;
        }
    }

    /// The output of `sample` (`× SCALE` is centipawns for the side to
    /// move); `acc` receives both perspectives' accumulators, the side to
    /// move's first.
    #[inline]
    pub fn forward(&self, sample: &Sample<'_>, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let [us, them] = acc;
        self.accumulate(sample.ours, us);
        self.accumulate(sample.theirs, them);
        let [w_us, w_them] = &self.w2[sample.bucket];
        self.b2[sample.bucket] + screlu_dot(us, w_us) + screlu_dot(them, w_them)
    }

    /// Rounds `W2` to whole multiples of 1/[`QB`], the values the
    /// quantised network can hold: the rounding of `W2` is the largest
    /// part of the difference between the float and the quantised
    /// network, a few centipawns on average.
    pub fn snap_output(&mut self) {
        let qb = QB as f32;
        for w in self.w2.as_flattened_mut().as_flattened_mut() {
            *w = (*w * qb).round() / qb;
        }
    }

    /// The output of `sample`.
    #[must_use]
    pub fn output(&self, sample: &Sample<'_>) -> f32 {
        self.forward(sample, &mut [[0.0; HIDDEN]; 2])
    }

    /// The quantised network, as the engine reads it.
    #[must_use]
    pub fn quantise(&self) -> Network {
        let qa = QA as f32;
        let qb = QB as f32;
        // `as` saturates; clipping keeps every weight well inside anyway.
        let q16 = |w: f32, q: f32| (w * q).round() as i16;
        Network {
            feature_weights: self.w1.as_flattened().iter().map(|&w| q16(w, qa)).collect(),
            feature_bias: self.b1.iter().map(|&b| q16(b, qa)).collect(),
            output_weights: self
                .w2
                .as_flattened()
                .as_flattened()
                .iter()
                .map(|&w| q16(w, qb))
                .collect(),
            output_bias: self
                .b2
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
        }
    }
}

/// `Σ screlu(acc) × w`, in eight independent sums so that the compiler
/// vectorises it (a single float sum must be kept in order).
#[inline(always)]
fn screlu_dot(acc: &[f32; HIDDEN], w: &[f32; HIDDEN]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (acc8, _) = acc.as_chunks::<8>();
    let (w8, _) = w.as_chunks::<8>();
    for (a, w) in acc8.iter().zip(w8) {
        for k in 0..8 {
            lanes[k] += screlu(a[k]) * w[k];
        }
    }
    lanes.iter().sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::nnue::data::Positions;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rochade_engine::nnue::{Accumulator, SCALE, output_bucket};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    /// Positions of every bucket, both sides to move.
    pub(crate) const FENS: [&str; 8] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 9",
        "2r2rk1/pp3ppp/2n1p3/3p4/3P4/2P1PN2/P4PPP/2RR2K1 w - - 0 20",
        "4k3/pp3p2/8/3b4/8/8/PP3P2/R3K3 b - - 0 30",
        "2b1k3/5p2/8/8/8/8/P4P2/2B1K3 b - - 40 60",
        "8/5k2/8/3r4/8/2R5/5PK1/8 w - - 0 50",
        "8/8/4k3/8/8/3QK3/8/8 b - - 0 70",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ];

    /// The positions of `fens`, each with target 0.8.
    pub(crate) fn positions(fens: &[&str]) -> (Positions, Vec<Chess>) {
        let mut set = Positions::new();
        let mut games = Vec::new();
        for fen in fens {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            set.push(pos.board(), pos.turn(), 0.8);
            games.push(pos);
        }
        (set, games)
    }

    /// A seeded network whose weights are all on the quantisation grid
    /// (so quantising loses nothing) and large enough for evaluations of
    /// hundreds of centipawns.
    fn grid_network(seed: u64) -> Model {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut model = Model::zeros();
        let qa = QA as f32;
        let qb = QB as f32;
        for w in model.w1.as_flattened_mut() {
            *w = rng.random_range(-40..=40) as f32 / qa;
        }
        for b in &mut model.b1 {
            *b = rng.random_range(-20..=120) as f32 / qa;
        }
        for w in model.w2.as_flattened_mut().as_flattened_mut() {
            *w = rng.random_range(-127..=127) as f32 / qb;
        }
        for b in &mut model.b2 {
            *b = rng.random_range(-8000..=8000) as f32 / (qa * qb);
        }
        model
    }

    /// The engine's evaluation of `pos` with `net`, in centipawns.
    fn engine_evaluation(net: &Network, pos: &Chess) -> i32 {
        Accumulator::new(net, pos.board()).output(net, pos.turn(), output_bucket(pos.board()))
    }

    #[test]
    fn the_engine_evaluates_the_quantised_model_like_the_float_one() {
        let model = grid_network(7);
        let net = model.quantise();
        let (set, games) = positions(&FENS);
        let mut largest = 0.0f32;
        for (i, pos) in games.iter().enumerate() {
            let float = model.output(&set.get(i)) * SCALE as f32;
            let engine = engine_evaluation(&net, pos);
            assert!(
                (float - engine as f32).abs() <= 1.5,
                "{}: float {float}, engine {engine}",
                FENS[i]
            );
            largest = largest.max(float.abs());
        }
        // The comparison means something only if the outputs are not all
        // near zero.
        assert!(largest > 200.0, "largest evaluation {largest}");
    }

    #[test]
    fn quantising_off_the_grid_costs_few_centipawns() {
        let mut model = Model::random(&mut StdRng::seed_from_u64(3));
        // Random W2 of a trained size, a bias that moves the output.
        model.b2 = [0.3; OUTPUT_BUCKETS];
        let net = model.quantise();
        let (set, games) = positions(&FENS);
        for (i, pos) in games.iter().enumerate() {
            let float = model.output(&set.get(i)) * SCALE as f32;
            let engine = engine_evaluation(&net, pos);
            assert!(
                (float - engine as f32).abs() <= 5.0,
                "{}: float {float}, engine {engine}",
                FENS[i]
            );
        }
    }

    #[test]
    fn clipping_bounds_every_weight_but_the_output_bias() {
        let mut model = Model::zeros();
        model.w1[3][4] = 5.0;
        model.b1[0] = -3.0;
        model.w2[7][1][255] = 2.5;
        model.b2[2] = 4.0;
        model.clip();
        assert_eq!(
            (
                model.w1[3][4],
                model.b1[0],
                model.w2[7][1][255],
                model.b2[2]
            ),
            (CLIP, -CLIP, CLIP, 4.0)
        );
        let net = model.quantise();
        assert_eq!(net.output_weights[7 * 2 * HIDDEN + 2 * HIDDEN - 1], 127);
        assert_eq!(net.feature_weights[3 * HIDDEN + 4], 505);
    }
}
