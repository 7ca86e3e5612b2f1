//! The starting point of tuning: PeSTO's material and piece-square tables
//! (by Ronald Friederich, as Rochade's first evaluation used them) and
//! hand-set values for the other terms.
//!
//! Tables are written from White's point of view with rank 8 on the first
//! line, as on a diagram.

use rochade_engine::eval::features::{
    BACKWARD_PAWN, BISHOP_MOBILITY, BISHOP_PAIR, BISHOP_PAWNS, COUNT, DOUBLED_PAWN, HANGING,
    ISOLATED_PAWN, KING_ATTACK, KING_DANGER, KING_OPEN_FILE, KING_SHIELD, KING_STORM,
    KING_WEAK_SQUARES, KNIGHT_MOBILITY, MATERIAL, MINOR_BEHIND_PAWN, OUTPOST, PASSED_BLOCKED,
    PASSED_ENEMY_KING, PASSED_FREE, PASSED_OWN_KING, PASSED_PAWN, PAWN_PUSH_THREAT, PHALANX_PAWN,
    PSQT, QUEEN_MOBILITY, ROOK_MOBILITY, ROOK_ON_SEVENTH, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE,
    SAFE_CHECK, SPACE, SUPPORTED_PAWN, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
};

/// Middlegame material, indexed by `Role as usize - 1` (pawn … king).
const MG_VALUE: [i32; 6] = [82, 337, 365, 477, 1025, 0];
/// Endgame material, indexed like [`MG_VALUE`].
const EG_VALUE: [i32; 6] = [94, 281, 297, 512, 936, 0];

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     98, 134,  61,  95,  68, 126,  34, -11,
     -6,   7,  26,  31,  65,  56,  25, -20,
    -14,  13,   6,  21,  23,  12,  17, -23,
    -27,  -2,  -5,  12,  17,   6,  10, -25,
    -26,  -4,  -4, -10,   3,   3,  33, -12,
    -35,  -1, -20, -23, -15,  24,  38, -22,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
   -167, -89, -34, -49,  61, -97, -15,-107,
    -73, -41,  72,  36,  23,  62,   7, -17,
    -47,  60,  37,  65,  84, 129,  73,  44,
     -9,  17,  19,  53,  37,  69,  18,  22,
    -13,   4,  16,  13,  28,  19,  21,  -8,
    -23,  -9,  12,  10,  19,  17,  25, -16,
    -29, -53, -12,  -3,  -1,  18, -14, -19,
   -105, -21, -58, -33, -17, -28, -19, -23,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -14, -21, -11,  -8,  -7,  -9, -17, -24,
     -8,  -4,   7, -12,  -3, -13,  -4, -14,
      2,  -8,   0,  -1,  -2,   6,   0,   4,
     -3,   9,  12,   9,  14,  10,   3,   2,
     -6,   3,  13,  19,   7,  10,  -3,  -9,
    -12,  -3,   8,  10,  13,   3,  -7, -15,
    -14, -18,  -7,  -1,   4,  -9, -15, -27,
    -23,  -9, -23,  -5,  -9, -16,  -5, -17,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
     32,  42,  32,  51,  63,   9,  31,  43,
     27,  32,  58,  62,  80,  67,  26,  44,
     -5,  19,  26,  36,  17,  45,  61,  16,
    -24, -11,   7,  26,  24,  35,  -8, -20,
    -36, -26, -12,  -1,   9,  -7,   6, -23,
    -45, -25, -16, -17,   3,   0,  -5, -33,
    -44, -16, -20,  -9,  -1,  11,  -6, -71,
    -19, -13,   1,  17,  16,   7, -37, -26,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     13,  10,  18,  15,  12,  12,   8,   5,
     11,  13,  13,  11,  -3,   3,   8,   3,
      7,   7,   7,   5,   4,  -3,  -5,  -3,
      4,   3,  13,   1,   2,   1,  -1,   2,
      3,   5,   8,   4,  -5,  -6,  -8, -11,
     -4,   0,  -5,  -1,  -7, -12,  -8, -16,
     -6,  -6,   0,   2,  -9,  -9, -11,  -3,
     -9,   2,   3,  -1,  -5, -13,   4, -20,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
];

/// Middlegame piece-square tables, indexed by role then diagram square.
const PST_MG: [[i32; 64]; 6] = [PAWN_MG, KNIGHT_MG, BISHOP_MG, ROOK_MG, QUEEN_MG, KING_MG];
/// Endgame piece-square tables, indexed like [`PST_MG`].
const PST_EG: [[i32; 64]; 6] = [PAWN_EG, KNIGHT_EG, BISHOP_EG, ROOK_EG, QUEEN_EG, KING_EG];

