//! The evaluation by a neural network that is updated efficiently (NNUE):
//! 768 piece-square inputs per perspective, a hidden layer of
//! [`HIDDEN`] neurons shared by both perspectives and kept up to date move
//! by move ([`AccumulatorStack`]), a squared clipped ReLU, and one output
//! per bucket of material. The network is trained by `rochade-tune nnue`
//! on Stockfish's scores of positions from its own games (see
//! `crates/engine/nets/README.md`), and embedded in the binary.
//!
//! ```
//! use rochade_engine::nnue::evaluate;
//! use shakmaty::{CastlingMode, Chess, fen::Fen};
//! let fen: Fen = "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1".parse().unwrap();
//! let queen_up: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! assert!(evaluate(&queen_up) > 500);
//! ```

mod accumulator;
mod features;
mod network;
mod stack;

use std::sync::LazyLock;

use shakmaty::{Chess, Position};

pub use accumulator::Accumulator;
pub use features::{
    Delta, INPUTS, OUTPUT_BUCKETS, Placement, active_features, feature, output_bucket,
};
pub use network::{FILE_LEN, HIDDEN, MAGIC, Network, NetworkError, QA, QB, SCALE, VERSION};
pub use stack::AccumulatorStack;

/// The network file built into the engine.
pub const EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");

/// The network built into the engine.
///
/// # Panics
///
/// If the embedded file is not a network of this build's shape, which the
/// engine's tests rule out.
#[must_use]
#[allow(clippy::expect_used)]
pub fn network() -> &'static Network {
    static NETWORK: LazyLock<Network> = LazyLock::new(|| {
        Network::from_bytes(EMBEDDED).expect("the embedded network matches this build")
    });
    &NETWORK
}

/// The embedded network's evaluation of `pos`, computed from scratch, in
/// centipawns for the side to move.
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let net = network();
    Accumulator::new(net, pos.board()).output(net, pos.turn(), output_bucket(pos.board()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_loads() {
        assert_eq!(Network::from_bytes(EMBEDDED).map(|_| ()), Ok(()));
    }
}
