//! The layout of the weight vector: where each evaluation term's weights
//! sit in [`WEIGHTS`](super::weights::WEIGHTS).
//!
//! Every term of the evaluation is a count (how many knights, how many safe
//! squares a bishop reaches, ...) times a tapered weight, so the whole
//! evaluation is a linear function of the weights. The tuner relies on that.
//!
//! ```
//! use rochade_engine::eval::features::{COUNT, SECTIONS};
//! assert_eq!(SECTIONS.iter().map(|s| s.len).sum::<usize>(), COUNT);
//! ```

/// One named, contiguous group of weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// The name, as a Rust identifier in upper case.
    pub name: &'static str,
    /// The first index.
    pub start: usize,
    /// The number of weights.
    pub len: usize,
    /// What one weight means.
    pub doc: &'static str,
}

/// Material: pawn, knight, bishop, rook, queen.
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PSQT + 64 * (role - 1) + square`, the square seen
/// from the piece owner's side (a1 = 0 for White, a8 = 0 for Black).
pub const PSQT: usize = MATERIAL + 5;
/// Passed pawns by rank seen from the owner's side (0 = first rank).
pub const PASSED_PAWN: usize = PSQT + 6 * 64;
/// A pawn with no friendly pawn on either neighbouring file.
pub const ISOLATED_PAWN: usize = PASSED_PAWN + 8;
/// Each pawn beyond the first on one file.
pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
/// Knight mobility by number of safe squares (0..=8).
pub const KNIGHT_MOBILITY: usize = DOUBLED_PAWN + 1;
/// Bishop mobility by number of safe squares (0..=13).
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
/// Rook mobility by number of safe squares (0..=14).
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
/// Queen mobility by number of safe squares (0..=27).
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
/// Squares of the enemy king's zone attacked, per attacker: knight,
/// bishop, rook, queen.
pub const KING_ATTACK: usize = QUEEN_MOBILITY + 28;
/// Friendly pawns shielding the king: one rank ahead, two ranks ahead.
pub const KING_SHIELD: usize = KING_ATTACK + 4;
/// Files on and beside the king's file without a friendly pawn.
pub const KING_OPEN_FILE: usize = KING_SHIELD + 2;
/// Two bishops or more.
pub const BISHOP_PAIR: usize = KING_OPEN_FILE + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// A rook on a file without friendly pawns but with enemy pawns.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// Pawns defended by friendly pawns, by the defended pawn's relative rank;
/// the count is the number of defenders.
pub const SUPPORTED_PAWN: usize = ROOK_SEMI_OPEN_FILE + 1;
/// Pawns with a friendly pawn beside them on the same rank, by relative
/// rank.
pub const PHALANX_PAWN: usize = SUPPORTED_PAWN + 8;
/// Pawns behind all friendly pawns on the neighbouring files whose stop
/// square an enemy pawn holds or attacks.
pub const BACKWARD_PAWN: usize = PHALANX_PAWN + 8;
/// Passed pawns whose stop square (the square ahead) holds a piece, by
/// relative rank.
pub const PASSED_BLOCKED: usize = BACKWARD_PAWN + 1;
/// Passed pawns by relative rank, counted as the distance (in king moves)
/// from their own king to the pawn's stop square.
pub const PASSED_OWN_KING: usize = PASSED_BLOCKED + 8;
/// Passed pawns by relative rank, counted as the distance from the enemy
/// king to the pawn's stop square.
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 8;
/// Passed pawns whose path to promotion is empty and not attacked by the
/// enemy, by relative rank.
pub const PASSED_FREE: usize = PASSED_ENEMY_KING + 8;
/// Enemy knights, bishops, rooks and queens attacked by pawns.
pub const THREAT_BY_PAWN: usize = PASSED_FREE + 8;
/// Enemy pieces (P, N, B, R, Q) attacked by knights or bishops, except
/// pawns defended by a pawn or defended twice.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 4;
/// Enemy pieces (P, N, B, R, Q) attacked by rooks, as for minors.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 5;
/// Enemy pieces attacked and not defended (or attacked twice and only
/// defended once, for pieces other than pawns).
pub const HANGING: usize = THREAT_BY_ROOK + 5;
/// Squares from which a knight, bishop, rook or queen could check the
/// enemy king, that the enemy does not attack.
pub const SAFE_CHECK: usize = HANGING + 1;
/// King danger by attack units against the enemy king (0..=15): pieces
/// reaching the king zone and safe checks, weighted by piece type.
pub const KING_DANGER: usize = SAFE_CHECK + 4;
/// Knights and bishops on the 4th to 6th rank, defended by a pawn, that
/// no enemy pawn can attack: knight, bishop.
pub const OUTPOST: usize = KING_DANGER + 16;
/// Rooks on the 7th rank when the enemy king is on the 8th or enemy pawns
/// are on the 7th.
pub const ROOK_ON_SEVENTH: usize = OUTPOST + 2;
/// Pawns storming the enemy king: pawns on the king's file and the files
/// beside it that have not passed it, by relative rank 1..8 of the
/// storming side.
pub const KING_STORM: usize = ROOK_ON_SEVENTH + 1;
/// Squares next to the enemy king that we attack and that only the king or
/// queen defends, if anything does.
pub const KING_WEAK_SQUARES: usize = KING_STORM + 8;
/// Space: safe squares on the c- to f-files of our 2nd to 4th ranks (those
/// up to three squares behind our pawns and not attacked count twice),
/// times the square of our piece count less one, over 64.
pub const SPACE: usize = KING_WEAK_SQUARES + 1;
/// Own pawns on squares of a bishop's colour, per bishop.
pub const BISHOP_PAWNS: usize = SPACE + 1;
/// Knights and bishops directly behind one of our pawns.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// Enemy pieces (not pawns) that one of our pawns would attack after a
/// safe push.
pub const PAWN_PUSH_THREAT: usize = MINOR_BEHIND_PAWN + 1;
/// The number of weights.
pub const COUNT: usize = PAWN_PUSH_THREAT + 1;

/// Every section in order; they tile `0..COUNT`.
pub const SECTIONS: [Section; 36] = [
    section("MATERIAL", MATERIAL, PSQT, "material: P, N, B, R, Q"),
    section(
        "PSQT",
        PSQT,
        PASSED_PAWN,
        "piece-square tables: P, N, B, R, Q, K; a1..h8 from the owner's side",
    ),
    section(
        "PASSED_PAWN",
        PASSED_PAWN,
        ISOLATED_PAWN,
        "passed pawn by relative rank 1..8",
    ),
    section(
        "ISOLATED_PAWN",
        ISOLATED_PAWN,
        DOUBLED_PAWN,
        "isolated pawn",
    ),
    section(
        "DOUBLED_PAWN",
        DOUBLED_PAWN,
        KNIGHT_MOBILITY,
        "doubled pawn (each extra pawn on a file)",
    ),
    section(
        "KNIGHT_MOBILITY",
        KNIGHT_MOBILITY,
        BISHOP_MOBILITY,
        "knight mobility by safe squares",
    ),
    section(
        "BISHOP_MOBILITY",
        BISHOP_MOBILITY,
        ROOK_MOBILITY,
        "bishop mobility by safe squares",
    ),
    section(
        "ROOK_MOBILITY",
        ROOK_MOBILITY,
        QUEEN_MOBILITY,
        "rook mobility by safe squares",
    ),
    section(
        "QUEEN_MOBILITY",
        QUEEN_MOBILITY,
        KING_ATTACK,
        "queen mobility by safe squares",
    ),
    section(
        "KING_ATTACK",
        KING_ATTACK,
        KING_SHIELD,
        "king-zone squares attacked by N, B, R, Q",
    ),
    section(
        "KING_SHIELD",
        KING_SHIELD,
        KING_OPEN_FILE,
        "shield pawns one and two ranks ahead of the king",
    ),
    section(
        "KING_OPEN_FILE",
        KING_OPEN_FILE,
        BISHOP_PAIR,
        "files at the king without a friendly pawn",
    ),
    section("BISHOP_PAIR", BISHOP_PAIR, ROOK_OPEN_FILE, "bishop pair"),
    section(
        "ROOK_OPEN_FILE",
        ROOK_OPEN_FILE,
        ROOK_SEMI_OPEN_FILE,
        "rook on an open file",
    ),
    section(
        "ROOK_SEMI_OPEN_FILE",
        ROOK_SEMI_OPEN_FILE,
        SUPPORTED_PAWN,
        "rook on a semi-open file",
    ),
    section(
        "SUPPORTED_PAWN",
        SUPPORTED_PAWN,
        PHALANX_PAWN,
        "pawn defended by pawns (per defender) by relative rank 1..8",
    ),
    section(
        "PHALANX_PAWN",
        PHALANX_PAWN,
        BACKWARD_PAWN,
        "pawn with a pawn beside it by relative rank 1..8",
    ),
    section(
        "BACKWARD_PAWN",
        BACKWARD_PAWN,
        PASSED_BLOCKED,
        "backward pawn",
    ),
    section(
        "PASSED_BLOCKED",
        PASSED_BLOCKED,
        PASSED_OWN_KING,
        "passed pawn with a piece on its stop square by relative rank 1..8",
    ),
    section(
        "PASSED_OWN_KING",
        PASSED_OWN_KING,
        PASSED_ENEMY_KING,
        "own king distance to a passed pawn's stop square, by rank 1..8",
    ),
    section(
        "PASSED_ENEMY_KING",
        PASSED_ENEMY_KING,
        PASSED_FREE,
        "enemy king distance to a passed pawn's stop square, by rank 1..8",
    ),
    section(
        "PASSED_FREE",
        PASSED_FREE,
        THREAT_BY_PAWN,
        "passed pawn with a free, unattacked path by relative rank 1..8",
    ),
    section(
        "THREAT_BY_PAWN",
        THREAT_BY_PAWN,
        THREAT_BY_MINOR,
        "enemy N, B, R, Q attacked by a pawn",
    ),
    section(
        "THREAT_BY_MINOR",
        THREAT_BY_MINOR,
        THREAT_BY_ROOK,
        "enemy P, N, B, R, Q attacked by a knight or bishop",
    ),
    section(
        "THREAT_BY_ROOK",
        THREAT_BY_ROOK,
        HANGING,
        "enemy P, N, B, R, Q attacked by a rook",
    ),
    section("HANGING", HANGING, SAFE_CHECK, "hanging enemy piece"),
    section(
        "SAFE_CHECK",
        SAFE_CHECK,
        KING_DANGER,
        "safe checking squares for N, B, R, Q",
    ),
    section(
        "KING_DANGER",
        KING_DANGER,
        OUTPOST,
        "king danger by attack units 0..15 against the enemy king",
    ),
    section(
        "OUTPOST",
        OUTPOST,
        ROOK_ON_SEVENTH,
        "outpost: knight, bishop",
    ),
    section(
        "ROOK_ON_SEVENTH",
        ROOK_ON_SEVENTH,
        KING_STORM,
        "rook on the 7th rank",
    ),
    section(
        "KING_STORM",
        KING_STORM,
        KING_WEAK_SQUARES,
        "pawn storming the enemy king by relative rank 1..8",
    ),
    section(
        "KING_WEAK_SQUARES",
        KING_WEAK_SQUARES,
        SPACE,
        "attacked squares next to the enemy king defended by king or queen only",
    ),
    section(
        "SPACE",
        SPACE,
        BISHOP_PAWNS,
        "space behind the pawns, by piece count",
    ),
    section(
        "BISHOP_PAWNS",
        BISHOP_PAWNS,
        MINOR_BEHIND_PAWN,
        "own pawn on a square of the bishop's colour",
    ),
    section(
        "MINOR_BEHIND_PAWN",
        MINOR_BEHIND_PAWN,
        PAWN_PUSH_THREAT,
        "knight or bishop behind an own pawn",
    ),
    section(
        "PAWN_PUSH_THREAT",
        PAWN_PUSH_THREAT,
        COUNT,
        "enemy piece attacked after a safe pawn push",
    ),
];

/// A section from its bounds.
const fn section(name: &'static str, start: usize, end: usize, doc: &'static str) -> Section {
    Section {
        name,
        start,
        len: end - start,
        doc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_tile_the_weights() {
        let mut next = 0;
        for s in SECTIONS {
            assert_eq!(s.start, next, "{} starts where the last ended", s.name);
            assert!(s.len > 0);
            next += s.len;
        }
        assert_eq!(next, COUNT);
    }
}
