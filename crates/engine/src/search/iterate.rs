//! Iterative deepening with aspiration windows.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::{Move, Position};

use crate::params::{ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};

use super::tt::TranspositionTable;
use super::{INFINITY, MATE_BOUND, MAX_DEPTH, Score, SearchParams, Searcher};

/// What one finished iteration found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IterationReport {
    /// The nominal depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

/// The result of a whole search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` only if there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The last completed iteration's depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// Searches `params.pos` until a limit is hit or `stop` is set, calling
/// `on_iteration` after each completed depth. Depth 1 always completes, so
/// there is a move to play whenever one exists.
pub fn search(
    params: SearchParams,
    tt: &mut TranspositionTable,
    stop: &AtomicBool,
    mut on_iteration: impl FnMut(&IterationReport),
) -> SearchOutcome {
    tt.new_search();
    let pos = params.pos;
    let legal = pos.legal_moves();
    let mut searcher = Searcher::new(tt, stop, params.history, params.limits);
    let mut outcome = SearchOutcome {
        best: legal.first().copied(),
        ponder: None,
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    if legal.is_empty() {
        return outcome;
    }
    let max_depth = params.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut previous = 0;
    for depth in 1..=max_depth {
        searcher.must_finish = depth == 1;
        let score = aspiration(&mut searcher, &pos, depth, previous);
        if searcher.stopped {
            break;
        }
        previous = score;
        let pv = searcher.pv[0].clone();
        if let Some(&best) = pv.first() {
            outcome.best = Some(best);
            outcome.ponder = pv.get(1).copied();
        }
        outcome.depth = depth;
        on_iteration(&IterationReport {
            depth,
            seldepth: searcher.seldepth as u32,
            score: Score::from_internal(score),
            nodes: searcher.nodes,
            time: searcher.elapsed(),
            pv,
            hashfull: searcher.tt.hashfull(),
        });
        let past_soft = params
            .limits
            .soft
            .is_some_and(|soft| searcher.elapsed() >= soft);
        let mate_found = score.abs() >= MATE_BOUND && depth >= 4;
        if past_soft || (mate_found && params.limits.is_timed()) {
            break;
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
    }
    outcome.nodes = searcher.nodes;
    outcome.elapsed = searcher.elapsed();
    outcome
}

/// One iteration: a window around the previous score, widened on failure.
fn aspiration(
    searcher: &mut Searcher<'_>,
    pos: &shakmaty::Chess,
    depth: u32,
    previous: i32,
) -> i32 {
    let depth_i = depth as i32;
    if depth < ASPIRATION_MIN_DEPTH || previous.abs() >= MATE_BOUND {
        return searcher.alpha_beta(pos, depth_i, -INFINITY, INFINITY, 0);
    }
    let mut window = ASPIRATION_WINDOW;
    let mut alpha = previous - window;
    let mut beta = previous + window;
    loop {
        let score = searcher.alpha_beta(pos, depth_i, alpha, beta, 0);
        if searcher.stopped {
            return score;
        }
        if score <= alpha {
            alpha = (alpha - window).max(-INFINITY);
        } else if score >= beta {
            beta = (beta + window).min(INFINITY);
        } else {
            return score;
        }
        window *= 2;
        if window > 1000 {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}
