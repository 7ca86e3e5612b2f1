//! Dead positions (5.2.2) and unwinnability for timeouts (6.9).
//!
//! A position is dead when neither player can checkmate the opponent by any
//! series of legal moves. That is much more than "insufficient material": a
//! queen next to a king that must take it, locked pawn walls, bishops all on
//! one colour and kings that can never get through count too.
//!
//! The method follows the published approach of Miguel Ambrona's Chess
//! Unwinnability Analyzer, in our own code (`docs/dead-positions.md`):
//!
//! 1. [`gate`]: a cheap verdict after every move, and on the positions one
//!    ply on when it cannot tell (a position is alive when a successor is). Material that can never
//!    mate on either side is dead at once; positions with free mating force
//!    on a board without blocked pawns across every file, where the side to
//!    move is not forced into captures, are alive. Everything else goes on.
//! 2. the search (`search`), for each player in turn: a helpmate search (both sides
//!    cooperate) that proves a player *can* mate by finding the line, and a
//!    closure over every reachable position that proves they *cannot* when it
//!    runs out of new positions without finding a mate. Both are bounded.
//!
//! Each player's answer is three-valued ([`Winnability`]). A position is
//! declared dead only when both players are proven unable to mate; when the
//! bounds are hit the answer is [`Verdict::Unknown`] and the game goes on.
//!
//! ```
//! use rochade_laws::dead::{self, Verdict, Winnability};
//! use rochade_laws::fen;
//! use shakmaty::Color;
//!
//! // A locked pawn wall with bishops that cannot break it (lichess ijyj0mHa).
//! let pos = fen::read("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 60")?.position;
//! assert_eq!(dead::can_checkmate(&pos, Color::Black), Winnability::Unwinnable);
//! assert_eq!(dead::can_checkmate(&pos, Color::White), Winnability::Winnable);
//!
//! // The black king must take the queen, leaving king against king.
//! let pos = fen::read("k7/1Q6/8/8/8/8/8/6K1 b - - 0 1")?.position;
//! assert_eq!(dead::analyse(&pos), Verdict::Dead);
//! # Ok::<_, rochade_laws::fen::FenError>(())
//! ```

mod gate;
mod search;

use shakmaty::{Chess, Color, Position};

pub(crate) use gate::endgame_quiet_step;
pub use gate::{Gate, gate};
pub use search::Budget;

/// Whether a player can still checkmate the opponent by some series of
/// legal moves (the opponent cooperating).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winnability {
    /// A helpmate exists (one was found).
    Winnable,
    /// No series of legal moves ends in checkmate by this player (proven).
    Unwinnable,
    /// The analysis ran out of its budget. Callers treat this as winnable:
    /// a game is never ended on an unproven claim.
    Unknown,
}

/// Whether a position is dead (5.2.2), as far as the analysis can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Neither player can checkmate by any series of legal moves (proven).
    Dead,
    /// At least one player can still checkmate (proven: by the gate or by a
    /// helpmate found).
    Alive,
    /// The analysis ran out of its budget without proving either; the game
    /// goes on.
    Unknown,
}

/// Whether `winner` can checkmate by any series of legal moves: the full
/// analysis, for a fallen flag (6.9), with [`Budget::FULL`].
///
/// # Examples
///
/// ```
/// use rochade_laws::dead::{self, Winnability};
/// use rochade_laws::fen;
/// use shakmaty::Color;
///
/// // A lone king cannot mate; king and two knights can, with help.
/// let pos = fen::read("8/8/4k3/8/8/3K4/8/nn6 w - - 0 1")?.position;
/// assert_eq!(dead::can_checkmate(&pos, Color::White), Winnability::Unwinnable);
/// assert_eq!(dead::can_checkmate(&pos, Color::Black), Winnability::Winnable);
/// # Ok::<_, rochade_laws::fen::FenError>(())
/// ```
pub fn can_checkmate(pos: &Chess, winner: Color) -> Winnability {
    search::winnability(pos, winner, &Budget::FULL)
}

/// [`can_checkmate`] with an explicit budget.
///
/// # Examples
///
/// ```
/// use rochade_laws::dead::{self, Budget, Winnability};
/// use rochade_laws::fen;
/// use shakmaty::Color;
///
/// // The king must take the rook: Black cannot mate, and White has no men.
/// let pos = fen::read("k7/1R6/8/8/8/8/8/6K1 b - - 0 1")?.position;
/// assert_eq!(
///     dead::can_checkmate_within(&pos, Color::White, &Budget::GAME),
///     Winnability::Unwinnable
/// );
/// # Ok::<_, rochade_laws::fen::FenError>(())
/// ```
pub fn can_checkmate_within(pos: &Chess, winner: Color, budget: &Budget) -> Winnability {
    search::winnability(pos, winner, budget)
}

