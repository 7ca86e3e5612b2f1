//! Syzygy endgame tablebases in the search: WDL at interior nodes reached
//! by a capture or pawn move, DTZ at the root to pick the move.

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

use super::TB_WIN;

/// Whether the tables can answer for `pos`: few enough pieces and no
/// castling rights.
fn in_tables(tb: &Tablebase<Chess>, pos: &Chess) -> bool {
    pos.castles().is_empty() && pos.board().occupied().count() <= tb.max_pieces()
}

/// The score for the side to move of a tablebase result `ply` plies from
/// the root: wins and losses just inside the mate bounds, nearer ones
/// larger; wins or losses spoilt by the fifty-move rule count as draws.
fn wdl_score(signum: i32, decisive: bool, ply: usize) -> i32 {
    if decisive {
        signum * (TB_WIN - ply as i32)
    } else {
        0
    }
}

/// The WDL score of `pos`, which was just reached by a capture or a pawn
/// move (so the fifty-move counter is 0), if the tables hold it.
pub(super) fn probe_wdl(tb: &Tablebase<Chess>, pos: &Chess, ply: usize) -> Option<i32> {
    if pos.halfmoves() != 0 || !in_tables(tb, pos) {
        return None;
    }
    let wdl = tb.probe_wdl_after_zeroing(pos).ok()?;
    let decisive = matches!(wdl, Wdl::Win | Wdl::Loss);
    Some(wdl_score(wdl.signum(), decisive, ply))
}

/// The tablebase move at the root and its score, if the tables hold `pos`.
/// The move keeps the best outcome under the fifty-move rule.
pub(super) fn root_move(tb: &Tablebase<Chess>, pos: &Chess) -> Option<(Move, i32)> {
    if !in_tables(tb, pos) {
        return None;
    }
    let (m, _dtz) = tb.best_move(pos).ok()??;
    let wdl = tb.probe_wdl(pos).ok()?;
    let decisive = matches!(wdl, AmbiguousWdl::Win | AmbiguousWdl::Loss);
    Some((m, wdl_score(wdl.signum(), decisive, 0)))
}
