//! The search: iterative deepening over a principal variation search with
//! quiescence, a transposition table and move-ordering heuristics.

mod alpha_beta;
mod clock;
mod effort;
mod iterate;
pub mod ordering;
mod quiesce;
pub mod see;
pub mod strength;
mod tablebase;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};
use shakmaty_syzygy::Tablebase;

pub use clock::SearchClock;
pub use effort::Effort;
pub use iterate::{IterationReport, RootLine, SearchOutcome, search, search_in};

use crate::nnue::AccumulatorStack;
use crate::robot::Level;
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
/// The score of a tablebase win at the root; below any mate score.
pub const TB_WIN: i32 = 20_000;
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
    /// How many best lines to find (`MultiPV`), at least 1.
    pub multipv: usize,
    /// Only these root moves (`go searchmoves`); empty: every legal move.
    pub searchmoves: Vec<Move>,
    /// Stop once a mate in at most this many moves is found (`go mate`).
    pub mate: Option<u32>,
    /// Search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// The level of play; below [`Level::MAX`] the search is cut short and
    /// the move is drawn among the best lines.
    pub level: Level,
    /// Seed for a weakened level's choice; `None`: from the system.
    pub seed: Option<u64>,
    /// Which evaluation the search uses at full strength (levels below
    /// play with the classical one).
    pub evaluation: Evaluation,
}

/// The static evaluation a search uses. Levels below full strength
/// always play with [`Evaluation::Classical`], the evaluation their
/// strength was measured with (docs/robot-levels.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Evaluation {
    /// The neural network built into the engine ([`crate::nnue`]).
    #[default]
    Network,
    /// The hand-crafted, Texel-tuned evaluation ([`crate::eval`]).
    Classical,
}

impl Default for SearchParams {
    fn default() -> Self {
        Self {
            pos: Chess::default(),
            history: Vec::new(),
            limits: TimeLimits::default(),
            multipv: 1,
            searchmoves: Vec::new(),
            mate: None,
            threads: 1,
            level: Level::MAX,
            seed: None,
            evaluation: Evaluation::default(),
        }
    }
}

/// What the search threads share: the table, the stop flag, the clock and
/// the tablebases.
#[derive(Clone, Copy)]
pub struct SearchContext<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Set to end the search (it still reports its best move).
    pub stop: &'a AtomicBool,
    /// The origin of the time budget, and whether the search ponders.
    pub clock: &'a SearchClock,
    /// Syzygy tables, if any were loaded.
    pub tablebase: Option<&'a Tablebase<Chess>>,
    /// What earlier searches of this game learnt about move ordering;
    /// `None`: start afresh.
    pub learnt: Option<&'a Learnt>,
}

impl<'a> SearchContext<'a> {
    /// A context with no tablebases and nothing learnt yet; set the other
    /// fields with struct update syntax.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use rochade_engine::search::tt::TranspositionTable;
    /// use rochade_engine::search::{Learnt, SearchClock, SearchContext};
    /// let (tt, stop, clock) = (TranspositionTable::new(1), AtomicBool::new(false), SearchClock::new(false));
    /// let learnt = Learnt::default();
    /// let ctx = SearchContext {
    ///     learnt: Some(&learnt),
    ///     ..SearchContext::new(&tt, &stop, &clock)
    /// };
    /// assert!(ctx.tablebase.is_none());
    /// ```
    #[must_use]
    pub fn new(tt: &'a TranspositionTable, stop: &'a AtomicBool, clock: &'a SearchClock) -> Self {
        Self {
            tt,
            stop,
            clock,
            tablebase: None,
            learnt: None,
        }
    }
}

/// The move-ordering statistics (history, continuation histories,
/// counter-moves) that the main search thread hands on from one search to
/// the next of the same game, so each move's search starts with what the
/// last one learnt instead of from zero.
///
/// # Examples
///
/// ```
/// use rochade_engine::search::Learnt;
/// let learnt = Learnt::default();
/// learnt.clear(); // a new game
/// ```
#[derive(Debug, Default)]
pub struct Learnt(Mutex<Option<Box<Heuristics>>>);

impl Learnt {
    /// Forgets everything (for a new game).
    pub fn clear(&self) {
        *self.lock() = None;
    }

    /// The statistics for the next search, ready for its first ply.
    fn take(&self) -> Box<Heuristics> {
        let mut heuristics = self.lock().take().unwrap_or_default();
        heuristics.new_search();
        heuristics
    }

    /// Keeps what a search learnt for the next one.
    fn keep(&self, heuristics: Box<Heuristics>) {
        *self.lock() = Some(heuristics);
    }