/// Passed pawn bonus by relative rank, middlegame and endgame.
const PASSED: [[i32; 2]; 8] = [
    [0, 0],
    [5, 10],
    [5, 15],
    [10, 25],
    [20, 45],
    [35, 75],
    [60, 110],
    [0, 0],
];

/// The weights tuning starts from, `[mg, eg]` per feature.
#[must_use]
pub fn start_weights() -> Vec<[f64; 2]> {
    let mut w = vec![[0.0; 2]; COUNT];
    let mut set = |i: usize, mg: i32, eg: i32| w[i] = [f64::from(mg), f64::from(eg)];
    for role in 0..5 {
        set(MATERIAL + role, MG_VALUE[role], EG_VALUE[role]);
    }
    for role in 0..6 {
        for square in 0..64 {
            // The tables are diagram-ordered (a8 first); features are a1 first.
            let diagram = square ^ 56;
            set(
                PSQT + 64 * role + square,
                PST_MG[role][diagram],
                PST_EG[role][diagram],
            );
        }
    }
    for (rank, [mg, eg]) in PASSED.into_iter().enumerate() {
        set(PASSED_PAWN + rank, mg, eg);
    }
    set(ISOLATED_PAWN, -10, -10);
    set(DOUBLED_PAWN, -10, -20);
    // Mobility: linear around a typical number of safe squares.
    for (table, len, centre, mg, eg) in [
        (KNIGHT_MOBILITY, 9, 4, 4, 4),
        (BISHOP_MOBILITY, 14, 6, 5, 5),
        (ROOK_MOBILITY, 15, 7, 2, 4),
        (QUEEN_MOBILITY, 28, 13, 1, 2),
    ] {
        for n in 0..len {
            let d = n as i32 - centre;
            set(table + n, d * mg, d * eg);
        }
    }
    for (role, mg) in [5, 3, 4, 6].into_iter().enumerate() {
        set(KING_ATTACK + role, mg, 0);
    }
    set(KING_SHIELD, 10, 0);
    set(KING_SHIELD + 1, 5, 0);
    set(KING_OPEN_FILE, -15, 0);
    set(BISHOP_PAIR, 30, 50);
    set(ROOK_OPEN_FILE, 25, 10);
    set(ROOK_SEMI_OPEN_FILE, 10, 10);
    // The terms below start near Stockfish 11's classical values, scaled
    // to PeSTO's pawn (about two thirds).
    for rank in 1..7 {
        let r = rank as i32;
        set(SUPPORTED_PAWN + rank, 5 + 2 * r, 3 + r);
        set(PHALANX_PAWN + rank, 3 + 3 * r, 2 + r);
        set(PASSED_BLOCKED + rank, -2 * r, -4 * r);
        // Only the endgame: each step of the enemy king away from the
        // stop square is worth more the further the pawn is.
        set(PASSED_OWN_KING + rank, 0, -r);
        set(PASSED_ENEMY_KING + rank, 0, 2 * r);
        set(PASSED_FREE + rank, 2 * r, 6 * r);
    }
    set(BACKWARD_PAWN, -6, -15);
    for (index, [mg, eg]) in [[40, 30], [40, 30], [60, 40], [60, 40]]
        .into_iter()
        .enumerate()
    {
        set(THREAT_BY_PAWN + index, mg, eg);
    }
    for (index, [mg, eg]) in [[3, 20], [35, 25], [45, 35], [55, 75], [50, 100]]
        .into_iter()
        .enumerate()
    {
        set(THREAT_BY_MINOR + index, mg, eg);
    }
    for (index, [mg, eg]) in [[2, 25], [25, 40], [25, 40], [0, 25], [35, 25]]
        .into_iter()
        .enumerate()
    {
        set(THREAT_BY_ROOK + index, mg, eg);
    }
    set(HANGING, 40, 20);
    for (index, mg) in [40, 25, 35, 30].into_iter().enumerate() {
        set(SAFE_CHECK + index, mg, 5);
    }
    // Danger grows with the square of the attack units, as in Stockfish.
    for units in 0..16 {
        set(
            KING_DANGER + units,
            (units * units) as i32 / 2,
            units as i32,
        );
    }
    set(OUTPOST, 20, 10);
    set(OUTPOST + 1, 10, 5);
    set(ROOK_ON_SEVENTH, 10, 20);
    // Storming pawns by relative rank: dangerous from the 4th rank on.
    for (rank, mg) in [0, 0, 0, 5, 15, 25, 10, 0].into_iter().enumerate() {
        set(KING_STORM + rank, mg, 0);
    }
    set(KING_WEAK_SQUARES, 10, 0);
    set(SPACE, 3, 0);
    set(BISHOP_PAWNS, -3, -7);
    set(MINOR_BEHIND_PAWN, 15, 0);
    set(PAWN_PUSH_THREAT, 35, 25);
    w
}
