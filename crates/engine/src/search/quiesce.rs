//! Quiescence search: captures and promotions only (all moves in check),
//! ordered by MVV-LVA, so the static evaluation is never taken mid-exchange.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, MoveList, Position, Role};

use crate::params::{DELTA_MARGIN, piece_value};

use super::ordering::{is_tactical, mvv_lva};
use super::see::see;
use super::tt::{Bound, Record};
use super::{MATE, MAX_PLY, Searcher, hash};

impl Searcher<'_> {
    /// The quiescence score of `pos` within `(alpha, beta)`.
    pub(super) fn quiesce(
        &mut self,
        pos: &Chess,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        // Any stored search of this position that settles the window; its
        // static evaluation, if it has one, saves evaluating again. (A
        // stand-pat cut-off is not stored: storing those too measured no
        // better.)
        let entry = self.tt.probe(key, ply);
        if let Some(e) = entry
            && e.settles(alpha, beta)
        {
            return e.score;
        }
        // In check every move is searched and there is no standing pat.
        let (stand_pat, mut moves): (i32, MoveList) = if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            (-MATE, moves)
        } else {
            let stand_pat = entry
                .and_then(|e| e.eval)
                .unwrap_or_else(|| self.evaluate(pos, ply));
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            let mut moves = pos.capture_moves();
            moves.extend(
                pos.promotion_moves()
                    .into_iter()
                    .filter(|m| !m.is_capture() && m.promotion() == Some(Role::Queen)),
            );
            (stand_pat, moves)
        };
        moves.sort_by_key(|&m| if is_tactical(m) { -mvv_lva(m) } else { 0 });
        let original_alpha = alpha;
        let mut best = if in_check { -MATE + ply as i32 } else { alpha };
        let mut best_move = None;
        for m in moves {
            if !in_check {
                // Delta pruning: even winning the victim for free does not
                // reach alpha.
                let gain = m.capture().map_or(0, piece_value)
                    + m.promotion()
                        .map_or(0, |r| piece_value(r) - piece_value(Role::Pawn));
                if stand_pat + gain + DELTA_MARGIN <= alpha || see(pos, m) < 0 {
                    continue;
                }
            }
            let child_key = pos
                .update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal)
                .map(|z| z.0);
            let child = self.play(pos, m, ply);
            let child_key = child_key.unwrap_or_else(|| hash(&child));
            let score = -self.quiesce(&child, child_key, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Depth 0: it settles later quiescence searches, no deeper search.
        let record = Record {
            best: best_move,
            score: best,
            depth: 0,
            bound: Bound::of(best, original_alpha, beta),
            eval: (!in_check).then_some(stand_pat),
        };
        self.tt.store(key, ply, record);
        best
    }
}
