//! Texel's method: fit the sigmoid constant K to the labels with the
//! starting weights, then minimise the mean squared error between the
//! labels and `sigmoid(K * eval / 400)` over all weights.
//!
//! The evaluation is linear in the weights ([`rochade_engine::eval::trace`]
//! gives the coefficients), so each position is stored as its sparse
//! coefficients and the gradient is exact; full-batch Adam does the descent.

use rochade_engine::eval::{PHASE_TOTAL, SCALE_NORMAL, TEMPO, trace};
use shakmaty::{CastlingMode, Chess, Position};

use crate::data::Record;

/// Every tenth position is held out to check that the fit generalises.
const VALIDATION_EVERY: usize = 10;

/// Epochs between checks of the validation error.
const CHECK_EVERY: u32 = 25;

/// One position as the tuner sees it.
#[derive(Debug, Clone)]
struct Entry {
    /// Non-zero coefficients: (weight index, White's count minus Black's).
    coefficients: Vec<(u16, f64)>,
    /// Middlegame share, phase / [`PHASE_TOTAL`].
    mg: f64,
    /// The endgame scale as a fraction, when Black (`[0]`) or White
    /// (`[1]`) is ahead in the endgame half.
    scale: [f64; 2],
    /// The tempo bonus for White (+ or − [`TEMPO`]).
    tempo: f64,
    /// The target: expected score for White, 0..=1.
    label: f64,
}

impl Entry {
    /// The tuner's view of `pos`, to be fitted to `label`.
    fn new(pos: &Chess, label: f64) -> Self {
        let t = trace(pos);
        Self {
            coefficients: t
                .coefficients
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c != 0)
                .map(|(i, &c)| (i as u16, f64::from(c)))
                .collect(),
            mg: f64::from(t.phase) / f64::from(PHASE_TOTAL),
            scale: t.scale.map(|s| f64::from(s) / f64::from(SCALE_NORMAL)),
            tempo: if pos.turn().is_white() {
                f64::from(TEMPO)
            } else {
                -f64::from(TEMPO)
            },
            label,
        }
    }
}

/// Training and validation positions.
#[derive(Debug)]
pub struct Dataset {
    training: Vec<Entry>,
    validation: Vec<Entry>,
}

/// Why records could not become a data set.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// A FEN is not a legal standard chess position.
    #[error("position {index} ({fen}) is not legal: {reason}")]
    Illegal {
        /// Its index in the file, from 0.
        index: usize,
        /// The FEN.
        fen: String,
        /// Why.
        reason: String,
    },
    /// Too few positions to tune on.
    #[error("only {0} positions; need at least {VALIDATION_EVERY}")]
    TooFew(usize),
}

/// Stockfish's centipawns as an expected score, on the same logistic
/// scale as the Texel sigmoid with K = 1.
fn stockfish_expectation(cp: i32) -> f64 {
    sigmoid(1.0, f64::from(cp))
}

/// The expected score for an evaluation `e` in centipawns.
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

impl Dataset {
    /// Traces every record; the label is `lambda * result + (1 - lambda) *
    /// stockfish`, or the result alone for unlabelled records.
    pub fn new(records: &[Record], lambda: f64) -> Result<Self, DatasetError> {
        if records.len() < VALIDATION_EVERY {
            return Err(DatasetError::TooFew(records.len()));
        }
        let mut set = Self {
            training: Vec::new(),
            validation: Vec::new(),
        };
        for (index, r) in records.iter().enumerate() {
            let pos: Chess = r
                .fen
                .clone()
                .into_position(CastlingMode::Standard)
                .map_err(|e| DatasetError::Illegal {
                    index,
                    fen: r.fen.to_string(),
                    reason: e.to_string(),
                })?;
            let label = match r.stockfish {
                Some(cp) => lambda * r.result + (1.0 - lambda) * stockfish_expectation(cp),
                None => r.result,
            };
            let entry = Entry::new(&pos, label);
            if index % VALIDATION_EVERY == 0 {
                set.validation.push(entry);
            } else {
                set.training.push(entry);
            }
        }
        Ok(set)
    }

    /// Positions fitted.
    pub fn training_len(&self) -> usize {
        self.training.len()
    }

