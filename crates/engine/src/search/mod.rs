//! The search: iterative deepening over a principal variation search with
//! quiescence, a transposition table and move-ordering heuristics.

mod alpha_beta;
mod iterate;
pub mod ordering;
mod quiesce;
pub mod see;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

pub use iterate::{IterationReport, SearchOutcome, search};

use crate::time::TimeLimits;
use ordering::Heuristics;
use tt::TranspositionTable;

/// The deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 120;
/// The score of giving mate right now; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores at least this far from zero are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Larger than any score.
pub const INFINITY: i32 = MATE + 1;
/// The largest iterative-deepening depth.
pub const MAX_DEPTH: u32 = 100;

/// A position's 64-bit Zobrist key.
#[must_use]
pub fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The score as UCI reports it: centipawns, or mate in moves (negative when
/// the side to move is mated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves; negative if the side to move gets mated.
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    #[must_use]
    pub fn from_internal(score: i32) -> Self {
        if score >= MATE_BOUND {
            Self::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Self::Mate(-(MATE + score) / 2)
        } else {
            Self::Cp(score)
        }
    }
}

/// Everything one search needs besides the tables.
#[derive(Debug, Clone)]
pub struct SearchParams {
    /// The position to search.
    pub pos: Chess,
    /// Keys of the earlier game positions, oldest first, for repetitions.
    pub history: Vec<u64>,
    /// When to stop.
    pub limits: TimeLimits,
}

/// The state of one running search.
pub(crate) struct Searcher<'a> {
    tt: &'a mut TranspositionTable,
    stop: &'a AtomicBool,
    limits: TimeLimits,
    start: Instant,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Set during depth 1, which always completes.
    must_finish: bool,
    /// Keys of every position before the current one (game, then search path).
    path: Vec<u64>,
    heuristics: Heuristics,
    pv: Vec<Vec<Move>>,
}

impl<'a> Searcher<'a> {
    fn new(
        tt: &'a mut TranspositionTable,
        stop: &'a AtomicBool,
        history: Vec<u64>,
        limits: TimeLimits,
    ) -> Self {
        Self {
            tt,
            stop,
            limits,
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            must_finish: false,
            path: history,
            heuristics: Heuristics::default(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
        }
    }

    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Counts a node and checks, every 1024 nodes, whether to stop.
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.must_finish {
            return;
        }
        if self.nodes.is_multiple_of(1024) || self.limits.nodes.is_some() {
            let out_of_time = self.limits.hard.is_some_and(|hard| self.elapsed() >= hard);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
    }

    /// Whether the current position (`key`, `halfmoves`) repeats one since the
    /// last irreversible move.
    fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let len = self.path.len();
        let reach = (halfmoves as usize).min(len);
        (2..=reach)
            .step_by(2)
            .any(|back| self.path[len - back] == key)
    }

    /// Sets `pv[ply]` to `m` followed by the child's line.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }
}
