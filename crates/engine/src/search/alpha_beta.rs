//! Principal variation search with a transposition table, reverse futility
//! and null-move pruning, internal iterative reductions, late-move
//! reductions and pruning, futility and exchange pruning, check extensions
//! and in-search draw detection.

use std::sync::LazyLock;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, MoveList, Position, Role};

use crate::params::{
    FUTILITY_MARGIN, FUTILITY_MARGIN_PER_DEPTH, FUTILITY_MAX_DEPTH, IIR_MIN_DEPTH, LMP_MAX_DEPTH,
    LMR_MIN_DEPTH, LMR_MIN_MOVES, NULL_MOVE_MIN_DEPTH, RFP_MARGIN, RFP_MAX_DEPTH,
    SEE_PRUNE_CAPTURE, SEE_PRUNE_MAX_DEPTH, SEE_PRUNE_QUIET, SINGULAR_MARGIN, SINGULAR_MIN_DEPTH,
    SINGULAR_TT_DEPTH,
};

use super::ordering::{COUNTER, HISTORY_MAX, Lineage, is_tactical, pick_next};
use super::see::see;
use super::tt::{Bound, Entry, PackedMove, Record};
use super::{MATE, MATE_BOUND, MAX_PLY, Searcher, hash};

/// The score of a draw.
const DRAW: i32 = 0;