    /// Positions held out.
    pub fn validation_len(&self) -> usize {
        self.validation.len()
    }
}

/// The evaluation for White of `entry` under `weights`, and the factor
/// its endgame half was scaled by.
fn evaluate(entry: &Entry, weights: &[[f64; 2]]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &entry.coefficients {
        let [wm, we] = weights[usize::from(i)];
        mg += c * wm;
        eg += c * we;
    }
    let scale = entry.scale[usize::from(eg > 0.0)];
    (
        mg * entry.mg + eg * scale * (1.0 - entry.mg) + entry.tempo,
        scale,
    )
}

/// Mean squared error of `entries` under `weights` and `k`.
fn mse(entries: &[Entry], weights: &[[f64; 2]], k: f64) -> f64 {
    let sum: f64 = entries
        .iter()
        .map(|e| (e.label - sigmoid(k, evaluate(e, weights).0)).powi(2))
        .sum();
    sum / entries.len() as f64
}

/// The K in `0.1..=4` minimising the training error, by golden-section
/// search (the error is unimodal in K).
fn fit_k(entries: &[Entry], weights: &[[f64; 2]]) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.1, 4.0);
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if mse(entries, weights, a) < mse(entries, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The gradient of the training error with respect to every weight.
fn gradient(entries: &[Entry], weights: &[[f64; 2]], k: f64) -> Vec<[f64; 2]> {
    let mut grad = vec![[0.0; 2]; weights.len()];
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for e in entries {
        let (eval, eg_scale) = evaluate(e, weights);
        let p = sigmoid(k, eval);
        // d(label - p)^2 / d eval
        let d = -2.0 * (e.label - p) * p * (1.0 - p) * scale;
        for &(i, c) in &e.coefficients {
            let g = &mut grad[usize::from(i)];
            g[0] += d * c * e.mg;
            g[1] += d * c * (1.0 - e.mg) * eg_scale;
        }
    }
    let n = entries.len() as f64;
    for g in &mut grad {
        g[0] /= n;
        g[1] /= n;
    }
    grad
}

/// What a tuning run found.
#[derive(Debug)]
pub struct Report {
    /// The fitted sigmoid constant.
    pub k: f64,
    /// Validation error with the starting weights.
    pub validation_before: f64,
    /// Validation error with the tuned weights.
    pub validation_after: f64,
    /// The tuned weights, `[mg, eg]` per feature.
    pub weights: Vec<[f64; 2]>,
}

/// Fits K (unless `fixed_k` gives it), then runs `epochs` of full-batch Adam with step `rate` on the
/// training error plus `ridge` times the squared distance of the weights
/// from where they started (which keeps rarely seen features, such as a
/// queen with 25 safe squares, from fitting noise); returns
/// the weights with the lowest validation error seen (early stopping,
/// checked every [`CHECK_EVERY`] epochs). Weights in the `frozen` index
/// ranges keep their starting values.
pub fn tune(
    set: &Dataset,
    mut weights: Vec<[f64; 2]>,
    epochs: u32,
    rate: f64,
    ridge: f64,
    frozen: &[std::ops::Range<usize>],
    fixed_k: Option<f64>,
) -> Report {
    let start = weights.clone();
    let k = fixed_k.unwrap_or_else(|| fit_k(&set.training, &weights));
    let validation_before = mse(&set.validation, &weights, k);
    eprintln!(
        "K = {k:.4}; training MSE {:.6}, validation MSE {validation_before:.6}",
        mse(&set.training, &weights, k)
    );
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; weights.len()];
    let mut v = vec![[0.0; 2]; weights.len()];
    let mut best = (validation_before, weights.clone());
    for epoch in 1..=epochs {
        let mut grad = gradient(&set.training, &weights, k);
        for ((g, w), w0) in grad.iter_mut().zip(&weights).zip(&start) {
            for j in 0..2 {
                g[j] += 2.0 * ridge * (w[j] - w0[j]);
            }
        }
        let t = f64::from(epoch);
        for range in frozen {
            grad[range.clone()].fill([0.0; 2]);
        }
        for ((w, g), (m, v)) in weights.iter_mut().zip(&grad).zip(m.iter_mut().zip(&mut v)) {
            for j in 0..2 {
                m[j] = beta1 * m[j] + (1.0 - beta1) * g[j];
                v[j] = beta2 * v[j] + (1.0 - beta2) * g[j] * g[j];
                let m_hat = m[j] / (1.0 - beta1.powf(t));
                let v_hat = v[j] / (1.0 - beta2.powf(t));
                w[j] -= rate * m_hat / (v_hat.sqrt() + eps);
            }
        }
        if epoch.is_multiple_of(CHECK_EVERY) {
            let validation = mse(&set.validation, &weights, k);
            if validation < best.0 {
                best = (validation, weights.clone());
            }
            if epoch.is_multiple_of(10 * CHECK_EVERY) {
                eprintln!(
                    "epoch {epoch}: training MSE {:.6}, validation MSE {validation:.6}",
                    mse(&set.training, &weights, k),
                );
            }
        }
    }
    let (validation_after, weights) = best;
    Report {
        k,
        validation_before,
        validation_after,
        weights,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_is_even_odds_at_zero_and_monotone() {
        assert!((sigmoid(1.0, 0.0) - 0.5).abs() < 1e-12);
        assert!(sigmoid(1.0, 100.0) > sigmoid(1.0, 50.0));
        assert!((sigmoid(1.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let entry = Entry {
            coefficients: vec![(0, 1.0), (1, -2.0)],
            mg: 0.25,
            scale: [0.5, 0.75],
            tempo: 10.0,
            label: 0.8,
        };
        let entries = vec![entry];
        let weights = vec![[50.0, 70.0], [20.0, -10.0]];
        let grad = gradient(&entries, &weights, 1.2);
        let h = 1e-4;
        for i in 0..2 {
            for j in 0..2 {
                let mut plus = weights.clone();
                plus[i][j] += h;
                let mut minus = weights.clone();
                minus[i][j] -= h;
                let numeric = (mse(&entries, &plus, 1.2) - mse(&entries, &minus, 1.2)) / (2.0 * h);
                assert!(
                    (numeric - grad[i][j]).abs() < 1e-9,
                    "{i},{j}: {numeric} vs {}",
                    grad[i][j]
                );
            }
        }
    }

    /// The tuner's evaluation under the engine's own weights is the
    /// engine's evaluation (up to the engine's integer rounding), endgame
    /// scaling included.
    #[test]
    fn the_tuners_evaluation_is_the_engines() {
        use rochade_engine::eval::{evaluate as engine_eval, weights::WEIGHTS};
        use shakmaty::fen::Fen;
        let weights: Vec<[f64; 2]> = WEIGHTS
            .iter()
            .map(|w| [f64::from(w.mg), f64::from(w.eg)])
            .collect();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 9",
            "4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1",
            "2b1k3/5p2/8/8/8/8/P4P2/2B1K3 b - - 40 60",
            "8/5k2/8/3r4/8/2R5/5PK1/8 w - - 0 50",
        ] {
            let setup: Fen = fen.parse().unwrap();
            let pos: Chess = setup.into_position(CastlingMode::Standard).unwrap();
            let white = evaluate(&Entry::new(&pos, 0.5), &weights).0;
            let ours = if pos.turn().is_white() { white } else { -white };
            let engine = f64::from(engine_eval(&pos));
            assert!(
                (ours - engine).abs() <= 2.0,
                "{fen}: tuner {ours}, engine {engine}"
            );
        }
    }

    #[test]
    fn fitting_k_recovers_the_labels_scale() {
        // Labels generated with K = 1.5 from a one-weight evaluation.
        let entries: Vec<Entry> = (-20..=20)
            .map(|n| {
                let c = f64::from(n);
                Entry {
                    coefficients: vec![(0, c)],
                    mg: 1.0,
                    scale: [1.0, 1.0],
                    tempo: 0.0,
                    label: sigmoid(1.5, c * 30.0),
                }
            })
            .collect();
        let k = fit_k(&entries, &[[30.0, 30.0]]);
        assert!((k - 1.5).abs() < 1e-3, "{k}");
    }
}
