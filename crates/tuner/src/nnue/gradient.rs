//! The gradient of the loss, accumulated position by position: the
//! squared error between `sigmoid(out × ln 10)` and the target, averaged
//! over a batch.

use rochade_engine::nnue::{HIDDEN, INPUTS};

use super::data::Sample;
use super::model::{BLOCK, LN_10, Model, sigmoid};

/// A gradient being summed over positions. Only the rows of `W1` whose
/// features occur get gradient, so only those are cleared and summed.
#[derive(Debug, Clone)]
pub struct Gradient {
    /// The gradient, shaped like the network.
    pub sum: Model,
    /// Whether each row of `W1` has been touched since the last clear.
    touched: Vec<bool>,
    /// The touched rows.
    rows: Vec<u16>,
}

impl Default for Gradient {
    fn default() -> Self {
        Self::new()
    }
}

impl Gradient {
    /// A zero gradient.
    #[must_use]
    pub fn new() -> Self {
        Self {
            sum: Model::zeros(),
            touched: vec![false; INPUTS],
            rows: Vec::with_capacity(INPUTS),
        }
    }

    /// Sets the gradient back to zero.
    pub fn clear(&mut self) {
        for &f in &self.rows {
            self.sum.w1[usize::from(f)] = [0.0; HIDDEN];
            self.touched[usize::from(f)] = false;
        }
        self.rows.clear();
        let [_, b1, w2, b2] = self.sum.tensors_mut();
        for g in b1.iter_mut().chain(w2).chain(b2) {
            *g = 0.0;
        }
    }

    /// Adds `weight` times the gradient of `sample`'s squared error under
    /// `model`, and returns that squared error.
    #[inline]
    pub fn add(&mut self, model: &Model, sample: &Sample<'_>, weight: f32) -> f32 {
        let mut acc = [[0.0; HIDDEN]; 2];
        let out = model.forward(sample, &mut acc);
        let p = sigmoid(out);
        let error = p - sample.target;
        // d(p - target)² / d out
        let d = 2.0 * error * p * (1.0 - p) * LN_10 * weight;
        let bucket = sample.bucket;
        self.sum.b2[bucket] += d;
        let mut delta = [[0.0; HIDDEN]; 2];
        for side in 0..2 {
            backward_hidden(
                &acc[side],
                &model.w2[bucket][side],
                d,
                &mut self.sum.w2[bucket][side],
                &mut delta[side],
            );
        }
        for ((b, us), them) in self.sum.b1.iter_mut().zip(&delta[0]).zip(&delta[1]) {
            *b += us + them;
        }
        self.add_rows(sample.ours, &delta[0]);
        self.add_rows(sample.theirs, &delta[1]);
        error * error
    }

    /// Adds `delta` to the rows of `features`, [`BLOCK`] neurons at a
    /// time so that that part of `delta` stays in registers.
    #[inline]
    fn add_rows(&mut self, features: &[u16], delta: &[f32; HIDDEN]) {
        for &f in features {
            let i = usize::from(f);
            if !self.touched[i] {
                self.touched[i] = true;
                self.rows.push(f);
            }
        }
        let (delta, _) = delta.as_chunks::<BLOCK>();
        for (k, delta) in delta.iter().enumerate() {
            for &f in features {
                let (row, _) = self.sum.w1[usize::from(f)].as_chunks_mut::<BLOCK>();
                for (g, d) in row[k].iter_mut().zip(delta) {
                    *g += d;
                }
            }
        }
    }

    /// Adds `other` to this gradient.
    pub fn absorb(&mut self, other: &Self) {
        for &f in &other.rows {
            let i = usize::from(f);
            if !self.touched[i] {
                self.touched[i] = true;
                self.rows.push(f);
            }
            for (g, o) in self.sum.w1[i].iter_mut().zip(&other.sum.w1[i]) {
                *g += o;
            }
        }
        let [_, b1, w2, b2] = self.sum.tensors_mut();
        let [_, o1, o2, ob] = other.sum.tensors();
        for (g, o) in b1
            .iter_mut()
            .chain(w2)
            .chain(b2)
            .zip(o1.iter().chain(o2).chain(ob))
        {
            *g += o;
        }
    }
}

