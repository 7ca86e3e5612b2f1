//! Training positions: read line by line from the data files (see
//! [`crate::data`]) and kept compactly, as the active features of both
//! perspectives, the output bucket and the target.

use std::io::BufRead;
use std::path::PathBuf;

use rochade_engine::nnue::{active_features, output_bucket};
use shakmaty::fen::Fen;
use shakmaty::{Board, CastlingMode, Chess, Color, Piece, Position, Role, Square};

use crate::data::DataError;

/// Every tenth position is held out for validation, as in the Texel
/// tuner (`crate::texel`): position `i` of the data (counting non-empty
/// lines from 0, through the files in order) is held out when
/// `i % VALIDATION_EVERY == 0`.
pub const VALIDATION_EVERY: usize = 10;

/// The expected score of an evaluation of `cp` centipawns,
/// `1 / (1 + 10^(-cp / 400))`, the logistic scale of the Texel tuner
/// with K = 1.
#[must_use]
pub fn expected(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// One position as the trainer sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample<'a> {
    /// The active features from the side to move's perspective.
    pub ours: &'a [u16],
    /// The active features from the other side's perspective.
    pub theirs: &'a [u16],
    /// The output bucket.
    pub bucket: usize,
    /// The target: the expected score for the side to move, 0..=1.
    pub target: f32,
}

/// Positions, stored compactly: per position the side to move's features
/// then the other side's (as many of each) in one flat vector.
#[derive(Debug, Clone, Default)]
pub struct Positions {
    /// Both perspectives' features of every position, position by position.
    features: Vec<u16>,
    /// Where each position's features start in `features`, plus the end.
    offsets: Vec<usize>,
    /// Output bucket of each position.
    buckets: Vec<u8>,
    /// Whether White is to move, for each position.
    white_to_move: Vec<bool>,
    /// Target of each position.
    targets: Vec<f32>,
}

impl Positions {
    /// No positions.
    #[must_use]
    pub fn new() -> Self {
        Self {
            offsets: vec![0],
            ..Self::default()
        }
    }

    /// Adds `board` with `turn` to move and `target`, the expected score
    /// for the side to move.
    pub fn push(&mut self, board: &Board, turn: Color, target: f32) {
        for perspective in [turn, !turn] {
            // Features are below 768, so they fit in a u16.
            self.features
                .extend(active_features(board, perspective).map(|f| f as u16));
        }
        self.offsets.push(self.features.len());
        self.buckets.push(output_bucket(board) as u8);
        self.white_to_move.push(turn.is_white());
        self.targets.push(target);
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Position `i`.
    #[must_use]
    #[inline]
    pub fn get(&self, i: usize) -> Sample<'_> {
        let both = &self.features[self.offsets[i]..self.offsets[i + 1]];
        let (ours, theirs) = both.split_at(both.len() / 2);
        Sample {
            ours,
            theirs,
            bucket: usize::from(self.buckets[i]),
            target: self.targets[i],
        }
    }

    /// The board and side to move of position `i`, rebuilt from its
    /// features (White's perspective sees every piece where it stands).
    #[must_use]
    pub fn board(&self, i: usize) -> (Board, Color) {
        let sample = self.get(i);
        let turn = Color::from_white(self.white_to_move[i]);
        let white_view = if turn.is_white() {
            sample.ours
        } else {
            sample.theirs
        };
        let mut board = Board::empty();
        for &f in white_view {
            let f = usize::from(f);
            let color = if f < 384 { Color::White } else { Color::Black };
            let role = Role::ALL[(f % 384) / 64];
            board.set_piece_at(Square::ALL[f % 64], Piece { color, role });
        }
        (board, turn)
    }
}

/// What [`load`] reads.
#[derive(Debug, Clone, Copy)]
pub struct LoadOptions {
    /// Weight of the game result in the target; the rest is Stockfish's
    /// score as an expected score. Below 1, positions without a
    /// Stockfish score are skipped.
    pub lambda: f64,
    /// Only the first this many positions of the data are read (so the
    /// split is the Texel tuner's on `head -n` of the file).
    pub max_positions: usize,
    /// Whether to keep the training positions (`nnue-check` needs only
    /// the validation ones).
    pub training: bool,
}

/// The positions of the data files, split.
#[derive(Debug, Default)]
pub struct Split {
    /// Positions to fit.
    pub training: Positions,
    /// Held-out positions.
    pub validation: Positions,
    /// Positions skipped for want of a Stockfish score.
    pub unlabelled: usize,
    /// Files whose last line had no line end (a file still being
    /// written); that line is not read.
    pub incomplete: usize,
}

/// Reads `paths` in order, one position a line (see [`crate::data`]).
///
/// # Errors
///
/// A file cannot be read, or a line is not a legal standard chess
/// position with a result and a Stockfish score or `-`.
pub fn load(paths: &[PathBuf], options: &LoadOptions) -> Result<Split, DataError> {
    let mut split = Split {
        training: Positions::new(),
        validation: Positions::new(),
        ..Split::default()
    };
    let mut index = 0;
    for path in paths {
        let io = |source| DataError::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        let mut line = Vec::new();
        let mut number = 0;
        while index < options.max_positions {
            line.clear();
            if reader.read_until(b'\n', &mut line).map_err(io)? == 0 {
                break;
            }
            number += 1;
            if line.last() != Some(&b'\n') {
                split.incomplete += 1;
                break;
            }
            let text = line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            let validation = index % VALIDATION_EVERY == 0;
            index += 1;
            if !validation && !options.training {
                continue;
            }
            let parse = |what| DataError::Parse {
                path: path.clone(),
                line: number,
                what,
            };
            let Some((board, turn, target)) = parse_line(text, options.lambda).map_err(parse)?
            else {
                split.unlabelled += 1;
                continue;
            };
            let set = if validation {
                &mut split.validation
            } else {
                &mut split.training
            };
            set.push(&board, turn, target as f32);
        }
    }
    Ok(split)
}

