//! One player's chances to mate (5.2.2, 6.9), decided by search.
//!
//! Two searches, both bounded:
//!
//! - the closure: every position reachable from this one, breadth first,
//!   without expanding those where the player has material that can never
//!   mate. If it runs out of new positions without meeting a mate by the
//!   player, no series of legal moves can lead to one: unwinnable, proven.
//!   Blockades, forced captures and checks that lead to bare kings close
//!   quickly.
//! - the helpmate search: depth first with iterative deepening, both sides
//!   cooperating, the player's captures and pawn moves and the opponent's
//!   king walk to a corner tried first. A mate found proves the player can
//!   mate.

use std::collections::{HashMap, HashSet};

use shakmaty::{
    Bitboard, Chess, Color, EnPassantMode, File, Move, Position, Rank, Role, Square,
    zobrist::Zobrist128,
};

use super::Winnability;

/// How much work one player's analysis may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Positions the first, small closure may hold before giving up.
    pub quick_closure: usize,
    /// Nodes of the helpmate search, over all its depths.
    pub helpmate_nodes: u64,
    /// Deepest helpmate searched, in plies.
    pub helpmate_depth: u32,
    /// Positions the last, large closure may hold before giving up.
    pub closure: usize,
}

impl Budget {
    /// After every move of a game: a few milliseconds at most, and only for
    /// the positions the gate leaves open.
    pub const GAME: Budget = Budget {
        quick_closure: 2_000,
        helpmate_nodes: 20_000,
        helpmate_depth: 24,
        closure: 100_000,
    };
    /// For a fallen flag (6.9) and for tests: up to a second or so.
    pub const FULL: Budget = Budget {
        quick_closure: 2_000,
        helpmate_nodes: 1_000_000,
        helpmate_depth: 40,
        closure: 2_000_000,
    };
}

/// Nodes of the first, quick helpmate search.
const QUICK_HELPMATE: u64 = 300;

/// Whether `winner` can mate from `pos`, within `budget`.
pub(super) fn winnability(pos: &Chess, winner: Color, budget: &Budget) -> Winnability {
    if pos.has_insufficient_material(winner) {
        return Winnability::Unwinnable;
    }
    // A rich position usually shows a helpmate at once; a poor or forced
    // one usually closes at once; then each with the whole budget.
    let first = Budget {
        helpmate_nodes: budget.helpmate_nodes.min(QUICK_HELPMATE),
        ..*budget
    };
    if helpmate(pos, winner, &first) == Some(true) {
        return Winnability::Winnable;
    }
    if let Some(answer) = closure(pos, winner, budget.quick_closure) {
        return answer;
    }
    match helpmate(pos, winner, budget) {
        Some(true) => return Winnability::Winnable,
        Some(false) => return Winnability::Unwinnable,
        None => {}
    }
    if budget.closure > budget.quick_closure
        && let Some(answer) = closure(pos, winner, budget.closure)
    {
        return answer;
    }
    Winnability::Unknown
}

/// The position's identity for repetition: placement, side to move,
/// castling rights and a legal en passant square.
fn key(pos: &Chess) -> u128 {
    pos.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0
}

