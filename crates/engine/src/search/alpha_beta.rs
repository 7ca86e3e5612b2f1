//! Principal variation search with a transposition table, null-move pruning,
//! late-move reductions, check extensions and in-search draw detection.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role};

use crate::eval::evaluate;
use crate::params::{
    LMP_MAX_DEPTH, LMR_MIN_DEPTH, LMR_MIN_MOVES, NULL_MOVE_MIN_DEPTH, RFP_MARGIN, RFP_MAX_DEPTH,
};

use super::ordering::{is_tactical, pick_next};
use super::tt::Bound;
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
        let in_check = pos.is_check();
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;

        if !root {
            if let Some(score) = self.draw_score(pos, key, in_check) {
                return score;
            }
            if ply >= MAX_PLY {
                return evaluate(pos);
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
            && e.depth >= depth
        {
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if usable {
                return e.score;
            }
        }
        let hash_move = entry.and_then(|e| e.best);

        if !pv_node && !in_check {
            if let Some(score) = reverse_futility(pos, depth, beta) {
                return score;
            }
            if let Some(score) = self.try_null_move(pos, depth, beta, ply, key) {
                return score;
            }
        }

        let mut moves = pos.legal_moves();
        if root {
            moves.retain(|m| self.searches_root_move(*m));
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let white = pos.turn().is_white();
        let previous = ply.checked_sub(1).and_then(|p| self.played[p]);
        let counter = previous.and_then(|p| self.heuristics.counter_to(!white, p));
        let mut scores = self
            .heuristics
            .score_moves(&moves, white, hash_move, counter, ply);
        let prune_late = !pv_node && !in_check && depth <= LMP_MAX_DEPTH;

        let original_alpha = alpha;
        let mut best_score = -MATE - 1;
        let mut best_move = None;
        self.path.push(key);
        for i in 0..moves.len() {
            let m = pick_next(&mut moves, &mut scores, i);
            let mut child = pos.clone();
            child.play_unchecked(m);
            // Late-move pruning: in a quiet node near the leaves, late quiet
            // moves that give no check are not worth a look.
            if prune_late
                && i >= late_move_count(depth)
                && best_score > -MATE_BOUND
                && !is_tactical(m)
                && !child.is_check()
            {
                continue;
            }
            self.played[ply] = Some(m);
            let child_key = pos
                .update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal)
                .map_or_else(|| hash(&child), |z| z.0);
            let child = (&child, child_key);
            let score = self.search_child(child, m, i, depth, alpha, beta, ply, in_check);
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
                        if !is_tactical(m) {
                            self.heuristics.record_cutoff(white, m, ply, depth);
                            if let Some(p) = previous {
                                self.heuristics.record_counter(!white, p, m);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();

        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !root || self.excluded.is_empty() {
            self.tt.store(key, best_move, best_score, depth, bound, ply);
        }
        best_score
    }

    /// Searches one child: the first move with the full window, later ones
    /// with a null window (reduced if late and quiet), re-searched on a
    /// surprise.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        (child, key): (&Chess, u64),
        m: Move,
        index: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        if index == 0 {
            return -self.alpha_beta(child, key, depth - 1, -beta, -alpha, ply + 1);
        }
        let reduction = self.late_move_reduction(child, m, index, depth, in_check);
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

    /// How many plies less to search a late quiet move.
    fn late_move_reduction(
        &self,
        child: &Chess,
        m: Move,
        index: usize,
        depth: i32,
        in_check: bool,
    ) -> i32 {
        if depth < LMR_MIN_DEPTH
            || index < LMR_MIN_MOVES
            || in_check
            || is_tactical(m)
            || child.is_check()
        {
            return 0;
        }
        if index >= 12 && depth >= 6 { 2 } else { 1 }
    }

    /// Null-move pruning: if passing still leaves us above `beta`, a real
    /// move will too. Skipped without pieces (zugzwang).
    fn try_null_move(
        &mut self,
        pos: &Chess,
        depth: i32,
        beta: i32,
        ply: usize,
        key: u64,
    ) -> Option<i32> {
        if depth < NULL_MOVE_MIN_DEPTH || beta.abs() >= super::MATE_BOUND {
            return None;
        }
        let pieces = pos.us() & !pos.our(Role::Pawn) & !pos.our(Role::King);
        if pieces.is_empty() || evaluate(pos) < beta {
            return None;
        }
        let child = pos.clone().swap_turn().ok()?;
        let reduction = 3 + depth / 6;
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
/// enough above `beta` is taken as a cut-off without searching.
fn reverse_futility(pos: &Chess, depth: i32, beta: i32) -> Option<i32> {
    if depth > RFP_MAX_DEPTH || beta.abs() >= MATE_BOUND {
        return None;
    }
    let eval = evaluate(pos);
    (eval - RFP_MARGIN * depth >= beta).then_some(eval)
}

/// Quiet moves searched at `depth` before late-move pruning starts.
fn late_move_count(depth: i32) -> usize {
    (3 + depth * depth) as usize
}
