//! Minibatch training: each epoch the training positions are shuffled
//! and cut into batches; the threads compute the gradient of their part
//! of a batch, the parts are summed and Adam takes one step; the
//! validation error is measured after every epoch and the network of the
//! best epoch is kept.

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::data::{Positions, Sample};
use super::gradient::Gradient;
use super::model::{Model, sigmoid};
use super::sum_in_parallel;

/// How to train.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam's step size at the start; see [`rate_at`].
    pub rate: f32,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the shuffling.
    pub seed: u64,
    /// What moves, and how the step size falls.
    pub phase: Phase,
    /// Whether half the positions of each epoch are mirrored from left
    /// to right.
    pub mirror: bool,
}

/// What a training run moves and how its step size falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Every weight, with the step decay of [`rate_at`].
    Float,
    /// `W1`, `b1` and `b2` at a constant step size, with `W2` fixed
    /// (snapped to the quantisation grid by [`Model::snap_output`], so that
    /// the rest of the network learns to live with its rounding).
    Snapped,
}

/// Adam's decay of the mean gradient.
const BETA1: f64 = 0.9;
/// Adam's decay of the mean squared gradient.
const BETA2: f64 = 0.999;
/// Adam's guard against dividing by zero.
const EPSILON: f32 = 1e-8;

/// The step size after `done` of `total` steps: `rate` for the first 60 %
/// of the steps, `0.3 × rate` up to 85 %, `0.09 × rate` for the rest
/// (step decay, by step rather than by epoch so that short runs decay
/// too).
#[must_use]
pub fn rate_at(rate: f32, done: usize, total: usize) -> f32 {
    let progress = done as f64 / total.max(1) as f64;
    if progress < 0.6 {
        rate
    } else if progress < 0.85 {
        rate * 0.3
    } else {
        rate * 0.09
    }
}

/// Adam's state.
#[derive(Debug)]
struct Adam {
    /// Mean gradient.
    m: Model,
    /// Mean squared gradient.
    v: Model,
    /// Steps taken.
    t: i32,
}

impl Adam {
    /// Adam before its first step.
    fn new() -> Self {
        Self {
            m: Model::zeros(),
            v: Model::zeros(),
            t: 0,
        }
    }

    /// One step of size `rate` along `grad`, then clipping; `W2` stays
    /// as it is if `freeze_output`.
    fn step(&mut self, model: &mut Model, grad: &Model, rate: f32, freeze_output: bool) {
        self.t += 1;
        let m_scale = (1.0 / (1.0 - BETA1.powi(self.t))) as f32;
        let v_scale = (1.0 / (1.0 - BETA2.powi(self.t))) as f32;
        let (b1, b2) = (BETA1 as f32, BETA2 as f32);
        let tensors = model
            .tensors_mut()
            .into_iter()
            .zip(grad.tensors())
            .zip(self.m.tensors_mut().into_iter().zip(self.v.tensors_mut()));
        for (i, ((w, g), (m, v))) in tensors.enumerate() {
            // The tensors are [W1, b1, W2, b2].
            if freeze_output && i == 2 {
                continue;
            }
            for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= rate * (*m * m_scale) / ((*v * v_scale).sqrt() + EPSILON);
            }
        }
        model.clip();
    }
}

/// What one epoch measured.
#[derive(Debug, Clone, Copy)]
pub struct Epoch {
    /// From 1.
    pub number: u32,
    /// Mean loss on the training positions during the epoch.
    pub training: f64,
    /// Mean squared error on the validation positions after it.
    pub validation: f64,
    /// Training positions a second (the validation pass not counted).
    pub speed: f64,
    /// Step size at the epoch's end.
    pub rate: f32,
    /// Whether the validation error is the lowest so far.
    pub best: bool,
}

/// The mean squared error of `set` under `model`, on `threads` threads.
#[must_use]
pub fn mse(model: &Model, set: &Positions, threads: usize) -> f64 {
    let sum = sum_in_parallel(set.len(), threads, |range| {
        range
            .map(|i| {
                let sample = set.get(i);
                f64::from(sigmoid(model.output(&sample)) - sample.target).powi(2)
            })
            .sum()
    });
    sum / set.len().max(1) as f64
}

