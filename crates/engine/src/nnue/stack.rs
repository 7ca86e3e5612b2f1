//! Accumulators along the search's current line, brought up to date only
//! when a position is evaluated.

use shakmaty::{Chess, Move, Position};

use super::accumulator::Accumulator;
use super::features::{Delta, output_bucket};
use super::network::Network;

/// One ply of the line: the move's changes and, once computed, the
/// accumulator after it.
#[derive(Clone)]
struct Ply {
    delta: Delta,
    accumulator: Accumulator,
    /// Whether `accumulator` holds this ply's position.
    fresh: bool,
}

/// The accumulators of the positions along the line the search is on,
/// one per ply from the root. Entering a child records only what the move
/// changes ([`AccumulatorStack::push`]); the accumulators are computed
/// when a position is evaluated, from the nearest one already computed,
/// so moves cut before their evaluation cost nothing.
///
/// # Examples
///
/// ```
/// use rochade_engine::nnue::{AccumulatorStack, evaluate, network};
/// use shakmaty::{Chess, Position};
/// let root = Chess::default();
/// let mut stack = AccumulatorStack::new(network(), 4);
/// stack.set_root(&root);
/// let m = root.legal_moves()[0];
/// stack.push(0, &root, m);
/// let mut child = root.clone();
/// child.play_unchecked(m);
/// assert_eq!(stack.evaluate(1, &child), evaluate(&child));
/// ```
pub struct AccumulatorStack {
    net: &'static Network,
    plies: Vec<Ply>,
}

impl std::fmt::Debug for AccumulatorStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccumulatorStack")
            .field("plies", &self.plies.len())
            .finish_non_exhaustive()
    }
}

impl AccumulatorStack {
    /// A stack for lines of up to `max_ply` plies below the root.
    #[must_use]
    pub fn new(net: &'static Network, max_ply: usize) -> Self {
        let blank = Ply {
            delta: Delta::default(),
            accumulator: Accumulator::new(net, &shakmaty::Board::empty()),
            fresh: false,
        };
        Self {
            net,
            plies: vec![blank; max_ply + 1],
        }
    }

    /// Starts a line at `root`.
    pub fn set_root(&mut self, root: &Chess) {
        self.plies[0].accumulator = Accumulator::new(self.net, root.board());
        self.plies[0].fresh = true;
    }

    /// Records that the line goes on from `parent` at `ply` with `m`.
    #[inline]
    pub fn push(&mut self, ply: usize, parent: &Chess, m: Move) {
        let next = &mut self.plies[ply + 1];
        next.delta = Delta::of(parent, m);
        next.fresh = false;
    }

    /// Records a null move at `ply`: the board does not change.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        let next = &mut self.plies[ply + 1];
        next.delta = Delta::default();
        next.fresh = false;
    }

    /// The network's evaluation of `pos`, the position at `ply` of the
    /// line, in centipawns for the side to move.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Chess) -> i32 {
        let mut first = ply;
        while !self.plies[first].fresh {
            if first == 0 {
                // No root was set: start from the position itself.
                self.plies[ply].accumulator = Accumulator::new(self.net, pos.board());
                self.plies[ply].fresh = true;
                first = ply;
                break;
            }
            first -= 1;
        }
        for i in first + 1..=ply {
            let (done, rest) = self.plies.split_at_mut(i);
            let next = &mut rest[0];
            next.accumulator
                .update(self.net, &done[i - 1].accumulator, &next.delta);
            next.fresh = true;
        }
        let acc = &self.plies[ply].accumulator;
        debug_assert!(
            *acc == Accumulator::new(self.net, pos.board()),
            "the accumulator at ply {ply} does not match the position"
        );
        acc.output(self.net, pos.turn(), output_bucket(pos.board()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network::HIDDEN;
    use crate::nnue::{INPUTS, OUTPUT_BUCKETS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A network of small random weights.
    fn random_network(seed: u64) -> &'static Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut net = Network::zeros();
        for w in &mut net.feature_weights {
            *w = rng.random_range(-300..=300);
        }
        for b in &mut net.feature_bias {
            *b = rng.random_range(0..=100);
        }
        for w in &mut net.output_weights {
            *w = rng.random_range(-127..=127);
        }
        for b in &mut net.output_bias {
            *b = rng.random_range(-20_000..=20_000);
        }
        assert_eq!(net.feature_weights.len(), INPUTS * HIDDEN);
        assert_eq!(net.output_bias.len(), OUTPUT_BUCKETS);
        Box::leak(Box::new(net))
    }

    /// The evaluation of `pos` from scratch with `net`.
    fn fresh(net: &Network, pos: &Chess) -> i32 {
        Accumulator::new(net, pos.board()).output(net, pos.turn(), output_bucket(pos.board()))
    }

    #[test]
    fn updated_accumulators_equal_fresh_ones_along_random_lines() {
        let net = random_network(1);
        let mut rng = StdRng::seed_from_u64(2);
        let mut stack = AccumulatorStack::new(net, 64);
        for _ in 0..30 {
            let root = Chess::default();
            stack.set_root(&root);
            let mut line = vec![root];
            // Walk down and back up at random, evaluating now and then, as
            // a search does; some steps are null moves.
            for _ in 0..200 {
                let ply = line.len() - 1;
                let pos = line[ply].clone();
                let moves = pos.legal_moves();
                if moves.is_empty() || ply == 60 || rng.random_bool(0.3) && ply > 0 {
                    line.pop();
                    continue;
                }
                let child = if rng.random_bool(0.1) && !pos.is_check() {
                    stack.push_null(ply);
                    pos.clone().swap_turn().expect("not in check")
                } else {
                    let m = moves[rng.random_range(0..moves.len())];
                    stack.push(ply, &pos, m);
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    child
                };
                if rng.random_bool(0.5) {
                    assert_eq!(stack.evaluate(ply + 1, &child), fresh(net, &child));
                }
                line.push(child);
            }
        }
    }

    #[test]
    fn a_stack_without_a_root_starts_from_the_position() {
        let net = random_network(3);
        let mut stack = AccumulatorStack::new(net, 8);
        let pos = Chess::default();
        assert_eq!(stack.evaluate(0, &pos), fresh(net, &pos));
    }
}
