//! Tunable search numbers: move-ordering values and search margins.
//!
//! The evaluation weights live in `eval::weights`, written by `rochade-tune`.

/// Values for MVV-LVA ordering and quiescence delta pruning.
pub const SORT_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20000];

/// The [`SORT_VALUE`] of `role`.
#[must_use]
pub fn piece_value(role: shakmaty::Role) -> i32 {
    SORT_VALUE[role as usize - 1]
}

/// Aspiration window half-width in centipawns.
pub const ASPIRATION_WINDOW: i32 = 25;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Null-move pruning: smallest depth.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Late-move reductions: smallest depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: moves searched before reducing (one more at PV nodes).
pub const LMR_MIN_MOVES: usize = 2;
/// Reverse futility pruning: deepest remaining depth.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Reverse futility pruning: margin per ply of depth, in centipawns.
pub const RFP_MARGIN: i32 = 80;
/// Late-move pruning: deepest remaining depth.
pub const LMP_MAX_DEPTH: i32 = 4;
/// Futility pruning: deepest remaining depth.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility pruning: a quiet move is skipped when the static evaluation
/// plus this margin and [`FUTILITY_MARGIN_PER_DEPTH`] per ply is below alpha.
pub const FUTILITY_MARGIN: i32 = 100;
/// Futility pruning: margin per ply of depth, in centipawns.
pub const FUTILITY_MARGIN_PER_DEPTH: i32 = 80;
/// Pruning by static exchange: deepest remaining depth.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// Pruning by static exchange: a capture losing more than this per ply of
/// depth is skipped.
pub const SEE_PRUNE_CAPTURE: i32 = 100;
/// Pruning by static exchange: a quiet move losing more than this times the
/// depth squared is skipped.
pub const SEE_PRUNE_QUIET: i32 = 40;
/// Internal iterative reduction: a node without a hash move is searched a
/// ply shallower from this depth on.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Quiescence delta pruning: a capture that cannot lift the score to
/// alpha even with this margin is skipped.
pub const DELTA_MARGIN: i32 = 200;
/// Singular extensions: smallest depth.
pub const SINGULAR_MIN_DEPTH: i32 = 8;
/// Singular extensions: the hash move is singular when every other move
/// stays this many centipawns per ply of depth below its stored score.
pub const SINGULAR_MARGIN: i32 = 2;
/// Singular extensions: how much shallower the stored search may have been.
pub const SINGULAR_TT_DEPTH: i32 = 3;