/// Back through one perspective's output weights `w` and activation,
/// with `d` the derivative by the output: adds `d × screlu(acc)` to the
/// weights' gradient `gw` and sets `delta` to the derivative by `acc`.
#[inline(always)]
fn backward_hidden(
    acc: &[f32; HIDDEN],
    w: &[f32; HIDDEN],
    d: f32,
    gw: &mut [f32; HIDDEN],
    delta: &mut [f32; HIDDEN],
) {
    for (((&x, &w), g), delta) in acc.iter().zip(w).zip(gw).zip(delta) {
        let c = x.clamp(0.0, 1.0);
        *g += d * c * c;
        // screlu'(x) = 2x inside (0, 1), zero outside.
        *delta = if x < 1.0 { 2.0 * c * d * w } else { 0.0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::Positions;
    use crate::nnue::model::tests::{FENS, positions};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The mean squared error of `set` under `model`, computed in f64
    /// neuron by neuron, independently of the vectorised code.
    fn reference_loss(model: &Model, set: &Positions) -> f64 {
        let mut total = 0.0;
        for i in 0..set.len() {
            let s = set.get(i);
            let mut out = f64::from(model.b2[s.bucket]);
            for (side, features) in [s.ours, s.theirs].into_iter().enumerate() {
                for j in 0..HIDDEN {
                    let mut x = f64::from(model.b1[j]);
                    for &f in features {
                        x += f64::from(model.w1[usize::from(f)][j]);
                    }
                    let c = x.clamp(0.0, 1.0);
                    out += c * c * f64::from(model.w2[s.bucket][side][j]);
                }
            }
            let p = 1.0 / (1.0 + 10f64.powf(-out));
            total += (p - f64::from(s.target)).powi(2);
        }
        total / set.len() as f64
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let (mut set, _) = positions(&FENS[..4]);
        // Targets away from the predictions so the error is not flat.
        let mut rng = StdRng::seed_from_u64(11);
        let mut with_targets = Positions::new();
        for i in 0..set.len() {
            let (board, turn) = set.board(i);
            with_targets.push(&board, turn, rng.random_range(0.0..1.0));
        }
        set = with_targets;
        let mut model = Model::random(&mut rng);
        for w in model.w2.as_flattened_mut().as_flattened_mut() {
            *w *= 4.0;
        }
        for b in &mut model.b1 {
            *b = rng.random_range(-0.2..0.6);
        }
        // The gradient of the batch loss, summed over two halves as the
        // training threads do.
        let weight = 1.0 / set.len() as f32;
        let mut grad = Gradient::new();
        let mut other = Gradient::new();
        for i in 0..set.len() {
            let g = if i % 2 == 0 { &mut grad } else { &mut other };
            g.add(&model, &set.get(i), weight);
        }
        grad.absorb(&other);

        // A neuron inside the active part of the activation for the first
        // position's side to move, away from the kinks at 0 and 1.
        let first = set.get(0);
        let mut acc = [[0.0; HIDDEN]; 2];
        model.forward(&first, &mut acc);
        let j = (0..HIDDEN)
            .find(|&j| (0.2..0.8).contains(&acc[0][j]) && (0.2..0.8).contains(&acc[1][j]))
            .expect("an active neuron");
        // Which weight: [side-to-move feature, other feature, neuron, bucket].
        let at = [
            usize::from(first.ours[0]),
            usize::from(first.theirs[3]),
            j,
            first.bucket,
        ];
        type Pick = fn(&mut Model, [usize; 4]) -> &mut f32;
        let checks: [(&str, Pick); 6] = [
            ("W1 side to move", |m, [f, _, j, _]| &mut m.w1[f][j]),
            ("W1 other side", |m, [_, f, j, _]| &mut m.w1[f][j]),
            ("b1", |m, [_, _, j, _]| &mut m.b1[j]),
            ("W2 side to move", |m, [_, _, j, b]| &mut m.w2[b][0][j]),
            ("W2 other side", |m, [_, _, j, b]| &mut m.w2[b][1][j]),
            ("b2", |m, [_, _, _, b]| &mut m.b2[b]),
        ];
        let mut sum = grad.sum.clone();
        for (name, pick) in checks {
            let analytic = f64::from(*pick(&mut sum, at));
            let mut plus = model.clone();
            *pick(&mut plus, at) += 1e-3;
            let mut minus = model.clone();
            *pick(&mut minus, at) -= 1e-3;
            let step = f64::from(*pick(&mut plus, at)) - f64::from(*pick(&mut minus, at));
            let numeric = (reference_loss(&plus, &set) - reference_loss(&minus, &set)) / step;
            assert!(
                analytic.abs() > 1e-5,
                "{name}: gradient {analytic} too small to test"
            );
            assert!(
                (analytic - numeric).abs() <= 2e-3 * numeric.abs(),
                "{name}: analytic {analytic}, numeric {numeric}"
            );
        }
    }

    #[test]
    fn clearing_zeroes_everything() {
        let (set, _) = positions(&FENS);
        let model = Model::random(&mut StdRng::seed_from_u64(5));
        let mut grad = Gradient::new();
        for i in 0..set.len() {
            grad.add(&model, &set.get(i), 1.0);
        }
        assert!(
            grad.sum
                .tensors()
                .iter()
                .all(|t| t.iter().any(|&g| g != 0.0))
        );
        grad.clear();
        assert!(
            grad.sum
                .tensors()
                .iter()
                .all(|t| t.iter().all(|&g| g == 0.0))
        );
    }
}
