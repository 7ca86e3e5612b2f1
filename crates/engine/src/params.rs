//! Tunable search numbers: move-ordering values and search margins.
//!
//! The evaluation weights live in `eval::weights`, written by `rochade-tune`.

/// Values for MVV-LVA ordering and quiescence delta pruning.
pub const SORT_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20000];

/// Aspiration window half-width in centipawns.
pub const ASPIRATION_WINDOW: i32 = 25;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Null-move pruning: smallest depth.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Late-move reductions: smallest depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: moves searched before reducing.
pub const LMR_MIN_MOVES: usize = 4;
/// Reverse futility pruning: deepest remaining depth.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Reverse futility pruning: margin per ply of depth, in centipawns.
pub const RFP_MARGIN: i32 = 80;
/// Late-move pruning: deepest remaining depth.
pub const LMP_MAX_DEPTH: i32 = 4;