impl Searcher<'_> {
    /// The score of `pos` searched to `depth` within `(alpha, beta)`; fills
    /// `self.pv[ply]` with the line found.
    pub(super) fn alpha_beta(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        if ply == 0
            && let Some(stack) = &mut self.nnue
        {
            stack.set_root(pos);
        }
        let in_check = pos.is_check();
        let mut depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(pos, key, alpha, beta, ply);
        }
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        let root = ply == 0;
        if root {
            self.root_depth = depth;
        }
        let pv_node = beta - alpha > 1;
        // Set while this node is searched without one move, to see whether
        // that move is singular.
        let excluded = self.singular[ply];

        if !root {
            if let Some(score) = self.draw_score(pos, key, in_check) {
                return score;
            }
            if ply >= MAX_PLY {
                return self.evaluate(pos, ply);
            }
            // Mate-distance pruning: no line here beats a shorter mate.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        if !root
            && let Some(tb) = self.tablebase
            && let Some(score) = super::tablebase::probe_wdl(tb, pos, ply)
        {
            self.tbhits += 1;
            return score;
        }

        let entry = self.tt.probe(key, ply);
        if let Some(e) = entry
            && !pv_node
            && excluded.is_none()
            && e.depth >= depth
            && e.settles(alpha, beta)
        {
            return e.score;
        }
        let hash_move = entry.and_then(|e| e.best);

        // The static evaluation, once per node; `eval` sharpens it with the
        // table's score when the bound says the true value lies beyond it.
        let static_eval = (!in_check).then(|| {
            entry
                .and_then(|e| e.eval)
                .unwrap_or_else(|| self.evaluate(pos, ply))
        });
        self.evals[ply] = static_eval;
        let improving = match (static_eval, ply.checked_sub(2).map(|p| self.evals[p])) {
            (Some(now), Some(Some(before))) => now > before,
            (Some(_), _) => true,
            (None, _) => false,
        };
        let eval = static_eval.map(|e| match entry {
            Some(t) if t.score.abs() < MATE_BOUND => match t.bound {
                Bound::Exact => t.score,
                Bound::Lower => e.max(t.score),
                Bound::Upper => e.min(t.score),
            },
            _ => e,
        });

        if !pv_node
            && excluded.is_none()
            && let Some(eval) = eval
        {
            if let Some(score) = reverse_futility(eval, depth, beta, improving) {
                return score;
            }
            if let Some(score) = self.try_null_move(pos, eval, depth, beta, ply, key) {
                return score;
            }
        }
        // Internal iterative reduction: without a hash move the ordering is
        // poor, and this node was not worth a table entry before.
        if hash_move.is_none() && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }

        let mut moves = pos.legal_moves();
        if root {
            moves.retain(|m| self.searches_root_move(*m));
        }
        if let Some(x) = excluded {
            moves.retain(|m| *m != x);
            if moves.is_empty() {
                // The left-out move is the only one: singular indeed.
                return alpha;
            }
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let singular = match entry {
            Some(e) if !root && excluded.is_none() => {
                self.singular_extension(pos, key, &moves, e, depth, beta, ply)
            }
            _ => Singular::No,
        };
        let singular_extension = match singular {
            Singular::Extend(m) => Some(m),
            Singular::Cut(score) => return score,
            Singular::No => None,
        };
        let white = pos.turn().is_white();
        let lineage = Lineage {
            previous: ply.checked_sub(1).and_then(|p| self.played[p]),
            before: ply.checked_sub(2).and_then(|p| self.played[p]),
        };
        let mut scores = self
            .heuristics
            .score_moves(pos, &moves, white, hash_move, lineage, ply);

        let original_alpha = alpha;
        let mut best_score = -MATE - 1;
        let mut best_move = None;
        let mut quiets = MoveList::new();
        self.path.push(key);
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            let order = scores[i];
            let tactical = is_tactical(m);
            let child = self.play(pos, m, ply);
            let gives_check = child.is_check();
            if !root
                && best_score > -MATE_BOUND
                && !gives_check
                && self.prunes(
                    pos,
                    m,
                    Prune {
                        depth,
                        pv_node,
                        in_check,
                        tactical,
                        improving,
                        eval,
                        alpha,
                        quiets: quiets.len(),
                    },
                )
            {
                continue;
            }
            self.played[ply] = Some(m);
            let child_key = pos
                .update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal)
                .map_or_else(|| hash(&child), |z| z.0);
            let reduction = if tactical || gives_check || in_check {
                0
            } else {
                late_move_reduction(i, order, depth, pv_node, improving, || {
                    self.heuristics.history(white, m, lineage)
                })
            };
            let extension = i32::from(singular_extension == Some(m));
            let child = (&child, child_key);
            let score = self.search_child(child, i, reduction, depth + extension, alpha, beta, ply);
            if self.stopped {
                self.path.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !tactical {
                            self.heuristics
                                .record_cutoff(white, m, lineage, ply, depth, &quiets);
                            if let Some(p) = lineage.previous {
                                self.heuristics.record_counter(!white, p, m);
                            }
                        }
                        break;
                    }
                }
            }
            if !tactical {
                quiets.push(m);
            }
        }
        self.path.pop();

        if excluded.is_none() && (!root || self.excluded.is_empty()) {
            let record = Record {
                best: best_move,
                score: best_score,
                depth,
                bound: Bound::of(best_score, original_alpha, beta),
                eval: static_eval,
            };
            self.tt.store(key, ply, record);
        }
        best_score
    }

    /// Singular extensions: whether the hash move, stored with `entry`, is
    /// the only good move here, to be searched a ply deeper. The node is
    /// searched to half depth without it, against a bar a little below the
    /// stored score: if nothing else reaches the bar, the move is singular;
    /// if even the bar is above `beta`, several moves refute the node and
    /// it is cut (multi-cut).
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        pos: &Chess,
        key: u64,
        moves: &MoveList,
        entry: Entry,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Singular {
        if depth < SINGULAR_MIN_DEPTH
            || entry.depth < depth - SINGULAR_TT_DEPTH
            || entry.bound == Bound::Upper
            || entry.score.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let Some(hash_move) = entry
            .best
            .and_then(|b| moves.iter().find(|m| PackedMove::new(**m) == b))
        else {
            return Singular::No;
        };
        let bar = entry.score - SINGULAR_MARGIN * depth;
        self.singular[ply] = Some(*hash_move);
        let score = self.alpha_beta(pos, key, (depth - 1) / 2, bar - 1, bar, ply);
        self.singular[ply] = None;
        if self.stopped {
            Singular::No
        } else if score < bar {
            Singular::Extend(*hash_move)
        } else if bar >= beta {
            Singular::Cut(bar)
        } else {
            Singular::No
        }
    }

    /// Whether to skip move `m` near the leaves without searching it:
    /// late-move pruning and futility pruning of quiet moves in quiet nodes,
    /// and pruning of moves that lose material by exchange.
    fn prunes(&self, pos: &Chess, m: Move, p: Prune) -> bool {
        if !p.pv_node && !p.in_check && !p.tactical {
            if p.depth <= LMP_MAX_DEPTH && p.quiets >= late_move_count(p.depth, p.improving) {
                return true;
            }
            if p.depth <= FUTILITY_MAX_DEPTH
                && p.eval.is_some_and(|e| {
                    e + FUTILITY_MARGIN + FUTILITY_MARGIN_PER_DEPTH * p.depth <= p.alpha
                })
            {
                return true;
            }
        }
        if p.depth <= SEE_PRUNE_MAX_DEPTH && !p.in_check {
            let threshold = if p.tactical {
                -SEE_PRUNE_CAPTURE * p.depth
            } else {
                -SEE_PRUNE_QUIET * p.depth * p.depth
            };
            if see(pos, m) < threshold {
                return true;
            }
        }
        false
    }

    /// Searches one child: the first move with the full window, later ones
    /// with a null window (shallower by `reduction`), re-searched on a
    /// surprise.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        (child, key): (&Chess, u64),
        index: usize,
        reduction: i32,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if index == 0 {
            return -self.alpha_beta(child, key, depth - 1, -beta, -alpha, ply + 1);
        }
        let mut score = -self.alpha_beta(
            child,
            key,
            depth - 1 - reduction,
            -alpha - 1,
            -alpha,
            ply + 1,
        );
        if score > alpha && reduction > 0 {
            score = -self.alpha_beta(child, key, depth - 1, -alpha - 1, -alpha, ply + 1);
        }
        if score > alpha && score < beta {
            score = -self.alpha_beta(child, key, depth - 1, -beta, -alpha, ply + 1);
        }
        score
    }

    /// Null-move pruning: if passing still leaves us above `beta`, a real
    /// move will too. Skipped without pieces (zugzwang).
    fn try_null_move(
        &mut self,
        pos: &Chess,
        eval: i32,
        depth: i32,
        beta: i32,
        ply: usize,
        key: u64,
    ) -> Option<i32> {
        if depth < NULL_MOVE_MIN_DEPTH || beta.abs() >= super::MATE_BOUND || eval < beta {
            return None;
        }
        // Two null moves in a row prove nothing.
        if ply > 0 && self.played[ply - 1].is_none() {
            return None;
        }
        let pieces = pos.us() & !pos.our(Role::Pawn) & !pos.our(Role::King);
        if pieces.is_empty() {
            return None;
        }
        let child = pos.clone().swap_turn().ok()?;
        if let Some(stack) = &mut self.nnue {
            stack.push_null(ply);
        }
        let reduction = 3 + depth / 3 + ((eval - beta) / 200).min(3);
        self.played[ply] = None;
        self.path.push(key);
        let score = -self.alpha_beta(
            &child,
            hash(&child),
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
        );
        self.path.pop();
        (!self.stopped && score >= beta).then_some(score)
    }

    /// A draw by repetition, the fifty-move rule or insufficient material.
    fn draw_score(&self, pos: &Chess, key: u64, in_check: bool) -> Option<i32> {
        let halfmoves = pos.halfmoves();
        if self.is_repetition(key, halfmoves) || pos.is_insufficient_material() {
            return Some(DRAW);
        }
        if halfmoves >= 100 && !(in_check && pos.legal_moves().is_empty()) {
            return Some(DRAW);
        }
        None
    }
}

