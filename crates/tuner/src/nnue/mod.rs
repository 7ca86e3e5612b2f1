//! Training of the engine's network (`rochade_engine::nnue`) on the
//! labelled positions of the data files: the positions ([`data`]), the
//! float network ([`model`]) and its gradient ([`gradient`]), minibatch
//! Adam over threads ([`train`]), the quantised network measured through
//! the engine ([`check`]), and the `nnue` and `nnue-check` subcommands
//! ([`cli`]).

pub mod check;
pub mod cli;
pub mod data;
pub mod gradient;
pub mod model;
pub mod train;

use std::ops::Range;

/// `Σ f(part)` over the parts of `0..len` cut into `threads` ranges, one
/// thread each; the result depends on `threads` only through the order
/// of the float additions.
fn sum_in_parallel(len: usize, threads: usize, f: impl Fn(Range<usize>) -> f64 + Sync) -> f64 {
    let per_thread = len.div_ceil(threads.max(1)).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..len)
            .step_by(per_thread)
            .map(|start| scope.spawn(move || f(start..(start + per_thread).min(len))))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .sum()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn parallel_sums_cover_every_index_once() {
        for (len, threads) in [(0, 2), (1, 2), (10, 3), (7, 1), (5, 8)] {
            let sum = super::sum_in_parallel(len, threads, |r| r.map(|i| i as f64).sum());
            assert_eq!(
                sum,
                (0..len).map(|i| i as f64).sum::<f64>(),
                "{len} {threads}"
            );
        }
    }
}