    fn lock(&self) -> MutexGuard<'_, Option<Box<Heuristics>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Node and tablebase-hit counts that helper threads add to.
#[derive(Debug, Default)]
pub(crate) struct SharedCounts {
    nodes: AtomicU64,
    tbhits: AtomicU64,
}

/// The state of one running search thread.
pub(crate) struct Searcher<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    clock: &'a SearchClock,
    tablebase: Option<&'a Tablebase<Chess>>,
    limits: TimeLimits,
    start: Instant,
    nodes: u64,
    tbhits: u64,
    seldepth: usize,
    stopped: bool,
    /// Set during depth 1, which always completes.
    must_finish: bool,
    /// Keys of every position before the current one (game, then search path).
    path: Vec<u64>,
    heuristics: Box<Heuristics>,
    pv: Vec<Vec<Move>>,
    /// The move played at each ply of the current line (`None`: a null move).
    played: Vec<Option<Move>>,
    /// The static evaluation at each ply of the current line (`None` in check).
    evals: Vec<Option<i32>>,
    /// Root moves to search; empty: all.
    root_moves: Vec<Move>,
    /// Root moves already given a line of their own (MultiPV).
    excluded: Vec<Move>,
    /// The move each ply's singular-extension search leaves out, if one
    /// is running there.
    singular: Vec<Option<Move>>,
    /// The depth the current iteration started from at the root.
    root_depth: i32,
    /// Where a helper thread adds its counts; `None` for the main thread.
    shared: Option<&'a SharedCounts>,
    /// The network's accumulators along the current line; `None`: the
    /// classical evaluation.
    nnue: Option<Box<AccumulatorStack>>,
}

impl<'a> Searcher<'a> {
    fn new(
        ctx: &SearchContext<'a>,
        stop: &'a AtomicBool,
        history: Vec<u64>,
        limits: TimeLimits,
        heuristics: Box<Heuristics>,
        evaluation: Evaluation,
    ) -> Self {
        Self {
            tt: ctx.tt,
            stop,
            clock: ctx.clock,
            tablebase: ctx.tablebase,
            limits,
            start: Instant::now(),
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            stopped: false,
            must_finish: false,
            path: history,
            heuristics,
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            played: vec![None; MAX_PLY + 2],
            evals: vec![None; MAX_PLY + 2],
            root_moves: Vec::new(),
            excluded: Vec::new(),
            singular: vec![None; MAX_PLY + 2],
            root_depth: 0,
            shared: None,
            nnue: match evaluation {
                Evaluation::Network => Some(Box::new(AccumulatorStack::new(
                    crate::nnue::network(),
                    MAX_PLY + 1,
                ))),
                Evaluation::Classical => None,
            },
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the
    /// current line, for the side to move.
    #[inline]
    fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        match &mut self.nnue {
            Some(stack) => stack.evaluate(ply, pos),
            None => crate::eval::evaluate(pos),
        }
    }

    /// `m` played in `pos` at `ply`: the child position, with the
    /// network's accumulators told of the move.
    #[inline]
    fn play(&mut self, pos: &Chess, m: Move, ply: usize) -> Chess {
        if let Some(stack) = &mut self.nnue {
            stack.push(ply, pos, m);
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        child
    }

    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Counts a node and checks, every 1024 nodes, whether to stop.
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes.is_multiple_of(1024)
            && let Some(shared) = self.shared
        {
            shared.nodes.fetch_add(1024, Ordering::Relaxed);
        }
        if self.must_finish {
            return;
        }
        if self.nodes.is_multiple_of(1024) || self.limits.nodes.is_some() {
            let out_of_time = self.limits.hard.is_some_and(|hard| self.clock.past(hard));
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
    }

    /// Whether the root move `m` is to be searched in this line.
    fn searches_root_move(&self, m: Move) -> bool {
        (self.root_moves.is_empty() || self.root_moves.contains(&m)) && !self.excluded.contains(&m)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Searches the start position to `depth` with `learnt`.
    fn search_with(learnt: &Learnt, depth: u32) -> SearchOutcome {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let clock = SearchClock::new(false);
        let ctx = SearchContext {
            learnt: Some(learnt),
            ..SearchContext::new(&tt, &stop, &clock)
        };
        let params = SearchParams {
            limits: TimeLimits {
                depth: Some(depth),
                ..TimeLimits::default()
            },
            ..SearchParams::default()
        };
        search_in(params, &ctx, |_| {})
    }

    #[test]
    fn what_a_search_learnt_is_handed_to_the_next_until_a_new_game() {
        let learnt = Learnt::default();
        assert!(learnt.lock().is_none());
        let first = search_with(&learnt, 7);
        assert!(first.best.is_some());
        let memory = learnt.lock();
        let kept = memory.as_ref().expect("kept after the search");
        assert!(!kept.is_blank());
        drop(memory);
        // The next search starts from it and hands it on again.
        search_with(&learnt, 3);
        assert!(learnt.lock().as_ref().is_some_and(|h| !h.is_blank()));
        learnt.clear();
        assert!(learnt.lock().is_none());
    }
}