/// Every position reachable from `pos`, breadth first: `Some(Winnable)` when
/// one is a mate by `winner`, `Some(Unwinnable)` when the set closes without
/// one, `None` past `limit` positions.
fn closure(pos: &Chess, winner: Color, limit: usize) -> Option<Winnability> {
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(key(pos));
    let mut frontier = vec![pos.clone()];
    let mut next = Vec::new();
    while !frontier.is_empty() {
        for here in frontier.drain(..) {
            if here.has_insufficient_material(winner) {
                continue;
            }
            let moves = here.legal_moves();
            if moves.is_empty() {
                if here.turn() != winner && here.is_check() {
                    return Some(Winnability::Winnable);
                }
                continue;
            }
            for m in &moves {
                let mut child = here.clone();
                child.play_unchecked(*m);
                if seen.insert(key(&child)) {
                    if seen.len() > limit {
                        return None;
                    }
                    next.push(child);
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
    }
    Some(Winnability::Unwinnable)
}

/// How a move counts against the helpmate search's depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Progress towards the mating pattern: free, and so is the next ply.
    Progress,
    /// An ordinary move: one ply.
    Ply,
    /// Away from the pattern (the loser captures or pushes a pawn): four plies.
    Detour,
}

/// The helpmate search's state.
struct Helpmate {
    /// The player who is to mate.
    winner: Color,
    /// The corner where the loser's king is to be mated.
    corner: Square,
    /// Where the winner's king helps: two squares from the corner, diagonally.
    king_post: Square,
    /// Where the winner's knights help: three squares from the corner.
    knight_post: Square,
    /// Nodes left.
    nodes: u64,
    /// Plies searched without a mate from a position, by its key.
    table: HashMap<u128, u32>,
    /// Whether a branch was cut by the depth of this iteration.
    cut: bool,
    /// Plies from the root.
    line: u32,
}

/// Iterative deepening helpmate search: `Some(true)` when a mate by
/// `winner` is found, `Some(false)` when an iteration ends without cutting
/// any line (no mate at any depth), `None` when the budget runs out.
fn helpmate(pos: &Chess, winner: Color, budget: &Budget) -> Option<bool> {
    let board = pos.board();
    let loser_king = board.king_of(!winner)?;
    let corner = mating_corner(pos, winner, loser_king);
    let inward = |steps: i32| {
        let file = corner.file().to_u32() as i32;
        let rank = corner.rank().to_u32() as i32;
        let df = if file == 0 { steps } else { -steps };
        let dr = if rank == 0 { steps } else { -steps };
        Square::from_coords(File::new((file + df) as u32), Rank::new((rank + dr) as u32))
    };
    let mut search = Helpmate {
        winner,
        corner,
        king_post: inward(2),
        knight_post: inward(3),
        nodes: budget.helpmate_nodes,
        table: HashMap::new(),
        cut: false,
        line: 0,
    };
    for depth in 1..=budget.helpmate_depth {
        search.cut = false;
        search.table.clear();
        match search.node(pos, depth, false) {
            Some(true) => return Some(true),
            Some(false) if !search.cut => return Some(false),
            Some(false) => {}
            None => return None,
        }
    }
    None
}

/// The corner for the loser's king: of the colour of the winner's bishops
/// if the winner has bishops of one colour only (a bishop's check needs
/// it), else the one nearest to the loser's king.
fn mating_corner(pos: &Chess, winner: Color, king: Square) -> Square {
    let bishops = pos.board().bishops() & pos.board().by_color(winner);
    let dark = (bishops & Bitboard::DARK_SQUARES).any();
    let light = (bishops & Bitboard::LIGHT_SQUARES).any();
    let nearest = corner(king);
    if dark == light || nearest.is_dark() == dark {
        return nearest;
    }
    // The nearest corner of the other colour: the same rank, other side.
    let file = if nearest.file() == File::A {
        File::H
    } else {
        File::A
    };
    Square::from_coords(file, nearest.rank())
}

impl Helpmate {
    /// Whether a mate by the winner is reachable within `depth` plies of
    /// `pos`; `None` when the nodes run out. `free` when the move before was
    /// progress.
    fn node(&mut self, pos: &Chess, depth: u32, free: bool) -> Option<bool> {
        if pos.has_insufficient_material(self.winner) {
            return Some(false);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Some(pos.turn() != self.winner && pos.is_check());
        }
        if depth == 0 || self.line >= 128 {
            self.cut = true;
            return Some(false);
        }
        let key = key(pos);
        if self
            .table
            .get(&key)
            .is_some_and(|&searched| searched >= depth)
        {
            // Searched as deep before without a mate; a cut then may hide
            // a mate further on.
            self.cut = true;
            return Some(false);
        }
        self.table.insert(key, depth);
        let mut ordered: Vec<(Step, Move)> =
            moves.iter().map(|m| (self.step(pos, m), *m)).collect();
        ordered.sort_by_key(|(step, _)| *step as u8);
        for (step, m) in ordered {
            if self.nodes == 0 {
                return None;
            }
            self.nodes -= 1;
            let mut child = pos.clone();
            child.play_unchecked(m);
            let cost = match step {
                Step::Progress => 0,
                Step::Ply => u32::from(!free),
                Step::Detour => 4,
            };
            self.line += 1;
            let found = self.node(&child, depth.saturating_sub(cost), step == Step::Progress);
            self.line -= 1;
            if found? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// How a move counts: the winner's captures, pawn moves and approaches
    /// of its king and knights to their posts are progress; so are the
    /// loser's king and knights walking to the corner. The loser's captures
    /// and pawn moves are detours.
    fn step(&self, pos: &Chess, m: &Move) -> Step {
        let to = m.to();
        let Some(from) = m.from() else {
            return Step::Ply;
        };
        let approaches = |target: Square| to.distance(target) < from.distance(target);
        if pos.turn() == self.winner {
            let progress = m.is_capture()
                || m.role() == Role::Pawn
                || (m.role() == Role::King && approaches(self.king_post))
                || (m.role() == Role::Knight && approaches(self.knight_post));
            if progress { Step::Progress } else { Step::Ply }
        } else if m.is_capture() || m.role() == Role::Pawn {
            Step::Detour
        } else if matches!(m.role(), Role::King | Role::Knight) && approaches(self.corner) {
            Step::Progress
        } else {
            Step::Ply
        }
    }
}

/// The corner nearest to `square`.
fn corner(square: Square) -> Square {
    let file = if square.file() < File::E {
        File::A
    } else {
        File::H
    };
    let rank = if square.rank() < Rank::Fifth {
        Rank::First
    } else {
        Rank::Eighth
    };
    Square::from_coords(file, rank)
}
