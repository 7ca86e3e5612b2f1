//! The quantised network measured through the engine's own inference
//! (`rochade_engine::nnue::Accumulator`), so that what is reported is what
//! the engine will see.

use rochade_engine::nnue::{Accumulator, Network, SCALE, output_bucket};

use super::data::{Positions, expected};
use super::model::Model;
use super::sum_in_parallel;

/// The engine's evaluation of position `i` of `set` under `net`, in
/// centipawns for the side to move.
#[must_use]
pub fn engine_eval(net: &Network, set: &Positions, i: usize) -> i32 {
    let (board, turn) = set.board(i);
    Accumulator::new(net, &board).output(net, turn, output_bucket(&board))
}

/// The mean squared error of `set` under `net` through the engine's
/// inference, on `threads` threads.
#[must_use]
pub fn engine_mse(net: &Network, set: &Positions, threads: usize) -> f64 {
    let sum = sum_in_parallel(set.len(), threads, |range| {
        range
            .map(|i| {
                let p = expected(f64::from(engine_eval(net, set, i)));
                (p - f64::from(set.get(i).target)).powi(2)
            })
            .sum()
    });
    sum / set.len().max(1) as f64
}

/// The mean absolute difference in centipawns between `model`'s float
/// evaluation and the engine's evaluation under `net` (normally
/// `model.quantise()`) over `set`, on `threads` threads.
#[must_use]
pub fn quantisation_error(model: &Model, net: &Network, set: &Positions, threads: usize) -> f64 {
    let sum = sum_in_parallel(set.len(), threads, |range| {
        range
            .map(|i| {
                let float = f64::from(model.output(&set.get(i))) * f64::from(SCALE);
                (float - f64::from(engine_eval(net, set, i))).abs()
            })
            .sum()
    });
    sum / set.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::model::tests::{FENS, positions};
    use crate::nnue::train::mse;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn engine_and_float_errors_agree() {
        let (set, _) = positions(&FENS);
        let mut model = Model::random(&mut StdRng::seed_from_u64(9));
        model.b2 = [-0.5; 8];
        let float = mse(&model, &set, 2);
        let engine = engine_mse(&model.quantise(), &set, 2);
        // Targets are 0.8 and outputs about -200 cp (0.24): an error near
        // 0.3, and near 0.003 if a sign were lost.
        assert!(float > 0.2, "{float}");
        assert!((float - engine).abs() < 0.01 * float, "{float} vs {engine}");
    }
}
