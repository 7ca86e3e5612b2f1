//! Iterative deepening with aspiration windows, MultiPV at the root, and
//! Lazy SMP helper threads sharing the transposition table.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use shakmaty::{Chess, Move, Position};

use crate::params::{ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW};

use super::strength::choose_line;
use super::tt::TranspositionTable;
use crate::robot::Level;

use super::{
    Effort, Evaluation, INFINITY, Learnt, MATE_BOUND, MAX_DEPTH, Score, SearchClock, SearchContext,
    SearchParams, Searcher, SharedCounts, tablebase,
};

/// What one finished iteration found for one root line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IterationReport {
    /// The nominal depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Which line this is, from 1 (best first).
    pub multipv: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes searched so far in this search, all threads.
    pub nodes: u64,
    /// Tablebase probes that found an answer.
    pub tbhits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

/// One line at the root: its score (internal units) and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootLine {
    /// The score for the side to move, in centipawns or internal mate units.
    pub score: i32,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Move>,
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
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The lines of the last completed iteration, best first.
    pub lines: Vec<RootLine>,
}

/// Searches `params.pos` on one thread with a fresh clock, until a limit is
/// hit or `stop` is set; see [`search_in`].
pub fn search(
    params: SearchParams,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    on_iteration: impl FnMut(&IterationReport),
) -> SearchOutcome {
    let clock = SearchClock::new(false);
    search_in(params, &SearchContext::new(tt, stop, &clock), on_iteration)
}

