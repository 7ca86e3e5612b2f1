//! Quiescence search: captures and promotions only (all moves in check),
//! ordered by MVV-LVA, so the static evaluation is never taken mid-exchange.

use shakmaty::{Chess, MoveList, Position, Role};

use crate::eval::evaluate;

use super::ordering::{is_tactical, mvv_lva};
use super::see::see;
use super::{MATE, MAX_PLY, Searcher};

impl Searcher<'_> {
    /// The quiescence score of `pos` within `(alpha, beta)`.
    pub(super) fn quiesce(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.visit(ply);
        if self.stopped {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { evaluate(pos) };
        }
        let mut moves: MoveList = if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            moves
        } else {
            let stand_pat = evaluate(pos);
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
            moves
        };
        moves.sort_by_key(|&m| if is_tactical(m) { -mvv_lva(m) } else { 0 });
        let mut best = if in_check { -MATE + ply as i32 } else { alpha };
        for m in moves {
            if !in_check && see(pos, m) < 0 {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