/// The board, side to move and target of one line, `None` if it has no
/// Stockfish score and `lambda < 1`, or what is wrong with it.
fn parse_line(line: &[u8], lambda: f64) -> Result<Option<(Board, Color, f64)>, String> {
    let text = std::str::from_utf8(line).map_err(|e| e.to_string())?;
    let mut fields = text.split('\t');
    let (Some(fen), Some(result), Some(sf), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected three tab-separated fields".to_owned());
    };
    let white_result = match result {
        "1" => 1.0,
        "0.5" => 0.5,
        "0" => 0.0,
        other => return Err(format!("result {other:?} is not 1, 0.5 or 0")),
    };
    let white_cp: Option<f64> = match sf {
        "-" => None,
        cp => Some(
            cp.parse::<i32>()
                .map_err(|_| format!("Stockfish score {cp:?} is not an integer"))?
                .into(),
        ),
    };
    let pos: Chess = Fen::from_ascii(fen.as_bytes())
        .map_err(|e| format!("bad FEN {fen:?}: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("{fen} is not legal: {e}"))?;
    let turn = pos.turn();
    // Both labels are White's; the network scores the side to move.
    let sign = if turn.is_white() { 1.0 } else { -1.0 };
    let result = if turn.is_white() {
        white_result
    } else {
        1.0 - white_result
    };
    let target = match white_cp {
        Some(cp) => lambda * result + (1.0 - lambda) * expected(sign * cp),
        None if lambda >= 1.0 => result,
        None => return Ok(None),
    };
    Ok(Some((pos.board().clone(), turn, target)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `text` to a file of the temporary folder named after `name`
    /// and this process.
    fn temp_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("rochade-nnue-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("written");
        path
    }

    const LINES: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.5\t20
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\t1\t40
4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\t1\t-
4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\t0\t-300
";

    #[test]
    fn targets_are_for_the_side_to_move_and_unlabelled_lines_are_skipped() {
        let path = temp_file("targets.tsv", LINES);
        let options = LoadOptions {
            lambda: 0.25,
            max_positions: usize::MAX,
            training: true,
        };
        let split = load(std::slice::from_ref(&path), &options).expect("loaded");
        std::fs::remove_file(path).ok();
        assert_eq!(split.unlabelled, 1);
        assert_eq!((split.validation.len(), split.training.len()), (1, 2));
        let close = |a: f32, b: f64| (f64::from(a) - b).abs() < 1e-6;
        assert!(close(
            split.validation.get(0).target,
            0.125 + 0.75 * expected(20.0)
        ));
        // Black to move: White's win and White's +40 are Black's loss and -40.
        assert!(close(split.training.get(0).target, 0.75 * expected(-40.0)));
        // Black to move, White lost and is 300 down: Black's win, +300.
        assert!(close(
            split.training.get(1).target,
            0.25 + 0.75 * expected(300.0)
        ));
    }

    #[test]
    fn a_line_without_an_end_is_left_out_and_the_first_n_are_read() {
        let path = temp_file("incomplete.tsv", &LINES[..LINES.len() - 4]);
        let mut options = LoadOptions {
            lambda: 1.0,
            max_positions: usize::MAX,
            training: true,
        };
        let split = load(std::slice::from_ref(&path), &options).expect("loaded");
        assert_eq!((split.incomplete, split.training.len()), (1, 2));
        options.max_positions = 2;
        options.training = false;
        let split = load(std::slice::from_ref(&path), &options).expect("loaded");
        std::fs::remove_file(path).ok();
        assert_eq!((split.validation.len(), split.training.len()), (1, 0));
    }

    #[test]
    fn bad_lines_say_where() {
        let path = temp_file("bad.tsv", "4k3/8/8/8/8/8/8/4K3 w - - 0 1\t2\t0\n");
        let options = LoadOptions {
            lambda: 0.0,
            max_positions: usize::MAX,
            training: true,
        };
        let err = load(std::slice::from_ref(&path), &options).expect_err("bad result");
        std::fs::remove_file(path).ok();
        assert!(matches!(err, DataError::Parse { line: 1, .. }), "{err}");
    }

    #[test]
    fn boards_are_rebuilt_from_the_features() {
        let mut set = Positions::new();
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 9",
            "8/5k2/8/3r4/8/2R5/5PK1/8 w - - 0 50",
        ] {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            set.push(pos.board(), pos.turn(), 0.5);
            let (board, turn) = set.board(set.len() - 1);
            assert_eq!((&board, turn), (pos.board(), pos.turn()), "{fen}");
            let sample = set.get(set.len() - 1);
            assert_eq!(sample.ours.len(), sample.theirs.len());
            assert_eq!(sample.bucket, output_bucket(pos.board()));
        }
    }
}