/// Searches `params.pos` until a limit is hit or `ctx.stop` is set, calling
/// `on_iteration` for each line of each completed depth. Depth 1 always
/// completes, so there is a move to play whenever one exists. An infinite
/// or pondering search does not return before `stop` (or the ponder hit),
/// as UCI asks. Below full strength the move is drawn among the lines
/// (see [`super::strength`]).
pub fn search_in(
    mut params: SearchParams,
    ctx: &SearchContext<'_>,
    on_iteration: impl FnMut(&IterationReport),
) -> SearchOutcome {
    ctx.tt.new_search();
    let strength = params.level.strength();
    if params.level != Level::MAX {
        params.evaluation = Evaluation::Classical;
    }
    params.limits.depth = min_option(params.limits.depth, strength.depth);
    params.limits.nodes = min_option(params.limits.nodes, strength.nodes);
    params.multipv = params.multipv.max(strength.multipv).max(1);
    if let Some(n) = params.mate {
        params.limits.depth = min_option(params.limits.depth, Some(2 * n + 1));
    }
    let mut outcome = if params.threads <= 1 {
        main_thread(&params, ctx, None, on_iteration)
    } else {
        with_helpers(&params, ctx, on_iteration)
    };
    if strength.temperature > 0 && outcome.lines.len() > 1 {
        let mut rng = params
            .seed
            .map_or_else(|| StdRng::from_rng(&mut rand::rng()), StdRng::seed_from_u64);
        let line = &outcome.lines[choose_line(&strength, &outcome.lines, &mut rng)];
        outcome.best = line.pv.first().copied();
        outcome.ponder = line.pv.get(1).copied();
    }
    while !ctx.stop.load(Ordering::SeqCst) && (params.limits.infinite || ctx.clock.is_pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
    outcome
}

/// The smaller of two optional caps.
fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The main thread plus `threads - 1` helpers; the helpers stop when the
/// main thread is done.
fn with_helpers(
    params: &SearchParams,
    ctx: &SearchContext<'_>,
    on_iteration: impl FnMut(&IterationReport),
) -> SearchOutcome {
    let helpers_stop = AtomicBool::new(false);
    let counts = SharedCounts::default();
    std::thread::scope(|scope| {
        for id in 1..params.threads {
            let (helpers_stop, counts) = (&helpers_stop, &counts);
            scope.spawn(move || helper_thread(id, params, ctx, helpers_stop, counts));
        }
        let outcome = main_thread(params, ctx, Some(&counts), on_iteration);
        helpers_stop.store(true, Ordering::SeqCst);
        outcome
    })
}

/// A Lazy SMP helper: the same iterative deepening with no reports, odd
/// helpers one ply ahead, so the threads spread over depths and fill the
/// shared table for each other.
fn helper_thread(
    id: usize,
    params: &SearchParams,
    ctx: &SearchContext<'_>,
    stop: &AtomicBool,
    counts: &SharedCounts,
) {
    let limits = crate::time::TimeLimits::default();
    let heuristics = Box::default();
    let mut searcher = Searcher::new(
        ctx,
        stop,
        params.history.clone(),
        limits,
        heuristics,
        params.evaluation,
    );
    searcher.shared = Some(counts);
    searcher.root_moves.clone_from(&params.searchmoves);
    let mut previous = 0;
    for depth in (1 + (id % 2) as u32)..=MAX_DEPTH {
        let score = aspiration(&mut searcher, &params.pos, depth, previous);
        if searcher.stopped {
            break;
        }
        previous = score;
    }
    counts
        .nodes
        .fetch_add(searcher.nodes % 1024, Ordering::Relaxed);
    counts.tbhits.fetch_add(searcher.tbhits, Ordering::Relaxed);
}

/// The thread that reports, decides when to stop, and gives the outcome.
fn main_thread(
    params: &SearchParams,
    ctx: &SearchContext<'_>,
    helpers: Option<&SharedCounts>,
    mut on_iteration: impl FnMut(&IterationReport),
) -> SearchOutcome {
    let pos = &params.pos;
    let legal = pos.legal_moves();
    let root_count = if params.searchmoves.is_empty() {
        legal.len()
    } else {
        params.searchmoves.len()
    };
    let heuristics = ctx.learnt.map_or_else(Box::default, Learnt::take);
    let mut searcher = Searcher::new(
        ctx,
        ctx.stop,
        params.history.clone(),
        params.limits,
        heuristics,
        params.evaluation,
    );
    searcher.root_moves.clone_from(&params.searchmoves);
    let mut outcome = SearchOutcome {
        best: params.searchmoves.first().or(legal.first()).copied(),
        ponder: None,
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        lines: Vec::new(),
    };
    if legal.is_empty() {
        return outcome;
    }
    let total = |s: &Searcher<'_>| {
        let extra = helpers.map_or((0, 0), |h| {
            (
                h.nodes.load(Ordering::Relaxed),
                h.tbhits.load(Ordering::Relaxed),
            )
        });
        (s.nodes + extra.0, s.tbhits + extra.1)
    };
    if params.multipv == 1
        && params.searchmoves.is_empty()
        && let Some(tb) = ctx.tablebase
        && let Some((m, score)) = tablebase::root_move(tb, pos)
    {
        let line = RootLine { score, pv: vec![m] };
        report(&mut on_iteration, &searcher, 1, 0, &line, (1, 1));
        outcome.best = Some(m);
        outcome.depth = 1;
        outcome.lines = vec![line];
        return outcome;
    }
    let max_depth = params.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let lines_wanted = params.multipv.min(root_count);
    let mut previous: Vec<i32> = Vec::new();
    let mut effort = Effort::default();
    for depth in 1..=max_depth {
        searcher.must_finish = depth == 1;
        searcher.excluded.clear();
        let mut lines = Vec::with_capacity(lines_wanted);
        for k in 0..lines_wanted {
            let guess = previous.get(k).or(previous.last()).copied().unwrap_or(0);
            let score = aspiration(&mut searcher, pos, depth, guess);
            if searcher.stopped {
                break;
            }
            let pv = searcher.pv[0].clone();
            let Some(&first) = pv.first() else { break };
            searcher.excluded.push(first);
            lines.push(RootLine { score, pv });
        }
        if searcher.stopped || lines.is_empty() {
            break;
        }
        lines.sort_by_key(|l| -l.score);
        previous = lines.iter().map(|l| l.score).collect();
        outcome.best = lines[0].pv.first().copied();
        outcome.ponder = lines[0].pv.get(1).copied();
        outcome.depth = depth;
        let counts = total(&searcher);
        for (k, line) in lines.iter().enumerate() {
            report(&mut on_iteration, &searcher, depth, k, line, counts);
        }
        let best = lines[0].score;
        outcome.lines = lines;
        if let Some(first) = outcome.best {
            effort.iteration(depth, first, best);
        }
        let past_soft = params.limits.soft.is_some_and(|soft| {
            let hard = params.limits.hard.unwrap_or(soft);
            ctx.clock.past(effort.soft(soft, hard))
        });
        let mate_found = best.abs() >= MATE_BOUND && depth >= 4;
        let mate_target = params.mate.is_some_and(
            |n| matches!(Score::from_internal(best), Score::Mate(m) if m > 0 && m <= n as i32),
        );
        let forced = root_count == 1 && depth >= 2;
        if past_soft || mate_target || ((mate_found || forced) && params.limits.is_timed()) {
            break;
        }
        if ctx.stop.load(Ordering::Relaxed) {
            break;
        }
    }
    (outcome.nodes, _) = total(&searcher);
    outcome.elapsed = searcher.elapsed();
    if let Some(learnt) = ctx.learnt {
        learnt.keep(searcher.heuristics);
    }
    outcome
}

/// Hands one line of a completed depth to the caller.
fn report(
    on_iteration: &mut impl FnMut(&IterationReport),
    searcher: &Searcher<'_>,
    depth: u32,
    index: usize,
    line: &RootLine,
    (nodes, tbhits): (u64, u64),
) {
    on_iteration(&IterationReport {
        depth,
        seldepth: searcher.seldepth as u32,
        multipv: index as u32 + 1,
        score: Score::from_internal(line.score),
        nodes,
        tbhits,
        time: searcher.elapsed(),
        pv: line.pv.clone(),
        hashfull: searcher.tt.hashfull(),
    });
}

/// One iteration: a window around the previous score, widened on failure.
fn aspiration(searcher: &mut Searcher<'_>, pos: &Chess, depth: u32, previous: i32) -> i32 {
    let depth_i = depth as i32;
    if depth < ASPIRATION_MIN_DEPTH || previous.abs() >= MATE_BOUND {
        return searcher.alpha_beta(pos, super::hash(pos), depth_i, -INFINITY, INFINITY, 0);
    }
    let mut window = ASPIRATION_WINDOW;
    let mut alpha = previous - window;
    let mut beta = previous + window;
    loop {
        let score = searcher.alpha_beta(pos, super::hash(pos), depth_i, alpha, beta, 0);
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
