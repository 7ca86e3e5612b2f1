//! Move ordering: hash move, then captures and promotions that do not lose
//! material by MVV-LVA, then killers, then the counter-move to the
//! opponent's last move, then quiet moves by history, and last the captures
//! that lose material.

use shakmaty::{Chess, Move, MoveList};

use crate::params::piece_value as value;

use super::MAX_PLY;
use super::see::see;
use super::tt::PackedMove;

const HASH_MOVE: i32 = 2_000_000;
const CAPTURE: i32 = 1_000_000;
const KILLER: [i32; 2] = [900_000, 899_000];
/// The ordering score of the counter-move; killers score above it.
pub const COUNTER: i32 = 898_000;
/// Captures that lose material by exchange come after every quiet move.
const BAD_CAPTURE: i32 = -1_000_000;
/// History scores stay within `±HISTORY_MAX` (history gravity).
pub const HISTORY_MAX: i32 = 16_384;

/// Most valuable victim, least valuable attacker; promotions count as
/// capturing the promoted piece.
#[must_use]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
    victim * 16 - value(m.role()) / 100
}

/// Whether a move changes material (capture or promotion).
#[must_use]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// The two moves before a node, for the continuation histories: the
/// opponent's last move and the side to move's own move before it (`None`
/// at the root or after a null move).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lineage {
    /// The move that led to the node (by the opponent).
    pub previous: Option<Move>,
    /// The move before that (by the side to move).
    pub before: Option<Move>,
}

/// (piece, destination) pairs: 12 pieces times 64 squares.
const PIECE_TO: usize = 12 * 64;

/// Killer moves, counter-moves, the history table and the continuation
/// histories, kept across one search and handed on to the next (see
/// [`super::Learnt`]).
#[derive(Debug)]
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<[i32; 64]>,
    /// The quiet move that last refuted each (piece, destination) move.
    counters: Vec<[Option<Move>; 64]>,
    /// How well a quiet (piece, destination) did after the opponent's
    /// (piece, destination) (`[0]`) and after our own move before that
    /// (`[1]`), indexed `earlier * PIECE_TO + now`.
    continuation: [Vec<i16>; 2],
}

impl Default for Heuristics {
    fn default() -> Self {
        Self {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[0; 64]; 12],
            counters: vec![[None; 64]; 12],
            continuation: [vec![0; PIECE_TO * PIECE_TO], vec![0; PIECE_TO * PIECE_TO]],
        }
    }
}

/// The row of a piece of this colour moving as `m` in the piece tables.
fn piece_index(white: bool, m: Move) -> usize {
    usize::from(white) * 6 + m.role() as usize - 1
}

/// The (piece, destination) index of `m` played by `white`.
fn piece_to(white: bool, m: Move) -> usize {
    piece_index(white, m) * 64 + m.to().to_usize()
}

/// The continuation slots of `m` (by `white`) after `lineage`.
fn continuation_slots(white: bool, m: Move, lineage: Lineage) -> [Option<usize>; 2] {
    let now = piece_to(white, m);
    [
        lineage
            .previous
            .map(|p| piece_to(!white, p) * PIECE_TO + now),
        lineage.before.map(|b| piece_to(white, b) * PIECE_TO + now),
    ]
}

impl Heuristics {
    /// Whether nothing has been learnt yet (every history zero).
    #[cfg(test)]
    pub(crate) fn is_blank(&self) -> bool {
        self.history.iter().flatten().all(|&h| h == 0)
            && self.continuation.iter().flatten().all(|&h| h == 0)
    }

    /// Readies the tables for a new search from a new root: the killers,
    /// which are kept by ply, are forgotten; the histories stay.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
    }

    fn history_slot(&mut self, white: bool, m: Move) -> &mut i32 {
        &mut self.history[piece_index(white, m)][m.to().to_usize()]
    }

    /// The counter-move to `previous`, played by the side (`white`) that
    /// made it.
    #[must_use]
    pub fn counter_to(&self, white: bool, previous: Move) -> Option<Move> {
        self.counters[piece_index(white, previous)][previous.to().to_usize()]
    }

    /// Records `m` as the quiet refutation of `previous` (played by `white`).
    pub fn record_counter(&mut self, white: bool, previous: Move, m: Move) {
        self.counters[piece_index(white, previous)][previous.to().to_usize()] = Some(m);
    }

    /// Records a quiet move `m` that caused a beta cut-off at `depth` after
    /// `lineage`, and lowers the histories of the quiet moves tried before
    /// it (`tried`).
    pub fn record_cutoff(
        &mut self,
        white: bool,
        m: Move,
        lineage: Lineage,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        if ply <= MAX_PLY {
            let k = &mut self.killers[ply];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        let bonus = (16 * depth * depth).min(1200);
        self.reward(white, m, lineage, bonus);
        for &other in tried {
            if other != m {
                self.reward(white, other, lineage, -bonus);
            }
        }
    }

    /// Adds `bonus` (negative: a malus) to every history of `m`.
    fn reward(&mut self, white: bool, m: Move, lineage: Lineage, bonus: i32) {
        gravity(self.history_slot(white, m), bonus);
        for (table, slot) in continuation_slots(white, m, lineage)
            .into_iter()
            .enumerate()
        {
            if let Some(i) = slot {
                let mut h = i32::from(self.continuation[table][i]);
                gravity(&mut h, bonus);
                self.continuation[table][i] = h as i16;
            }
        }
    }

    /// The history score of the quiet move `m` by `white` after `lineage`:
    /// its plain history plus its two continuation histories, each within
    /// `±HISTORY_MAX`.
    #[must_use]
    pub fn history(&self, white: bool, m: Move, lineage: Lineage) -> i32 {
        let plain = self.history[piece_index(white, m)][m.to().to_usize()];
        continuation_slots(white, m, lineage)
            .into_iter()
            .enumerate()
            .filter_map(|(table, slot)| slot.map(|i| i32::from(self.continuation[table][i])))
            .sum::<i32>()
            + plain
    }

    /// Scores every move for ordering.
    pub fn score_moves(
        &mut self,
        pos: &Chess,
        moves: &MoveList,
        white: bool,
        hash_move: Option<PackedMove>,
        lineage: Lineage,
        ply: usize,
    ) -> Vec<i32> {
        let counter = lineage.previous.and_then(|p| self.counter_to(!white, p));
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        moves
            .iter()
            .map(|&m| {
                if Some(PackedMove::new(m)) == hash_move {
                    HASH_MOVE
                } else if is_tactical(m) {
                    if m.is_promotion() || see(pos, m) >= 0 {
                        CAPTURE + mvv_lva(m)
                    } else {
                        BAD_CAPTURE + mvv_lva(m)
                    }
                } else if Some(m) == killers[0] {
                    KILLER[0]
                } else if Some(m) == killers[1] {
                    KILLER[1]
                } else if Some(m) == counter {
                    COUNTER
                } else {
                    self.history(white, m, lineage)
                }
            })
            .collect()
    }
}

/// Moves `slot` towards `bonus`'s sign, less the nearer it already is to
/// the bound: `h += bonus - h * |bonus| / HISTORY_MAX` keeps it within
/// `±HISTORY_MAX` and lets old results fade.
fn gravity(slot: &mut i32, bonus: i32) {
    *slot += bonus - *slot * bonus.abs() / HISTORY_MAX;
}

/// Moves the best-scored remaining move to `index` and returns it
/// (selection sort, one step at a time: cut-offs often come early).
pub fn pick_next(moves: &mut MoveList, scores: &mut [i32], index: usize) -> Move {
    let mut best = index;
    for i in index + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}