/// The dead-position verdict on `pos` (5.2.2): the [`gate`] first, then, for
/// the positions it leaves open, the analysis of both players within
/// [`Budget::GAME`].
///
/// # Examples
///
/// ```
/// use rochade_laws::dead::{self, Verdict};
/// use rochade_laws::fen;
///
/// let start = fen::read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
/// assert_eq!(dead::analyse(&start.position), Verdict::Alive);
/// let bishops = fen::read("8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1")?; // both on dark squares
/// assert_eq!(dead::analyse(&bishops.position), Verdict::Dead);
/// # Ok::<_, rochade_laws::fen::FenError>(())
/// ```
pub fn analyse(pos: &Chess) -> Verdict {
    analyse_within(pos, &Budget::GAME)
}

/// [`analyse`] with an explicit budget for the positions the gate leaves open.
///
/// # Examples
///
/// ```
/// use rochade_laws::dead::{self, Budget, Verdict};
/// use rochade_laws::fen;
///
/// let wall = fen::read("8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6/8 w - - 0 50")?;
/// assert_eq!(dead::analyse_within(&wall.position, &Budget::FULL), Verdict::Dead);
/// # Ok::<_, rochade_laws::fen::FenError>(())
/// ```
pub fn analyse_within(pos: &Chess, budget: &Budget) -> Verdict {
    analyse_after_gate(pos, gate(pos), budget)
}

/// The verdict on `pos` when the gate has said `said`.
fn analyse_after_gate(pos: &Chess, said: Gate, budget: &Budget) -> Verdict {
    match said {
        Gate::Dead => return Verdict::Dead,
        Gate::Alive => return Verdict::Alive,
        Gate::Open => {}
    }
    // A position is alive when one of its successors is: one ply on, a
    // forced capture usually leaves enough for the gate.
    let moves = pos.legal_moves();
    if moves.iter().any(|m| {
        let mut child = pos.clone();
        child.play_unchecked(*m);
        gate(&child) == Gate::Alive
    }) {
        return Verdict::Alive;
    }
    // The side to move first: a forced capture usually decides its own
    // chances at once.
    let first = search::winnability(pos, pos.turn(), budget);
    if first == Winnability::Winnable {
        return Verdict::Alive;
    }
    let second = search::winnability(pos, !pos.turn(), budget);
    match (first, second) {
        (_, Winnability::Winnable) => Verdict::Alive,
        (Winnability::Unwinnable, Winnability::Unwinnable) => Verdict::Dead,
        _ => Verdict::Unknown,
    }
}

/// Whether the position is dead (5.2.2): neither player can checkmate by
/// any series of legal moves. [`Verdict::Unknown`] counts as not dead, so
/// `true` is always right.
///
/// # Examples
///
/// ```
/// use rochade_laws::{dead, fen};
///
/// let pos = fen::read("8/8/1k6/p1p1p1p1/P1P1P1P1/8/1K6/8 w - - 0 50")?.position;
/// assert!(dead::is_dead(&pos));
/// # Ok::<_, rochade_laws::fen::FenError>(())
/// ```
pub fn is_dead(pos: &Chess) -> bool {
    analyse(pos) == Verdict::Dead
}

/// [`is_dead`], told what [`endgame_quiet_step`] found (the game asks it
/// once after each move).
pub(crate) fn is_dead_knowing(pos: &Chess, quiet_step: Option<bool>) -> bool {
    let said = gate::gate_knowing(pos, quiet_step);
    analyse_after_gate(pos, said, &Budget::GAME) == Verdict::Dead
}

/// Whether the cheap [`gate`] leaves the position open (or finds it dead):
/// `false` means the position is alive and no search runs.
///
/// # Examples
///
/// ```
/// use rochade_laws::dead;
/// use shakmaty::Chess;
///
/// assert!(!dead::may_be_dead(&Chess::default()));
/// ```
pub fn may_be_dead(pos: &Chess) -> bool {
    gate(pos) != Gate::Alive
}

#[cfg(test)]
mod tests;