/// Trains `model` on `training` for `settings.epochs` epochs and returns
/// the network of the epoch with the lowest error on `validation`, with
/// that error (or `model` itself if no epoch improved on it). `report`
/// sees every epoch and the network after it.
pub fn train(
    settings: &Settings,
    mut model: Model,
    training: &Positions,
    validation: &Positions,
    mut report: impl FnMut(&Epoch, &Model),
) -> (Model, f64) {
    let threads = settings.threads.max(1);
    let batch = settings.batch.max(1);
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    let batches_per_epoch = training.len().div_ceil(batch);
    let total_steps = batches_per_epoch * settings.epochs as usize;
    let mut adam = Adam::new();
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::new()).collect();
    let mut best = (mse(&model, validation, threads), model.clone());
    let mut steps = 0;
    for number in 1..=settings.epochs {
        let started = Instant::now();
        order.shuffle(&mut rng);
        let mut loss = 0.0;
        let mut rate = settings.rate;
        for chunk in order.chunks(batch) {
            if settings.phase == Phase::Float {
                rate = rate_at(settings.rate, steps, total_steps);
            }
            let mirror = settings.mirror.then_some(number);
            loss += batch_gradient(&model, training, chunk, mirror, &mut grads);
            let (first, rest) = grads.split_at_mut(1);
            for other in rest.iter() {
                first[0].absorb(other);
            }
            adam.step(
                &mut model,
                &first[0].sum,
                rate,
                settings.phase == Phase::Snapped,
            );
            for g in &mut grads {
                g.clear();
            }
            steps += 1;
        }
        let seconds = started.elapsed().as_secs_f64();
        let validation_mse = mse(&model, validation, threads);
        let improved = validation_mse < best.0;
        if improved {
            best = (validation_mse, model.clone());
        }
        report(
            &Epoch {
                number,
                training: loss / training.len().max(1) as f64,
                validation: validation_mse,
                speed: training.len() as f64 / seconds,
                rate,
                best: improved,
            },
            &model,
        );
    }
    (best.1, best.0)
}