/// Reverse futility pruning: near the leaves, a static evaluation far
/// enough above `beta` is taken as a cut-off without searching (a smaller
/// margin when the position is improving).
fn reverse_futility(eval: i32, depth: i32, beta: i32, improving: bool) -> Option<i32> {
    if depth > RFP_MAX_DEPTH || beta.abs() >= MATE_BOUND {
        return None;
    }
    (eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta).then_some(eval)
}

/// How many plies less to search a late quiet move (the `index`th tried,
/// with ordering score `order`; `history` gives its history score, read
/// only when the move is reduced at all): more the
/// later and deeper it is, less in PV nodes, for killers and counter-moves
/// and for moves with a good history, more when the position is not
/// improving.
fn late_move_reduction(
    index: usize,
    order: i32,
    depth: i32,
    pv_node: bool,
    improving: bool,
    history: impl FnOnce() -> i32,
) -> i32 {
    if depth < LMR_MIN_DEPTH || index < LMR_MIN_MOVES + usize::from(pv_node) {
        return 0;
    }
    let mut r = lmr_table(depth, index);
    r -= i32::from(pv_node);
    r += i32::from(!improving);
    if order >= COUNTER {
        r -= 1;
    }
    r -= history() / HISTORY_MAX;
    r.clamp(0, depth - 2)
}

/// Quiet moves searched at `depth` before late-move pruning starts.
fn late_move_count(depth: i32, improving: bool) -> usize {
    let n = 3 + depth * depth;
    (if improving { n } else { n / 2 + 1 }) as usize
}

/// What the singular-extension test found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Singular {
    /// The hash move is singular: search it a ply deeper.
    Extend(Move),
    /// Moves besides the hash move beat beta: the node is cut with this score.
    Cut(i32),
    /// Neither, or not tested.
    No,
}

/// What [`Searcher::prunes`] looks at besides the move.
#[derive(Debug, Clone, Copy)]
struct Prune {
    depth: i32,
    pv_node: bool,
    in_check: bool,
    tactical: bool,
    improving: bool,
    /// The static evaluation, `None` in check.
    eval: Option<i32>,
    alpha: i32,
    /// Quiet moves searched so far at this node.
    quiets: usize,
}

/// The base late-move reduction at `depth` for the `index`th move:
/// `0.75 + ln(depth) * ln(index) / 2.25`, rounded down.
fn lmr_table(depth: i32, index: usize) -> i32 {
    static TABLE: LazyLock<[[u8; 64]; 64]> = LazyLock::new(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25) as u8;
            }
        }
        t
    });
    i32::from(TABLE[(depth.max(0) as usize).min(63)][index.min(63)])
}
