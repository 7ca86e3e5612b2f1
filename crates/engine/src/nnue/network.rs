//! The network's weights and their file format.
//!
//! A network file is, all numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | the magic `RCHDNNUE` |
//! | 4 | format version, `u32` = 1 |
//! | 4 | hidden neurons per perspective, `u32` = [`HIDDEN`] |
//! | 4 | output buckets, `u32` = [`OUTPUT_BUCKETS`] |
//! | 2 × [`INPUTS`] × [`HIDDEN`] | feature weights, `i16`, feature by feature, × [`QA`] |
//! | 2 × [`HIDDEN`] | hidden biases, `i16`, × [`QA`] |
//! | 2 × [`OUTPUT_BUCKETS`] × 2 × [`HIDDEN`] | output weights, `i16`, bucket by bucket, the side to move's half first, × [`QB`] |
//! | 4 × [`OUTPUT_BUCKETS`] | output biases, `i32`, × [`QA`] × [`QB`] |

use super::features::{INPUTS, OUTPUT_BUCKETS};

/// Hidden neurons per perspective.
pub const HIDDEN: usize = 256;
/// Quantisation of the feature weights and hidden biases (1.0 = `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights (1.0 = `QB`).
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"RCHDNNUE";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The length of a network file.
pub const FILE_LEN: usize = 8
    + 12
    + 2 * INPUTS * HIDDEN
    + 2 * HIDDEN
    + 2 * OUTPUT_BUCKETS * 2 * HIDDEN
    + 4 * OUTPUT_BUCKETS;

/// Why bytes are not a network this build can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file does not start with [`MAGIC`].
    #[error("not a Rochade network: the file does not start with {MAGIC:?}")]
    Magic,
    /// The header does not describe this build's network.
    #[error(
        "the network has version {version}, {hidden} hidden neurons and {buckets} output buckets; this build reads version {VERSION}, {HIDDEN} and {OUTPUT_BUCKETS}"
    )]
    Shape {
        /// The file's version.
        version: u32,
        /// The file's hidden neurons per perspective.
        hidden: u32,
        /// The file's output buckets.
        buckets: u32,
    },
    /// The file is not as long as its header says.
    #[error("the network file has {found} bytes, expected {FILE_LEN}")]
    Length {
        /// The file's length.
        found: usize,
    },
}

/// A quantised network: 768 inputs per perspective to [`HIDDEN`] neurons
/// (shared by both perspectives), squared clipped ReLU, then one output
/// per bucket from both perspectives' neurons.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Feature weights: `HIDDEN` per input, input by input.
    pub feature_weights: Vec<i16>,
    /// Hidden biases.
    pub feature_bias: Vec<i16>,
    /// Output weights: `2 * HIDDEN` per bucket (side to move first).
    pub output_weights: Vec<i16>,
    /// Output biases, one per bucket.
    pub output_bias: Vec<i32>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &HIDDEN)
            .field("buckets", &OUTPUT_BUCKETS)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// A network of zeros (it evaluates every position as 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::nnue::Network;
    /// let zero = Network::zeros();
    /// assert_eq!(Network::from_bytes(&zero.to_bytes()), Ok(zero));
    /// ```
    #[must_use]
    pub fn zeros() -> Self {
        Self {
            feature_weights: vec![0; INPUTS * HIDDEN],
            feature_bias: vec![0; HIDDEN],
            output_weights: vec![0; OUTPUT_BUCKETS * 2 * HIDDEN],
            output_bias: vec![0; OUTPUT_BUCKETS],
        }
    }

    /// Reads a network file.
    ///
    /// # Errors
    ///
    /// The bytes do not start with [`MAGIC`], describe another network
    /// shape or version, or have the wrong length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NetworkError> {
        if bytes.get(..8) != Some(MAGIC.as_slice()) {
            return Err(NetworkError::Magic);
        }
        let word = |i: usize| {
            bytes
                .get(8 + 4 * i..12 + 4 * i)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_le_bytes)
        };
        let (version, hidden, buckets) = (word(0), word(1), word(2));
        if (version, hidden as usize, buckets as usize) != (VERSION, HIDDEN, OUTPUT_BUCKETS) {
            return Err(NetworkError::Shape {
                version,
                hidden,
                buckets,
            });
        }
        if bytes.len() != FILE_LEN {
            return Err(NetworkError::Length { found: bytes.len() });
        }
        let mut rest = &bytes[20..];
        let mut i16s = |n: usize| {
            let (head, tail) = rest.split_at(2 * n);
            rest = tail;
            head.chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect::<Vec<_>>()
        };
        let feature_weights = i16s(INPUTS * HIDDEN);
        let feature_bias = i16s(HIDDEN);
        let output_weights = i16s(OUTPUT_BUCKETS * 2 * HIDDEN);
        let output_bias = rest
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Self {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The network as a file.
    ///
    /// # Panics
    ///
    /// If a weight vector does not have its documented length.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        assert_eq!(self.feature_weights.len(), INPUTS * HIDDEN);
        assert_eq!(self.feature_bias.len(), HIDDEN);
        assert_eq!(self.output_weights.len(), OUTPUT_BUCKETS * 2 * HIDDEN);
        assert_eq!(self.output_bias.len(), OUTPUT_BUCKETS);
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(MAGIC);
        for word in [VERSION, HIDDEN as u32, OUTPUT_BUCKETS as u32] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The `HIDDEN` weights of input `feature`.
    #[inline(always)]
    pub(super) fn feature_row(&self, feature: usize) -> &[i16; HIDDEN] {
        let start = feature * HIDDEN;
        self.feature_weights[start..start + HIDDEN]
            .try_into()
            .unwrap_or_else(|_| unreachable!("rows have HIDDEN weights"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_say_what_is_wrong() {
        assert_eq!(Network::from_bytes(b"nonsense"), Err(NetworkError::Magic));
        let mut bytes = Network::zeros().to_bytes();
        bytes.pop();
        assert_eq!(
            Network::from_bytes(&bytes),
            Err(NetworkError::Length {
                found: FILE_LEN - 1
            })
        );
        bytes[12..16].copy_from_slice(&7u32.to_le_bytes()); // hidden neurons
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetworkError::Shape { hidden: 7, .. })
        ));
    }

    #[test]
    fn weights_survive_the_file() {
        let mut net = Network::zeros();
        net.feature_weights[5] = -300;
        net.output_bias[3] = 123_456;
        net.output_weights[2 * HIDDEN - 1] = 17;
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }
}