/// Adds the gradient of the mean loss over the positions `chunk` of
/// `set` into `grads`, one part per thread, and returns the summed
/// squared error. With `mirror` set to the epoch's number, half the
/// positions (a different half each epoch, see [`mirrors`]) are seen
/// mirrored from left to right.
fn batch_gradient(
    model: &Model,
    set: &Positions,
    chunk: &[u32],
    mirror: Option<u32>,
    grads: &mut [Gradient],
) -> f64 {
    let weight = 1.0 / chunk.len() as f32;
    let per_thread = chunk.len().div_ceil(grads.len());
    std::thread::scope(|scope| {
        let workers: Vec<_> = grads
            .iter_mut()
            .zip(chunk.chunks(per_thread))
            .map(|(grad, part)| {
                scope.spawn(move || {
                    part.iter()
                        .map(|&i| {
                            let sample = set.get(i as usize);
                            let loss = if mirror.is_some_and(|epoch| mirrors(i, epoch)) {
                                let (ours, theirs) =
                                    (mirrored(sample.ours), mirrored(sample.theirs));
                                let n = sample.ours.len();
                                let flipped = Sample {
                                    ours: &ours[..n],
                                    theirs: &theirs[..n],
                                    ..sample
                                };
                                grad.add(model, &flipped, weight)
                            } else {
                                grad.add(model, &sample, weight)
                            };
                            f64::from(loss)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .sum()
    })
}

/// Whether position `i` is seen mirrored in epoch `epoch`: a hash of the
/// two picks half the positions, a different half each epoch.
fn mirrors(i: u32, epoch: u32) -> bool {
    let h = (u64::from(i) << 32 | u64::from(epoch)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h >> 63 == 1
}

/// `features` of a board mirrored from left to right (files a and h
/// swapped): the file is the low three bits of a feature. The network
/// sees no castling rights, so a position and its mirror image are worth
/// the same to it, which doubles the data.
fn mirrored(features: &[u16]) -> [u16; 32] {
    let mut out = [0; 32];
    for (o, f) in out.iter_mut().zip(features) {
        *o = f ^ 7;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use shakmaty::{Chess, Position, Role};

    /// Positions from seeded random games, each labelled with the
    /// expected score of its material balance for the side to move (pawn
    /// 1, knight and bishop 3, rook 5, queen 9, at 100 centipawns each).
    fn material_positions(count: usize, seed: u64) -> Positions {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut set = Positions::new();
        while set.len() < count {
            let mut pos = Chess::default();
            for _ in 0..rng.random_range(10..120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let value = |role| match role {
                Role::Pawn => 1,
                Role::Knight | Role::Bishop => 3,
                Role::Rook => 5,
                Role::Queen => 9,
                Role::King => 0,
            };
            let balance: i32 = pos
                .board()
                .iter()
                .map(|(_, p)| {
                    let v = value(p.role);
                    if p.color == pos.turn() { v } else { -v }
                })
                .sum();
            let target = super::super::data::expected(f64::from(balance * 100));
            set.push(pos.board(), pos.turn(), target as f32);
        }
        set
    }

    #[test]
    fn the_schedule_decays_twice() {
        assert_eq!(rate_at(1.0, 0, 100), 1.0);
        assert_eq!(rate_at(1.0, 59, 100), 1.0);
        assert_eq!(rate_at(1.0, 60, 100), 0.3);
        assert!((rate_at(1.0, 99, 100) - 0.09).abs() < 1e-7);
    }

    #[test]
    fn training_lowers_the_error() {
        // Too few positions for the network to generalise (it learns them
        // square by square), so the error is measured on the positions
        // trained on: this checks the descent, not the fit.
        let positions = material_positions(600, 1);
        let model = Model::random(&mut StdRng::seed_from_u64(3));
        let before = mse(&model, &positions, 2);
        let settings = Settings {
            epochs: 4,
            batch: 32,
            rate: 0.01,
            threads: 2,
            seed: 4,
            phase: Phase::Float,
            mirror: true,
        };
        let mut epochs = Vec::new();
        let (trained, after) = train(&settings, model, &positions, &positions, |e, _| {
            epochs.push(*e);
        });
        assert_eq!(epochs.len(), 4);
        assert!(
            epochs.windows(2).all(|w| w[1].training < w[0].training),
            "{epochs:?}"
        );
        assert!(after < 0.2 * before, "MSE {before} -> {after}");
        assert_eq!(mse(&trained, &positions, 2), after);
    }

    #[test]
    fn the_snapped_phase_keeps_the_output_weights() {
        let positions = material_positions(100, 5);
        let mut model = Model::random(&mut StdRng::seed_from_u64(6));
        model.snap_output();
        let settings = Settings {
            epochs: 1,
            batch: 16,
            rate: 0.01,
            threads: 2,
            seed: 7,
            phase: Phase::Snapped,
            mirror: false,
        };
        let mut last = None;
        train(&settings, model.clone(), &positions, &positions, |e, m| {
            assert_eq!(e.rate, 0.01);
            last = Some(m.clone());
        });
        let last = last.expect("one epoch");
        assert_eq!(last.w2, model.w2);
        assert_ne!(last.w1, model.w1);
        assert_ne!(last.b2, model.b2);
    }

    #[test]
    fn a_mirrored_position_trains_like_its_mirror_image() {
        use shakmaty::CastlingMode;
        use shakmaty::fen::Fen;
        let board = |fen: &str| -> Chess {
            let fen: Fen = fen.parse().expect("fen");
            fen.into_position(CastlingMode::Standard).expect("legal")
        };
        let mut set = Positions::new();
        for fen in [
            "4k3/1p6/8/8/8/8/6P1/2KR4 w - - 0 1",
            "3k4/6p1/8/8/8/8/1P6/4RK2 w - - 0 1",
        ] {
            let pos = board(fen);
            set.push(pos.board(), pos.turn(), 0.6);
        }
        let model = Model::random(&mut StdRng::seed_from_u64(8));
        let epoch = (0..64)
            .find(|&e| mirrors(0, e))
            .expect("some epoch mirrors position 0");
        let mut grads = vec![Gradient::new()];
        let a = batch_gradient(&model, &set, &[0], Some(epoch), &mut grads);
        let mirrored = grads[0].sum.clone();
        let mut grads = vec![Gradient::new()];
        let b = batch_gradient(&model, &set, &[1], None, &mut grads);
        assert!((a - b).abs() < 1e-9);
        assert_eq!(mirrored, grads[0].sum);
        assert!((0..64).any(|e| !mirrors(0, e)), "and some epoch does not");
    }
}
